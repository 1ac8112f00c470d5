"""Reading a state: the scenario format of RULES 8, or a game saved by :meth:`Game.to_dict`.

:func:`read_state` checks a state completely and gives a :class:`StateRecord`, a frozen record of
plain values; every problem raises :class:`EngineError` with a message that names it, before any
game exists. :meth:`Game.from_record` builds the game from the record. This module knows the
format, not the rules of play, so it needs nothing of :mod:`engine.game`.

>>> record = read_state(
...     {"players": 2, "pyramid": {"0,0": "Y2"}, "hands": [["R4"], ["B6"]], "piles": [[], []],
...      "active": 1}
... )
>>> record.players, dict(record.pyramid), record.hands, record.saved
(2, {(0, 0): 'Y2'}, (('R4',), ('B6',)), None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from engine.model import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    BadStateError,
    EngineError,
    Event,
    PendingKind,
    Pos,
    parse_pos,
    pos_str,
)
from engine.tiles import INCENDIARY, TILE_SET

STATE_VERSION: Final = 1
"""The version of the saved-game keys; a saved state of another version is refused."""

SCENARIO_KEYS: Final = frozenset(
    {"players", "options", "pyramid", "hands", "piles", "removed", "active", "actions"}
)
"""The keys of a scenario (RULES 8); ``actions`` only where a scenario is run."""
OUTPUT_KEYS: Final = frozenset({"pending", "winner", "events"})
"""The keys ``python -m engine run`` adds, so that its output can be read back."""
SAVED_KEYS: Final = frozenset(
    {
        "version",
        "seed",
        "rng",
        "round",
        "rounds",
        "scores",
        "turn",
        "winner",
        "responsible",
        "placed",
        "rolled",
        "die_pair",
        "pending",
        "turn_events",
        "hidden_piles",
        "seen_in_hands",
    }
)
"""The keys a saved game adds (a state with ``rng`` is a saved game)."""


@dataclass(frozen=True, slots=True)
class PendingRecord:
    """The decision a saved game waits for, as read: ``kind`` is ``"play"``, ``"fall"`` (with
    ``tile`` at ``at``) or ``"die"``. The spots of a play are the rules' to find, not the reader's.
    """

    kind: PendingKind
    """``"play"``, ``"fall"`` or ``"die"``."""
    player: int
    """Whose decision it is."""
    tile: str | None = None
    """The falling tile (a fall only)."""
    at: Pos | None = None
    """Where the falling tile is (a fall only)."""


@dataclass(frozen=True, slots=True)
class SavedRecord:
    """What a saved game adds to the scenario keys: the generator, the match, the turn."""

    seed: int | None
    """Where the generator started (None: not known)."""
    rng: int
    """The generator's state, 0 to 2**64 - 1."""
    round: int
    """This round, 1 to ``rounds``."""
    rounds: int
    """How many rounds the match has."""
    scores: tuple[int, ...]
    """Running totals, one per player."""
    turn: int
    """Plays made this round."""
    winner: int | None
    """The round's winner, or None."""
    responsible: int
    """Who bears the mayhem now."""
    placed: tuple[str, Pos] | None
    """The tile played this turn and its spot, or None."""
    rolled: bool
    """Whether this turn's die was rolled."""
    die_pair: tuple[Pos, Pos] | None
    """The incendiary and the tile of a pending die, or None."""
    pending: PendingRecord | None
    """The decision the game waits for; None exactly when there is a winner."""
    turn_events: tuple[Event, ...]
    """What happened since the last tile was played."""
    hidden_piles: tuple[int, ...]
    """Per pile, how many tiles at its top went into it unseen."""
    seen_in_hands: tuple[tuple[str, ...], ...]
    """Per hand, the tiles everyone saw go into it."""


@dataclass(frozen=True, slots=True)
class StateRecord:
    """A checked state: the scenario keys of RULES 8, and ``saved`` for a saved game."""

    players: int
    """Number of seats, 2 to 6."""
    curse: bool
    """The curse option."""
    fire_die: bool
    """The fire die option."""
    pyramid: Mapping[Pos, str]
    """Tile code by position, in the order given (read-only)."""
    hands: tuple[tuple[str, ...], ...]
    """Each player's hand."""
    piles: tuple[tuple[str, ...], ...]
    """Each player's draw pile, top first."""
    removed: tuple[str, ...]
    """Tiles out of the game this round."""
    active: int
    """Whose turn it is."""
    saved: SavedRecord | None
    """The rest of a saved game; None for a scenario state, where ``active`` is about to play."""


def _fail(message: str) -> EngineError:
    return BadStateError(message)


def _int(d: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(f'"{key}" must be a whole number from {lo} to {hi}, not {v!r}')
    return v


def _tile_list(value: object, what: str, seen: dict[str, str]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list of tile codes")
    for t in value:
        _claim(t, what, seen)
    return tuple(value)


def _claim(tile: object, where: str, seen: dict[str, str]) -> None:
    if not isinstance(tile, str) or tile not in TILE_SET:
        raise _fail(f"unknown tile {tile!r} in {where}")
    if tile in seen:
        raise _fail(f"tile {tile} appears twice: in {seen[tile]} and in {where}")
    seen[tile] = where


def _per_player(
    d: dict[str, Any], key: str, n: int, seen: dict[str, str]
) -> tuple[tuple[str, ...], ...]:
    value = d.get(key)
    if not isinstance(value, list) or len(value) != n:
        raise _fail(f'"{key}" must be a list of {n} lists, one per player')
    return tuple(_tile_list(v, f"{key}[{i}]", seen) for i, v in enumerate(value))


def read_state(d: object, *, allow_actions: bool = False) -> StateRecord:
    """Check a state (scenario format, or a saved game) and give what it says.

    ``allow_actions`` lets a scenario's ``actions`` key through (its actions are read elsewhere).
    Raises :class:`EngineError` naming the first problem found.
    """
    if not isinstance(d, dict):
        raise _fail("a state must be a JSON object")
    saved = "rng" in d
    allowed = SCENARIO_KEYS | OUTPUT_KEYS | (SAVED_KEYS if saved else frozenset())
    if not allow_actions:
        allowed = allowed - {"actions"}
    unknown = sorted(k for k in d if k not in allowed)
    if unknown:
        raise _fail(f"unknown key {unknown[0]!r} in the state")
    for key in ("players", "pyramid", "hands", "piles", "active"):
        if key not in d:
            raise _fail(f'the state has no "{key}"')
    n = _int(d, "players", MIN_PLAYERS, MAX_PLAYERS)

    options = d.get("options", {})
    if not isinstance(options, dict):
        raise _fail('"options" must be an object like {"curse": false, "fire_die": false}')
    for k, v in options.items():
        if k not in ("curse", "fire_die"):
            raise _fail(f"unknown option {k!r} (the options are curse and fire_die)")
        if not isinstance(v, bool):
            raise _fail(f'option "{k}" must be true or false')

    seen: dict[str, str] = {}
    pyramid_in = d["pyramid"]
    if not isinstance(pyramid_in, dict):
        raise _fail('"pyramid" must be an object mapping "row,x" to a tile code')
    pyramid: dict[Pos, str] = {}
    for key, tile in pyramid_in.items():
        try:
            p = parse_pos(key)
        except EngineError as e:
            raise _fail(f"pyramid: {e}") from None
        _claim(tile, f"pyramid at {key}", seen)
        if p in pyramid:
            raise _fail(f"pyramid: position {pos_str(p)} is given twice")
        pyramid[p] = tile
    hands = _per_player(d, "hands", n, seen)
    for i, h in enumerate(hands):
        if len(h) > HAND_SIZE:
            raise _fail(f"hands[{i}] holds {len(h)} tiles; a hand holds at most {HAND_SIZE}")
    piles = _per_player(d, "piles", n, seen)
    removed = _tile_list(d.get("removed", []), "removed", seen)
    active = _int(d, "active", 0, n - 1)
    curse = options.get("curse", False)
    fire_die = options.get("fire_die", False)

    if saved:
        extra = _saved(d, n, fire_die, pyramid, hands, piles, active)
    else:
        _check_output_keys(d, active)
        extra = None
    return StateRecord(
        players=n,
        curse=curse,
        fire_die=fire_die,
        pyramid=MappingProxyType(pyramid),
        hands=hands,
        piles=piles,
        removed=removed,
        active=active,
        saved=extra,
    )


def _check_output_keys(d: dict[str, Any], active: int) -> None:
    """A state printed by ``run`` may be read back while it waits for a play by ``active``."""
    winner = d.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise _fail('"winner" must be a player number or null')
    if not isinstance(d.get("events", []), list):
        raise _fail('"events" must be a list')
    pending = d.get("pending")
    if pending is None:
        return
    if (
        not isinstance(pending, dict)
        or pending.get("kind") != "play"
        or pending.get("player") != active
    ):
        raise _fail(
            "this state waits for a fall or a die; a scenario state always starts with a play"
        )


def _saved(
    d: dict[str, Any],
    n: int,
    fire_die: bool,
    pyramid: dict[Pos, str],
    hands: tuple[tuple[str, ...], ...],
    piles: tuple[tuple[str, ...], ...],
    active: int,
) -> SavedRecord:
    """The extra keys of a saved game (see :meth:`Game.to_dict`)."""
    if d.get("version") != STATE_VERSION:
        raise _fail(f"saved state version {d.get('version')!r} is not {STATE_VERSION}")
    try:
        rng = d["rng"]
        if not isinstance(rng, int) or isinstance(rng, bool) or not 0 <= rng < 2**64:
            raise _fail('"rng" must be an integer from 0 to 2**64 - 1')
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise _fail('"seed" must be an integer or null')
        rounds = _int(d, "rounds", 1, 1000)
        round_ = _int(d, "round", 1, rounds)
        scores = d["scores"]
        if (
            not isinstance(scores, list)
            or len(scores) != n
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise _fail('"scores" must be a list of one whole number per player')
        turn = _int(d, "turn", 0, 10**9)
        winner = d.get("winner")
        if winner is not None:
            winner = _int(d, "winner", 0, n - 1)
        responsible = _int(d, "responsible", 0, n - 1)
        placed_in = d.get("placed")
        placed: tuple[str, Pos] | None = None
        if placed_in is not None:
            if not (
                isinstance(placed_in, list) and len(placed_in) == 2 and placed_in[0] in TILE_SET
            ):
                raise _fail('"placed" must be [tile, "row,x"] or null')
            placed = (placed_in[0], parse_pos(placed_in[1]))
        rolled = d["rolled"]
        if not isinstance(rolled, bool):
            raise _fail('"rolled" must be true or false')
        pair = d.get("die_pair")
        die_pair: tuple[Pos, Pos] | None = None
        if pair is not None:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise _fail('"die_pair" must be two positions or null')
            die_pair = (parse_pos(pair[0]), parse_pos(pair[1]))
            if pyramid.get(die_pair[0], "") not in INCENDIARY or die_pair[1] not in pyramid:
                raise _fail('"die_pair" must name an incendiary and a tile in the pyramid')
        pending = _pending(d.get("pending"), n, active, winner, fire_die, pyramid, die_pair, placed)
        if pending is not None and winner is not None:
            raise _fail("a saved state cannot have a winner and a decision pending")
        events = d.get("turn_events", [])
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise _fail('"turn_events" must be a list of events')
        turn_events = tuple(Event.from_dict(e) for e in events)
        hidden_piles, seen_in_hands = _public_record(d, hands, piles)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        if isinstance(e, EngineError):
            raise
        raise _fail(f"the saved state is damaged ({type(e).__name__}: {e})") from None
    return SavedRecord(
        seed=seed,
        rng=rng,
        round=round_,
        rounds=rounds,
        scores=tuple(scores),
        turn=turn,
        winner=winner,
        responsible=responsible,
        placed=placed,
        rolled=rolled,
        die_pair=die_pair,
        pending=pending,
        turn_events=turn_events,
        hidden_piles=hidden_piles,
        seen_in_hands=seen_in_hands,
    )


def _public_record(
    d: dict[str, Any], hands: tuple[tuple[str, ...], ...], piles: tuple[tuple[str, ...], ...]
) -> tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """What everyone has seen of the piles and hands; a game saved before the engine kept it
    has none (every pile hidden, nothing seen in any hand)."""
    hidden = d.get("hidden_piles")
    seen = d.get("seen_in_hands")
    if hidden is None and seen is None:
        return tuple(len(p) for p in piles), tuple(() for _ in hands)
    if not (
        isinstance(hidden, list)
        and len(hidden) == len(piles)
        and all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= len(p)
            for h, p in zip(hidden, piles, strict=True)
        )
    ):
        raise _fail('"hidden_piles" must give, per player, at most the size of the pile')
    if not (
        isinstance(seen, list)
        and len(seen) == len(hands)
        and all(
            isinstance(s, list)
            and len(set(s)) == len(s)
            and all(isinstance(t, str) and t in h for t in s)
            for s, h in zip(seen, hands, strict=True)
        )
    ):
        raise _fail('"seen_in_hands" must list, per player, tiles of that hand')
    return tuple(hidden), tuple(tuple(s) for s in seen)


def _pending(
    p: object,
    n: int,
    active: int,
    winner: int | None,
    fire_die: bool,
    pyramid: dict[Pos, str],
    die_pair: tuple[Pos, Pos] | None,
    placed: tuple[str, Pos] | None,
) -> PendingRecord | None:
    if p is None:
        if winner is None:
            raise _fail("a saved state with nothing pending must have a winner")
        return None
    if not isinstance(p, dict):
        raise _fail('"pending" must be an object or null')
    kind = p.get("kind")
    player = p.get("player")
    if not isinstance(player, int) or not 0 <= player < n:
        raise _fail('"pending" names no player')
    if kind == "play":
        if player != active:
            raise _fail("a pending play must belong to the active player")
        return PendingRecord("play", player)
    if kind == "fall":
        at = parse_pos(p.get("at"))
        tile = p.get("tile")
        if pyramid.get(at) != tile:
            raise _fail(f"the falling tile {tile!r} is not at {pos_str(at)}")
        r, x = at
        if r == 0 or (r - 1, x - 1) in pyramid or (r - 1, x + 1) in pyramid:
            raise _fail(f"the tile at {pos_str(at)} has nowhere to fall")
        return PendingRecord("fall", player, tile=tile, at=at)
    if kind == "die":
        if not fire_die:
            raise _fail("a pending die in a game without the fire die")
        if die_pair is None or placed is None:
            raise _fail("a pending die needs its pair")
        return PendingRecord("die", player)
    raise _fail(f"unknown pending decision {kind!r}")

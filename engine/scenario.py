"""The scenario format of RULES 8: reading and checking states, running scenarios.

A state read here is checked completely: every problem raises :class:`EngineError` with a message
that names it, before any game exists. The same reader restores the engine's own saved states,
which add keys for the generator and the turn in progress (see :meth:`Game.to_dict`).
"""

from __future__ import annotations

from typing import Any

from engine.game import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, STATE_VERSION, Game
from engine.model import (
    DIE_FACES,
    EngineError,
    Event,
    Pending,
    Pos,
    action_from_dict,
    parse_pos,
    pos_str,
)
from engine.rng import Rng
from engine.tiles import INCENDIARY, TILE_SET

SCENARIO_KEYS = frozenset(
    {"players", "options", "pyramid", "hands", "piles", "removed", "active", "actions"}
)
OUTPUT_KEYS = frozenset({"pending", "winner", "events"})
SAVED_KEYS = frozenset(
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


def _fail(message: str, code: str = "bad_state") -> EngineError:
    return EngineError(message, code)


def _int(d: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(f'"{key}" must be a whole number from {lo} to {hi}, not {v!r}')
    return v


def _tile_list(value: object, what: str, seen: dict[str, str]) -> list[str]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list of tile codes")
    for t in value:
        _claim(t, what, seen)
    return list(value)


def _claim(tile: object, where: str, seen: dict[str, str]) -> None:
    if not isinstance(tile, str) or tile not in TILE_SET:
        raise _fail(f"unknown tile {tile!r} in {where}", "unknown_tile")
    if tile in seen:
        raise _fail(f"tile {tile} appears twice: in {seen[tile]} and in {where}", "duplicate_tile")
    seen[tile] = where


def _per_player(d: dict[str, Any], key: str, n: int, seen: dict[str, str]) -> list[list[str]]:
    value = d.get(key)
    if not isinstance(value, list) or len(value) != n:
        raise _fail(f'"{key}" must be a list of {n} lists, one per player')
    return [_tile_list(v, f"{key}[{i}]", seen) for i, v in enumerate(value)]


def load_state(d: object, *, allow_actions: bool = False) -> Game:
    """Check a state (scenario format, or a saved game) and build the game it describes.

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
            raise _fail(f"pyramid: {e}", "bad_position") from None
        _claim(tile, f"pyramid at {key}", seen)
        if p in pyramid:
            raise _fail(f"pyramid: position {pos_str(p)} is given twice", "bad_position")
        pyramid[p] = tile
    hands = _per_player(d, "hands", n, seen)
    for i, h in enumerate(hands):
        if len(h) > HAND_SIZE:
            raise _fail(f"hands[{i}] holds {len(h)} tiles; a hand holds at most {HAND_SIZE}")
    piles = _per_player(d, "piles", n, seen)
    removed = _tile_list(d.get("removed", []), "removed", seen)
    active = _int(d, "active", 0, n - 1)

    if not saved:
        _check_output_keys(d, active)
        return Game(
            n,
            curse=options.get("curse", False),
            fire_die=options.get("fire_die", False),
            pyramid=pyramid,
            hands=hands,
            piles=piles,
            removed=removed,
            active=active,
        )
    return _restore(d, n, options, pyramid, hands, piles, removed, active)


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


def _restore(
    d: dict[str, Any],
    n: int,
    options: dict[str, bool],
    pyramid: dict[Pos, str],
    hands: list[list[str]],
    piles: list[list[str]],
    removed: list[str],
    active: int,
) -> Game:
    """The extra keys of a saved game (see :meth:`Game.to_dict`)."""
    if d.get("version") != STATE_VERSION:
        raise _fail(f"saved state version {d.get('version')!r} is not {STATE_VERSION}")
    try:
        g = Game.__new__(Game)
        g.players = n
        g.curse = options.get("curse", False)
        g.fire_die = options.get("fire_die", False)
        g.pyramid = pyramid
        g.hands = hands
        g.piles = piles
        g.removed = removed
        g.active = active
        rng = d["rng"]
        if not isinstance(rng, int) or isinstance(rng, bool) or not 0 <= rng < 2**64:
            raise _fail('"rng" must be an integer from 0 to 2**64 - 1')
        g.rng = Rng(rng)
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise _fail('"seed" must be an integer or null')
        g.seed = seed
        g.rounds = _int(d, "rounds", 1, 1000)
        g.round = _int(d, "round", 1, g.rounds)
        scores = d["scores"]
        if (
            not isinstance(scores, list)
            or len(scores) != n
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise _fail('"scores" must be a list of one whole number per player')
        g.scores = list(scores)
        g.turn = _int(d, "turn", 0, 10**9)
        winner = d.get("winner")
        if winner is not None:
            winner = _int(d, "winner", 0, n - 1)
        g.winner = winner
        g.responsible = _int(d, "responsible", 0, n - 1)
        placed = d.get("placed")
        if placed is None:
            g.placed = None
        else:
            if not (isinstance(placed, list) and len(placed) == 2 and placed[0] in TILE_SET):
                raise _fail('"placed" must be [tile, "row,x"] or null')
            g.placed = (placed[0], parse_pos(placed[1]))
        rolled = d["rolled"]
        if not isinstance(rolled, bool):
            raise _fail('"rolled" must be true or false')
        g.rolled = rolled
        pair = d.get("die_pair")
        if pair is None:
            g.die_pair = None
        else:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise _fail('"die_pair" must be two positions or null')
            g.die_pair = (parse_pos(pair[0]), parse_pos(pair[1]))
            if g.pyramid.get(g.die_pair[0], "") not in INCENDIARY or g.die_pair[1] not in g.pyramid:
                raise _fail('"die_pair" must name an incendiary and a tile in the pyramid')
        g.pending = _pending(d.get("pending"), g)
        if g.pending is not None and g.winner is not None:
            raise _fail("a saved state cannot have a winner and a decision pending")
        events = d.get("turn_events", [])
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise _fail('"turn_events" must be a list of events')
        g.turn_events = [Event.from_dict(e) for e in events]
        g.hidden_piles, g.seen_in_hands = _public_record(d, hands, piles)
        g._reset_caches()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        if isinstance(e, EngineError):
            raise
        raise _fail(f"the saved state is damaged ({type(e).__name__}: {e})") from None
    return g


def _public_record(
    d: dict[str, Any], hands: list[list[str]], piles: list[list[str]]
) -> tuple[list[int], list[list[str]]]:
    """What everyone has seen of the piles and hands; a game saved before the engine kept it
    has none (every pile hidden, nothing seen in any hand)."""
    hidden = d.get("hidden_piles")
    seen = d.get("seen_in_hands")
    if hidden is None and seen is None:
        return [len(p) for p in piles], [[] for _ in hands]
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
    return list(hidden), [list(s) for s in seen]


def _pending(p: object, g: Game) -> Pending | None:
    if p is None:
        if g.winner is None:
            raise _fail("a saved state with nothing pending must have a winner")
        return None
    if not isinstance(p, dict):
        raise _fail('"pending" must be an object or null')
    kind = p.get("kind")
    player = p.get("player")
    if not isinstance(player, int) or not 0 <= player < g.players:
        raise _fail('"pending" names no player')
    if kind == "play":
        from engine.game import spots

        if player != g.active:
            raise _fail("a pending play must belong to the active player")
        return Pending("play", player, spots(g.pyramid))
    if kind == "fall":
        at = parse_pos(p.get("at"))
        tile = p.get("tile")
        if g.pyramid.get(at) != tile:
            raise _fail(f"the falling tile {tile!r} is not at {pos_str(at)}")
        r, x = at
        if r == 0 or (r - 1, x - 1) in g.pyramid or (r - 1, x + 1) in g.pyramid:
            raise _fail(f"the tile at {pos_str(at)} has nowhere to fall")
        return Pending("fall", player, tile=tile, at=at)
    if kind == "die":
        if not g.fire_die:
            raise _fail("a pending die in a game without the fire die")
        if g.die_pair is None or g.placed is None:
            raise _fail("a pending die needs its pair")
        return Pending("die", player)
    raise _fail(f"unknown pending decision {kind!r}")


def scenario_output(game: Game, events: list[Event]) -> dict[str, Any]:
    """The JSON printed by ``python -m engine run``: the state, pending, winner, events."""
    full = game.to_dict()
    out = {k: full[k] for k in ("players", "options", "pyramid", "hands", "piles", "removed")}
    out["active"] = game.active
    out["pending"] = None if game.pending is None else game.pending.to_dict()
    out["winner"] = game.winner
    out["events"] = [e.to_dict() for e in events]
    return out


def scenario_state(game: Game) -> dict[str, Any]:
    """Just the state keys of RULES 8 (what ``python -m engine new`` prints)."""
    full = game.to_dict()
    return {
        k: full[k] for k in ("players", "options", "pyramid", "hands", "piles", "removed", "active")
    }


class ScenarioError(EngineError):
    """A scenario that cannot be run; ``index`` is the action at fault (None: the state)."""

    def __init__(self, message: str, index: int | None, code: str = "illegal") -> None:
        super().__init__(message, code)
        self.index = index

    def line(self) -> str:
        where = "state" if self.index is None else f"action {self.index}"
        return f"error: {where}: {self}"


def run_scenario(d: object) -> dict[str, Any]:
    """Apply a scenario's actions to its state and return the output of RULES 8.

    Raises :class:`ScenarioError` naming the problem and the action's index.
    """
    try:
        game = load_state(d, allow_actions=True)
    except EngineError as e:
        raise ScenarioError(str(e), None, e.code) from None
    assert isinstance(d, dict)
    actions = d.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError('"actions" must be a list', None, "bad_action")
    events: list[Event] = []
    for i, a in enumerate(actions):
        try:
            action = action_from_dict(a)
            player = a.get("player")
            if "player" in a and (not isinstance(player, int) or isinstance(player, bool)):
                raise EngineError('"player" must be a player number', "bad_action")
            if player is not None and not 0 <= player < game.players:
                raise EngineError(f"there is no player {player}", "bad_action")
            events.extend(game.apply(action, player))
        except EngineError as e:
            raise ScenarioError(str(e), i, e.code) from None
    return scenario_output(game, events)


__all__ = [
    "DIE_FACES",
    "ScenarioError",
    "load_state",
    "run_scenario",
    "scenario_output",
    "scenario_state",
]

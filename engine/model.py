"""Positions, actions, pending decisions, events and the engine's error (RULES 2, 5, 8).

These are small immutable records shared by the whole engine and by its users (render, data, bot).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple, get_args

Pos = tuple[int, int]
"""A position ``(row, x)``: row 0 is the base, ``x`` counts half tiles (RULES 2)."""

LEFT: Final = "left"
RIGHT: Final = "right"
DIRECTIONS: Final = (LEFT, RIGHT)

FIRE_STAYS: Final = "fire_stays"
FIRE_REMOVED: Final = "fire_removed"
EXPLOSION: Final = "explosion"
SMOKE: Final = "smoke"
DIE_FACES: Final = (FIRE_STAYS, FIRE_REMOVED, EXPLOSION, SMOKE)
"""The fire die's faces (RULES 6)."""
DIE_CHANCES: Final = {FIRE_STAYS: 3, FIRE_REMOVED: 1, EXPLOSION: 1, SMOKE: 1}
"""How many of the die's six sides show each face."""

HAND_SIZE: Final = 5
"""The tiles a hand holds when it is full (RULES 7)."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
"""A game has 2 to 6 players."""


class EngineError(ValueError):
    """Anything the rules or the formats do not allow. ``str(err)`` is readable by a player;
    nothing was changed when one is raised. The subclasses say which kind of problem it is
    (python-chess's ``IllegalMoveError(ValueError)`` style): catch the one you mean."""


class BadStateError(EngineError):
    """A saved state or a scenario that cannot be read."""


class BadSetupError(EngineError):
    """A new match with a number of players or rounds the rules do not have."""


class BadPlayerError(EngineError):
    """A player number that is not at this game."""


class BadPositionError(EngineError):
    """Text that is not a position of the pyramid (RULES 2)."""


class BadActionError(EngineError):
    """An action that is malformed (an unknown key, a fall that is not left or right...)."""


class UnknownTileError(BadActionError):
    """A tile code that is not one of the game's tiles."""


class NoPreviewError(EngineError):
    """A decision whose outcome is chance (the fire die) cannot be previewed."""


class IllegalMoveError(EngineError):
    """A well-formed action that is not allowed now."""


class NotYourDecisionError(IllegalMoveError):
    """Another player owns the pending decision."""


class WrongDecisionError(IllegalMoveError):
    """The game waits for another kind of decision (a fall, not a tile...)."""


class RoundOverError(IllegalMoveError):
    """The round is over: nothing is pending."""


class MatchOverError(IllegalMoveError):
    """The match is over: no next round."""


class NotInHandError(IllegalMoveError):
    """The tile is not in the deciding player's hand."""


class BadSpotError(IllegalMoveError):
    """The position is not one of the free spots (or several spots and none given)."""


def pos_str(p: Pos) -> str:
    """``(1, 3)`` -> ``"1,3"``, the text form of RULES 2."""
    return f"{p[0]},{p[1]}"


MAX_ROW: Final = 50
MAX_X: Final = 1000
"""Bounds on positions read from text: far beyond any game (45 tiles), small enough to be safe."""

_POS = re.compile(r"(-?[0-9]{1,6}),(-?[0-9]{1,6})", re.ASCII)


def parse_pos(text: object) -> Pos:
    """``"1,3"`` -> ``(1, 3)``; raises :class:`EngineError` for anything that is not a position.

    >>> parse_pos("2,-4")
    (2, -4)
    """
    if not isinstance(text, str):
        raise BadPositionError(f'a position must be a string like "1,3", not {text!r}')
    m = _POS.fullmatch(text)
    if m is None:
        raise BadPositionError(f'{text!r} is not a position like "1,3"')
    r, x = int(m[1]), int(m[2])
    if r < 0:
        raise BadPositionError(f"position {text}: the row cannot be negative")
    if r > MAX_ROW or abs(x) > MAX_X:
        raise BadPositionError(f"position {text} is too far from the pyramid")
    if (r + x) % 2:
        raise BadPositionError(
            f"position {text}: row + x must be even (tiles sit on half-tile offsets)"
        )
    return (r, x)


def reading_key(p: Pos) -> tuple[int, int]:
    """Sort key for reading order: top row first, left to right (RULES 2)."""
    return (-p[0], p[1])


def neighbours(p: Pos) -> tuple[Pos, ...]:
    """The six positions a tile at ``p`` touches, in reading order (RULES 2)."""
    r, x = p
    return ((r + 1, x - 1), (r + 1, x + 1), (r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1))


# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``tile`` from the active player's hand at ``at`` (None when there is one spot)."""

    tile: str
    at: Pos | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"play": self.tile}
        if self.at is not None:
            d["at"] = pos_str(self.at)
        return d


@dataclass(frozen=True, slots=True)
class Fall:
    """Choose where a collapsing or free-air tile falls: ``"left"`` or ``"right"``."""

    direction: str

    def to_dict(self) -> dict[str, Any]:
        return {"fall": self.direction}


@dataclass(frozen=True, slots=True)
class Die:
    """The fire die: a given face, or ``None`` to roll it with the game's seeded generator."""

    face: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.face if self.face is not None else "roll"}


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round of a multi-round match (only once a round is won)."""

    def to_dict(self) -> dict[str, Any]:
        return {"next_round": True}


Action = Play | Fall | Die | NextRound


def action_from_dict(d: object) -> Action:
    """Parse an action in the scenario format of RULES 8 (``"player"`` is read by the caller)."""
    if not isinstance(d, dict):
        raise BadActionError("an action must be a JSON object")
    kinds = [k for k in ("play", "fall", "die", "next_round") if k in d]
    if len(kinds) != 1:
        raise BadActionError('an action needs exactly one of "play", "fall" or "die"')
    allowed = {kinds[0], "player"} | ({"at"} if kinds[0] == "play" else set())
    extra = sorted(set(d) - allowed)
    if extra:
        raise BadActionError(f"unknown key {extra[0]!r} in a {kinds[0]} action")
    kind = kinds[0]
    value = d[kind]
    if kind == "play":
        from engine.tiles import TILE_SET

        if not isinstance(value, str) or value not in TILE_SET:
            raise UnknownTileError(f"unknown tile {value!r}")
        at = d.get("at")
        return Play(value, None if at is None else parse_pos(at))
    if kind == "fall":
        if value not in DIRECTIONS:
            raise BadActionError(f'a fall is "left" or "right", not {value!r}')
        return Fall(value)
    if kind == "die":
        if value == "roll":
            return Die(None)
        if value not in DIE_FACES:
            raise BadActionError(f"unknown die face {value!r} (one of {', '.join(DIE_FACES)})")
        return Die(value)
    if value is not True:
        raise BadActionError('"next_round" must be true')
    return NextRound()


# --- what the game waits for ----------------------------------------------------------------------


PendingKind = Literal["play", "fall", "die"]
"""What a pending decision is: a tile to play, where a tile falls, or the fire die."""


class Pending(NamedTuple):
    """The decision the game waits for, and whose it is.

    ``kind`` is ``"play"`` (with ``spots``), ``"fall"`` (with ``tile`` at ``at``; its supports are
    already gone) or ``"die"`` (chance: the fire die; ``player`` is the responsible player).
    """

    kind: PendingKind
    player: int
    spots: tuple[Pos, ...] = ()
    tile: str | None = None
    at: Pos | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "play":
            return {
                "kind": "play",
                "player": self.player,
                "spots": [pos_str(p) for p in self.spots],
            }
        if self.kind == "fall":
            assert self.at is not None
            return {
                "kind": "fall",
                "player": self.player,
                "tile": self.tile,
                "at": pos_str(self.at),
            }
        return {"kind": self.kind, "player": self.player}


# --- what happened -------------------------------------------------------------------------------

Placed = tuple[tuple[str, Pos], ...]
EventKind = Literal[
    "dealt",
    "turn",
    "placed",
    "collapsed",
    "fell",
    "exploded",
    "burnt",
    "cursed",
    "rolled",
    "drew",
    "won",
]
"""The kinds of events (see :class:`Event`)."""
EVENT_KINDS: Final = frozenset(get_args(EventKind))


class Event(NamedTuple):
    """One thing that happened. Kinds and the fields they use:

    - ``dealt``: a round was dealt; ``player`` starts; ``amount`` tiles were left over for the
      base row; ``out`` = the coals and blowtorches among them (gone).
    - ``turn``: ``player`` is now active.
    - ``placed``: ``player`` placed ``tile`` at ``at``.
    - ``collapsed``: ``tile`` at ``at`` did not fit (``detail`` ``"overweight"`` or ``"mismatch"``);
      its supports ``to_pile`` went under ``player``'s pile; a fall choice follows.
    - ``fell``: ``tile`` fell from ``at`` to ``to`` (``detail`` ``"left"``/``"right"``), as
      ``player`` chose.
    - ``exploded``: the incendiaries ``out`` left the game; the tiles touching them went
      ``to_pile``.
    - ``burnt``: ``tile`` at ``at`` set fire (``detail`` ``"straw"``/``"wood"``); burnt tiles went
      ``to_pile``; ``out`` holds the incendiary if it left the game.
    - ``cursed``: three tiles of equal weight went ``to_pile`` of ``player`` (the previous player).
    - ``rolled``: the fire die showed ``detail`` for ``tile`` placed at ``at``.
    - ``drew``: ``player`` drew ``amount`` tiles (which ones stays private).
    - ``won``: ``player`` won the round; ``scores`` holds every player's score for the round.
    """

    kind: EventKind
    player: int
    tile: str | None = None
    at: Pos | None = None
    to: Pos | None = None
    to_pile: Placed = ()
    out: Placed = ()
    detail: str = ""
    amount: int = 0
    scores: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form; empty fields are left out."""
        d: dict[str, Any] = {"type": self.kind, "player": self.player}
        if self.tile is not None:
            d["tile"] = self.tile
        if self.at is not None:
            d["at"] = pos_str(self.at)
        if self.to is not None:
            d["to"] = pos_str(self.to)
        if self.to_pile:
            d["to_pile"] = [{"tile": t, "at": pos_str(p)} for t, p in self.to_pile]
        if self.out:
            d["out"] = [{"tile": t, "at": pos_str(p)} for t, p in self.out]
        if self.detail:
            d["detail"] = self.detail
        if self.amount:
            d["count"] = self.amount
        if self.scores:
            d["scores"] = list(self.scores)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        def placed(key: str) -> Placed:
            return tuple((e["tile"], parse_pos(e["at"])) for e in d.get(key, ()))

        if d.get("type") not in EVENT_KINDS:
            raise BadStateError(f"unknown event {d.get('type')!r}")
        return cls(
            kind=d["type"],
            player=d["player"],
            tile=d.get("tile"),
            at=parse_pos(d["at"]) if "at" in d else None,
            to=parse_pos(d["to"]) if "to" in d else None,
            to_pile=placed("to_pile"),
            out=placed("out"),
            detail=d.get("detail", ""),
            amount=d.get("count", 0),
            scores=tuple(d.get("scores", ())),
        )

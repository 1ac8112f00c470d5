"""The facts of a played match, per seat, as everyone at the table could see them: replayed
from its dealt state and its action log with the engine."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Protocol

from engine import Game, Play, action_from_dict

TILES_TAKEN_BY: Final = frozenset({"collapsed", "burnt", "exploded", "cursed"})
"""The events that send tiles under a player's pile (counted in :attr:`SeatFacts.tiles_taken`;
the mayhem a picture shows is :data:`engine.preview.MAYHEM_KINDS`, which also holds the tile
that fell and the die)."""


class MoveLike(Protocol):
    """One entry of a match's action log, as the replay reads it (a stored log row)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def user_id(self) -> int | None:
        """The person whose own decision it was (None: a computer's, or the game's)."""

    @property
    def action(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class SeatFacts:
    """What one seat did in a match, as everyone at the table could see it."""

    total: int | None = None
    """Its final total: tiles left in hand and pile over the match's rounds (lower wins)."""
    collapses: int = 0
    """Collapses it caused (its tile did not fit)."""
    fires: int = 0
    """Fires it set."""
    explosions: int = 0
    """Explosions it set off."""
    curses: int = 0
    """Curses it cast (on the previous player)."""
    tiles_taken: int = 0
    """Tiles that mayhem sent under its pile."""
    cursed: int = 0
    """Curses that hit it."""
    opening: str | None = None
    """The first tile it played in the match."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SeatFacts:
        return cls(**{f.name: d[f.name] for f in fields(cls) if f.name in d})


@dataclass(frozen=True)
class MatchFacts:
    """The facts of every seat of a match, by seat."""

    seats: tuple[SeatFacts, ...]
    moves: int = 0
    """Entries in the match's action log."""

    def to_dict(self) -> dict[str, Any]:
        return {"seats": [s.to_dict() for s in self.seats], "moves": self.moves}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MatchFacts:
        return cls(tuple(SeatFacts.from_dict(s) for s in d["seats"]), int(d.get("moves", 0)))


def match_facts(
    initial_state: Mapping[str, Any],
    log: Sequence[MoveLike],
    totals: Sequence[int] | None,
    people: Collection[int] = (),
) -> MatchFacts:
    """Replay a match and count, per seat, what happened in public (see :class:`SeatFacts`).

    ``totals`` are the stored final totals (None: the replay's own scores). ``people``: the
    seats people hold. A turn a computer placed for one of them (logged without their user id:
    their clock ran out, or they were away) is the computer's, not theirs: what that turn did
    at their seat (its opening tile, the mayhem it caused and brought on their pile) counts for
    nobody, what it did to another player still counts for that player. Raises the engine's
    :class:`~engine.EngineError` if the log does not replay.
    """
    game = Game.from_dict(dict(initial_state))
    n = game.players
    count: list[dict[str, Any]] = [
        {"collapses": 0, "fires": 0, "explosions": 0, "curses": 0, "tiles_taken": 0, "cursed": 0}
        for _ in range(n)
    ]
    opening: list[str | None] = [None] * n
    placer: int | None = None
    stood_in: int | None = None  # a person's seat whose turn a computer is playing
    for entry in log:
        action = action_from_dict(dict(entry.action))
        if isinstance(action, Play):
            by_computer = entry.user_id is None and entry.seat in people
            stood_in = entry.seat if by_computer else None
        for e in game.apply(action, entry.seat):
            if e.kind == "placed":
                placer = e.player
                if opening[e.player] is None and e.player != stood_in:
                    opening[e.player] = e.tile
                continue
            if e.player == stood_in:
                continue  # the computer's turn, at that seat
            if e.kind == "collapsed":
                count[e.player]["collapses"] += 1
            elif e.kind == "burnt":
                count[e.player]["fires"] += 1
            elif e.kind == "exploded":
                count[e.player]["explosions"] += 1
            elif e.kind == "cursed":
                if placer is not None and placer != stood_in:
                    count[placer]["curses"] += 1
                count[e.player]["cursed"] += 1
            if e.kind in TILES_TAKEN_BY:
                count[e.player]["tiles_taken"] += len(e.to_pile)
    final = list(totals) if totals is not None else list(game.scores)
    return MatchFacts(
        tuple(
            SeatFacts(total=final[i] if i < len(final) else None, opening=opening[i], **count[i])
            for i in range(n)
        ),
        moves=len(log),
    )

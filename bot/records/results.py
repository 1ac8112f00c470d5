"""What the records service answers, as data: the types the show side words (it imports these,
never the service).

The other answers are the store's records (:mod:`data.records`: ``PlayerStats``, ``BoardPage``,
``HistoryEntry``) and a replay's steps (:class:`bot.records.replay.ReplayStep`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from bot.records.replay import ReplayStep
from data.store import Table
from engine import Fall, Play

PAGE_SIZE: Final = 10
"""Leaderboard entries per page."""


@dataclass(frozen=True)
class ReplayShown:
    """One replay step of a played match (finished, or stopped after its first move), with the
    match's table (names, place, date)."""

    table: Table
    step: ReplayStep

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

    @property
    def stopped(self) -> bool:
        """The match stopped before its end (aborted after its first move): its last step is
        where it stopped, not a final result."""
        return self.table.status != "finished"


@dataclass(frozen=True)
class MatchExport:
    """A finished match as a scenario file, for one of its players: its table number on its
    server (``table #12``) and the engine's scenario document (see
    :meth:`bot.records.replay.MatchReplay.scenario`)."""

    number: int
    scenario: dict[str, Any]


TurningState = Literal["ready", "working", "unavailable", "players_only"]
"""Whether a match's turning points can be shown: ``ready``; ``working``, still being worked
out; ``unavailable`` (the match could not be analysed, or ended before the turning points were
worked out); ``players_only``, nothing for this reader (they did not play, and no computer
did)."""


@dataclass(frozen=True)
class TurningPoint:
    """One decision that cost its player tiles, as the coach judged it (see
    :class:`engine.ai.review.Review`), with where it is in the replay and what the board was."""

    step: int
    """The replay step it is in (0 is the deal)."""
    round: int
    turn: int
    """Its turn in its round (from 1)."""
    played: Play | Fall
    best: Play | Fall
    """What the expert would have decided."""
    kept_off: float
    """Tiles the expert's decision would have kept off the player's pile, on average."""
    now: float
    """Tiles the move played sent under the player's pile that turn (the fire die averaged)."""
    best_now: float
    """The same for the expert's decision."""
    played_on: tuple[str, ...]
    """The tiles the tile played was put on (none: the bottom row; for a fall, the tile that
    fell)."""
    best_on: tuple[str, ...]
    """The same for the expert's decision."""


@dataclass(frozen=True)
class TurningGroup:
    """One player's turning points: the reader's own moves (``mine``) or a computer seat's."""

    seat: int
    mine: bool
    decisions: int
    """Their decisions the coach judged."""
    agreed: int
    """How many of those the expert would have made the same."""
    points: tuple[TurningPoint, ...]
    """The moves that cost them the most, the costliest first (a few at most)."""


@dataclass(frozen=True)
class TurningShown:
    """A match's turning points for one reader (privately), with the match's table."""

    table: Table
    state: TurningState
    groups: tuple[TurningGroup, ...] = ()
    rounds: int = 1
    """The rounds the match played (a round is named only when there were several)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

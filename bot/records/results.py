"""What the records service answers, as data: the types the show side words (it imports these,
never the service).

The other answers are the store's records (:mod:`data.records`: ``PlayerStats``, ``BoardPage``,
``HistoryEntry``) and a replay's steps (:class:`bot.records.replay.ReplayStep`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.records.replay import ReplayStep
from data.store import Table

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

"""Keeping the turning points' analyses of played matches (:class:`data.store.Analyses`): one
implementation for both stores, over the SQL both dialects share (:class:`data.sql.Sql`).

The analysis itself is the engine's (:mod:`engine.ai.review`: every decision of a match judged by
the coach); the bot works it out in the background once a match has a result. Here, the row
that makes it happen once:

- a **claim**: of the matches that ended since a given time and have no analysis, the one that
  ended last goes to one process (an upsert that only takes a row nobody holds, atomic on both
  databases), until a lease runs out; the process renews it while it works, releases it if it
  stops (shutting down), and a process that dies leaves it to run out;
- the **analysis**, saved once: the first save of a match wins, later ones change nothing (two
  processes whose leases overlapped worked out the same thing);
- an analysis claimed too often without being saved is given up (:data:`MAX_ATTEMPTS`): a match
  that crashes whoever works on it is not taken up forever.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from data import rows as R
from data.errors import CorruptRecord
from data.model import AnalysisState, MatchAnalysis
from data.sql import Sql
from engine.ai.review import Review

MAX_ATTEMPTS: Final = 3
"""Claims of one match's analysis, released ones excepted, after which it is given up."""

CANDIDATES = (
    "SELECT r.table_id FROM results r LEFT JOIN analyses a ON a.table_id = r.table_id "
    "WHERE r.finished_at >= ? AND (a.table_id IS NULL OR (a.done_at IS NULL "
    "AND a.claimed_until <= ? AND a.attempts < ?)) "
    "ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?"
)
"""The matches (ended at or after a time) an analysis may be claimed for, the last ended first
(parameters: since, now, most attempts, how many)."""
CLAIM = (
    "INSERT INTO analyses (table_id, owner, claimed_until, attempts) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, "
    "claimed_until = excluded.claimed_until, attempts = analyses.attempts + 1 "
    "WHERE analyses.done_at IS NULL AND analyses.claimed_until <= ? AND analyses.attempts < ? "
    "RETURNING table_id"
)
RENEW = (
    "UPDATE analyses SET claimed_until = ? "
    "WHERE table_id = ? AND owner = ? AND done_at IS NULL AND claimed_until > ?"
)
RELEASE = (
    "UPDATE analyses SET owner = NULL, claimed_until = 0, attempts = attempts - 1 "
    "WHERE table_id = ? AND owner = ? AND done_at IS NULL"
)
SAVE = (
    "INSERT INTO analyses (table_id, owner, claimed_until, attempts, done_at, reviews) "
    "VALUES (?, NULL, 0, 1, ?, ?) ON CONFLICT (table_id) DO UPDATE SET owner = NULL, "
    "claimed_until = 0, done_at = excluded.done_at, reviews = excluded.reviews "
    "WHERE analyses.done_at IS NULL"
)
READ = "SELECT attempts, claimed_until, done_at, reviews FROM analyses WHERE table_id = ?"
CLAIM_BATCH: Final = 8
"""Candidates read at a time: the first that another process did not claim meanwhile is taken."""


class StoreAnalyses:
    """:class:`data.store.Analyses` on a database (see the module)."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql

    async def claim_analysis(
        self, owner: str, now: float, lease_s: float, since: float
    ) -> int | None:
        rows = await self._sql.fetch(CANDIDATES, (since, now, MAX_ATTEMPTS, CLAIM_BATCH))
        for (table_id,) in rows:
            claimed = await self._sql.change_rows(
                CLAIM,
                (int(table_id), owner, now + lease_s, now, MAX_ATTEMPTS),
                what=f"claiming the analysis of table {table_id}",
                repeatable=False,
            )
            if claimed:
                return int(table_id)
        return None

    async def renew_analysis(self, table_id: int, owner: str, now: float, until: float) -> bool:
        changed = await self._sql.change(
            RENEW, (until, table_id, owner, now), what=f"renewing the analysis of table {table_id}"
        )
        return changed > 0

    async def release_analysis(self, table_id: int, owner: str) -> None:
        await self._sql.change(
            RELEASE,
            (table_id, owner),
            what=f"releasing the analysis of table {table_id}",
            repeatable=False,
        )

    async def save_analysis(
        self, table_id: int, reviews: Sequence[Review] | None, now: float
    ) -> bool:
        text = None if reviews is None else R.dumps([r.to_dict() for r in reviews])
        changed = await self._sql.change(
            SAVE, (table_id, now, text), what=f"saving the analysis of table {table_id}"
        )
        return changed > 0

    async def analysis(self, table_id: int, now: float) -> MatchAnalysis | None:
        rows = await self._sql.fetch(READ, (table_id,))
        if not rows:
            return None
        attempts, claimed_until, done_at, reviews = rows[0]
        if done_at is not None:
            state: AnalysisState = "done" if reviews is not None else "failed"
        elif int(attempts) >= MAX_ATTEMPTS and float(claimed_until) <= now:
            state = "failed"  # given up
        else:
            state = "working"
        found = _reviews(table_id, reviews) if state == "done" else ()
        return MatchAnalysis(table_id, state, found)


def _reviews(table_id: int, stored: Any) -> tuple[Review, ...]:
    """The reviews of a stored analysis (JSON text, or already decoded); :class:`CorruptRecord`
    if they do not read."""
    try:
        items = R.load_json(stored, "reviews") if isinstance(stored, str) else stored
        if not isinstance(items, list):
            raise ValueError("the reviews are not a JSON list")
        return tuple(Review.from_dict(item) for item in items)
    except ValueError as e:
        raise CorruptRecord(table_id, f"unreadable analysis: {e}") from None

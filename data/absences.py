"""Who is away in each server, and their decisions in a row the clock ran out on
(:class:`data.store.Absences`): one implementation for both stores, each statement written once
(:mod:`data.sql`).

A row of ``absences`` exists per server and player only while it says something: they are away
(``away_until``), or the clock ran out on their last decisions (``timeouts``). Any decision of
their own deletes it (:meth:`SharedAbsences.end_away`), so that the count is of decisions *in a
row*. A table's read carries the rows of its seated people (:attr:`data.model.Table.absences`),
in each store's own SQL (``data.sqlite_sql``, ``data.pg_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data import rows as R
from data.model import Absence
from data.sql import Sql

ABSENCE = "SELECT away_until, auto, timeouts FROM absences WHERE guild_id = ? AND user_id = ?"
SET_AWAY = (
    "INSERT INTO absences (guild_id, user_id, away_until, auto, timeouts) "
    "VALUES (?, ?, ?, ?, 0) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
    "away_until = excluded.away_until, auto = excluded.auto, timeouts = 0"
)
END_AWAY = (
    "DELETE FROM absences WHERE guild_id = ? AND user_id = ? RETURNING away_until, auto, timeouts"
)
COUNT_TIMEOUT = (
    "INSERT INTO absences (guild_id, user_id, away_until, auto, timeouts) "
    "VALUES (?, ?, NULL, ?, 1) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
    "timeouts = absences.timeouts + 1 RETURNING timeouts"
)
#: The count is checked in the UPDATE's own WHERE: of two processes at once, the second finds it
#: back at zero.
AWAY_AFTER_TIMEOUTS = (
    "UPDATE absences SET away_until = ?, auto = ?, timeouts = 0 "
    "WHERE guild_id = ? AND user_id = ? AND timeouts >= ?"
)


OPEN_TABLES = (
    "SELECT id, seats FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing') ORDER BY id"
)


def absence_of(row: Sequence[Any]) -> Absence:
    """An ``absences`` row (``away_until, auto, timeouts``) as an :class:`Absence`."""
    until, auto, timeouts = row
    return Absence(None if until is None else float(until), bool(auto), int(timeouts))


class SharedAbsences:
    """The store methods of :class:`data.store.Absences`, on ``_sql``."""

    _sql: Sql

    async def absence(self, guild_id: int, user_id: int) -> Absence | None:
        rows = await self._sql.fetch(ABSENCE, (guild_id, user_id))
        return absence_of(rows[0]) if rows else None

    async def set_away(self, guild_id: int, user_id: int, until: float) -> None:
        await self._sql.change(SET_AWAY, (guild_id, user_id, until, False), what="an absence")

    async def end_away(self, guild_id: int, user_id: int) -> Absence | None:
        rows = await self._sql.change_rows(
            END_AWAY, (guild_id, user_id), what="an absence's end", repeatable=False
        )
        return absence_of(rows[0]) if rows else None

    async def count_timeout(self, guild_id: int, user_id: int) -> int:
        rows = await self._sql.change_rows(
            COUNT_TIMEOUT, (guild_id, user_id, False), what="a time-out", repeatable=False
        )
        return int(rows[0][0])

    async def seated_tables(self, guild_id: int, user_id: int) -> list[int]:
        """The open tables of the server where the player holds a seat (their seats read here:
        a server has few open tables, and no dialect's JSON is needed)."""
        found = []
        for table_id, seats in await self._sql.fetch(OPEN_TABLES, (guild_id,)):
            try:
                seated = R.parse_seats(seats) if isinstance(seats, str) else ()
            except ValueError:
                continue  # an unreadable row is reported by its own reads
            if any(s.user_id == user_id and s.ai is None for s in seated):
                found.append(int(table_id))
        return found

    async def away_after_timeouts(
        self, guild_id: int, user_id: int, until: float, timeouts: int
    ) -> bool:
        changed = await self._sql.change(
            AWAY_AFTER_TIMEOUTS,
            (until, True, guild_id, user_id, max(1, timeouts)),
            what="an absence after time-outs",
            repeatable=False,
        )
        return changed > 0

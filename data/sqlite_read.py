"""Reading the SQLite store: tables (decoded and checked by :mod:`data.rows`), logs, results,
and the check of every game against its log.

Reads go through the read-only connection of :class:`data.sqlite_db.Database`: they see the
last committed state and never wait for a write.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Sequence
from typing import Any

from data import checks
from data import results as RS
from data import rows as R
from data import sqlite_sql as Q
from data.errors import CorruptRecord, NotFound
from data.model import LoggedAction, Table, TableProblem
from data.sqlite_db import Database

log = logging.getLogger(__name__)


class SqliteReads:
    """The reading half of :class:`data.sqlite.SqliteStore`."""

    _db: Database
    validate_states: bool
    _reported: set[tuple[int, int | None, str]]

    async def get_table(self, table_id: int) -> Table:
        """Any table, open or closed. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._db.read(f"{Q.SELECT_TABLE} WHERE t.id = ?", (table_id,))
        if not rows:
            raise NotFound(f"no table {table_id}")
        return R.table_from_row(Q.table_row(rows[0]), validate=self.validate_states)

    async def table_numbered(self, guild_id: int, number: int) -> int | None:
        """The id of the guild's table numbered ``number``, or None."""
        rows = await self._db.read(
            "SELECT id FROM tables WHERE guild_id = ? AND number = ?", (guild_id, number)
        )
        return int(rows[0][0]) if rows else None

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The open table living in ``channel_id`` (a channel, or a game's thread), or None.
        Raises :class:`CorruptRecord` if it is unreadable (its ``version`` lets the caller abort
        it)."""
        rows = await self._db.read(
            f"{Q.SELECT_TABLE} WHERE {Q.PLACE} = ? AND {Q.OPEN}", (channel_id,)
        )
        if not rows:
            return None
        return R.table_from_row(Q.table_row(rows[0]), validate=self.validate_states)

    async def open_tables(self) -> list[Table]:
        """Every open lobby and game, oldest first. Unreadable ones (bad JSON, a version gap)
        are logged and skipped; states are not checked with the engine here (see the class)."""
        return self._tables(await self._db.read(f"{Q.SELECT_TABLE} WHERE {Q.OPEN} ORDER BY t.id"))

    async def due_timers(self, now: float) -> list[Table]:
        """Open tables whose deadline or reminder time is at or before ``now``."""
        return self._tables(await self._db.read(Q.SELECT_DUE, (now, now)))

    def _tables(self, rows: Sequence[Sequence[Any]]) -> list[Table]:
        tables: list[Table] = []
        # Parsing thousands of states makes only reachable, acyclic objects: the collector's
        # repeated passes over them would double the time of a start-up load.
        paused = len(rows) > 100 and gc.isenabled()
        if paused:
            gc.disable()
        try:
            for values in rows:
                try:
                    tables.append(R.table_from_row(Q.table_row(values), validate=False))
                except CorruptRecord as e:
                    R.report_skipped(self._reported, e)
        finally:
            if paused:
                gc.enable()
        return tables

    async def action_log(self, table_id: int) -> list[LoggedAction]:
        """A table's moves in order. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._db.read(
            "SELECT a.version, a.seat, a.user_id, a.action, a.at FROM actions a "
            "WHERE a.table_id = ? ORDER BY a.version",
            (table_id,),
        )
        if not rows:
            exists = await self._db.read("SELECT 1 FROM tables WHERE id = ?", (table_id,))
            if not exists:
                raise NotFound(f"no table {table_id}")
            return []
        return [R.action_from_row(table_id, v, s, u, a, at) for v, s, u, a, at in rows]

    # --- results and checks ---------------------------------------------------------------------

    async def results(
        self, guild_id: int | None = None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Matches with a result, newest first (of one server if ``guild_id``; at most ``limit``).

        Each is ``{"table_id", "guild_id", "channel_id", "finished_at", "seats" (seat dicts),
        "scores" (totals by seat, lowest wins; None if unknown), "winners" (seat indexes),
        "results" (what the bot passed to ``end_table``)}``.
        """
        where, params = ("WHERE guild_id = ?", [guild_id]) if guild_id is not None else ("", [])
        sql = (
            "SELECT table_id, guild_id, channel_id, finished_at, seats, scores, winners, data "
            f"FROM results {where} ORDER BY finished_at DESC, table_id DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return RS.results_from_rows(await self._db.read(sql, params))

    async def check(self) -> list[TableProblem]:
        """Replay every game (open or closed) from its initial state and action log, compare
        with the stored state, and report unreadable rows, version gaps, a started game without
        its initial state and a closed table whose version does not match its log. Each table is
        read in one snapshot, so the check can run while the bot is writing."""
        problems: list[TableProblem] = []
        ids = [int(r[0]) for r in await self._db.read("SELECT id FROM tables ORDER BY id")]
        for table_id in ids:
            rows, log_rows = await self._db.snapshot(
                [
                    (f"{Q.SELECT_ROW} WHERE t.id = ?", (table_id,)),
                    (
                        "SELECT version, seat, action FROM actions WHERE table_id = ? "
                        "ORDER BY version",
                        (table_id,),
                    ),
                ]
            )
            if rows:
                found = checks.check_table(
                    Q.table_row(rows[0]), [(int(v), s, a) for v, s, a in log_rows]
                )
                problems.extend(checks.problems_of(table_id, found))
            await asyncio.sleep(0)
        return problems

    async def integrity_check(self) -> list[str]:
        """SQLite's own check of the file (``PRAGMA quick_check``): empty when all is well."""
        found = [str(r[0]) for r in await self._db.read("PRAGMA quick_check")]
        return [] if found == ["ok"] else found

    async def table_count(self) -> int:
        """How many tables (of any status) the database holds."""
        rows = await self._db.read("SELECT count(*) FROM tables")
        return int(rows[0][0])

    async def open_table_count(self) -> int:
        """How many tables are open (in the lobby or playing)."""
        rows = await self._db.read(f"SELECT count(*) FROM tables t WHERE {Q.OPEN}")
        return int(rows[0][0])

    async def schema_version(self) -> int:
        """The database's schema version."""
        rows = await self._db.read("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(rows[0][0])

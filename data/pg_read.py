"""Reading the PostgreSQL store: tables (decoded and checked by :mod:`data.rows`), logs,
results, the check of every game against its log, and counts for the operator's tools.

Each table is read with its message ids, departures, DM failures, dealt state and the shape of
its log in one statement (:data:`data.pg_rows.SELECT_TABLE`), so from one snapshot.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import asyncpg

from data import checks
from data import results as RS
from data import rows as R
from data.errors import CorruptRecord, NotFound
from data.model import LoggedAction, Table, TableProblem
from data.pg_db import Database
from data.pg_rows import OPEN, PLACE, SELECT_TABLE, table_from_record
from data.pgmigrate import current_version

if TYPE_CHECKING:
    from data.pgmigrate import Conn


class PgReads:
    """The reading half of :class:`data.postgres.PostgresStore`."""

    _db: Database
    validate_states: bool
    _initial: R.InitialStates
    _reported: set[tuple[int, int | None, str]]

    async def get_table(self, table_id: int) -> Table:
        """Any table, open or closed. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._db.read(f"{SELECT_TABLE} WHERE t.id = $1", table_id)
        if not rows:
            raise NotFound(f"no table {table_id}")
        return table_from_record(rows[0], validate=self.validate_states)

    async def table_numbered(self, guild_id: int, number: int) -> int | None:
        """The id of the guild's table numbered ``number``, or None."""
        rows = await self._db.read(
            "SELECT id FROM tables WHERE guild_id = $1 AND number = $2", guild_id, number
        )
        return int(rows[0][0]) if rows else None

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The open table living in ``channel_id`` (a channel, or a game's thread), or None;
        :class:`CorruptRecord` if it is unreadable."""
        rows = await self._db.read(f"{SELECT_TABLE} WHERE {PLACE} = $1 AND {OPEN}", channel_id)
        return table_from_record(rows[0], validate=self.validate_states) if rows else None

    async def open_tables(self) -> list[Table]:
        """Every open lobby and game, oldest first; unreadable rows are logged and skipped."""
        rows = await self._db.read(f"{SELECT_TABLE} WHERE {OPEN} ORDER BY t.id")
        return self._tables(rows)

    async def due_timers(self, now: float) -> list[Table]:
        """Open tables whose deadline or reminder time is at or before ``now``."""
        rows = await self._db.read(
            f"{SELECT_TABLE} WHERE {OPEN} AND (t.deadline <= $1 OR t.reminder_at <= $1) "
            "ORDER BY t.id",
            now,
        )
        return self._tables(rows)

    def _tables(self, rows: Sequence[asyncpg.Record]) -> list[Table]:
        tables: list[Table] = []
        paused = len(rows) > 100 and gc.isenabled()
        if paused:
            gc.disable()
        try:
            for rec in rows:
                try:
                    table = table_from_record(rec, validate=False)
                except CorruptRecord as e:
                    R.report_skipped(self._reported, e)
                    continue
                tables.append(table)
                if table.status == "playing":
                    self._initial.put(table.id, rec["start_version"], table.initial_state)
        finally:
            if paused:
                gc.enable()
        return tables

    async def action_log(self, table_id: int) -> list[LoggedAction]:
        """A table's moves in order. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._db.read(
            "SELECT a.version, a.seat, a.user_id, a.action, a.at FROM actions a "
            "WHERE a.table_id = $1 ORDER BY a.version",
            table_id,
        )
        if not rows:
            if not await self._db.read("SELECT 1 FROM tables WHERE id = $1", table_id):
                raise NotFound(f"no table {table_id}")
            return []
        return [R.action_from_row(table_id, v, s, u, a, at) for v, s, u, a, at in rows]

    async def results(
        self, guild_id: int | None = None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Matches with a result, newest first (see :meth:`data.store.Store.results`)."""
        rows = await self._db.read(
            "SELECT table_id, guild_id, channel_id, finished_at, seats, scores, winners, data "
            "FROM results WHERE $1::bigint IS NULL OR guild_id = $1 "
            "ORDER BY finished_at DESC, table_id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return RS.results_from_rows([tuple(r) for r in rows])

    async def check(self) -> list[TableProblem]:
        """Replay every game from its initial state and action log and compare with the stored
        state (see :meth:`data.store.Store.check`). Each table is read in one snapshot."""
        problems: list[TableProblem] = []
        ids = [int(r[0]) for r in await self._db.read("SELECT id FROM tables ORDER BY id")]
        for table_id in ids:
            row, log_rows = await self._snapshot(table_id)
            if row is not None:
                problems.extend(checks.problems_of(table_id, checks.check_table(row, log_rows)))
        return problems

    async def _snapshot(
        self, table_id: int
    ) -> tuple[R.TableRow | None, list[tuple[int, int | None, str]]]:
        async def op(conn: Conn) -> tuple[asyncpg.Record | None, list[asyncpg.Record]]:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                row = await conn.fetchrow(
                    "SELECT t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, "
                    "t.seats, t.version, t.state, i.state, t.start_version, t.deadline, "
                    "t.reminder_at, t.created_at, t.updated_at, t.held "
                    "FROM tables t LEFT JOIN initial_states i ON i.table_id = t.id "
                    "WHERE t.id = $1",
                    table_id,
                )
                log_rows = await conn.fetch(
                    "SELECT version, seat, action FROM actions WHERE table_id = $1 "
                    "ORDER BY version",
                    table_id,
                )
            return row, list(log_rows)

        row, log_rows = await self._db.run(op, transaction=False, what="checking")
        if row is None:
            return None, []
        table_row = replace(R.TableRow(*row[:15]), held=row[15])
        return table_row, [(int(v), s, a) for v, s, a in log_rows]

    async def integrity_check(self) -> list[str]:
        """Problems of the database as a whole (empty when all is well): the table id sequence
        must be past every id in use, so that a new table never takes an old table's id."""
        rows = await self._db.read(
            "SELECT (SELECT last_value FROM table_ids), (SELECT max(id) FROM tables)"
        )
        last, top = rows[0]
        if top is not None and last < top:
            return [f"the table id sequence ({last}) is behind the ids in use (up to {top})"]
        return []

    async def table_count(self) -> int:
        """How many tables (of any status) the database holds."""
        return await self.count_rows("tables")

    async def open_table_count(self) -> int:
        """How many tables are open (in the lobby or playing)."""
        rows = await self._db.read(f"SELECT count(*) FROM tables t WHERE {OPEN}")
        return int(rows[0][0])

    async def count_rows(self, table: str) -> int:
        """How many rows one of the store's tables holds (for checks and reports)."""
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
        rows = await self._db.read(f'SELECT count(*) FROM "{table}"')
        return int(rows[0][0])

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A connection of the pool, for maintenance such as ``python -m data copy`` (the
        bot itself never needs one: every change goes through the methods above)."""
        async with self._db.connection() as conn:
            yield conn

    async def schema_version(self) -> int:
        async def op(conn: Conn) -> int:
            return await current_version(conn)

        return await self._db.run(op, transaction=False, what="reading the schema version")

"""The PostgreSQL store's writes of a held turn (:mod:`data.held`: a turn kept back for its undo
window, then handed on or undone): each one transaction that locks the table's row
(``FOR UPDATE``), checks it and writes, so that of several processes changing the same held
turn one does and the others find the table changed.

A write whose ``COMMIT`` was lost with its connection is looked up: what it leaves behind (the
held turn it wrote, gone, or handed on into the action log) says whether it is stored; if it
cannot be known, a :class:`~data.store.StoreError` says to read the table again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from data import held as H
from data import results as RS
from data import rows as R
from data.errors import StoreError
from data.model import HeldTurn, LoggedAction, Seat, Table, TableStatus
from data.pg_db import CommitUnknown, Database
from data.pg_rows import SELECT_TABLE, table_from_record
from data.sql import numbered

if TYPE_CHECKING:
    from data.pgmigrate import Conn

_ROW = numbered(H.ROW) + " FOR UPDATE"


async def _row(conn: Conn, table_id: int) -> tuple[Any, ...] | None:
    row = await conn.fetchrow(_ROW, table_id)
    return None if row is None else tuple(row)


async def _table(conn: Conn, table_id: int) -> Table:
    row = await conn.fetchrow(f"{SELECT_TABLE} WHERE t.id = $1", table_id)
    assert row is not None
    return table_from_record(row, validate=False)


class PgHeld:
    """The held-turn writes of :class:`data.postgres.PostgresStore` (see
    :class:`data.store.Tables`)."""

    _db: Database

    async def _written(
        self,
        table_id: int,
        op: Callable[[Conn], Awaitable[Table]],
        what: str,
        stored: Callable[[Table], Awaitable[bool]],
    ) -> Table:
        """``op`` in a transaction; after a lost ``COMMIT``, the table if ``stored`` says
        the write is in it."""
        try:
            return await self._db.write(op, what)
        except CommitUnknown as e:

            async def read(conn: Conn) -> Table:
                return await _table(conn, table_id)

            table = await self._db.run(read, transaction=False, what="reading")
            if await stored(table):
                return table
            raise StoreError(str(e)) from e.__cause__

    async def hold_turn(
        self,
        table_id: int,
        expected_version: int,
        held: HeldTurn,
        *,
        replacing: str | None,
        deadline: float | None,
        reminder_at: float | None,
        now: float,
    ) -> Table:
        text = R.dumps(held.to_dict())

        async def op(conn: Conn) -> Table:
            H.check_hold(table_id, await _row(conn, table_id), expected_version, replacing)
            await conn.execute(numbered(H.HOLD), text, deadline, reminder_at, now, table_id)
            return await _table(conn, table_id)

        async def stored(table: Table) -> bool:
            return table.version == expected_version + 1 and table.held == held

        return await self._written(table_id, op, f"holding a turn at table {table_id}", stored)

    async def undo_turn(
        self, table_id: int, expected_version: int, token: str, *, now: float
    ) -> Table:
        async def op(conn: Conn) -> Table:
            held = H.check_undo(table_id, await _row(conn, table_id), expected_version, token)
            version = expected_version - len(held.actions)
            await conn.execute(
                numbered(H.UNDO), version, held.deadline, held.reminder_at, now, table_id
            )
            return await _table(conn, table_id)

        async def stored(table: Table) -> bool:
            # Only an Undo takes a table's version back.
            return table.version < expected_version and (
                table.held is None or table.held.token != token
            )

        return await self._written(table_id, op, f"undoing a turn at table {table_id}", stored)

    async def hand_on(
        self,
        table_id: int,
        expected_version: int,
        token: str,
        *,
        actions: Sequence[LoggedAction],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
        seats: tuple[Seat, ...] | None = None,
        status: TableStatus | None = None,
    ) -> Table:
        state_json = R.dumps(state)
        seats_json = None if seats is None else R.seats_json(seats)
        logged = [
            (table_id, a.version, a.seat, a.user_id, R.dumps(a.action), a.at) for a in actions
        ]

        async def op(conn: Conn) -> Table:
            version = H.check_hand_on(
                table_id, await _row(conn, table_id), expected_version, token, actions
            )
            await conn.executemany(numbered(H.LOG), logged)
            await conn.execute(
                numbered(H.HAND_ON),
                version,
                state_json,
                deadline,
                reminder_at,
                now,
                seats_json,
                status,
                table_id,
            )
            table = await _table(conn, table_id)
            if status == "finished":
                match, players = RS.result_rows(
                    table.id,
                    table.guild_id,
                    table.channel_id,
                    table.updated_at,
                    table.seats,
                    table.state,
                    None,
                )
                await conn.execute(numbered(RS.RESULT_UPSERT), *match)
                await conn.execute(numbered(RS.RESULT_PLAYERS_DELETE), table.id)
                await conn.executemany(numbered(RS.RESULT_PLAYERS_INSERT), players)
            return table

        async def stored(table: Table) -> bool:
            last = actions[-1]

            async def logged_last(conn: Conn) -> bool:
                found = await conn.fetchval(
                    "SELECT action = $3::jsonb AND at = $4 FROM actions "
                    "WHERE table_id = $1 AND version = $2",
                    table_id,
                    last.version,
                    R.dumps(last.action),
                    last.at,
                )
                return bool(found)

            return await self._db.run(logged_last, transaction=False, what="reading")

        return await self._written(table_id, op, f"handing on a turn at table {table_id}", stored)

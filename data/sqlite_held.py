"""The SQLite store's writes of a held turn (:mod:`data.held`: a turn kept back for its undo
window, then handed on or undone): each one transaction under the write lock, which reads the
row, checks it and writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from data import held as H
from data import results as RS
from data import rows as R
from data import sqlite_sql as Q
from data.model import HeldTurn, LoggedAction, Seat, Table, TableStatus
from data.sqlite_db import Database


def _row(conn: sqlite3.Connection, table_id: int) -> tuple[Any, ...] | None:
    rows = list(conn.execute(H.ROW, (table_id,)))
    return tuple(rows[0]) if rows else None


def _table(conn: sqlite3.Connection, table_id: int) -> Table:
    rows = list(conn.execute(f"{Q.SELECT_ROW} WHERE t.id = ?", (table_id,)))
    return R.table_from_row(Q.table_row(rows[0]), validate=False)


class SqliteHeld:
    """The held-turn writes of :class:`data.sqlite.SqliteStore` (see
    :class:`data.store.Tables`)."""

    _db: Database

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

        def op(conn: sqlite3.Connection) -> Table:
            H.check_hold(table_id, _row(conn, table_id), expected_version, replacing)
            conn.execute(H.HOLD, (text, deadline, reminder_at, now, table_id))
            return _table(conn, table_id)

        return await self._db.write(op)

    async def undo_turn(
        self, table_id: int, expected_version: int, token: str, *, now: float
    ) -> Table:
        def op(conn: sqlite3.Connection) -> Table:
            held = H.check_undo(table_id, _row(conn, table_id), expected_version, token)
            version = expected_version - len(held.actions)
            conn.execute(H.UNDO, (version, held.deadline, held.reminder_at, now, table_id))
            return _table(conn, table_id)

        return await self._db.write(op)

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

        def op(conn: sqlite3.Connection) -> Table:
            version = H.check_hand_on(
                table_id, _row(conn, table_id), expected_version, token, actions
            )
            conn.executemany(H.LOG, logged)
            conn.execute(
                H.HAND_ON,
                (version, state_json, deadline, reminder_at, now, seats_json, status, table_id),
            )
            table = _table(conn, table_id)
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
                conn.execute(RS.RESULT_UPSERT, match)
                conn.execute(RS.RESULT_PLAYERS_DELETE, (table.id,))
                conn.executemany(RS.RESULT_PLAYERS_INSERT, players)
            return table

        return await self._db.write(op, moves=len(actions))

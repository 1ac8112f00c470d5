"""What the SQLite store keeps beside a table: the Discord messages it edits later (and the right
to edit one), its thread, the version its channel was shown, its departures and failed DMs
(:class:`data.store.KeptMessages`, and the side writes of :class:`data.store.Tables`).

None of these bumps the table's version: each is one statement under the write lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from typing import Any

from data import sqlite_sql as Q
from data.errors import ChannelBusy, NotFound
from data.sqlite_db import Database


class SqliteKept:
    """The kept-beside-a-table half of :class:`data.sqlite.SqliteStore`."""

    _db: Database
    # Per kept message being edited: its lock and how many callers hold or wait for it.
    _edit_locks: dict[tuple[int, str], tuple[asyncio.Lock, list[int]]]

    async def get_messages(self, table_id: int) -> dict[str, int]:
        rows = await self._db.read(
            "SELECT key, message_id FROM messages WHERE table_id = ? ORDER BY key", (table_id,)
        )
        return {str(k): int(v) for k, v in rows}

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """Remember the thread an open table's game lives in. Raises :class:`ChannelBusy` if
        another open table lives there, :class:`NotFound` if the table is not open."""

        def op(conn: sqlite3.Connection) -> None:
            busy = list(
                conn.execute(
                    f"SELECT t.id FROM tables t WHERE {Q.PLACE} = ? AND {Q.OPEN} AND t.id != ?",
                    (thread_id, table_id),
                )
            )
            if busy:
                raise ChannelBusy(int(busy[0][0]))
            cursor = conn.execute(
                f"UPDATE tables AS t SET thread_id = ? WHERE t.id = ? AND {Q.OPEN}",
                (thread_id, table_id),
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no open table {table_id}")

        await self._db.write(op)

    async def record_departure(
        self, table_id: int, seat: int, user_id: int, now: float, name: str
    ) -> None:
        """Remember that ``user_id`` (seated as ``name``) left the running game from ``seat``
        (the first record of a seat stays). Raises :class:`NotFound`."""
        await self._insert_owned(
            table_id,
            "INSERT INTO departures (table_id, seat, user_id, at, name) SELECT ?, ?, ?, ?, ? "
            "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) ON CONFLICT DO NOTHING",
            (table_id, seat, user_id, now, name, table_id),
        )

    async def note_dm_failed(self, table_id: int, user_id: int) -> bool:
        """Remember that a direct message to ``user_id`` failed here; True the first time only
        (the insert and its count are one statement under the write lock)."""
        return await self._insert_owned(
            table_id,
            "INSERT INTO dm_failures (table_id, user_id) SELECT ?, ? "
            "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) ON CONFLICT DO NOTHING",
            (table_id, user_id, table_id),
        )

    async def _insert_owned(self, table_id: int, sql: str, params: Sequence[Any]) -> bool:
        """Run an insert of something kept beside a table; True if it added a row.
        :class:`NotFound` if there is no such table."""

        def op(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(sql, params)
            if cursor.rowcount > 0:
                return True
            found = conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,))
            if not list(found):
                raise NotFound(f"no table {table_id}")
            return False

        return await self._db.write(op)

    async def mark_shown(self, table_id: int, version: int) -> None:
        """Remember that the channel was shown the table at ``version`` (never backwards)."""

        def op(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE tables SET shown_version = max(coalesce(shown_version, 0), ?) WHERE id = ?",
                (version, table_id),
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no table {table_id}")

        await self._db.write(op)

    async def set_message(
        self, table_id: int, key: str, message_id: int, shown_version: int | None = None
    ) -> None:
        """Remember a Discord message id under ``key``; overwrites. Raises :class:`NotFound`."""
        if shown_version is None:
            await self._insert_owned(
                table_id,
                "INSERT INTO messages (table_id, key, message_id) "
                "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) "
                "ON CONFLICT (table_id, key) DO UPDATE SET message_id = excluded.message_id",
                (table_id, key, message_id, table_id),
            )
            return
        await self._insert_owned(
            table_id,
            "INSERT INTO messages (table_id, key, message_id, shown_version) "
            "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) "
            "ON CONFLICT (table_id, key) DO UPDATE "
            "SET message_id = excluded.message_id, shown_version = excluded.shown_version",
            (table_id, key, message_id, shown_version, table_id),
        )

    @contextlib.asynccontextmanager
    async def message_edit(self, table_id: int, key: str, version: int) -> AsyncIterator[bool]:
        """The right to edit the kept message ``key`` to show ``version`` (see
        :meth:`data.store.Store.message_edit`): a lock of this process per message, since
        SQLite serves one process only."""
        name = (table_id, key)
        lock, users = self._edit_locks.setdefault(name, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                rows = await self._db.read(
                    "SELECT shown_version FROM messages WHERE table_id = ? AND key = ?", name
                )
                shown = rows[0][0] if rows else None
                go = shown is None or version > shown
                yield go
                if go:

                    def op(conn: sqlite3.Connection) -> None:
                        conn.execute(
                            "UPDATE messages SET shown_version = "
                            "max(coalesce(shown_version, 0), ?) WHERE table_id = ? AND key = ?",
                            (version, table_id, key),
                        )

                    await self._db.write(op)
        finally:
            users[0] -= 1
            if not users[0]:
                self._edit_locks.pop(name, None)

"""What the PostgreSQL store keeps beside a table: the Discord messages it edits later (and the
right to edit one, across processes), its thread, the version its channel was shown, its
departures and failed DMs (:class:`data.store.KeptMessages`, and the side writes of
:class:`data.store.Tables`). None of these bumps the table's version.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import asyncpg

from data.errors import ChannelBusy, NotFound, StoreError
from data.pg_db import Database
from data.pg_rows import OPEN, PLACE

if TYPE_CHECKING:
    from data.pgmigrate import Conn

#: The first key of the advisory locks behind :meth:`PgKept.message_edit` (the second is a
#: hash of the table id and the message's key: two messages that share it only take turns).
MESSAGE_LOCKS = 0x46500002


def message_lock(table_id: int, key: str) -> int:
    """The second key of a kept message's advisory lock: a signed 32-bit hash of its name."""
    digest = hashlib.blake2b(f"{table_id}:{key}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgKept:
    """The kept-beside-a-table half of :class:`data.postgres.PostgresStore`."""

    _db: Database
    # Edits of kept messages hold a connection while Discord answers: at most half of the
    # pool, so that moves always find connections.
    _edit_gate: asyncio.Semaphore

    async def get_messages(self, table_id: int) -> dict[str, int]:
        rows = await self._db.read(
            "SELECT key, message_id FROM messages WHERE table_id = $1 ORDER BY key", table_id
        )
        return {str(k): int(v) for k, v in rows}

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """Remember the thread an open table's game lives in. Raises :class:`ChannelBusy` if
        another open table lives there (the unique index decides between processes),
        :class:`NotFound` if the table is not open."""

        async def op(conn: Conn) -> str:
            try:
                async with conn.transaction():
                    return str(
                        await conn.execute(
                            f"UPDATE tables AS t SET thread_id = $2 WHERE t.id = $1 AND {OPEN}",
                            table_id,
                            thread_id,
                        )
                    )
            except asyncpg.UniqueViolationError:
                busy = await conn.fetchval(
                    f"SELECT t.id FROM tables t WHERE {PLACE} = $1 AND {OPEN} AND t.id <> $2",
                    thread_id,
                    table_id,
                )
                raise ChannelBusy(int(busy) if busy is not None else 0) from None

        status = await self._db.write(op, f"the thread of table {table_id}")
        if status == "UPDATE 0":
            raise NotFound(f"no open table {table_id}")

    async def _insert(self, sql: str, table_id: int, *args: Any, what: str) -> str:
        """Run an INSERT or UPDATE on one table's rows; NotFound if there is no such table."""

        async def op(conn: Conn) -> str:
            try:
                return str(await conn.execute(sql, table_id, *args))
            except asyncpg.ForeignKeyViolationError:
                raise NotFound(f"no table {table_id}") from None

        return await self._db.run(op, transaction=False, what=what)

    async def record_departure(
        self, table_id: int, seat: int, user_id: int, now: float, name: str
    ) -> None:
        await self._insert(
            "INSERT INTO departures (table_id, seat, user_id, at, name) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id, seat) DO NOTHING",
            table_id,
            seat,
            user_id,
            now,
            name,
            what=f"a departure from table {table_id}",
        )

    async def note_dm_failed(self, table_id: int, user_id: int) -> bool:
        status = await self._insert(
            "INSERT INTO dm_failures (table_id, user_id) VALUES ($1, $2) "
            "ON CONFLICT (table_id, user_id) DO NOTHING",
            table_id,
            user_id,
            what=f"a failed DM at table {table_id}",
        )
        return status == "INSERT 0 1"

    async def mark_shown(self, table_id: int, version: int) -> None:
        status = await self._insert(
            "UPDATE tables SET shown_version = GREATEST(COALESCE(shown_version, 0), $2) "
            "WHERE id = $1",
            table_id,
            version,
            what=f"the shown version of table {table_id}",
        )
        if status == "UPDATE 0":
            raise NotFound(f"no table {table_id}")

    async def set_message(
        self, table_id: int, key: str, message_id: int, shown_version: int | None = None
    ) -> None:
        """Remember a Discord message id under ``key``; overwrites. Raises :class:`NotFound`."""
        if shown_version is None:
            await self._insert(
                "INSERT INTO messages (table_id, key, message_id) VALUES ($1, $2, $3) "
                "ON CONFLICT (table_id, key) DO UPDATE SET message_id = excluded.message_id",
                table_id,
                key,
                message_id,
                what=f"a message id of table {table_id}",
            )
            return
        await self._insert(
            "INSERT INTO messages (table_id, key, message_id, shown_version) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (table_id, key) DO UPDATE "
            "SET message_id = excluded.message_id, shown_version = excluded.shown_version",
            table_id,
            key,
            message_id,
            shown_version,
            what=f"a message id of table {table_id}",
        )

    @contextlib.asynccontextmanager
    async def message_edit(self, table_id: int, key: str, version: int) -> AsyncIterator[bool]:
        """The right to edit the kept message ``key`` to show ``version`` (see
        :meth:`data.store.Store.message_edit`): a transaction on one pooled connection, held for
        the whole block, with a transaction-level advisory lock on the message, so that the
        lock ends with the transaction whatever happens (a process that dies included). At
        most half of the pool's connections are held by edits at a time."""
        failures = (
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.exceptions.InternalClientError,  # a connection the server ended mid-call
            OSError,
            TimeoutError,
        )
        async with self._edit_gate, self._db.connection() as conn:
            tr = conn.transaction()
            try:
                await tr.start()
                await conn.execute(
                    "SELECT pg_advisory_xact_lock($1, $2)",
                    MESSAGE_LOCKS,
                    message_lock(table_id, key),
                )
                shown = await conn.fetchval(
                    "SELECT shown_version FROM messages WHERE table_id = $1 AND key = $2",
                    table_id,
                    key,
                )
            except failures as e:  # a statement timeout, say: end the transaction here too
                await self._roll_back(tr)
                raise StoreError(f"could not lock message {key} of table {table_id}: {e}") from e
            except BaseException:  # cancelled (a shutdown) while waiting for the lock
                await self._roll_back(tr)
                raise
            go = shown is None or version > shown
            try:
                yield go
            except BaseException:
                await self._roll_back(tr)
                raise
            try:
                if go:
                    await conn.execute(
                        "UPDATE messages SET shown_version = GREATEST(COALESCE(shown_version, 0), "
                        "$3) WHERE table_id = $1 AND key = $2",
                        table_id,
                        key,
                        version,
                    )
                await tr.commit()
            except failures as e:
                raise StoreError(
                    f"message {key} of table {table_id}: the database went away before the "
                    f"version it shows was noted ({e})"
                ) from e
            except BaseException:  # cancelled while noting it: nothing was noted
                await self._roll_back(tr)
                raise

    @staticmethod
    async def _roll_back(tr: asyncpg.transaction.Transaction) -> None:
        """End a transaction of :meth:`message_edit` that did not commit, before its connection
        goes back to the pool (which would otherwise roll it back and report an error)."""
        with contextlib.suppress(Exception):
            await tr.rollback()

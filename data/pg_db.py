"""The PostgreSQL store's connections: its pool, and running a change or a read on it safely.

- **First come, first served.** Callers wait for a connection in order (a semaphore in front of
  asyncpg's pool, which would hand a connection given back to whichever caller asks next).
- **A database that goes away is waited for**, up to ``retry_s`` seconds: connecting, reads,
  repeatable statements and a transaction that failed before its ``COMMIT`` was sent are tried
  again on a new connection. A statement that commits by itself and is not repeatable, or a
  ``COMMIT``, whose connection was lost while it was out raises :class:`CommitUnknown`: the
  caller finds out what happened (the store looks a move up in its action log).
- **Never a hang**: every statement has a timeout (``timeout_s``, also the session's
  ``statement_timeout``); past it, or past the wait, a :class:`~data.store.StoreError` says so.
- PostgreSQL's own "data corrupted" errors become :class:`~data.store.DatabaseDamaged`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import asyncpg

from data.errors import DatabaseDamaged, StorageUnusable, StoreError
from data.pg_settings import POOL_MAX, POOL_MIN, RETRY_S, TIMEOUT_S, safe_url
from data.sql import numbered

if TYPE_CHECKING:
    from data.pgmigrate import Conn

log = logging.getLogger(__name__)

T = TypeVar("T")

# Errors that mean the connection or the server went away (safe to retry before a COMMIT).
_LOST: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
_LOST_OR_TIMEOUT: tuple[type[BaseException], ...] = (*_LOST, TimeoutError)
# Errors that no waiting mends: the message says what to fix.
_FATAL_CONNECT: tuple[type[BaseException], ...] = (
    asyncpg.InvalidCatalogNameError,
    asyncpg.InvalidPasswordError,
    asyncpg.InvalidAuthorizationSpecificationError,
)


def jittered(delay: float) -> float:
    """A wait of between half ``delay`` and ``delay``, at random: the processes (and the
    requests of one process) that lost the database together do not all knock again at the
    same instant when it comes back."""
    return random.uniform(delay / 2, delay)


def _is_lost(e: BaseException, conn: Conn | None = None) -> bool:
    if isinstance(e, _LOST):
        return True
    # The server ended an idle connection (an administrator, a restart): asyncpg finds its
    # protocol in a state it did not expect when the next statement starts, before sending it.
    if isinstance(e, asyncpg.InternalClientError):
        return True
    # "connection is closed": the pool's connection died under us
    return isinstance(e, asyncpg.InterfaceError) and conn is not None and _closed(conn)


def _closed(conn: Conn) -> bool:
    """Whether ``conn`` is closed (or was already given back to the pool, closed)."""
    try:
        return conn.is_closed()
    except asyncpg.InterfaceError:
        return True


def _discard(conn: Conn) -> None:
    """Close a broken connection at once, so that the pool opens a new one in its place."""
    with contextlib.suppress(asyncpg.InterfaceError):
        conn.terminate()


async def _keep_session(conn: asyncpg.Connection[Any]) -> None:
    """What the pool does to a connection given back (after rolling back a transaction left
    open): nothing more. The store changes no session state (its advisory locks end with their
    transactions; it sets, listens and holds cursors never), so asyncpg's default reset, a
    round trip of its own after every statement, would double each move's time."""


def _damaged(e: BaseException) -> DatabaseDamaged | None:
    """A DatabaseDamaged for PostgreSQL's own "data corrupted" / "index corrupted" errors."""
    state = getattr(e, "sqlstate", None)
    if state in ("XX001", "XX002"):
        return DatabaseDamaged(
            f"PostgreSQL reports damaged data ({e}): restore the database from a backup, or "
            "ask its administrator to repair it (REINDEX for an index); the bot will not "
            "repair it by itself"
        )
    return None


class CommitUnknown(StoreError):
    """The connection was lost while a change was out: it may or may not be stored."""


class Database:
    """A pool of connections to one PostgreSQL database (see the module)."""

    def __init__(
        self,
        url: str,
        *,
        pool_min: int,
        pool_max: int,
        timeout_s: float,
        retry_s: float,
        warm: Callable[[asyncpg.Connection[Any]], Awaitable[None]] | None = None,
    ) -> None:
        if pool_min < 0 or pool_max < 1 or pool_min > pool_max:
            raise ValueError(
                f"pool sizes must be 0 <= min <= max, max >= 1: {pool_min}, {pool_max}"
            )
        self.url = url
        self.pool_min, self.pool_max = pool_min, pool_max
        self.timeout_s, self.retry_s = timeout_s, retry_s
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._warm = warm
        self._gate = asyncio.Semaphore(pool_max)

    def safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        return safe_url(self.url)

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    async def open(self, setup: Callable[[Conn], Awaitable[object]]) -> None:
        """Connect (waiting up to ``retry_s`` for a database that is not up yet) and run
        ``setup`` on one connection (the migrations) before anyone else may use the pool."""
        if self._pool is not None:
            return
        pool = await self.retry_connect(self._create_pool)
        try:
            async with pool.acquire() as conn:
                await setup(conn)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def _create_pool(self) -> asyncpg.Pool[asyncpg.Record]:
        pool = await asyncpg.create_pool(
            self.url,
            min_size=self.pool_min,
            max_size=self.pool_max,
            # The server cancels a statement past timeout_s (and undoes it); the client gives
            # up a moment later, for a server that does not answer at all.
            command_timeout=self.timeout_s + 1.0,
            timeout=min(self.timeout_s, 10.0),
            reset=_keep_session,
            init=self._init,
            server_settings={
                "application_name": "flaming-pyramids",
                # The store's statements look rows up by key: one plan serves every call, and
                # planning each call anew would cost more than running it.
                "plan_cache_mode": "force_generic_plan",
                "statement_timeout": str(int(self.timeout_s * 1000)),
                "idle_in_transaction_session_timeout": str(int(self.timeout_s * 2000)),
            },
        )
        assert pool is not None
        return pool

    async def _init(self, conn: asyncpg.Connection[Any]) -> None:
        """Each new connection runs ``warm`` (the store's own statements, changing nothing),
        so that preparing them and looking up their types is not paid by the first moves.
        Best effort: before the first migration, or on a database that is not the bot's (which
        ``open`` then refuses), there is nothing to warm."""
        if self._warm is not None:
            with contextlib.suppress(asyncpg.PostgresError):
                await self._warm(conn)

    async def retry_connect(self, connect: Callable[[], Awaitable[T]]) -> T:
        """``connect()``, retried while the server is unreachable, up to ``retry_s``."""
        deadline = time.monotonic() + self.retry_s
        delay = 0.05
        while True:
            try:
                return await connect()
            except _FATAL_CONNECT as e:  # (waiting changes nothing: the settings must)
                raise StorageUnusable(
                    f"cannot use {self.safe_url()}: {e} (check the user, password and database "
                    "name in DATABASE_URL)"
                ) from e
            except _LOST_OR_TIMEOUT as e:
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"cannot reach the PostgreSQL database {self.safe_url()} "
                        f"after {self.retry_s:g} s ({type(e).__name__}: {e})"
                    ) from e
                wait = jittered(delay)
                log.warning("database unreachable (%s); trying again in %.2f s", e, wait)
                await asyncio.sleep(wait)
                delay = min(delay * 2, 1.0)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=self.timeout_s)
            except _LOST_OR_TIMEOUT:
                pool.terminate()

    async def _take_turn(self, what: str) -> None:
        """Wait for a connection to come free, in turn, for as long as a caller holding one may
        keep it (its wait for the database, then its statement); past that, StoreError."""
        if not self._gate.locked():
            await self._gate.acquire()
            return
        limit = self.retry_s + self.timeout_s
        try:
            async with asyncio.timeout(limit):
                await self._gate.acquire()
        except TimeoutError:
            raise StoreError(
                f"no database connection came free within {limit:g} s ({what}): every one "
                f"of the pool's {self.pool_max} is busy"
            ) from None

    def the_pool(self) -> asyncpg.Pool[asyncpg.Record]:
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    async def run(
        self,
        fn: Callable[[Conn], Awaitable[T]],
        *,
        transaction: bool,
        what: str,
        repeatable: bool = True,
    ) -> T:
        """``fn`` on a pooled connection (in a transaction if asked), retried while the database
        is away, as long as no ``COMMIT`` was sent. Without a transaction each statement commits
        by itself: one whose connection is lost while it is out is sent again only if it is
        ``repeatable`` (a read, or a write that does the same the second time); else
        :class:`CommitUnknown` is raised, for the caller to find out what happened."""
        pool = self.the_pool()
        deadline = time.monotonic() + self.retry_s
        delay = 0.05
        while True:
            conn: Conn | None = None
            committing = gated = False
            try:
                await self._take_turn(what)
                gated = True
                conn = await self.retry_connect(lambda: pool.acquire(timeout=self.timeout_s))
                if not transaction:
                    committing = not repeatable
                    return await fn(conn)
                tr = conn.transaction()
                await tr.start()
                try:
                    result = await fn(conn)
                except BaseException:
                    if not _closed(conn):
                        with contextlib.suppress(*_LOST, asyncpg.InterfaceError):
                            await tr.rollback()
                    raise
                committing = True
                await tr.commit()
                return result
            except StoreError:
                raise
            except asyncpg.QueryCanceledError as e:  # the server's statement_timeout: undone
                raise StoreError(
                    f"the database did not answer within {self.timeout_s:g} s ({what}); "
                    "nothing was changed"
                ) from e
            except TimeoutError as e:
                if committing:  # the server may still have done it
                    raise CommitUnknown(
                        f"the database did not answer within {self.timeout_s:g} s ({what}): "
                        "the change may or may not be stored; read the table again"
                    ) from e
                raise StoreError(
                    f"the database did not answer within {self.timeout_s:g} s ({what})"
                ) from e
            except Exception as e:
                damaged = _damaged(e)
                if damaged is not None:
                    raise damaged from e
                if not _is_lost(e, conn):
                    raise
                if conn is not None:
                    _discard(conn)
                if committing:
                    raise CommitUnknown(
                        f"the connection to the database was lost while committing {what}: "
                        "the change may or may not be stored; read the table again"
                    ) from e
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"the database went away and did not come back within "
                        f"{self.retry_s:g} s ({what}: {e})"
                    ) from e
                wait = jittered(delay)
                log.warning(
                    "database connection lost (%s: %s); trying again in %.2f s", what, e, wait
                )
                await asyncio.sleep(wait)
                delay = min(delay * 2, 1.0)
            finally:
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await pool.release(conn)  # type: ignore[arg-type]
                if gated:
                    self._gate.release()

    async def read(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async def op(conn: Conn) -> list[asyncpg.Record]:
            return list(await conn.fetch(sql, *args))

        return await self.run(op, transaction=False, what="reading")

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of one read written with ``?`` placeholders (:class:`data.sql.Sql`)."""
        return [tuple(r) for r in await self.read(numbered(sql), *params)]

    async def snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of each read (``?`` placeholders) from one snapshot: a read-only
        repeatable-read transaction."""

        async def op(conn: Conn) -> list[list[Any]]:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return [list(await conn.fetch(numbered(sql), *params)) for sql, params in queries]

        return await self.run(op, transaction=False, what="reading")

    async def change(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> int:
        """One write (``?`` placeholders), committed by itself; how many rows it changed."""

        async def op(conn: Conn) -> int:
            status = await conn.execute(numbered(sql), *params)
            return int(str(status).rsplit(" ", 1)[-1])

        return await self.run(op, transaction=False, what=what, repeatable=repeatable)

    async def change_rows(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> list[Sequence[Any]]:
        """One write (``?`` placeholders), committed by itself; the rows of its ``RETURNING``."""

        async def op(conn: Conn) -> list[Sequence[Any]]:
            return [tuple(r) for r in await conn.fetch(numbered(sql), *params)]

        return await self.run(op, transaction=False, what=what, repeatable=repeatable)

    async def write(self, fn: Callable[[Conn], Awaitable[T]], what: str) -> T:
        return await self.run(fn, transaction=True, what=what)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A connection of the pool, in turn with the other callers; one that cannot be had
        is waited for as :meth:`retry_connect` waits (past it, StoreError)."""
        pool = self.the_pool()
        async with self._gate:
            conn = await self.retry_connect(lambda: pool.acquire(timeout=self.timeout_s))
            try:
                yield conn
            finally:
                await pool.release(conn)


__all__ = ["POOL_MAX", "POOL_MIN", "RETRY_S", "TIMEOUT_S", "CommitUnknown", "Database"]

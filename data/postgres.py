"""The PostgreSQL store: one database shared by every bot process, on every machine.

Chosen by ``DATABASE_URL=postgresql://user:password@host/database`` (or ``postgres://``). It
implements :class:`~data.store.Store` with the same guarantees as the SQLite store:

- **One transaction per change**, in the process that asked for it, on a connection of the
  store's pool. Versioned writes are ``UPDATE ... WHERE id = $1 AND version = $2``: of two
  processes writing at the same version one wins, the other gets
  :class:`~data.store.VersionConflict` and writes nothing. A move's log row, state and version
  bump are one statement, so they commit together or not at all.
- **The database enforces** one open table per channel (a partial unique index:
  :class:`~data.store.ChannelBusy`) and the timer claims (``set_timers(expected_timers=...)`` is
  a compare-and-set in one ``UPDATE``: of several processes exactly one wins).
- **A database that goes away for a few seconds is waited for**: connecting, reads, and a
  transaction that failed before its ``COMMIT`` was sent are retried for up to ``retry_s``
  seconds. A move whose connection was lost during its single statement is looked up in the
  action log: found, it is answered as committed; not found and the table unchanged, it is sent
  again. Anything else fails with a :class:`~data.store.StoreError` that says so. Every
  statement has a timeout (``timeout_s``): never a hang.

Times are DOUBLE PRECISION (unix seconds, exactly as Python's floats), Discord ids BIGINT, and
state, options and seats JSONB.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import asyncpg
import orjson

from data import rows as R
from data.pgmigrate import check_known, current_version, migrate
from data.store import (
    OPEN_STATUSES,
    ChannelBusy,
    CorruptRecord,
    DatabaseDamaged,
    GuildSettings,
    LoggedAction,
    NotFound,
    PlayerPrefs,
    Seat,
    StoreError,
    Table,
    TableDefaults,
    TableOptions,
    TableProblem,
    TableStatus,
    VersionConflict,
)

if TYPE_CHECKING:
    from data.pgmigrate import Conn

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Defaults of the settings ``open_store`` reads from the environment (see the README).
POOL_MIN, POOL_MAX, TIMEOUT_S, RETRY_S = 2, 10, 30.0, 15.0
#: How many tables' parsed initial states this process keeps (to answer moves without them).
INITIAL_CACHE_SIZE = 1024

# The columns of a table row, with its message ids, departures and DM failures, and the shape
# of its action log, in one statement (one snapshot).
_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, t.seats, t.version, "
    "t.state, t.start_version, t.shown_version, t.deadline, t.reminder_at, t.created_at, "
    "t.updated_at, "
    "ARRAY(SELECT m.key FROM messages m WHERE m.table_id = t.id ORDER BY m.key), "
    "ARRAY(SELECT m.message_id FROM messages m WHERE m.table_id = t.id ORDER BY m.key), "
    "ARRAY(SELECT d.seat FROM departures d WHERE d.table_id = t.id ORDER BY d.seat), "
    "ARRAY(SELECT d.user_id FROM departures d WHERE d.table_id = t.id ORDER BY d.seat), "
    "ARRAY(SELECT f.user_id FROM dm_failures f WHERE f.table_id = t.id ORDER BY f.user_id)"
)
_INITIAL = "(SELECT i.state FROM initial_states i WHERE i.table_id = t.id)"
_LOG = "l.n, l.lo, l.hi"
_LOG_JOIN = (
    "LEFT JOIN LATERAL (SELECT count(*) AS n, min(a.version) AS lo, max(a.version) AS hi "
    "FROM actions a WHERE a.table_id = t.id) l ON true"
)
SELECT_TABLE = f"SELECT {_COLUMNS}, {_INITIAL}, {_LOG} FROM tables t {_LOG_JOIN}"
_OPEN = "t.status IN ('lobby', 'playing')"

# One move: the version check, the new state and the log row in one statement (so one round
# trip, committed by itself). A row whose options or seats are not JSON of the right shape is
# not moved (see _why). The returned columns are those of SELECT_TABLE without the state (the
# caller has it), the initial state (cached) and the log's shape (moves do not check it).
_MOVE = (
    "WITH t AS (UPDATE tables SET version = version + 1, state = $3, deadline = $4, "
    "reminder_at = $5, updated_at = $6, seats = COALESCE($7, seats), "
    "status = COALESCE($8, status) "
    "WHERE id = $1 AND version = $2 AND status = 'playing' "
    "AND jsonb_typeof(options) = 'object' AND jsonb_typeof(seats) = 'array' RETURNING *), "
    "a AS (INSERT INTO actions (table_id, version, seat, user_id, action, at) "
    "SELECT id, version, $9, $10, $11, $6 FROM t) "
    f"SELECT {_COLUMNS.replace('t.state, ', 'NULL, ')}, NULL, NULL, NULL, NULL FROM t"
)

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


def _object(text: str, what: str) -> dict[str, Any]:
    """A JSON object from its text, read with orjson (several times faster than the json
    module for a state: it is most of the time start-up takes to load 10,000 games); anything
    orjson does not read goes to the json module, which says what is wrong."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return R.parse_object(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


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


class _CommitUnknown(StoreError):
    """The connection was lost while a ``COMMIT`` was out: the change may or may not be stored."""


class PostgresStore:
    """The store on a PostgreSQL database (see the module). ``url`` is a libpq-style URL:
    ``postgresql://user:password@host:port/database`` (a unix socket:
    ``postgresql://user@/database?host=/run/postgresql``)."""

    def __init__(
        self,
        url: str,
        *,
        pool_min: int = POOL_MIN,
        pool_max: int = POOL_MAX,
        timeout_s: float = TIMEOUT_S,
        retry_s: float = RETRY_S,
        migrate_schema: bool = True,
        validate_states: bool = True,
    ) -> None:
        if pool_min < 0 or pool_max < 1 or pool_min > pool_max:
            raise ValueError(
                f"pool sizes must be 0 <= min <= max, max >= 1: {pool_min}, {pool_max}"
            )
        self.url = url
        self.pool_min, self.pool_max = pool_min, pool_max
        self.timeout_s, self.retry_s = timeout_s, retry_s
        self.migrate_schema = migrate_schema
        self.validate_states = validate_states
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        # Callers wait for a connection here, first come first served. asyncpg's pool hands a
        # connection given back to whichever caller asks next, so under load a caller going
        # straight from one move to the next keeps taking it while others wait, some for
        # hundreds of milliseconds.
        self._gate = asyncio.Semaphore(pool_max)
        self._initial: OrderedDict[int, tuple[int | None, dict[str, Any] | None]] = OrderedDict()
        self._reported: set[tuple[int, int | None, str]] = set()

    def __repr__(self) -> str:
        return f"PostgresStore({self._safe_url()!r})"

    def _safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        head, sep, tail = self.url.partition("://")
        if "@" in tail.split("/", 1)[0]:
            creds, _, rest = tail.partition("@")
            tail = f"{creds.split(':', 1)[0]}:***@{rest}" if ":" in creds else tail
        return head + sep + tail

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- connecting -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect (waiting up to ``retry_s`` for a database that is not up yet), apply the
        pending migrations under a lock, and refuse a database newer than this code."""
        if self._pool is not None:
            return
        pool = await self._retry_connect(self._create_pool)
        try:
            async with pool.acquire() as conn:
                if self.migrate_schema:
                    await migrate(conn)
                else:
                    await check_known(conn)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def _create_pool(self) -> asyncpg.Pool[asyncpg.Record]:
        pool = await asyncpg.create_pool(
            self.url,
            min_size=self.pool_min,
            max_size=self.pool_max,
            command_timeout=self.timeout_s,
            timeout=min(self.timeout_s, 10.0),
            reset=_keep_session,
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

    async def _retry_connect(self, connect: Callable[[], Awaitable[T]]) -> T:
        """``connect()``, retried while the server is unreachable, up to ``retry_s``."""
        deadline = time.monotonic() + self.retry_s
        delay = 0.05
        while True:
            try:
                return await connect()
            except _FATAL_CONNECT as e:
                raise StoreError(f"cannot use {self._safe_url()}: {e}") from e
            except _LOST_OR_TIMEOUT as e:
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"cannot reach the PostgreSQL database {self._safe_url()} "
                        f"after {self.retry_s:g} s ({type(e).__name__}: {e})"
                    ) from e
                log.warning("database unreachable (%s); trying again", e)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=self.timeout_s)
            except _LOST_OR_TIMEOUT:
                pool.terminate()

    def _the_pool(self) -> asyncpg.Pool[asyncpg.Record]:
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    async def _run(
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
        :class:`_CommitUnknown` is raised, for the caller to find out what happened."""
        pool = self._the_pool()
        deadline = time.monotonic() + self.retry_s
        delay = 0.05
        while True:
            conn: Conn | None = None
            committing = gated = False
            try:
                await self._gate.acquire()
                gated = True
                conn = await self._retry_connect(lambda: pool.acquire(timeout=self.timeout_s))
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
            except TimeoutError as e:
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
                    raise _CommitUnknown(
                        f"the connection to the database was lost while committing {what}: "
                        "the change may or may not be stored; read the table again"
                    ) from e
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"the database went away and did not come back within "
                        f"{self.retry_s:g} s ({what}: {e})"
                    ) from e
                log.warning("database connection lost (%s: %s); trying again", what, e)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
            finally:
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await pool.release(conn)  # type: ignore[arg-type]
                if gated:
                    self._gate.release()

    async def _read(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async def op(conn: Conn) -> list[asyncpg.Record]:
            return list(await conn.fetch(sql, *args))

        return await self._run(op, transaction=False, what="reading")

    async def _write(self, fn: Callable[[Conn], Awaitable[T]], what: str) -> T:
        return await self._run(fn, transaction=True, what=what)

    # --- rows -----------------------------------------------------------------------------------

    def _table(
        self,
        record: asyncpg.Record | Sequence[Any],
        *,
        validate: bool,
        strict: bool = True,
        state: dict[str, Any] | None = None,
        initial: dict[str, Any] | None = None,
        has_initial: bool = False,
    ) -> Table:
        """A :class:`Table` from a row of ``SELECT_TABLE`` (or of ``_MOVE``, with the ``state``
        and ``initial`` state given). Raises :class:`CorruptRecord` (unless not ``strict``)."""
        rec = tuple(record)
        (tid, gid, cid, hid, status, options, seats, version, state_text, start_version) = rec[:10]
        shown, deadline, reminder_at, created_at, updated_at = rec[10:15]
        msg_keys, msg_ids, dep_seats, dep_users, dm_users = rec[15:20]
        initial_text, n, lo, hi = rec[20:24]
        problems: list[str] = []

        def attempt(fn: Callable[[], Any], default: Any) -> Any:
            try:
                return fn()
            except (ValueError, TypeError) as e:
                problems.append(str(e))
                return default

        if status not in R.STATUSES:
            problems.append(f"unknown status {status!r}")
        opts = attempt(
            lambda: TableOptions.from_dict(R.parse_object(options, "options")), TableOptions()
        )
        seat_list = attempt(lambda: R.parse_seats(seats), ())
        if state is None and state_text is not None:
            state = attempt(lambda: _object(state_text, "state"), None)
            if state is not None and validate:
                attempt(lambda: R.validate_state(cast(dict[str, Any], state), "the state"), None)
        elif state is None and status == "playing":
            problems.append("a game in progress without a state")
        if not has_initial and initial_text is not None:
            initial = attempt(lambda: _object(initial_text, "initial state"), None)
        gap = R.log_problem(
            R.TableRow(
                id=tid,
                guild_id=gid,
                channel_id=cid,
                host_id=hid,
                status=status,
                options="",
                seats="",
                version=version,
                state=None,
                initial_state=None,
                start_version=start_version,
                deadline=deadline,
                reminder_at=reminder_at,
                created_at=created_at,
                updated_at=updated_at,
                log_count=n,
                log_min=lo,
                log_max=hi,
            )
        )
        if gap:
            problems.append(gap)
        if problems and strict:
            raise CorruptRecord(tid, "; ".join(problems), version)
        return Table(
            id=tid,
            guild_id=gid,
            channel_id=cid,
            host_id=hid,
            status=cast(TableStatus, status),
            options=opts,
            seats=seat_list,
            version=version,
            state=state,
            initial_state=initial,
            deadline=deadline,
            reminder_at=reminder_at,
            created_at=created_at,
            updated_at=updated_at,
            messages=dict(zip(msg_keys, msg_ids, strict=True)),
            departed=dict(zip(dep_seats, dep_users, strict=True)),
            dm_failed=frozenset(dm_users),
            shown_version=shown,
        )

    async def _fetch(self, conn: Conn, table_id: int) -> asyncpg.Record | None:
        return await conn.fetchrow(f"{SELECT_TABLE} WHERE t.id = $1", table_id)

    async def _why(self, conn: Conn, table_id: int, expected_version: int, want: str) -> Exception:
        """Why a versioned write matched no row: NotFound or VersionConflict."""
        row = await conn.fetchrow(
            "SELECT version, status, jsonb_typeof(options) = 'object' AS options_ok, "
            "jsonb_typeof(seats) = 'array' AS seats_ok FROM tables WHERE id = $1",
            table_id,
        )
        if row is None:
            return NotFound(f"no table {table_id}")
        if row["version"] != expected_version:
            return VersionConflict(
                f"table {table_id} is at version {row['version']}, not {expected_version}"
            )
        if row["status"] == want == "playing" and not (row["options_ok"] and row["seats_ok"]):
            what = (
                "options are not a JSON object"
                if not row["options_ok"]
                else "seats are not a JSON list"
            )
            return CorruptRecord(table_id, what, expected_version)
        return NotFound(f"table {table_id} is not {want} (it is {row['status']})")

    # --- tables ---------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        seats: tuple[Seat, ...],
        now: float,
    ) -> Table:
        """A new lobby at version 1; raises :class:`ChannelBusy` if the channel has an open
        table (the database's unique index decides between processes)."""
        options_json, seats_json = R.dumps(options.to_dict()), R.seats_json(seats)

        async def op(conn: Conn) -> int:
            try:
                async with conn.transaction():
                    return int(
                        await conn.fetchval(
                            "INSERT INTO tables (guild_id, channel_id, host_id, status, options, "
                            "seats, version, created_at, updated_at) "
                            "VALUES ($1, $2, $3, 'lobby', $4, $5, 1, $6, $6) RETURNING id",
                            guild_id,
                            channel_id,
                            host_id,
                            options_json,
                            seats_json,
                            now,
                        )
                    )
            except asyncpg.UniqueViolationError:
                busy = await conn.fetchval(
                    f"SELECT t.id FROM tables t WHERE t.channel_id = $1 AND {_OPEN}", channel_id
                )
                raise ChannelBusy(int(busy) if busy is not None else 0) from None

        table_id = await self._write(op, "creating a table")
        return Table(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            options=options,
            seats=tuple(seats),
            version=1,
            state=None,
            initial_state=None,
            deadline=None,
            reminder_at=None,
            created_at=now,
            updated_at=now,
        )

    async def get_table(self, table_id: int) -> Table:
        """Any table, open or closed. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._read(f"{SELECT_TABLE} WHERE t.id = $1", table_id)
        if not rows:
            raise NotFound(f"no table {table_id}")
        return self._table(rows[0], validate=self.validate_states)

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open table, or None; :class:`CorruptRecord` if it is unreadable."""
        rows = await self._read(f"{SELECT_TABLE} WHERE t.channel_id = $1 AND {_OPEN}", channel_id)
        return self._table(rows[0], validate=self.validate_states) if rows else None

    async def update_lobby(
        self,
        table_id: int,
        expected_version: int,
        *,
        seats: tuple[Seat, ...] | None = None,
        options: TableOptions | None = None,
        status: TableStatus | None = None,
        now: float,
    ) -> Table:
        """Change a lobby's seats or options, or close it (``"cancelled"`` / ``"aborted"``).
        Raises :class:`VersionConflict`, or :class:`NotFound` if it is not a lobby any more."""
        if status not in (None, "lobby", "cancelled", "aborted"):
            raise ValueError(f"a lobby can become cancelled or aborted, not {status!r}")
        seats_json = None if seats is None else R.seats_json(seats)
        options_json = None if options is None else R.dumps(options.to_dict())
        closing = status in ("cancelled", "aborted")

        async def op(conn: Conn) -> asyncpg.Record:
            done = await conn.fetchval(
                "UPDATE tables SET version = version + 1, seats = COALESCE($3, seats), "
                "options = COALESCE($4, options), status = COALESCE($5, status), "
                "deadline = CASE WHEN $6 THEN NULL ELSE deadline END, "
                "reminder_at = CASE WHEN $6 THEN NULL ELSE reminder_at END, updated_at = $7 "
                "WHERE id = $1 AND version = $2 AND status = 'lobby' RETURNING id",
                table_id,
                expected_version,
                seats_json,
                options_json,
                status,
                closing,
                now,
            )
            if done is None:
                raise await self._why(conn, table_id, expected_version, "a lobby")
            row = await self._fetch(conn, table_id)
            assert row is not None
            return row

        row = await self._write(op, f"changing lobby {table_id}")
        return self._table(row, validate=False, strict=False)

    async def start_game(
        self,
        table_id: int,
        expected_version: int,
        seats: tuple[Seat, ...],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
    ) -> Table:
        """Lobby -> playing with the dealt ``state``, also kept as the initial state the action
        log starts from. Raises :class:`VersionConflict`, or :class:`NotFound`."""
        seats_json, state_json = R.seats_json(seats), R.dumps(state)

        async def op(conn: Conn) -> asyncpg.Record:
            done = await conn.fetchval(
                "UPDATE tables SET version = version + 1, start_version = version + 1, "
                "status = 'playing', seats = $3, state = $4, deadline = $5, reminder_at = $6, "
                "updated_at = $7 WHERE id = $1 AND version = $2 AND status = 'lobby' "
                "RETURNING id",
                table_id,
                expected_version,
                seats_json,
                state_json,
                deadline,
                reminder_at,
                now,
            )
            if done is None:
                raise await self._why(conn, table_id, expected_version, "a lobby")
            await conn.execute(
                "INSERT INTO initial_states (table_id, state) VALUES ($1, $2) "
                "ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
                table_id,
                state_json,
            )
            row = await self._fetch(conn, table_id)
            assert row is not None
            return row

        row = await self._write(op, f"starting table {table_id}")
        table = self._table(row, validate=False, strict=False)
        self._remember_initial(table_id, row["start_version"], table.initial_state)
        return table

    def _remember_initial(
        self, table_id: int, start_version: int | None, initial: dict[str, Any] | None
    ) -> None:
        self._initial[table_id] = (start_version, initial)
        self._initial.move_to_end(table_id)
        while len(self._initial) > INITIAL_CACHE_SIZE:
            self._initial.popitem(last=False)

    async def apply_action(
        self,
        table_id: int,
        expected_version: int,
        *,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
        seats: tuple[Seat, ...] | None = None,
        status: TableStatus | None = None,
    ) -> Table:
        """One game move, atomically: the version check, the new state (and seats or status),
        the version bump and the log row in one statement; a move that finishes the match
        records its result in the same transaction. Raises :class:`VersionConflict` (nothing
        written), :class:`NotFound` if the table is not playing, :class:`CorruptRecord`
        (nothing written) if its options or seats are damaged. ``state`` is the caller's and
        comes back as the returned table's state.

        If the connection is lost while the move is out, the action log says whether it is
        stored: if it is, the table is returned; if the table has not moved, the move is sent
        once more; otherwise a :class:`StoreError` says to read the table again."""
        if status == "lobby":
            raise ValueError("a game cannot go back to being a lobby")
        args = (
            table_id,
            expected_version,
            R.dumps(state),
            deadline,
            reminder_at,
            now,
            None if seats is None else R.seats_json(seats),
            status,
            seat,
            user_id,
            R.dumps(action),
        )

        finishing = status == "finished"

        async def op(conn: Conn) -> Table:
            row = await conn.fetchrow(_MOVE, *args)
            if row is None:
                raise await self._why(conn, table_id, expected_version, "playing")
            try:
                table = await self._moved(conn, table_id, row, state)
            except CorruptRecord as e:
                # (in a transaction nothing is written; else the move is, at the next version)
                stored = expected_version + (0 if finishing else 1)
                raise CorruptRecord(table_id, e.problem, stored) from None
            if finishing:
                await self._write_result(conn, table, None)  # with the move, or not at all
            return table

        what = f"a move at table {table_id}"
        for attempt in range(2):
            try:
                return await self._run(op, transaction=finishing, what=what, repeatable=False)
            except _CommitUnknown as e:
                stored = await self._move_stored(table_id, expected_version, args)
                if stored:
                    return await self.get_table(table_id)
                if stored is None or attempt:
                    raise StoreError(str(e)) from e.__cause__
                log.warning("a move at table %s was not stored; sending it again", table_id)
        raise AssertionError("unreachable")

    async def _move_stored(
        self, table_id: int, expected_version: int, args: tuple[Any, ...]
    ) -> bool | None:
        """After a move's ``COMMIT`` was lost: True if the move is in the action log, False if
        the table is still at ``expected_version`` (not stored), None if it moved on without it
        (it cannot be sent again)."""
        rows = await self._read(
            "SELECT t.version, a.action = $3::jsonb AND a.at = $4 "
            "FROM tables t LEFT JOIN actions a ON a.table_id = t.id AND a.version = $2 + 1 "
            "WHERE t.id = $1",
            table_id,
            expected_version,
            args[10],
            args[5],
        )
        if rows and rows[0][1]:
            log.warning("a move at table %s was stored before the connection was lost", table_id)
            return True
        if rows and rows[0][0] == expected_version:
            return False
        return None

    async def _moved(
        self, conn: Conn, table_id: int, row: asyncpg.Record, state: dict[str, Any]
    ) -> Table:
        """The table a move's returned row describes, with the caller's ``state`` and the
        initial state from the cache (read once per table)."""
        start_version = row["start_version"]
        cached = self._initial.get(table_id)
        if cached is None or cached[0] != start_version:
            text = await conn.fetchval(
                "SELECT state FROM initial_states WHERE table_id = $1", table_id
            )
            initial = None if text is None else _object(text, "initial state")
            table = self._table(row, validate=False, state=state, initial=initial, has_initial=True)
            self._remember_initial(table_id, start_version, initial)
            return table
        self._initial.move_to_end(table_id)
        return self._table(row, validate=False, state=state, initial=cached[1], has_initial=True)

    async def set_timers(
        self,
        table_id: int,
        expected_version: int,
        deadline: float | None,
        reminder_at: float | None,
        *,
        expected_timers: tuple[float | None, float | None] | None = None,
    ) -> None:
        """Change an open table's timers without bumping its version (but checking it); with
        ``expected_timers``, a compare-and-set: :class:`VersionConflict` if they changed."""
        claim = expected_timers is not None
        old_deadline, old_reminder = (
            expected_timers if expected_timers is not None else (None, None)
        )

        async def op(conn: Conn) -> Exception | None:
            done = await conn.fetchval(
                "UPDATE tables SET deadline = $3, reminder_at = $4 WHERE id = $1 "
                "AND version = $2 AND status IN ('lobby', 'playing') AND (NOT $5 OR ("
                "deadline IS NOT DISTINCT FROM $6::double precision AND "
                "reminder_at IS NOT DISTINCT FROM $7::double precision)) RETURNING id",
                table_id,
                expected_version,
                deadline,
                reminder_at,
                claim,
                old_deadline,
                old_reminder,
            )
            if done is not None:
                return None
            row = await conn.fetchrow("SELECT version, status FROM tables WHERE id = $1", table_id)
            if row is None:
                return NotFound(f"no table {table_id}")
            if row["version"] != expected_version:
                return VersionConflict(
                    f"table {table_id} is at version {row['version']}, not {expected_version}"
                )
            if row["status"] not in OPEN_STATUSES:
                return NotFound(f"table {table_id} is not open (it is {row['status']})")
            return VersionConflict(f"the timers of table {table_id} have changed")

        error = await self._run(op, transaction=False, what=f"timers of table {table_id}")
        if error is not None:
            raise error

    async def end_table(
        self,
        table_id: int,
        expected_version: int,
        status: TableStatus,
        now: float,
        results: dict[str, Any] | None = None,
    ) -> Table:
        """Close an open table (``"finished"``, recorded in the results; ``"cancelled"``;
        ``"aborted"``); timers cleared, version bumped. A table finished by its last move can
        be ended as finished again to attach ``results``. A corrupt table can be aborted with
        the version its :class:`CorruptRecord` carries."""
        if status not in R.CLOSED_STATUSES:
            raise ValueError(f"a table ends finished, cancelled or aborted, not {status!r}")

        async def op(conn: Conn) -> asyncpg.Record:
            done = await conn.fetchval(
                "UPDATE tables SET version = version + 1, status = $3, deadline = NULL, "
                "reminder_at = NULL, updated_at = $4 WHERE id = $1 AND version = $2 AND "
                "(status IN ('lobby', 'playing') OR (status = 'finished' AND $3 = 'finished')) "
                "RETURNING id",
                table_id,
                expected_version,
                status,
                now,
            )
            if done is None:
                raise await self._why(conn, table_id, expected_version, "open")
            row = await self._fetch(conn, table_id)
            assert row is not None
            if status == "finished":
                table = self._table(row, validate=False, strict=False)
                await self._write_result(conn, table, results)
            return row

        row = await self._write(op, f"ending table {table_id}")
        return self._table(row, validate=False, strict=False)

    async def _write_result(self, conn: Conn, table: Table, results: dict[str, Any] | None) -> None:
        match, players = R.result_rows(
            table.id,
            table.guild_id,
            table.channel_id,
            table.updated_at,
            table.seats,
            table.state,
            results,
        )
        await conn.execute(
            "INSERT INTO results (table_id, guild_id, channel_id, finished_at, seats, scores, "
            "winners, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
            "ON CONFLICT (table_id) DO UPDATE SET finished_at = excluded.finished_at, "
            "seats = excluded.seats, scores = excluded.scores, winners = excluded.winners, "
            "data = CASE WHEN excluded.data = '{}'::jsonb THEN results.data "
            "ELSE excluded.data END",
            *match,
        )
        await conn.execute("DELETE FROM result_players WHERE table_id = $1", table.id)
        await conn.executemany(
            "INSERT INTO result_players (table_id, seat, user_id, name, ai, score, won) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(*p[:6], bool(p[6])) for p in players],
        )

    async def open_tables(self) -> list[Table]:
        """Every open lobby and game, oldest first; unreadable rows are logged and skipped."""
        rows = await self._read(f"{SELECT_TABLE} WHERE {_OPEN} ORDER BY t.id")
        return self._tables(rows)

    async def due_timers(self, now: float) -> list[Table]:
        """Open tables whose deadline or reminder time is at or before ``now``."""
        rows = await self._read(
            f"{SELECT_TABLE} WHERE {_OPEN} AND (t.deadline <= $1 OR t.reminder_at <= $1) "
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
                    table = self._table(rec, validate=False)
                except CorruptRecord as e:
                    key = (e.table_id, e.version, e.problem)
                    level = logging.DEBUG if key in self._reported else logging.WARNING
                    self._reported.add(key)
                    log.log(level, "skipping table %s: %s", e.table_id, e.problem)
                    continue
                tables.append(table)
                if table.status == "playing":
                    self._remember_initial(table.id, rec["start_version"], table.initial_state)
        finally:
            if paused:
                gc.enable()
        return tables

    async def action_log(self, table_id: int) -> list[LoggedAction]:
        """A table's moves in order. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._read(
            "SELECT a.version, a.seat, a.user_id, a.action, a.at FROM actions a "
            "WHERE a.table_id = $1 ORDER BY a.version",
            table_id,
        )
        if not rows:
            if not await self._read("SELECT 1 FROM tables WHERE id = $1", table_id):
                raise NotFound(f"no table {table_id}")
            return []
        return [R.action_from_row(table_id, v, s, u, a, at) for v, s, u, a, at in rows]

    async def _insert(self, sql: str, table_id: int, *args: Any, what: str) -> str:
        """Run an INSERT or UPDATE on one table's rows; NotFound if there is no such table."""

        async def op(conn: Conn) -> str:
            try:
                return str(await conn.execute(sql, table_id, *args))
            except asyncpg.ForeignKeyViolationError:
                raise NotFound(f"no table {table_id}") from None

        return await self._run(op, transaction=False, what=what)

    async def record_departure(self, table_id: int, seat: int, user_id: int, now: float) -> None:
        await self._insert(
            "INSERT INTO departures (table_id, seat, user_id, at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (table_id, seat) DO NOTHING",
            table_id,
            seat,
            user_id,
            now,
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

    # --- messages -------------------------------------------------------------------------------

    async def set_message(self, table_id: int, key: str, message_id: int) -> None:
        """Remember a Discord message id under ``key``; overwrites. Raises :class:`NotFound`."""
        await self._insert(
            "INSERT INTO messages (table_id, key, message_id) VALUES ($1, $2, $3) "
            "ON CONFLICT (table_id, key) DO UPDATE SET message_id = excluded.message_id",
            table_id,
            key,
            message_id,
            what=f"a message id of table {table_id}",
        )

    async def delete_message(self, table_id: int, key: str) -> None:
        await self._insert(
            "DELETE FROM messages WHERE table_id = $1 AND key = $2",
            table_id,
            key,
            what=f"a message id of table {table_id}",
        )

    async def get_messages(self, table_id: int) -> dict[str, int]:
        rows = await self._read(
            "SELECT key, message_id FROM messages WHERE table_id = $1 ORDER BY key", table_id
        )
        return {str(k): int(v) for k, v in rows}

    # --- preferences and settings ---------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> PlayerPrefs:
        rows = await self._read("SELECT hand_mode FROM player_prefs WHERE user_id = $1", user_id)
        if not rows or rows[0][0] not in ("dm", "channel"):
            return PlayerPrefs(user_id)
        return PlayerPrefs(user_id, rows[0][0])

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, hand_mode) VALUES ($1, $2) "
                "ON CONFLICT (user_id) DO UPDATE SET hand_mode = excluded.hand_mode",
                prefs.user_id,
                prefs.hand_mode,
            )

        await self._run(op, transaction=False, what="preferences")

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if never set; also if the stored defaults are
        unreadable, which is logged)."""
        rows = await self._read(
            "SELECT turn_limit_s, reminder_s, defaults FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        if not rows:
            return GuildSettings(guild_id)
        turn_limit_s, reminder_s, defaults = rows[0]
        try:
            parsed = TableDefaults.from_dict(R.parse_object(defaults, "defaults"))
        except ValueError as e:
            log.warning("guild %s: %s; using no defaults", guild_id, e)
            parsed = TableDefaults()
        return GuildSettings(guild_id, int(turn_limit_s), int(reminder_s), parsed)

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        defaults = R.dumps(settings.defaults.to_dict())

        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_limit_s, reminder_s, defaults) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET "
                "turn_limit_s = excluded.turn_limit_s, reminder_s = excluded.reminder_s, "
                "defaults = excluded.defaults",
                settings.guild_id,
                settings.turn_limit_s,
                settings.reminder_s,
                defaults,
            )

        await self._run(op, transaction=False, what="server settings")

    # --- results and checks ---------------------------------------------------------------------

    async def results(
        self, guild_id: int | None = None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Finished matches, newest first (see :meth:`data.store.Store.results`)."""
        rows = await self._read(
            "SELECT table_id, guild_id, channel_id, finished_at, seats, scores, winners, data "
            "FROM results WHERE $1::bigint IS NULL OR guild_id = $1 "
            "ORDER BY finished_at DESC, table_id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return R.results_from_rows([tuple(r) for r in rows])

    async def check(self) -> list[TableProblem]:
        """Replay every game from its initial state and action log and compare with the stored
        state (see :meth:`data.store.Store.check`). Each table is read in one snapshot."""
        problems: list[TableProblem] = []
        ids = [int(r[0]) for r in await self._read("SELECT id FROM tables ORDER BY id")]
        for table_id in ids:
            row, log_rows = await self._snapshot(table_id)
            if row is not None:
                problems.extend(R.problems_of(table_id, R.check_table(row, log_rows)))
        return problems

    async def _snapshot(
        self, table_id: int
    ) -> tuple[R.TableRow | None, list[tuple[int, int | None, str]]]:
        async def op(conn: Conn) -> tuple[asyncpg.Record | None, list[asyncpg.Record]]:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                row = await conn.fetchrow(
                    "SELECT t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, "
                    "t.seats, t.version, t.state, i.state, t.start_version, t.deadline, "
                    "t.reminder_at, t.created_at, t.updated_at "
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

        row, log_rows = await self._run(op, transaction=False, what="checking")
        if row is None:
            return None, []
        return R.TableRow(*row[:15]), [(int(v), s, a) for v, s, a in log_rows]

    async def integrity_check(self) -> list[str]:
        """Problems of the database as a whole (empty when all is well): the table id sequence
        must be past every id in use, so that a new table never takes an old table's id."""
        rows = await self._read(
            "SELECT (SELECT last_value FROM table_ids), (SELECT max(id) FROM tables)"
        )
        last, top = rows[0]
        if top is not None and last < top:
            return [f"the table id sequence ({last}) is behind the ids in use (up to {top})"]
        return []

    async def table_count(self) -> int:
        """How many tables (of any status) the database holds."""
        return await self.count_rows("tables")

    async def count_rows(self, table: str) -> int:
        """How many rows one of the store's tables holds (for checks and reports)."""
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
        rows = await self._read(f'SELECT count(*) FROM "{table}"')
        return int(rows[0][0])

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A connection of the pool, for maintenance such as ``python -m data copy`` (the
        bot itself never needs one: every change goes through the methods above)."""
        async with self._gate, self._the_pool().acquire() as conn:
            yield conn

    async def schema_version(self) -> int:
        async def op(conn: Conn) -> int:
            return await current_version(conn)

        return await self._run(op, transaction=False, what="reading the schema version")


__all__ = ["PostgresStore"]

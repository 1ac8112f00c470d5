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

Times are DOUBLE PRECISION (unix seconds, exactly as Python's floats), Discord ids BIGINT,
options, seats, actions and results JSONB, engine states JSON text. The pool and the retries
live in :mod:`data.pg_db`, the SQL that reads a table and its conversion in :mod:`data.pg_rows`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import logging
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import asyncpg

from data import rows as R
from data.pg_db import POOL_MAX, POOL_MIN, RETRY_S, TIMEOUT_S, CommitUnknown, Database
from data.pg_rows import MOVE, OPEN, PLACE, SELECT_TABLE, json_object, table_from_record
from data.pgmigrate import check_known, current_version, migrate
from data.store import (
    OPEN_STATUSES,
    ChannelBusy,
    CorruptRecord,
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


#: How many tables' parsed initial states this process keeps (to answer moves without them).
INITIAL_CACHE_SIZE = 1024
#: The first key of the advisory locks behind :meth:`PostgresStore.identify_slot` (the second is
#: the bucket), kept apart from any lock another program may take on the same database.
IDENTIFY_LOCKS = 0x46500001
#: The first key of the advisory locks behind :meth:`PostgresStore.message_edit` (the second is
#: a hash of the table id and the message's key: two messages that share it only take turns).
MESSAGE_LOCKS = 0x46500002
#: The first key of the advisory locks that number a guild's new tables one creator at a time
#: (the second is a hash of the guild id: two guilds that share it only take turns).
NUMBER_LOCKS = 0x46500003

#: Claim due tables no live claim holds (parameters: now, owner, lease, limit). Rows another
#: claimer is choosing are skipped, not waited for; the conflict clause is the arbiter: a claim
#: row another process committed meanwhile is taken over only once it ran out.
CLAIM_TIMERS = (
    "WITH due AS (SELECT t.id FROM tables t "
    f"WHERE {OPEN} AND (t.deadline <= $1 OR t.reminder_at <= $1) "
    "AND NOT EXISTS (SELECT 1 FROM timer_claims c WHERE c.table_id = t.id AND c.until > $1) "
    "ORDER BY t.id LIMIT $4 FOR UPDATE OF t SKIP LOCKED) "
    "INSERT INTO timer_claims (table_id, owner, until) SELECT id, $2, $1 + $3 FROM due "
    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until "
    "WHERE timer_claims.until <= $1 RETURNING table_id"
)


def number_lock(guild_id: int) -> int:
    """The second key of a guild's numbering lock: a signed 32-bit hash of its id."""
    digest = hashlib.blake2b(str(guild_id).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


def message_lock(table_id: int, key: str) -> int:
    """The second key of a kept message's advisory lock: a signed 32-bit hash of its name."""
    digest = hashlib.blake2b(f"{table_id}:{key}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


async def _warm(conn: asyncpg.Connection[Any]) -> None:
    """Run the statements every move and read uses once on a new connection, on a table that
    cannot exist (ids start far above 0): nothing is read or written, but asyncpg has them
    prepared and their types known before the first move needs them."""
    await conn.fetchrow(MOVE, 0, 0, "{}", None, None, 0.0, None, None, None, None, "{}")
    await conn.fetchrow(f"{SELECT_TABLE} WHERE t.id = $1", 0)


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
        self._db = Database(
            url,
            pool_min=pool_min,
            pool_max=pool_max,
            timeout_s=timeout_s,
            retry_s=retry_s,
            warm=_warm,
        )
        self.url = url
        self.pool_min, self.pool_max = pool_min, pool_max
        self.migrate_schema = migrate_schema
        self.validate_states = validate_states
        self._initial = R.InitialStates(INITIAL_CACHE_SIZE)
        self._reported: set[tuple[int, int | None, str]] = set()
        # Edits of kept messages hold a connection while Discord answers: at most half of the
        # pool, so that moves always find connections.
        self._edit_gate = asyncio.Semaphore(max(1, pool_max // 2))

    def __repr__(self) -> str:
        return f"PostgresStore({self.safe_url()!r})"

    def safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        return self._db.safe_url()

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- connecting -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect (waiting up to ``retry_s`` for a database that is not up yet), apply the
        pending migrations under a lock, and refuse a database newer than this code."""

        async def setup(conn: Conn) -> object:
            return await (migrate(conn) if self.migrate_schema else check_known(conn))

        await self._db.open(setup)

    async def close(self) -> None:
        await self._db.close()

    @contextlib.asynccontextmanager
    async def identify_slot(self, bucket: int) -> AsyncIterator[None]:
        """One holder at a time per bucket across every process on this database: a session
        advisory lock on a connection of its own (not the pool's: it is held for seconds), so
        a process that dies releases it with its connection."""
        conn: asyncpg.Connection[Any] = await self._db.retry_connect(
            lambda: asyncpg.connect(self.url)
        )
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", IDENTIFY_LOCKS, bucket)
            yield
        finally:
            await conn.close()  # ends the session, and with it the lock

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
        *,
        language: str = "en",
    ) -> Table:
        """A new lobby at version 1; raises :class:`ChannelBusy` if the channel has an open
        table (the database's unique index decides between processes)."""
        options_json, seats_json = R.dumps(options.to_dict()), R.seats_json(seats)

        async def op(conn: Conn) -> tuple[int, int]:
            try:
                async with conn.transaction():
                    # One creator at a time per guild until the commit, so the guild's highest
                    # number read by the INSERT (a statement started after the lock was
                    # granted) is final; the unique index on (guild_id, number) stands behind it.
                    await conn.execute(
                        "SELECT pg_advisory_xact_lock($1, $2)", NUMBER_LOCKS, number_lock(guild_id)
                    )
                    row = await conn.fetchrow(
                        "INSERT INTO tables (guild_id, channel_id, host_id, status, options, "
                        "seats, version, created_at, updated_at, number, language) "
                        "VALUES ($1, $2, $3, 'lobby', $4, $5, 1, $6, $6, "
                        "(SELECT coalesce(max(n.number), 0) + 1 FROM tables n "
                        "WHERE n.guild_id = $1), $7) RETURNING id, number",
                        guild_id,
                        channel_id,
                        host_id,
                        options_json,
                        seats_json,
                        now,
                        language,
                    )
                    assert row is not None
                    return int(row[0]), int(row[1])
            except asyncpg.UniqueViolationError:
                busy = await conn.fetchval(
                    f"SELECT t.id FROM tables t WHERE {PLACE} = $1 AND {OPEN}", channel_id
                )
                raise ChannelBusy(int(busy) if busy is not None else 0) from None

        table_id, number = await self._db.write(op, "creating a table")
        return Table.new_lobby(
            table_id,
            guild_id,
            channel_id,
            host_id,
            options,
            seats,
            now,
            number=number,
            language=language,
        )

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

        row = await self._db.write(op, f"changing lobby {table_id}")
        return table_from_record(row, validate=False, strict=False)

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

        row = await self._db.write(op, f"starting table {table_id}")
        table = table_from_record(row, validate=False, strict=False)
        self._initial.put(table_id, row["start_version"], table.initial_state)
        return table

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
            row = await conn.fetchrow(MOVE, *args)
            if row is None:
                raise await self._why(conn, table_id, expected_version, "playing")
            try:
                table = await self._moved(conn, table_id, row, state)
            except CorruptRecord as e:
                # (in a transaction nothing is written; else the move is, at the next version)
                stored = expected_version + (0 if finishing else 1)
                raise CorruptRecord(table_id, e.problem, stored, detail=e.detail) from None
            if finishing:
                await self._write_result(conn, table, None)  # with the move, or not at all
            return table

        what = f"a move at table {table_id}"
        for attempt in range(2):
            try:
                return await self._db.run(op, transaction=finishing, what=what, repeatable=False)
            except CommitUnknown as e:
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
        rows = await self._db.read(
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
        known, cached = self._initial.get(table_id, start_version)
        if not known:
            text = await conn.fetchval(
                "SELECT state FROM initial_states WHERE table_id = $1", table_id
            )
            initial = None if text is None else json_object(text, "initial state")
            table = table_from_record(
                row, validate=False, state=state, initial=initial, has_initial=True
            )
            self._initial.put(table_id, start_version, initial)
            return table
        return table_from_record(row, validate=False, state=state, initial=cached, has_initial=True)

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

        error = await self._db.run(op, transaction=False, what=f"timers of table {table_id}")
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
        ``"aborted"``, recorded too when ``results`` are given); timers cleared, version bumped.
        A table finished by its last move can be ended as finished again to attach ``results``.
        A corrupt table can be aborted with the version its :class:`CorruptRecord` carries."""
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
            if R.recorded(status, results):
                table = table_from_record(row, validate=False, strict=False)
                await self._write_result(conn, table, results)
            return row

        row = await self._db.write(op, f"ending table {table_id}")
        return table_from_record(row, validate=False, strict=False)

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

    async def claim_timers(self, now: float, owner: str, lease_s: float, limit: int) -> list[Table]:
        """Claim due tables for ``owner`` until ``now + lease_s`` (see
        :meth:`data.store.Store.claim_timers`), in one transaction: of several processes
        claiming at once, each table goes to one."""

        async def op(conn: Conn) -> list[asyncpg.Record]:
            ids = [r[0] for r in await conn.fetch(CLAIM_TIMERS, now, owner, lease_s, limit)]
            if not ids:
                return []
            return list(
                await conn.fetch(
                    f"{SELECT_TABLE} WHERE t.id = ANY($1::bigint[]) ORDER BY t.id", ids
                )
            )

        return self._tables(await self._db.write(op, "claiming due timers"))

    async def release_timers(self, table_id: int, owner: str) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM timer_claims WHERE table_id = $1 AND owner = $2", table_id, owner
            )

        await self._db.run(op, transaction=False, what=f"releasing the timers of {table_id}")

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

    # --- messages -------------------------------------------------------------------------------

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

    async def get_messages(self, table_id: int) -> dict[str, int]:
        rows = await self._db.read(
            "SELECT key, message_id FROM messages WHERE table_id = $1 ORDER BY key", table_id
        )
        return {str(k): int(v) for k, v in rows}

    # --- preferences and settings ---------------------------------------------------------------

    async def claim_command_sync(self, scope: str, digest: str, now: float) -> bool:
        async def op(conn: Conn) -> bool:
            row = await conn.fetchrow(
                "INSERT INTO command_sync (scope, hash, synced_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (scope) DO UPDATE SET hash = excluded.hash, "
                "synced_at = excluded.synced_at WHERE command_sync.hash <> excluded.hash "
                "RETURNING scope",
                scope,
                digest,
                now,
            )
            return row is not None

        return await self._db.run(
            op, transaction=False, what="claiming the command sync", repeatable=False
        )

    async def forget_command_sync(self, scope: str, digest: str) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM command_sync WHERE scope = $1 AND hash = $2", scope, digest
            )

        await self._db.run(op, transaction=False, what="forgetting the command sync")

    async def get_prefs(self, user_id: int) -> PlayerPrefs:
        rows = await self._db.read(
            "SELECT hand_mode, dm_on_turn, reminders, language FROM player_prefs "
            "WHERE user_id = $1",
            user_id,
        )
        if not rows:
            return PlayerPrefs(user_id)
        hand_mode, dm_on_turn, reminders, language = rows[0]
        if hand_mode not in ("dm", "channel"):
            hand_mode = "dm"
        return PlayerPrefs(user_id, hand_mode, bool(dm_on_turn), bool(reminders), str(language))

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders, language) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET "
                "hand_mode = excluded.hand_mode, dm_on_turn = excluded.dm_on_turn, "
                "reminders = excluded.reminders, language = excluded.language",
                prefs.user_id,
                prefs.hand_mode,
                prefs.dm_on_turn,
                prefs.reminders,
                prefs.language,
            )

        await self._db.run(op, transaction=False, what="preferences")

    async def set_player_language(self, user_id: int, language: str) -> None:
        default = PlayerPrefs(user_id)

        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders, language) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET "
                "language = excluded.language",
                user_id,
                default.hand_mode,
                default.dm_on_turn,
                default.reminders,
                language,
            )

        await self._db.run(op, transaction=False, what="a player's language")

    async def note_dm_refused(self, user_id: int, at: float) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO dm_refusals (user_id, refused_at) VALUES ($1, $2) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                "refused_at = GREATEST(dm_refusals.refused_at, excluded.refused_at)",
                user_id,
                at,
            )

        await self._db.run(op, transaction=False, what="a refused direct message")

    async def dm_refused_at(self, user_id: int) -> float | None:
        rows = await self._db.read("SELECT refused_at FROM dm_refusals WHERE user_id = $1", user_id)
        return float(rows[0][0]) if rows else None

    async def clear_dm_refused(self, user_id: int) -> bool:
        async def op(conn: Conn) -> str:
            return str(await conn.execute("DELETE FROM dm_refusals WHERE user_id = $1", user_id))

        status = await self._db.run(op, transaction=False, what="a refused direct message")
        return status != "DELETE 0"

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if never set; also if the stored defaults are
        unreadable, which is logged)."""
        rows = await self._db.read(
            "SELECT turn_limit_s, reminder_s, defaults, language, guild_locale "
            "FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        if not rows:
            return GuildSettings(guild_id)
        turn_limit_s, reminder_s, defaults, language, guild_locale = rows[0]
        try:
            parsed = TableDefaults.from_dict(R.parse_object(defaults, "defaults"))
        except ValueError as e:
            log.warning("guild %s: %s; using no defaults", guild_id, e)
            parsed = TableDefaults()
        return GuildSettings(
            guild_id, int(turn_limit_s), int(reminder_s), parsed, language, guild_locale
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        defaults = R.dumps(settings.defaults.to_dict())

        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_limit_s, reminder_s, defaults, "
                "language, guild_locale) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (guild_id) DO UPDATE SET "
                "turn_limit_s = excluded.turn_limit_s, reminder_s = excluded.reminder_s, "
                "defaults = excluded.defaults, language = excluded.language, "
                "guild_locale = excluded.guild_locale",
                settings.guild_id,
                settings.turn_limit_s,
                settings.reminder_s,
                defaults,
                settings.language,
                settings.guild_locale,
            )

        await self._db.run(op, transaction=False, what="server settings")

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        default = GuildSettings(guild_id)
        defaults = R.dumps(default.defaults.to_dict())

        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_limit_s, reminder_s, defaults, "
                "guild_locale) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (guild_id) DO UPDATE SET guild_locale = excluded.guild_locale",
                guild_id,
                default.turn_limit_s,
                default.reminder_s,
                defaults,
                locale,
            )

        await self._db.run(op, transaction=False, what="a server's language")

    # --- results and checks ---------------------------------------------------------------------

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
        return R.results_from_rows([tuple(r) for r in rows])

    async def check(self) -> list[TableProblem]:
        """Replay every game from its initial state and action log and compare with the stored
        state (see :meth:`data.store.Store.check`). Each table is read in one snapshot."""
        problems: list[TableProblem] = []
        ids = [int(r[0]) for r in await self._db.read("SELECT id FROM tables ORDER BY id")]
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

        row, log_rows = await self._db.run(op, transaction=False, what="checking")
        if row is None:
            return None, []
        return R.TableRow(*row[:15]), [(int(v), s, a) for v, s, a in log_rows]

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


__all__ = ["POOL_MAX", "POOL_MIN", "RETRY_S", "TIMEOUT_S", "PostgresStore"]

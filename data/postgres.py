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
live in :mod:`data.pg_db`, the SQL that reads a table and its conversion in :mod:`data.pg_rows`;
the reads in :mod:`data.pg_read`, what is kept beside a table in :mod:`data.pg_kept`, the
preferences and settings in :mod:`data.settings` and the records in :mod:`data.records_pg`
(the last two shared with SQLite). This module holds the store itself and its versioned writes:
over 400 lines because each of the table's writes (create, lobby, start, move, timers, end) is a
transaction of its own with its checks, a move also its recovery from a lost ``COMMIT``, and
they share the helpers that say why a versioned write matched no row.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Collection
from typing import TYPE_CHECKING, Any

import asyncpg

from data import results as RS
from data import rows as R
from data.absences import SharedAbsences
from data.analyses import StoreAnalyses
from data.errors import ChannelBusy, CorruptRecord, NotFound, StoreError, VersionConflict
from data.model import OPEN_STATUSES, Pause, Seat, Table, TableOptions, TableStatus
from data.pg_db import POOL_MAX, POOL_MIN, RETRY_S, TIMEOUT_S, CommitUnknown, Database
from data.pg_held import PgHeld
from data.pg_kept import PgKept
from data.pg_read import PgReads
from data.pg_rows import MOVE, OPEN, PLACE, SELECT_TABLE, json_object, table_from_record
from data.pgmigrate import check_known, migrate
from data.records_pg import PgRecords
from data.settings import SharedSettings
from data.sql import numbered

if TYPE_CHECKING:
    from data.pgmigrate import Conn

log = logging.getLogger(__name__)


#: How many tables' parsed initial states this process keeps (to answer moves without them).
INITIAL_CACHE_SIZE = 1024
#: The first key of the advisory locks behind :meth:`PostgresStore.identify_slot` (the second is
#: the bucket), kept apart from any lock another program may take on the same database.
IDENTIFY_LOCKS = 0x46500001
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


async def _warm(conn: asyncpg.Connection[Any]) -> None:
    """Run the statements every move and read uses once on a new connection, on a table that
    cannot exist (ids start far above 0): nothing is read or written, but asyncpg has them
    prepared and their types known before the first move needs them."""
    await conn.fetchrow(MOVE, 0, 0, "{}", None, None, 0.0, None, None, None, None, "{}")
    await conn.fetchrow(f"{SELECT_TABLE} WHERE t.id = $1", 0)


class PostgresStore(PgReads, PgKept, PgHeld, SharedSettings, SharedAbsences):
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
        self._db = self._sql = Database(
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

    def records(self) -> PgRecords:
        """The records kept in this database (:class:`data.store.Records`)."""
        return PgRecords(self._db, self)

    def analyses(self) -> StoreAnalyses:
        """The turning points' analyses kept in this database (:class:`data.store.Analyses`)."""
        return StoreAnalyses(self._db)

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
            "jsonb_typeof(seats) = 'array' AS seats_ok, held IS NOT NULL AS held "
            "FROM tables WHERE id = $1",
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
        if row["status"] == want == "playing" and row["held"]:
            return VersionConflict(f"table {table_id} holds a turn back: only handing it on moves")
        return NotFound(f"table {table_id} is not {want} (it is {row['status']})")

    async def _timers_refusal(
        self,
        conn: Conn,
        table_id: int,
        expected_version: int,
        statuses: Collection[str],
        wanted: str,
    ) -> Exception:
        """Why a compare-and-set of a table's timers matched no row: no such table, another
        version (VersionConflict), a status not among ``statuses`` (NotFound: the table is not
        ``wanted``), or else the timers themselves changed (VersionConflict)."""
        row = await conn.fetchrow("SELECT version, status FROM tables WHERE id = $1", table_id)
        if row is None:
            return NotFound(f"no table {table_id}")
        if row["version"] != expected_version:
            return VersionConflict(
                f"table {table_id} is at version {row['version']}, not {expected_version}"
            )
        if row["status"] not in statuses:
            return NotFound(f"table {table_id} is not {wanted} (it is {row['status']})")
        return VersionConflict(f"the timers of table {table_id} have changed")

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

    async def set_pause(
        self,
        table_id: int,
        expected_version: int,
        pause: Pause | None,
        deadline: float | None,
        reminder_at: float | None,
        *,
        expected_timers: tuple[float | None, float | None],
    ) -> None:
        """Pause a running game or resume it, with its timers (see
        :meth:`data.store.Tables.set_pause`): one ``UPDATE``, a compare-and-set on the version
        and the timers."""
        text = None if pause is None else R.dumps(pause.to_dict())
        old_deadline, old_reminder = expected_timers

        async def op(conn: Conn) -> Exception | None:
            done = await conn.fetchval(
                "UPDATE tables SET pause = $3::jsonb, deadline = $4, reminder_at = $5 "
                "WHERE id = $1 AND version = $2 AND status = 'playing' "
                "AND deadline IS NOT DISTINCT FROM $6::double precision "
                "AND reminder_at IS NOT DISTINCT FROM $7::double precision RETURNING id",
                table_id,
                expected_version,
                text,
                deadline,
                reminder_at,
                old_deadline,
                old_reminder,
            )
            if done is not None:
                return None
            return await self._timers_refusal(
                conn, table_id, expected_version, ("playing",), "playing"
            )

        error = await self._db.run(op, transaction=False, what=f"pause of table {table_id}")
        if error is not None:
            raise error

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
            return await self._timers_refusal(
                conn, table_id, expected_version, OPEN_STATUSES, "open"
            )

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
                "reminder_at = NULL, held = NULL, updated_at = $4 WHERE id = $1 AND "
                "version = $2 AND "
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
            if RS.recorded(status, results):
                table = table_from_record(row, validate=False, strict=False)
                await self._write_result(conn, table, results)
            return row

        row = await self._db.write(op, f"ending table {table_id}")
        return table_from_record(row, validate=False, strict=False)

    async def _write_result(self, conn: Conn, table: Table, results: dict[str, Any] | None) -> None:
        match, players = RS.result_rows(
            table.id,
            table.guild_id,
            table.channel_id,
            table.updated_at,
            table.seats,
            table.state,
            results,
        )
        await conn.execute(numbered(RS.RESULT_UPSERT), *match)
        await conn.execute(numbered(RS.RESULT_PLAYERS_DELETE), table.id)
        await conn.executemany(numbered(RS.RESULT_PLAYERS_INSERT), players)

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


__all__ = ["POOL_MAX", "POOL_MIN", "RETRY_S", "TIMEOUT_S", "PostgresStore"]

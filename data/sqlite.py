"""The SQLite store: one database file, shared safely by every bot process on the machine.

Every change is one transaction in the process that asks for it (:class:`data.sqlite_db.Database`:
``BEGIN IMMEDIATE`` ... ``COMMIT``, then the answer), so the version check and the write happen
under SQLite's write lock: two stores (two processes) can never both read version 7 and both
write version 8. A game move is one ``UPDATE ... WHERE id = ? AND version = ?`` and one log row.
The SQL lives in :mod:`data.sqlite_sql`, the decoding and checking of rows in :mod:`data.rows`;
the reads in :mod:`data.sqlite_read`, what is kept beside a table in :mod:`data.sqlite_kept`,
the preferences and settings in :mod:`data.settings` and the records in
:mod:`data.records_sqlite` (the last two shared with PostgreSQL). This module holds the store
itself and its versioned writes: over 400 lines because each of the table's writes (create,
lobby, start, move, timers, end) is a transaction of its own with its checks, and they share
the helpers that read the row back under the same lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from data import results as RS
from data import rows as R
from data import sqlite_sql as Q
from data.absences import SharedAbsences
from data.analyses import StoreAnalyses
from data.errors import ChannelBusy, CorruptRecord, NotFound, VersionConflict
from data.model import OPEN_STATUSES, Pause, Seat, Table, TableOptions, TableStatus
from data.records_sqlite import SqliteRecords
from data.settings import SharedSettings
from data.sqlite_db import Database
from data.sqlite_held import SqliteHeld
from data.sqlite_kept import SqliteKept
from data.sqlite_read import SqliteReads

log = logging.getLogger(__name__)


class SqliteStore(SqliteReads, SqliteKept, SqliteHeld, SharedSettings, SharedAbsences):
    """The :class:`~data.store.Store` on a SQLite file (created, and migrated, by :meth:`open`).

    ``path`` is the database file. ``synchronous`` is ``"NORMAL"`` (durable against a killed
    process) or ``"FULL"`` (also against power loss). ``busy_timeout_ms`` is how long a write
    waits for another process's transaction before giving up. ``validate_states`` makes
    :meth:`get_table` and :meth:`open_table_in_channel` check the state with the engine (a state
    it rejects is a :class:`CorruptRecord`); the bulk listings (:meth:`open_tables`,
    :meth:`due_timers`) only check that each row reads (JSON, a log without gaps), to keep
    start-up fast; :meth:`check` replays everything.
    ``migrate_schema=False`` opens an existing file without changing it (for read-only tools);
    ``read_only=True`` also opens it read-only (it may be on read-only media), and every write
    fails.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 5000,
        validate_states: bool = True,
        migrate_schema: bool = True,
        read_only: bool = False,
    ) -> None:
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.busy_timeout_ms = busy_timeout_ms
        self.validate_states = validate_states
        self.migrate_schema = migrate_schema
        self._db = self._sql = Database(
            self.path, self.synchronous, busy_timeout_ms, read_only=read_only
        )
        self._initial = R.InitialStates()
        # Damaged tables already reported (id, version, problem): listed again at every timer
        # poll, each is logged as a warning once and at debug level after that.
        self._reported: set[tuple[int, int | None, str]] = set()
        self._identify_locks: dict[int, asyncio.Lock] = {}
        # Per kept message being edited: its lock and how many callers hold or wait for it.
        self._edit_locks: dict[tuple[int, str], tuple[asyncio.Lock, list[int]]] = {}

    def records(self) -> SqliteRecords:
        """The records kept in this file (:class:`data.store.Records`)."""
        return SqliteRecords(self._db, self)

    def analyses(self) -> StoreAnalyses:
        """The turning points' analyses kept in this database (:class:`data.store.Analyses`)."""
        return StoreAnalyses(self._db)

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    # --- life cycle -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Create the file if there is none, check it, and apply pending migrations.

        Raises :class:`~data.store.DatabaseDamaged` for an existing file that is empty, is not a
        database or fails SQLite's integrity check (it is left as it is), and
        :class:`~data.store.SchemaTooNew` (the file untouched) if newer code wrote it.
        """
        if self._db.is_open:
            return
        await self._db.open(migrate_schema=self.migrate_schema)
        log.info("opened %s", self.path)

    async def close(self) -> None:
        """Finish the write in progress, then close the connections."""
        if self._db.is_open:
            await self._db.close()
            log.info("closed %s", self.path)

    @contextlib.asynccontextmanager
    async def identify_slot(self, bucket: int) -> AsyncIterator[None]:
        """One holder at a time per bucket in this process (SQLite serves one process only, so
        no other process identifies with this bot's token)."""
        async with self._identify_locks.setdefault(bucket, asyncio.Lock()):
            yield

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- helpers for single writes ---------------------------------------------------------------

    @staticmethod
    def _fetch(conn: sqlite3.Connection, table_id: int) -> R.TableRow | None:
        rows = list(conn.execute(f"{Q.SELECT_ROW} WHERE t.id = ?", (table_id,)))
        return Q.table_row(rows[0]) if rows else None

    @classmethod
    def _fetch_checked(
        cls, conn: sqlite3.Connection, table_id: int, expected_version: int
    ) -> R.TableRow:
        row = cls._fetch(conn, table_id)
        if row is None:
            raise NotFound(f"no table {table_id}")
        if row.version != expected_version:
            raise VersionConflict(
                f"table {table_id} is at version {row.version}, not {expected_version}"
            )
        return row

    @classmethod
    def _refetch(cls, conn: sqlite3.Connection, table_id: int) -> R.TableRow:
        row = cls._fetch(conn, table_id)
        assert row is not None
        return row

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
        table (checked under the write lock, and by a unique index)."""
        options_json, seats_json = R.dumps(options.to_dict()), R.seats_json(seats)

        def op(conn: sqlite3.Connection) -> tuple[int, int]:
            busy = list(
                conn.execute(
                    f"SELECT t.id FROM tables t WHERE {Q.PLACE} = ? AND {Q.OPEN}", (channel_id,)
                )
            )
            if busy:
                raise ChannelBusy(int(busy[0][0]))
            # The guild's next number, read and taken under the write lock: no other writer
            # can take it meanwhile (the unique index on (guild_id, number) stands behind it).
            (row,) = conn.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, options, seats, "
                "version, created_at, updated_at, number, language) "
                "VALUES (?1, ?2, ?3, 'lobby', ?4, ?5, 1, ?6, ?6, "
                "(SELECT coalesce(max(n.number), 0) + 1 FROM tables n WHERE n.guild_id = ?1), ?7) "
                "RETURNING id, number",
                (guild_id, channel_id, host_id, options_json, seats_json, now, language),
            ).fetchall()
            return int(row[0]), int(row[1])

        table_id, number = await self._db.write(op)
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
        """Change a lobby's seats or options, or close it (``status="cancelled"`` or
        ``"aborted"``). Raises :class:`VersionConflict`, or :class:`NotFound` if the table is not
        a lobby any more."""
        if status not in (None, "lobby", "cancelled", "aborted"):
            raise ValueError(f"a lobby can become cancelled or aborted, not {status!r}")
        seats_json = None if seats is None else R.seats_json(seats)
        options_json = None if options is None else R.dumps(options.to_dict())

        def op(conn: sqlite3.Connection) -> R.TableRow:
            row = self._fetch_checked(conn, table_id, expected_version)
            if row.status != "lobby":
                raise NotFound(f"table {table_id} is not a lobby (it is {row.status})")
            closing = status in ("cancelled", "aborted")
            conn.execute(
                "UPDATE tables SET version = version + 1, seats = COALESCE(?, seats), "
                "options = COALESCE(?, options), status = COALESCE(?, status), "
                "deadline = CASE WHEN ? THEN NULL ELSE deadline END, "
                "reminder_at = CASE WHEN ? THEN NULL ELSE reminder_at END, updated_at = ? "
                "WHERE id = ?",
                (seats_json, options_json, status, closing, closing, now, table_id),
            )
            return self._refetch(conn, table_id)

        return R.table_from_row(await self._db.write(op), validate=False, strict=False)

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
        log starts from. Raises :class:`VersionConflict`, or :class:`NotFound` if the table is not
        a lobby."""
        seats_json, state_json = R.seats_json(seats), R.dumps(state)

        def op(conn: sqlite3.Connection) -> R.TableRow:
            row = self._fetch_checked(conn, table_id, expected_version)
            if row.status != "lobby":
                raise NotFound(f"table {table_id} is not a lobby (it is {row.status})")
            conn.execute(
                "UPDATE tables SET version = version + 1, start_version = version + 1, "
                "status = 'playing', seats = ?, state = ?, deadline = ?, reminder_at = ?, "
                "updated_at = ? WHERE id = ?",
                (seats_json, state_json, deadline, reminder_at, now, table_id),
            )
            conn.execute(
                "INSERT INTO initial_states (table_id, state) VALUES (?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
                (table_id, state_json),
            )
            return self._refetch(conn, table_id)

        row = await self._db.write(op)
        try:
            table = R.table_from_row(row, validate=False)
        except CorruptRecord:
            return R.table_from_row(row, validate=False, strict=False)
        self._initial.put(table.id, row.start_version, table.initial_state)
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
        """One game move, atomically (see :class:`~data.store.Store`): a stale version raises
        :class:`VersionConflict` and changes nothing. Raises :class:`NotFound` if the table is
        not playing, :class:`CorruptRecord` (nothing written) if its row cannot be read.
        ``state`` is the caller's and comes back as the returned table's state.

        Only a return means the move is stored. If the awaiting task is cancelled, the move may
        still be committed a moment later: read the table again to know."""
        if status == "lobby":
            raise ValueError("a game cannot go back to being a lobby")
        seats = None if seats is None else tuple(seats)
        action_json, state_json = R.dumps(action), R.dumps(state)
        if seats is None and status is None:
            sql = Q.UPDATE_MOVED
            params: tuple[Any, ...] = (state_json, deadline, reminder_at, now)
        else:
            sql = Q.UPDATE_CHANGED
            seats_json = None if seats is None else R.seats_json(seats)
            params = (state_json, deadline, reminder_at, now, seats_json, status)
        params += (table_id, expected_version)

        def op(conn: sqlite3.Connection) -> Table:
            found = list(conn.execute(sql, params))
            if not found:
                self._why_not_moved(conn, table_id, expected_version)
            row = found[0]
            table = self._moved(
                conn,
                table_id,
                expected_version + 1,
                row,
                (state, status, deadline, reminder_at, now),
            )
            try:
                conn.execute(
                    Q.INSERT_ACTION,
                    (table_id, expected_version + 1, seat, user_id, action_json, now),
                )
            except sqlite3.IntegrityError:
                raise CorruptRecord(
                    table_id,
                    f"the action log already holds version {expected_version + 1}",
                    expected_version,
                ) from None
            if status == "finished":
                self._record_result(conn, table, None)
            return table

        return await self._db.write(op, moves=1)

    @classmethod
    def _why_not_moved(cls, conn: sqlite3.Connection, table_id: int, expected_version: int) -> None:
        """Raise what kept a move's UPDATE from finding its table."""
        row = cls._fetch_checked(conn, table_id, expected_version)
        if row.held is not None and row.status == "playing":
            raise VersionConflict(f"table {table_id} holds a turn back: only handing it on moves")
        raise NotFound(f"table {table_id} is not playing (it is {row.status})")

    def _moved(
        self,
        conn: sqlite3.Connection,
        table_id: int,
        version: int,
        row: Sequence[Any],
        move: tuple[dict[str, Any], TableStatus | None, float | None, float | None, float],
    ) -> Table:
        """The Table a move's UPDATE ... RETURNING row stands for; :class:`CorruptRecord` (the
        transaction then rolls back) if a column of it does not read."""
        state, status, deadline, reminder_at, now = move
        start_version = row[Q.START_VERSION]
        known, initial = self._initial.get(table_id, start_version)
        try:
            if not known:
                found = list(
                    conn.execute("SELECT state FROM initial_states WHERE table_id = ?", (table_id,))
                )
                initial = R.parse_object(found[0][0], "initial state") if found else None
            table = Table(
                id=table_id,
                guild_id=row[Q.GUILD],
                channel_id=row[Q.CHANNEL],
                host_id=row[Q.HOST],
                status=status or "playing",
                options=R.parse_options(row[Q.OPTIONS]),
                seats=R.parse_seats(row[Q.SEATS]),
                version=version,
                state=state,
                initial_state=initial,
                deadline=deadline,
                reminder_at=reminder_at,
                created_at=row[Q.CREATED],
                updated_at=now,
                messages=R.parse_messages(row[Q.MESSAGES]),
                departed=R.parse_departed(row[Q.DEPARTED]),
                dm_failed=R.parse_dm_failed(row[Q.DM_FAILED]),
                shown_version=row[Q.SHOWN],
                thread_id=row[Q.THREAD],
                number=row[Q.NUMBER],
                language=row[Q.LANGUAGE],
                pause=R.parse_pause(row[Q.PAUSE]),
                absences=R.parse_absences(row[Q.ABSENCES]),
            )
        except (ValueError, TypeError) as e:
            raise CorruptRecord(table_id, str(e), version - 1) from None
        if not known:
            self._initial.put(table_id, start_version, initial)
        return table

    async def set_timers(
        self,
        table_id: int,
        expected_version: int,
        deadline: float | None,
        reminder_at: float | None,
        *,
        expected_timers: tuple[float | None, float | None] | None = None,
    ) -> None:
        """Change an open table's timers without bumping its version (but checking it).

        With ``expected_timers=(deadline, reminder_at)`` as the caller read them, the change is
        also refused with :class:`VersionConflict` if another process changed the timers since:
        the way for several bot processes to agree on who sends a reminder.
        """

        def op(conn: sqlite3.Connection) -> None:
            row = self._fetch_checked(conn, table_id, expected_version)
            if row.status not in OPEN_STATUSES:
                raise NotFound(f"table {table_id} is not open (it is {row.status})")
            if expected_timers is not None and (row.deadline, row.reminder_at) != tuple(
                expected_timers
            ):
                raise VersionConflict(f"the timers of table {table_id} have changed")
            conn.execute(
                "UPDATE tables SET deadline = ?, reminder_at = ? WHERE id = ?",
                (deadline, reminder_at, table_id),
            )

        await self._db.write(op)

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
        :meth:`data.store.Tables.set_pause`): no version bump, a compare-and-set on the
        timers."""
        text = None if pause is None else R.dumps(pause.to_dict())

        def op(conn: sqlite3.Connection) -> None:
            row = self._fetch_checked(conn, table_id, expected_version)
            if row.status != "playing":
                raise NotFound(f"table {table_id} is not playing (it is {row.status})")
            if (row.deadline, row.reminder_at) != tuple(expected_timers):
                raise VersionConflict(f"the timers of table {table_id} have changed")
            conn.execute(
                "UPDATE tables SET pause = ?, deadline = ?, reminder_at = ? WHERE id = ?",
                (text, deadline, reminder_at, table_id),
            )

        await self._db.write(op)

    async def claim_timers(self, now: float, owner: str, lease_s: float, limit: int) -> list[Table]:
        """Claim due tables for ``owner`` until ``now + lease_s`` (see
        :meth:`data.store.Store.claim_timers`): the choice and the claims are one write
        transaction, so two processes never claim one table."""

        def op(conn: sqlite3.Connection) -> list[Any]:
            ids = [int(r[0]) for r in conn.execute(Q.SELECT_CLAIMABLE, (now, now, now, limit))]
            if not ids:
                return []
            conn.executemany(Q.CLAIM, [(i, owner, now + lease_s) for i in ids])
            marks = ", ".join("?" * len(ids))
            return list(
                conn.execute(f"{Q.SELECT_TABLE} WHERE t.id IN ({marks}) ORDER BY t.id", ids)
            )

        return self._tables(await self._db.write(op))

    async def release_timers(self, table_id: int, owner: str) -> None:
        def op(conn: sqlite3.Connection) -> None:
            conn.execute(
                "DELETE FROM timer_claims WHERE table_id = ? AND owner = ?", (table_id, owner)
            )

        await self._db.write(op)

    async def end_table(
        self,
        table_id: int,
        expected_version: int,
        status: TableStatus,
        now: float,
        results: dict[str, Any] | None = None,
    ) -> Table:
        """Close an open table: ``"finished"`` (recorded in the results, with ``results`` as
        extra data), ``"cancelled"`` or ``"aborted"`` (recorded too when ``results`` are given:
        the standings of a game stopped after its first move). Timers are cleared, the version
        bumped.

        A table already finished by its last move (``apply_action(status="finished")``) can be
        ended again as ``"finished"`` to attach ``results``. A corrupt table can be aborted with
        the version its :class:`CorruptRecord` carries. Raises :class:`VersionConflict`, or
        :class:`NotFound` if the table is closed.
        """
        if status not in R.CLOSED_STATUSES:
            raise ValueError(f"a table ends finished, cancelled or aborted, not {status!r}")

        def op(conn: sqlite3.Connection) -> R.TableRow:
            row = self._fetch_checked(conn, table_id, expected_version)
            if row.status not in OPEN_STATUSES and not (
                row.status == "finished" and status == "finished"
            ):
                raise NotFound(f"table {table_id} is not open (it is {row.status})")
            conn.execute(
                "UPDATE tables SET version = version + 1, status = ?, deadline = NULL, "
                "reminder_at = NULL, held = NULL, updated_at = ? WHERE id = ?",
                (status, now, table_id),
            )
            new = self._refetch(conn, table_id)
            if RS.recorded(status, results):
                table = R.table_from_row(new, validate=False, strict=False)
                self._record_result(conn, table, results)
            return new

        return R.table_from_row(await self._db.write(op), validate=False, strict=False)

    @staticmethod
    def _record_result(
        conn: sqlite3.Connection, table: Table, results: dict[str, Any] | None
    ) -> None:
        """Record a match's result (or replace it) for the records."""
        match, players = RS.result_rows(
            table.id,
            table.guild_id,
            table.channel_id,
            table.updated_at,
            table.seats,
            table.state,
            results,
        )
        conn.execute(RS.RESULT_UPSERT, match)
        conn.execute(RS.RESULT_PLAYERS_DELETE, (table.id,))
        conn.executemany(RS.RESULT_PLAYERS_INSERT, players)

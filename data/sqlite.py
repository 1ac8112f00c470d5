"""The SQLite store: one database file, shared safely by every bot process on the machine.

How it stays correct:

- **One transaction per change.** Every write runs in ``BEGIN IMMEDIATE`` ... ``COMMIT``, so
  the version check and the write happen under SQLite's write lock: two stores (two processes)
  can never both read version 7 and both write version 8. A caller hears back only after
  ``COMMIT`` has returned.
- **Group commit, in a writer process.** Moves go, a batch at a time, to a process of the
  store's own (:mod:`data.writer`), which commits each batch in one transaction, each move still
  checked on its own (a stale one gets :class:`~data.store.VersionConflict` and the others
  commit). It commits one batch while this process answers the callers of the one before: with
  hundreds of games moving at once, the SQLite work and the Python of the callers no longer take
  turns on one interpreter. Every other write runs on this process's writer connection, in
  queue order, never while a batch is out. The writer process stops when its input ends, so it
  never outlives this one. If it dies first, each move it had not answered is looked up in the
  action log: one that is there is answered as committed, one that is not goes to a new writer
  process (once), so a caller hears back once and a move is applied once.
- **WAL mode**, ``synchronous=NORMAL`` by default: a commit survives the process being killed at
  any moment; only a power failure or OS crash may lose the last commits. ``synchronous="FULL"``
  makes every commit wait for the disk.
- Reads go through a second, read-only connection: WAL readers see the last committed state and
  never block the writer, and never see a transaction that is still in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import itertools
import logging
import os
import pickle
import sqlite3
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from data import rows as R
from data import writer as W
from data.migrate import current_version, latest_version, migrate, too_new_message
from data.store import (
    OPEN_STATUSES,
    ChannelBusy,
    CorruptRecord,
    GuildSettings,
    LoggedAction,
    NotFound,
    PlayerPrefs,
    SchemaTooNew,
    Seat,
    StoreError,
    Table,
    TableProblem,
    TableStatus,
    VersionConflict,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, t.seats, t.version, t.state, "
    "(SELECT i.state FROM initial_states i WHERE i.table_id = t.id), t.start_version, "
    "t.deadline, t.reminder_at, t.created_at, t.updated_at"
)
_MESSAGES = W.SELECT_MESSAGES
_LOG_STATS = (
    "(SELECT count(*) FROM actions a WHERE a.table_id = t.id), "
    "(SELECT min(a.version) FROM actions a WHERE a.table_id = t.id), "
    "(SELECT max(a.version) FROM actions a WHERE a.table_id = t.id)"
)
#: A whole table, its messages and its log statistics, in one statement (one snapshot).
SELECT_TABLE = f"SELECT {_COLUMNS}, {_MESSAGES}, {_LOG_STATS} FROM tables t"
_OPEN = "t.status IN ('lobby', 'playing')"

#: The most moves one batch takes (the rest go into the next one).
MAX_BATCH = 512
#: Batches out to the writer process at once: the next one is sent while it commits the one
#: before, so that this process answers one batch's callers while the next batch commits.
MAX_IN_FLIGHT = 2
#: When no batch is out, a queue of at least this many moves goes out in two halves.
SPLIT_AT = 32
#: How long the writer process may take to start, and to finish its batches when the store closes.
WRITER_START_TIMEOUT_S = 30.0
WRITER_STOP_TIMEOUT_S = 30.0
#: How many moves (a few WAL pages each) call for a checkpoint, and how often one runs anyway.
CHECKPOINT_MOVES = 2000
CHECKPOINT_INTERVAL_S = 5.0
CHECKPOINT_RESTART_BYTES = 128 * 1024 * 1024
CHECKPOINT_MIN_GAP_S = 0.5
#: Copying the WAL into the file reads and writes the disk and ends with an fsync, which slows
#: the commits that overlap it: a checkpoint waits until the writer has been idle this long...
CHECKPOINT_QUIET_S = 0.02
#: ...unless this many moves have gone into the WAL since the last one (some 30 MB).
CHECKPOINT_ANYWAY_MOVES = 20_000
#: How many tables' parsed options, seats and initial state this process keeps (to answer moves).
PARSED_CACHE_SIZE = 1024


def _row(values: Sequence[Any]) -> R.TableRow:
    return R.TableRow(*values)


@dataclass(eq=False, slots=True)
class _Move:
    """A move waiting for the writer process: what it is sent, and what answers the caller."""

    row: W.MoveRow
    state: dict[str, Any]
    seats: tuple[Seat, ...] | None
    future: asyncio.Future[Table]
    retried: bool = False  # sent again after a writer process was lost with it


@dataclass(eq=False)
class _Call:
    """Any other write: a coroutine run alone in its own transaction on the writer connection."""

    fn: Callable[[aiosqlite.Connection], Awaitable[Any]]
    future: asyncio.Future[Any]


@dataclass(eq=False)
class _Parsed:
    """The parts of a table row that moves do not change, parsed once and kept (see
    :class:`_ParsedCache`)."""

    options_json: str
    seats_json: str
    messages_json: str | None
    start_version: int | None
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    messages: dict[str, int]
    initial_state: dict[str, Any] | None


class _ParsedCache:
    """The last parsed options, seats, messages and initial state of recently moved tables.

    Parsing them again for every move would cost more than the rest of the commit. An entry is
    used only while the stored text is the same (options, seats, messages) or, for the initial
    state, which never changes once a game has started, while ``start_version`` is the same.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[int, _Parsed] = OrderedDict()

    def get(self, table_id: int) -> _Parsed | None:
        entry = self._entries.get(table_id)
        if entry is not None:
            self._entries.move_to_end(table_id)
        return entry

    def put(self, table_id: int, entry: _Parsed) -> None:
        self._entries[table_id] = entry
        self._entries.move_to_end(table_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def has(self, table_id: int) -> bool:
        return table_id in self._entries


def _set(fut: asyncio.Future[Any], result: Any) -> None:
    if not fut.done():
        fut.set_result(result)


def _fail(fut: asyncio.Future[Any], exc: BaseException) -> None:
    if not fut.done():
        fut.set_exception(exc)


class _WriterProcess:
    """The store's end of the writer process (see :mod:`data.writer`)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.alive = True
        assert proc.stdin is not None and proc.stdout is not None
        self._stdin = proc.stdin
        self._stdout = proc.stdout

    @classmethod
    async def start(cls, path: Path, synchronous: str, busy_timeout_ms: int) -> _WriterProcess:
        """Start the writer process (:func:`data.writer.main`) on ``path``, with this process's
        interpreter and environment; StoreError if it does not come up."""
        env = dict(os.environ)
        root = str(Path(W.__file__).resolve().parent.parent)  # where ``data`` can be imported
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                # (imported by its name, not run as __main__: the batches' pickles name it)
                "import sys; from data.writer import main; sys.exit(main(sys.argv[1:]))",
                str(path),
                "--synchronous",
                synchronous,
                "--busy-timeout-ms",
                str(int(busy_timeout_ms)),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
            )
        except OSError as e:
            raise StoreError(f"cannot start the database writer process: {e}") from e
        self = cls(proc)
        try:
            first = await asyncio.wait_for(self.read(), WRITER_START_TIMEOUT_S)
        except (TimeoutError, asyncio.IncompleteReadError, pickle.UnpicklingError) as e:
            await self.kill()
            raise StoreError(f"the database writer process did not start ({e!r})") from e
        if not (isinstance(first, tuple) and first[:1] == ("ready",)):
            await self.kill()
            why = first[1] if isinstance(first, tuple) and len(first) > 1 else repr(first)
            raise StoreError(f"the database writer process did not start: {why}")
        log.info("database writer process %s started on %s", proc.pid, path)
        return self

    def send(self, value: Any) -> None:
        self._stdin.write(W.frame(value))

    async def read(self) -> Any:
        head = await self._stdout.readexactly(W.FRAME_HEADER.size)
        (size,) = W.FRAME_HEADER.unpack(head)
        return pickle.loads(await self._stdout.readexactly(size))

    async def wait(self) -> int | None:
        try:
            return await asyncio.wait_for(self.proc.wait(), WRITER_STOP_TIMEOUT_S)
        except TimeoutError:
            return None

    async def stop(self) -> None:
        """End its input, so that it stops once the batches sent are committed."""
        self.alive = False
        with contextlib.suppress(Exception):
            self._stdin.close()
            await self._stdin.wait_closed()
        if await self.wait() is None:
            log.error("the database writer process %s did not stop: killing it", self.proc.pid)
            await self.kill()

    async def kill(self) -> None:
        self.alive = False
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()


class SqliteStore:
    """The :class:`~data.store.Store` on a SQLite file (created, and migrated, by :meth:`open`).

    ``path`` is the database file. ``synchronous`` is ``"NORMAL"`` (durable against a killed
    process) or ``"FULL"`` (also against power loss). ``busy_timeout_ms`` is how long a write
    waits for another process's transaction before giving up. ``validate_states`` makes
    :meth:`get_table` and :meth:`open_table_in_channel` check the state with the engine (a state
    it rejects is a :class:`CorruptRecord`); the bulk listings (:meth:`open_tables`,
    :meth:`due_timers`) only check that each row reads (JSON, a log without gaps), to keep
    start-up fast; :meth:`check` replays everything.
    ``migrate_schema=False`` opens without applying migrations (for read-only tools).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 5000,
        validate_states: bool = True,
        migrate_schema: bool = True,
    ) -> None:
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.busy_timeout_ms = busy_timeout_ms
        self.validate_states = validate_states
        self.migrate_schema = migrate_schema
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()
        self._queue: list[_Move | _Call] = []
        self._wake = asyncio.Event()
        self._writer_task: asyncio.Task[None] | None = None
        self._closing = False
        self._parsed = _ParsedCache(PARSED_CACHE_SIZE)
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._checkpoint_wanted = asyncio.Event()
        self._moves_unchecked = 0  # moves in the WAL since the last checkpoint began
        self._writing = False
        self._last_write = 0.0  # time.monotonic() when the writer last finished a batch
        self._wal = Path(f"{self.path}-wal")
        self._proc: _WriterProcess | None = None
        self._proc_starting: asyncio.Task[_WriterProcess] | None = None
        self._warm_ids: list[int] = []  # tables to check ahead, once the writer process is up
        self._proc_readers: set[asyncio.Task[None]] = set()  # one per writer process started
        # batch id -> the writer process it went to, and its moves in order
        self._inflight: dict[int, tuple[_WriterProcess, list[_Move]]] = {}
        self._lost: list[_Move] = []  # moves out to a writer process that died
        self._lost_why = ""
        self._batch_ids = itertools.count(1)
        self._answered = asyncio.Event()
        # Damaged tables already reported (id, version, problem): listed again at every timer
        # poll, each is logged as a warning once and at debug level after that.
        self._reported: set[tuple[int, int | None, str]] = set()

    @property
    def writer_pid(self) -> int | None:
        """The process id of the writer process (see :mod:`data.writer`), if it is running."""
        proc = self._proc
        return proc.proc.pid if proc is not None and proc.alive else None

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    # --- life cycle -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Create the file if needed, switch it to WAL mode and apply pending migrations.

        Raises :class:`~data.store.SchemaTooNew` (and leaves the file untouched) if the database
        was written by newer code.
        """
        if self._writer is not None:
            return
        if str(self.path) != ":memory:" and self.path.parent != Path():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await writer.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            if self.migrate_schema:  # else a read-only tool: leave the file as it is
                await self._enter_wal(writer)
            await writer.execute(f"PRAGMA synchronous = {self.synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            await writer.execute("PRAGMA journal_size_limit = 67108864")
            # Checkpoints (copying the WAL into the file, with an fsync) run on their own
            # connection (see _checkpoint_loop), not inside a commit; the writer only steps in
            # if they fall far behind.
            await writer.execute(f"PRAGMA wal_autocheckpoint = {W.WRITER_CHECKPOINT_PAGES}")
            if self.migrate_schema:
                await migrate(writer)
            else:
                found, known = await current_version(writer), latest_version()
                if found > known:
                    raise SchemaTooNew(too_new_message(found, known))
            reader = await aiosqlite.connect(self.path, isolation_level=None)
        except BaseException:
            await writer.close()
            raise
        try:
            await reader.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            await writer.close()
            raise
        self._writer, self._reader = writer, reader
        self._closing = False
        # Fresh primitives: the store may be reopened under another event loop.
        self._read_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._checkpoint_wanted = asyncio.Event()
        self._answered = asyncio.Event()
        self._writer_task = asyncio.create_task(self._write_loop(), name=f"{self!r} writer")
        if self.migrate_schema:
            # Started now, in the background, so that the first move does not wait for it.
            self._proc_starting = self._start_writer_task()
            self._checkpoint_task = asyncio.create_task(
                self._checkpoint_loop(), name=f"{self!r} checkpoints"
            )
        log.info("opened %s", self.path)

    async def _enter_wal(self, conn: aiosqlite.Connection) -> None:
        """Switch the file to WAL mode. When several processes open a new file at once, the
        switch can meet another one's lock without SQLite waiting for it (to avoid a deadlock):
        try again for as long as the busy timeout."""
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        while True:
            try:
                rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                mode = None
            else:
                mode = next(iter(rows))[0] if rows else None
            if isinstance(mode, str) and mode.lower() in ("wal", "memory"):
                return  # (a database in memory has no WAL)
            if time.monotonic() >= deadline:
                raise StoreError(f"cannot switch {self.path} to WAL mode (it stays {mode})")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        """Finish the writes already submitted, then close the connections."""
        if self._writer is None:
            return
        self._closing = True
        self._wake.set()
        if self._writer_task is not None:
            await self._writer_task
            self._writer_task = None
        await self._stop_writer_process()
        if self._checkpoint_task is not None:
            self._checkpoint_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoint_task
            self._checkpoint_task = None
        writer, reader = self._writer, self._reader
        self._writer = self._reader = None
        if reader is not None:
            await reader.close()
        await writer.close()
        log.info("closed %s", self.path)

    async def _stop_writer_process(self) -> None:
        if self._proc_starting is not None:
            with contextlib.suppress(Exception):
                await self._proc_starting
            self._proc_starting = None
        self._warm_ids.clear()
        proc, self._proc = self._proc, None
        if proc is not None:
            await proc.stop()
        if self._proc_readers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    asyncio.gather(*self._proc_readers, return_exceptions=True),
                    WRITER_STOP_TIMEOUT_S,
                )

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- the writer -----------------------------------------------------------------------------

    def _submit(self, item: _Move | _Call) -> None:
        if self._writer is None or self._closing:
            raise StoreError("the store is not open")
        self._queue.append(item)
        self._wake.set()

    async def _call(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``fn(conn)`` in its own write transaction, in queue order; return its result."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._submit(_Call(fn, fut))
        return await fut

    async def _write_loop(self) -> None:
        """Hand the queue to the writers in order: runs of moves to the writer process (up to
        ``MAX_IN_FLIGHT`` batches out at once), any other write to this process's connection
        once no batch is out."""
        while True:
            if self._lost:
                await self._recover()
                continue
            if not self._queue:
                if self._closing:
                    if self._inflight:
                        await self._drain()
                        continue
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            head = self._queue[0]
            if isinstance(head, _Call):
                if self._inflight:
                    await self._drain()
                    continue  # (the moves of a lost writer process go first)
                del self._queue[0]
                self._writing = True
                try:
                    await self._run_call(head)
                finally:
                    self._writing = bool(self._inflight)
                    self._last_write = time.monotonic()
                continue
            if len(self._inflight) >= MAX_IN_FLIGHT:
                self._answered.clear()
                await self._answered.wait()
                continue
            n = 1
            while n < len(self._queue) and n < MAX_BATCH and isinstance(self._queue[n], _Move):
                n += 1
            if not self._inflight and n >= SPLIT_AT:
                # Nothing is out: send half now and half behind it, so that the callers of the
                # first half are answered while the writer commits the second.
                n = (n + 1) // 2
            batch = cast(list[_Move], self._queue[:n])
            del self._queue[:n]
            try:
                await self._send(batch)
            except Exception as e:  # a bug here must not leave callers waiting forever
                log.exception("the writer of %s failed", self.path)
                for move in batch:
                    _fail(move.future, e)

    async def _drain(self) -> None:
        """Wait until every batch sent to the writer process has been answered (or lost)."""
        while self._inflight:
            self._answered.clear()
            await self._answered.wait()

    async def _send(self, moves: list[_Move]) -> None:
        try:
            proc = await self._writer_process()
        except StoreError as e:
            for move in moves:
                _fail(move.future, e)
            return
        batch_id = next(self._batch_ids)
        need_initial = sorted(
            {m.row.table_id for m in moves if not self._parsed.has(m.row.table_id)}
        )
        self._inflight[batch_id] = (proc, moves)
        self._writing = True
        try:
            proc.send((batch_id, need_initial, [tuple(m.row) for m in moves]))  # (plain: faster)
        except Exception as e:  # the pipe is broken: the process is gone
            self._writer_lost(proc, f"cannot reach the database writer process ({e})")

    async def _writer_process(self) -> _WriterProcess:
        """The running writer process, started if there is none."""
        proc = self._proc
        if proc is not None and proc.alive:
            return proc
        if self._proc_starting is None or self._proc_starting.done():
            self._proc_starting = self._start_writer_task()
        return await asyncio.shield(self._proc_starting)

    def _start_writer_task(self) -> asyncio.Task[_WriterProcess]:
        task = asyncio.create_task(self._start_writer_process(), name=f"{self!r} writer start")

        def done(task: asyncio.Task[_WriterProcess]) -> None:
            if not task.cancelled() and task.exception() is not None:
                log.error("%s", task.exception())  # (each move waiting for it fails with it)

        task.add_done_callback(done)
        return task

    async def _start_writer_process(self) -> _WriterProcess:
        proc = await _WriterProcess.start(self.path, self.synchronous, self.busy_timeout_ms)
        self._proc = proc
        reader = asyncio.create_task(self._read_replies(proc), name=f"{self!r} writer replies")
        self._proc_readers.add(reader)
        reader.add_done_callback(self._proc_readers.discard)
        if self._warm_ids:
            self._warm([])
        return proc

    def _warm(self, table_ids: Sequence[int]) -> None:
        """Have the writer process read these tables ahead of their next moves (it checks each
        table's row before its first move), while it has nothing else to do."""
        self._warm_ids.extend(table_ids)
        del self._warm_ids[: -W.CHECKED_CACHE_SIZE]
        proc = self._proc
        if proc is None or not proc.alive or not self._warm_ids:
            return
        ids, self._warm_ids = self._warm_ids, []
        with contextlib.suppress(Exception):  # (a broken pipe is the reader's to report)
            proc.send((0, ids, []))

    async def _read_replies(self, proc: _WriterProcess) -> None:
        try:
            while True:
                reply = await proc.read()
                await self._answer(*reply)
        except (asyncio.IncompleteReadError, ConnectionError, EOFError):
            pass  # it has exited
        except Exception:  # a frame out of step: stop it, and look up what it had not answered
            log.exception("cannot read the database writer process %s: stopping it", proc.proc.pid)
            await proc.kill()
        code = await proc.wait()
        self._writer_lost(proc, f"the database writer process stopped (exit status {code})")

    def _writer_lost(self, proc: _WriterProcess, why: str) -> None:
        """The writer process is gone: what it had not answered may or may not be stored. The
        write loop finds out which (see :meth:`_recover`) before it sends anything else."""
        proc.alive = False
        if self._proc is proc:
            self._proc = None
        lost = [bid for bid, (p, _) in self._inflight.items() if p is proc]
        if lost:
            log.error("%s, with %d batches of moves not answered", why, len(lost))
            self._lost_why = why
            for bid in sorted(lost):
                self._lost.extend(self._inflight.pop(bid)[1])
        self._writing = bool(self._inflight)
        self._answered.set()
        self._wake.set()

    async def _recover(self) -> None:
        """Answer the moves a lost writer process had not answered: one whose log row is there
        was committed and is answered as such; one that is not goes to the next writer (once:
        if that one is lost too, the move fails, unstored)."""
        lost, self._lost = self._lost, []
        again: list[_Move] = []
        claimed: set[tuple[int, int]] = set()
        for move in lost:
            if move.future.done():  # (its caller has given up)
                continue
            m = move.row
            try:
                logged = await self._read(
                    "SELECT seat, user_id, action, at FROM actions "
                    "WHERE table_id = ? AND version = ?",
                    (m.table_id, m.expected_version + 1),
                )
                stored = (
                    bool(logged)
                    and tuple(logged[0]) == (m.seat, m.user_id, m.action_json, m.now)
                    and (m.table_id, m.expected_version) not in claimed
                )
                if stored:
                    claimed.add((m.table_id, m.expected_version))
                    rows = await self._read(f"{W.SELECT_FOR_WRITE} WHERE t.id = ?", (m.table_id,))
                    entry = await self._parsed_row(tuple(rows[0]), {})
                    _set(move.future, self._committed(move, tuple(rows[0]), entry)[0])
                elif move.retried:
                    _fail(
                        move.future,
                        StoreError(
                            f"{self._lost_why} twice while committing this move: not stored"
                        ),
                    )
                else:
                    move.retried = True
                    again.append(move)
            except Exception as e:
                log.exception("cannot tell whether a move of table %s was stored", m.table_id)
                _fail(
                    move.future,
                    StoreError(f"{self._lost_why}: the move may or may not be stored ({e})"),
                )
        self._queue[:0] = again

    def _committed(
        self, move: _Move, row: tuple[Any, ...], entry: _Parsed
    ) -> tuple[Table, _Parsed]:
        """The Table a committed move answers with, and the table's parsed parts after it."""
        m = move.row
        seats = entry.seats
        if move.seats is not None and m.seats_json is not None:
            seats = move.seats
            entry = dataclasses.replace(entry, seats_json=m.seats_json, seats=seats)
            self._parsed.put(m.table_id, entry)
        table = Table(
            id=m.table_id,
            guild_id=row[W.GUILD],
            channel_id=row[W.CHANNEL],
            host_id=row[W.HOST],
            status=m.status or "playing",  # type: ignore[arg-type]
            options=dict(entry.options),
            seats=seats,
            version=m.expected_version + 1,
            state=move.state,
            initial_state=entry.initial_state,
            deadline=m.deadline,
            reminder_at=m.reminder_at,
            created_at=row[W.CREATED],
            updated_at=m.now,
            messages=dict(entry.messages),
        )
        return table, entry

    async def _answer(
        self,
        batch_id: int,
        rows: dict[int, tuple[Any, ...]],
        initial: dict[int, str | None],
        outcomes: list[W.Outcome],
    ) -> None:
        """Answer the callers of a batch the writer process has committed."""
        batch = self._inflight.pop(batch_id, None)
        if batch is None:
            return
        moves = batch[1]
        parsed: dict[int, _Parsed] = {}
        committed = 0
        try:
            for move, outcome in zip(moves, outcomes, strict=True):
                if outcome is not None:
                    _fail(move.future, W.outcome_error(outcome))
                    continue
                committed += 1
                tid = move.row.table_id
                row = rows[tid]
                entry = parsed.get(tid)
                if entry is None:
                    entry = await self._parsed_row(row, initial)
                table, parsed[tid] = self._committed(move, row, entry)
                _set(move.future, table)
        except Exception:
            # Whatever went wrong here, the log knows which of these moves are stored.
            log.exception("cannot read an answer of the database writer process")
            self._lost_why = "an answer of the database writer process could not be read"
            self._lost.extend(m for m in moves if not m.future.done())
            self._wake.set()
        finally:
            self._wal_grew(committed)
            self._writing = bool(self._inflight)
            self._last_write = time.monotonic()
            self._answered.set()

    async def _parsed_row(self, row: tuple[Any, ...], initial: dict[int, str | None]) -> _Parsed:
        """A committed table's options, seats, messages and initial state: from the cache while
        the texts are the same, else parsed now (the writer process has checked that they read)."""
        tid = row[W.ID]
        entry = self._parsed.get(tid)
        if (
            entry is not None
            and entry.options_json == row[W.OPTIONS]
            and entry.seats_json == row[W.SEATS]
            and entry.messages_json == row[W.MESSAGES]
            and entry.start_version == row[W.START_VERSION]
        ):
            return entry
        try:
            if tid in initial:  # (asked of the writer process when this cache had no entry)
                text = initial[tid]
                state = None if text is None else R.parse_object(text, "initial state")
            elif entry is not None and entry.start_version == row[W.START_VERSION]:
                state = entry.initial_state  # (it never changes once the game has started)
            else:
                found = await self._read(
                    "SELECT state FROM initial_states WHERE table_id = ?", (tid,)
                )
                state = None if not found else R.parse_object(found[0][0], "initial state")
            options = R.parse_object(row[W.OPTIONS], "options")
            seats = R.parse_seats(row[W.SEATS])
            messages = R.parse_messages(row[W.MESSAGES])
        except (ValueError, TypeError) as e:  # the writer read them: this cannot happen
            raise StoreError(f"table {tid} changed under a committed move ({e})") from e
        entry = _Parsed(
            row[W.OPTIONS],
            row[W.SEATS],
            row[W.MESSAGES],
            row[W.START_VERSION],
            options,
            seats,
            messages,
            state,
        )
        self._parsed.put(tid, entry)
        return entry

    async def _checkpoint_loop(self) -> None:
        """Copy the WAL into the database file from a connection of its own.

        SQLite would otherwise do it inside whichever commit crosses the threshold, making that
        commit (and every move queued behind it) wait for the copy and an fsync. A passive
        checkpoint never blocks the writer: it is due after ``CHECKPOINT_MOVES`` moves (the
        writer counts them) or every ``CHECKPOINT_INTERVAL_S``, and runs once the writer has
        been idle for ``CHECKPOINT_QUIET_S`` (at once past ``CHECKPOINT_ANYWAY_MOVES``), so that
        a burst of moves is not slowed by the copy.
        """
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._checkpoint_wanted.wait(), CHECKPOINT_INTERVAL_S)
                self._checkpoint_wanted.clear()
                while not self._writer_quiet() and self._moves_unchecked < CHECKPOINT_ANYWAY_MOVES:
                    await asyncio.sleep(min(CHECKPOINT_QUIET_S, 0.05))
                self._moves_unchecked = 0
                # Under a sustained stream of commits a passive checkpoint never quite catches
                # up, and the WAL only starts over once one has: past CHECKPOINT_RESTART_BYTES,
                # writers pause while the last frames are copied, so the WAL stays bounded.
                mode = "RESTART" if self._wal_size() > CHECKPOINT_RESTART_BYTES else "PASSIVE"
                try:
                    await conn.execute(f"PRAGMA wal_checkpoint({mode})")
                except sqlite3.Error as e:
                    log.warning("checkpoint of %s failed: %s", self.path, e)
                await asyncio.sleep(CHECKPOINT_MIN_GAP_S)  # the WAL file keeps its size
        finally:
            await conn.close()

    def _writer_quiet(self) -> bool:
        return not self._writing and time.monotonic() - self._last_write >= CHECKPOINT_QUIET_S

    def _wal_size(self) -> int:
        try:
            return self._wal.stat().st_size
        except OSError:
            return 0

    def _wal_grew(self, moves: int) -> None:
        """Count the moves written since the last checkpoint (each adds a few pages to the
        WAL); enough of them call for the next one."""
        self._moves_unchecked += moves
        if self._moves_unchecked >= CHECKPOINT_MOVES:
            self._checkpoint_wanted.set()

    async def _transaction(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        conn = self._writer
        assert conn is not None
        await conn.execute("BEGIN IMMEDIATE")
        try:
            result = await fn(conn)
            await conn.execute("COMMIT")
        except BaseException:
            try:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
            except Exception:
                log.exception("rollback failed on %s", self.path)
            raise
        return result

    async def _run_call(self, call: _Call) -> None:
        try:
            result = await self._transaction(call.fn)
        except Exception as e:
            _fail(call.future, e)
        else:
            _set(call.future, result)

    # --- helpers for single writes ---------------------------------------------------------------

    @staticmethod
    async def _fetch(conn: aiosqlite.Connection, table_id: int) -> R.TableRow | None:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT {_COLUMNS}, {_MESSAGES} FROM tables t WHERE t.id = ?", (table_id,)
            )
        )
        return _row(rows[0]) if rows else None

    @staticmethod
    def _checked(row: R.TableRow | None, table_id: int, expected_version: int) -> R.TableRow:
        if row is None:
            raise NotFound(f"no table {table_id}")
        if row.version != expected_version:
            raise VersionConflict(
                f"table {table_id} is at version {row.version}, not {expected_version}"
            )
        return row

    async def _write_result(
        self, conn: aiosqlite.Connection, table: Table, results: dict[str, Any] | None
    ) -> None:
        """Record a finished match (or replace its record) for stats."""
        match, players = R.result_rows(
            table.id,
            table.guild_id,
            table.channel_id,
            table.updated_at,
            table.seats,
            table.state,
            results,
        )
        await conn.execute(R.RESULT_UPSERT, match)
        await conn.execute(R.RESULT_PLAYERS_DELETE, (table.id,))
        await conn.executemany(R.RESULT_PLAYERS_INSERT, players)

    # --- tables ---------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        seats: tuple[Seat, ...],
        now: float,
    ) -> Table:
        """A new lobby at version 1; raises :class:`ChannelBusy` if the channel has an open
        table (checked under the write lock, and by a unique index)."""
        options_json, seats_json = R.dumps(options), R.seats_json(seats)

        async def op(conn: aiosqlite.Connection) -> int:
            busy = list(
                await conn.execute_fetchall(
                    f"SELECT t.id FROM tables t WHERE t.channel_id = ? AND {_OPEN}", (channel_id,)
                )
            )
            if busy:
                raise ChannelBusy(int(busy[0][0]))
            cursor = await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, options, seats, "
                "version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, 1, ?, ?)",
                (guild_id, channel_id, host_id, options_json, seats_json, now, now),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        table_id = await self._call(op)
        return Table(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            options=R.parse_object(options_json, "options"),
            seats=tuple(seats),
            version=1,
            state=None,
            initial_state=None,
            deadline=None,
            reminder_at=None,
            created_at=now,
            updated_at=now,
            messages={},
        )

    async def get_table(self, table_id: int) -> Table:
        """Any table, open or closed. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._read(f"{SELECT_TABLE} WHERE t.id = ?", (table_id,))
        if not rows:
            raise NotFound(f"no table {table_id}")
        return R.table_from_row(_row(rows[0]), validate=self.validate_states)

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open table, or None. Raises :class:`CorruptRecord` if it is unreadable
        (its ``version`` lets the caller abort it)."""
        rows = await self._read(f"{SELECT_TABLE} WHERE t.channel_id = ? AND {_OPEN}", (channel_id,))
        if not rows:
            return None
        return R.table_from_row(_row(rows[0]), validate=self.validate_states)

    async def update_lobby(
        self,
        table_id: int,
        expected_version: int,
        *,
        seats: tuple[Seat, ...] | None = None,
        options: dict[str, Any] | None = None,
        status: TableStatus | None = None,
        now: float,
    ) -> Table:
        """Change a lobby's seats or options, or close it (``status="cancelled"`` or
        ``"aborted"``). Raises :class:`VersionConflict`, or :class:`NotFound` if the table is not
        a lobby any more."""
        if status not in (None, "lobby", "cancelled", "aborted"):
            raise ValueError(f"a lobby can become cancelled or aborted, not {status!r}")
        seats_json = None if seats is None else R.seats_json(seats)
        options_json = None if options is None else R.dumps(options)

        async def op(conn: aiosqlite.Connection) -> R.TableRow:
            row = self._checked(await self._fetch(conn, table_id), table_id, expected_version)
            if row.status != "lobby":
                raise NotFound(f"table {table_id} is not a lobby (it is {row.status})")
            closing = status in ("cancelled", "aborted")
            await conn.execute(
                "UPDATE tables SET version = version + 1, seats = COALESCE(?, seats), "
                "options = COALESCE(?, options), status = COALESCE(?, status), "
                "deadline = CASE WHEN ? THEN NULL ELSE deadline END, "
                "reminder_at = CASE WHEN ? THEN NULL ELSE reminder_at END, updated_at = ? "
                "WHERE id = ?",
                (seats_json, options_json, status, closing, closing, now, table_id),
            )
            new = await self._fetch(conn, table_id)
            assert new is not None
            return new

        return R.table_from_row(await self._call(op), validate=False, strict=False)

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

        async def op(conn: aiosqlite.Connection) -> R.TableRow:
            row = self._checked(await self._fetch(conn, table_id), table_id, expected_version)
            if row.status != "lobby":
                raise NotFound(f"table {table_id} is not a lobby (it is {row.status})")
            await conn.execute(
                "UPDATE tables SET version = version + 1, start_version = version + 1, "
                "status = 'playing', seats = ?, state = ?, deadline = ?, reminder_at = ?, "
                "updated_at = ? WHERE id = ?",
                (seats_json, state_json, deadline, reminder_at, now, table_id),
            )
            await conn.execute(
                "INSERT INTO initial_states (table_id, state) VALUES (?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
                (table_id, state_json),
            )
            new = await self._fetch(conn, table_id)
            assert new is not None
            return new

        row = await self._call(op)
        try:
            table = R.table_from_row(row, validate=False)
        except CorruptRecord:
            return R.table_from_row(row, validate=False, strict=False)
        # The first move would parse the same texts again: keep what was just read, and have
        # the writer process read them too.
        self._warm([table.id])
        self._parsed.put(
            table.id,
            _Parsed(
                row.options,
                row.seats,
                row.messages,
                row.start_version,
                dict(table.options),
                table.seats,
                dict(table.messages),
                table.initial_state,
            ),
        )
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
        """One game move, atomically (see :class:`~data.store.Store`). Moves submitted at the
        same time share one transaction but are checked one by one: a stale one raises
        :class:`VersionConflict` and changes nothing. Raises :class:`NotFound` if the table is
        not playing, :class:`CorruptRecord` if its row cannot be read. ``state`` is the caller's
        and comes back as the returned table's state.

        Only a return means the move is stored. If the awaiting task is cancelled, the move may
        still be committed a moment later: read the table again to know."""
        if status == "lobby":
            raise ValueError("a game cannot go back to being a lobby")
        fut: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        seats = None if seats is None else tuple(seats)
        self._submit(
            _Move(
                W.MoveRow(
                    table_id,
                    expected_version,
                    seat,
                    user_id,
                    R.dumps(action),
                    R.dumps(state),
                    deadline,
                    reminder_at,
                    now,
                    None if seats is None else R.seats_json(seats),
                    status,
                ),
                state,
                seats,
                fut,
            )
        )
        return await fut

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

        async def op(conn: aiosqlite.Connection) -> None:
            row = self._checked(await self._fetch(conn, table_id), table_id, expected_version)
            if row.status not in OPEN_STATUSES:
                raise NotFound(f"table {table_id} is not open (it is {row.status})")
            if expected_timers is not None and (row.deadline, row.reminder_at) != tuple(
                expected_timers
            ):
                raise VersionConflict(f"the timers of table {table_id} have changed")
            await conn.execute(
                "UPDATE tables SET deadline = ?, reminder_at = ? WHERE id = ?",
                (deadline, reminder_at, table_id),
            )

        await self._call(op)

    async def end_table(
        self,
        table_id: int,
        expected_version: int,
        status: TableStatus,
        now: float,
        results: dict[str, Any] | None = None,
    ) -> Table:
        """Close an open table: ``"finished"`` (recorded in the results, with ``results`` as
        extra data), ``"cancelled"`` or ``"aborted"``. Timers are cleared, the version bumped.

        A table already finished by its last move (``apply_action(status="finished")``) can be
        ended again as ``"finished"`` to attach ``results``. A corrupt table can be aborted with
        the version its :class:`CorruptRecord` carries. Raises :class:`VersionConflict`, or
        :class:`NotFound` if the table is closed.
        """
        if status not in R.CLOSED_STATUSES:
            raise ValueError(f"a table ends finished, cancelled or aborted, not {status!r}")

        async def op(conn: aiosqlite.Connection) -> R.TableRow:
            row = self._checked(await self._fetch(conn, table_id), table_id, expected_version)
            if row.status not in OPEN_STATUSES and not (
                row.status == "finished" and status == "finished"
            ):
                raise NotFound(f"table {table_id} is not open (it is {row.status})")
            await conn.execute(
                "UPDATE tables SET version = version + 1, status = ?, deadline = NULL, "
                "reminder_at = NULL, updated_at = ? WHERE id = ?",
                (status, now, table_id),
            )
            new = await self._fetch(conn, table_id)
            assert new is not None
            if status == "finished":
                table = R.table_from_row(new, validate=False, strict=False)
                await self._write_result(conn, table, results)
            return new

        return R.table_from_row(await self._call(op), validate=False, strict=False)

    async def open_tables(self) -> list[Table]:
        """Every open lobby and game, oldest first. Unreadable ones (bad JSON, a version gap)
        are logged and skipped; states are not checked with the engine here (see the class)."""
        rows = await self._read(f"{SELECT_TABLE} WHERE {_OPEN} ORDER BY t.id")
        tables = self._tables(rows)
        self._warm([t.id for t in tables if t.status == "playing"])  # (their moves come next)
        return tables

    async def due_timers(self, now: float) -> list[Table]:
        """Open tables whose deadline or reminder time is at or before ``now``."""
        # The partial indexes on the open tables' timers make this a short range scan however
        # many tables are open (without statistics SQLite would pick the status index).
        rows = await self._read(
            f"{SELECT_TABLE} WHERE t.id IN ("
            "SELECT id FROM tables INDEXED BY tables_open_deadline "
            "WHERE status IN ('lobby', 'playing') AND deadline <= ? UNION "
            "SELECT id FROM tables INDEXED BY tables_open_reminder "
            "WHERE status IN ('lobby', 'playing') AND reminder_at <= ?) ORDER BY t.id",
            (now, now),
        )
        return self._tables(rows)

    def _tables(self, rows: Sequence[Sequence[Any]]) -> list[Table]:
        tables: list[Table] = []
        # Parsing thousands of states makes only reachable, acyclic objects: the collector's
        # repeated passes over them would double the time of a start-up load.
        paused = len(rows) > 100 and gc.isenabled()
        if paused:
            gc.disable()
        try:
            for values in rows:
                try:
                    tables.append(R.table_from_row(_row(values), validate=False))
                except CorruptRecord as e:
                    key = (e.table_id, e.version, e.problem)
                    level = logging.DEBUG if key in self._reported else logging.WARNING
                    self._reported.add(key)
                    log.log(level, "skipping table %s: %s", e.table_id, e.problem)
        finally:
            if paused:
                gc.enable()
        return tables

    async def action_log(self, table_id: int) -> list[LoggedAction]:
        """A table's moves in order. Raises :class:`NotFound` or :class:`CorruptRecord`."""
        rows = await self._read(
            "SELECT a.version, a.seat, a.user_id, a.action, a.at, "
            "(SELECT 1 FROM tables t WHERE t.id = ?) FROM actions a "
            "WHERE a.table_id = ? ORDER BY a.version",
            (table_id, table_id),
        )
        if not rows:
            exists = await self._read("SELECT 1 FROM tables WHERE id = ?", (table_id,))
            if not exists:
                raise NotFound(f"no table {table_id}")
            return []
        return [R.action_from_row(table_id, v, s, u, a, at) for v, s, u, a, at, _ in rows]

    # --- messages -------------------------------------------------------------------------------

    async def set_message(self, table_id: int, key: str, message_id: int) -> None:
        """Remember a Discord message id under ``key``; overwrites. Raises :class:`NotFound`."""

        async def op(conn: aiosqlite.Connection) -> None:
            cursor = await conn.execute(
                "INSERT INTO messages (table_id, key, message_id) "
                "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) "
                "ON CONFLICT (table_id, key) DO UPDATE SET message_id = excluded.message_id",
                (table_id, key, message_id, table_id),
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no table {table_id}")

        await self._call(op)

    async def delete_message(self, table_id: int, key: str) -> None:
        """Forget the message id under ``key`` (nothing happens if there is none)."""

        async def op(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "DELETE FROM messages WHERE table_id = ? AND key = ?", (table_id, key)
            )

        await self._call(op)

    async def get_messages(self, table_id: int) -> dict[str, int]:
        rows = await self._read(
            "SELECT key, message_id FROM messages WHERE table_id = ? ORDER BY key", (table_id,)
        )
        return {str(k): int(v) for k, v in rows}

    # --- preferences and settings ---------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> PlayerPrefs:
        """The user's preferences (the defaults if they never set any)."""
        rows = await self._read("SELECT hand_mode FROM player_prefs WHERE user_id = ?", (user_id,))
        if not rows or rows[0][0] not in ("dm", "channel"):
            return PlayerPrefs(user_id)
        return PlayerPrefs(user_id, rows[0][0])

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        async def op(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, hand_mode) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET hand_mode = excluded.hand_mode",
                (prefs.user_id, prefs.hand_mode),
            )

        await self._call(op)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if never set; also if the stored defaults are
        unreadable, which is logged)."""
        rows = await self._read(
            "SELECT turn_limit_s, reminder_s, defaults FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildSettings(guild_id)
        turn_limit_s, reminder_s, defaults = rows[0]
        try:
            parsed = R.parse_object(defaults, "defaults")
        except ValueError as e:
            log.warning("guild %s: %s; using no defaults", guild_id, e)
            parsed = {}
        return GuildSettings(guild_id, int(turn_limit_s), int(reminder_s), parsed)

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        defaults = R.dumps(settings.defaults)

        async def op(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_limit_s, reminder_s, defaults) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "turn_limit_s = excluded.turn_limit_s, reminder_s = excluded.reminder_s, "
                "defaults = excluded.defaults",
                (settings.guild_id, settings.turn_limit_s, settings.reminder_s, defaults),
            )

        await self._call(op)

    # --- results and checks ---------------------------------------------------------------------

    async def results(
        self, guild_id: int | None = None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Finished matches, newest first (of one server if ``guild_id``; at most ``limit``).

        Each is ``{"table_id", "guild_id", "channel_id", "finished_at", "seats" (seat dicts),
        "scores" (totals by seat, lowest wins; None if unknown), "winners" (seat indexes),
        "results" (what the bot passed to ``end_table``)}``.
        """
        where, params = ("WHERE guild_id = ?", [guild_id]) if guild_id is not None else ("", [])
        sql = (
            "SELECT table_id, guild_id, channel_id, finished_at, seats, scores, winners, data "
            f"FROM results {where} ORDER BY finished_at DESC, table_id DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        out: list[dict[str, Any]] = []
        for tid, gid, cid, at, seats, scores, winners, data in await self._read(sql, params):
            try:
                seat_list = [s.to_dict() for s in R.parse_seats(seats)]
                score_list = None if scores is None else R.load_json(scores, "scores")
                winner_list = None if winners is None else R.load_json(winners, "winners")
                extra = R.parse_object(data, "results")
            except ValueError as e:
                log.warning("skipping the result of table %s: %s", tid, e)
                continue
            if winner_list is None:
                _, winner_list = R.scores_and_winners({"scores": score_list}, None)
            out.append(
                {
                    "table_id": tid,
                    "guild_id": gid,
                    "channel_id": cid,
                    "finished_at": at,
                    "seats": seat_list,
                    "scores": score_list,
                    "winners": winner_list or [],
                    "results": extra,
                }
            )
        return out

    async def check(self) -> list[TableProblem]:
        """Replay every game (open or closed) from its initial state and action log, compare
        with the stored state, and report unreadable rows and version gaps. Each table is read
        in one snapshot, so the check can run while the bot is writing."""
        problems: list[TableProblem] = []
        ids = [int(r[0]) for r in await self._read("SELECT id FROM tables ORDER BY id")]
        for table_id in ids:
            row, log_rows = await self._snapshot(table_id)
            if row is None:
                continue
            problems.extend(R.problems_of(table_id, R.check_table(row, log_rows)))
            await asyncio.sleep(0)
        return problems

    async def _snapshot(
        self, table_id: int
    ) -> tuple[R.TableRow | None, list[tuple[int, int | None, str]]]:
        conn = self._reader_conn()
        async with self._read_lock:
            await conn.execute("BEGIN")
            try:
                rows = list(
                    await conn.execute_fetchall(
                        f"SELECT {_COLUMNS}, {_MESSAGES} FROM tables t WHERE t.id = ?",
                        (table_id,),
                    )
                )
                log_rows = list(
                    await conn.execute_fetchall(
                        "SELECT version, seat, action FROM actions WHERE table_id = ? "
                        "ORDER BY version",
                        (table_id,),
                    )
                )
            finally:
                await conn.execute("COMMIT")
        if not rows:
            return None, []
        return _row(rows[0]), [(int(v), s, a) for v, s, a in log_rows]

    async def integrity_check(self) -> list[str]:
        """SQLite's own check of the file (``PRAGMA quick_check``): empty when all is well."""
        rows = await self._read("PRAGMA quick_check")
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    async def table_count(self) -> int:
        """How many tables (of any status) the database holds."""
        rows = await self._read("SELECT count(*) FROM tables")
        return int(rows[0][0])

    async def schema_version(self) -> int:
        """The database's schema version."""
        rows = await self._read("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(rows[0][0])

    # --- reading --------------------------------------------------------------------------------

    def _reader_conn(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise StoreError("the store is not open")
        return self._reader

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        conn = self._reader_conn()
        async with self._read_lock:
            return list(await conn.execute_fetchall(sql, params))

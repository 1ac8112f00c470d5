"""The SQLite file and its connections: opening it safely, one write transaction at a time.

Over 400 lines, as one job: the file's life (created whole, checked, migrated, checkpointed,
closed) and the failures SQLite reports about it (damaged, full, read-only, locked) are read
together; the store's SQL is elsewhere (:mod:`data.sqlite_sql`, :mod:`data.sql`).

- **A new database appears whole.** It is built under a temporary name beside the target
  (schema, WAL mode, the first table id) and then linked into place, which fails if another
  process got there first. So an empty file is never a database being created: it is a lost one.
- **An existing file is trusted only once it reads.** An empty file, a file that is not SQLite,
  or one that fails ``PRAGMA quick_check`` raises :class:`~data.store.DatabaseDamaged` at
  :meth:`Database.open`; it is never recreated. "Malformed" found later, during a read or a
  write, raises the same.
- **One write transaction at a time, run whole.** :meth:`Database.write` runs its function between
  ``BEGIN IMMEDIATE`` and ``COMMIT`` on the event loop's own thread, in one go: no other coroutine
  runs in between, so the version check and the write happen under SQLite's write lock and in
  the order the calls came. A commit in WAL mode takes a fraction of a millisecond (no disk
  flush with ``synchronous=NORMAL``), less than handing it to another thread: a thread must win
  the interpreter's lock back after every statement, and under load that made each move wait
  milliseconds behind the callers' Python. The one wait that can be long, for another process's
  write lock, is not spent blocking: the write tries again after a short ``asyncio.sleep``,
  for up to the busy timeout, then fails with a clear :class:`~data.store.StoreError`.
  A caller hears back only after ``COMMIT`` has returned.
- **WAL mode**, ``synchronous=NORMAL`` by default: a commit survives the process being killed at
  any moment; only a power failure or OS crash may lose the last commits. Reads go through a
  second, read-only connection: they see the last committed state and never block the writer.
- **Checkpoints in quiet moments.** Copying the WAL into the file (with an fsync) runs on a
  connection of its own once writes pause, not inside whichever commit crosses SQLite's threshold.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import glob
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from data.errors import DatabaseDamaged, SchemaTooNew, StorageUnusable, StoreError
from data.migrate import current_version, latest_version, migrate, too_new_message

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
#: What SQLite says when the file, not one row, is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
DAMAGED_CODES = frozenset({11, 26})
DAMAGED_WORDS = ("malformed", "not a database", "file is encrypted")

#: How many moves (a few WAL pages each) call for a checkpoint, and how often one runs anyway.
CHECKPOINT_MOVES = 2000
CHECKPOINT_INTERVAL_S = 5.0
CHECKPOINT_RESTART_BYTES = 64 * 1024 * 1024
#: Passive passes before a RESTART, until fewer frames than this are left to copy under the lock.
CHECKPOINT_CATCH_UP_PASSES = 4
CHECKPOINT_CATCH_UP_FRAMES = 256
#: SQLite's default page size (the store never changes it), and a WAL frame's header.
PAGE_SIZE = 4096
WAL_FRAME_HEADER = 24
CHECKPOINT_MIN_GAP_S = 0.5
#: A checkpoint waits until no write has run for this long...
CHECKPOINT_QUIET_S = 0.02
#: ...unless this many moves have gone into the WAL since the last one (some 25 MB).
CHECKPOINT_ANYWAY_MOVES = 5_000


def damaged(path: Path, e: BaseException) -> DatabaseDamaged | None:
    """The :class:`DatabaseDamaged` that SQLite error ``e`` stands for, if it says the file is
    damaged (None for any other error)."""
    if not isinstance(e, sqlite3.DatabaseError):
        return None
    code = getattr(e, "sqlite_errorcode", None)
    text = str(e)
    if (code is not None and code & 0xFF in DAMAGED_CODES) or any(w in text for w in DAMAGED_WORDS):
        return DatabaseDamaged(damaged_message(path, f"SQLite says: {text}"))
    return None


def damaged_message(path: Path, found: str) -> str:
    """What to tell the server owner about a damaged database."""
    return (
        f"the database {path} is damaged ({found}). The bot will not use it, and will not "
        "replace it: restore it from a backup, or move it away to start with an empty database."
    )


#: SQLite's primary result codes for a full disk, a read-only file, a file it cannot open, and
#: a read or write the system refused ("disk I/O error").
SQLITE_FULL, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR = 13, 8, 14, 3, 10
#: Less free space than this where the database lives, and a write that failed: the disk is
#: full. (SQLite says "disk I/O error" when it is the write-ahead log's index that cannot grow.)
FULL_BELOW_BYTES = 1024 * 1024


def unusable(path: Path, e: BaseException) -> StorageUnusable | None:
    """The :class:`StorageUnusable` that error ``e`` (SQLite's or the system's) stands for: a
    full disk, a file size limit, a disk that fails, a read-only or forbidden place (None for
    any other error)."""
    folder = path.absolute().parent
    code = getattr(e, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(e)
    errno_ = e.errno if isinstance(e, OSError) else None
    full = (
        primary == SQLITE_FULL or errno_ in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text
    )
    if full or primary == SQLITE_IOERR or errno_ in (errno.EFBIG, errno.EIO):
        free = free_bytes(folder)
        limit = file_size_limit()
        if (free is not None and free < FULL_BELOW_BYTES) or (full and limit is None):
            left = f"{free // 1024} KiB free; " if free is not None else ""
            return StorageUnusable(
                f"the disk holding the database {path} is full ({left}SQLite says: {text}): "
                "nothing was written. Free some space there (or move the database: "
                "DATABASE_URL), then start again."
            )
        if limit is not None:
            return StorageUnusable(
                f"cannot write the database {path}: this process may not write files over "
                f"{limit} bytes (a file size limit: ulimit -f, or LimitFSIZE= in a systemd unit; "
                f"SQLite says: {text}). Lift that limit, then start again."
            )
        return StorageUnusable(
            f"the disk holding the database {path} failed a read or a write (SQLite says: "
            f"{text}): check that disk (the system log says more), then start again."
        )
    read_only_fs = errno_ == errno.EROFS or (
        folder.exists() and not os.access(folder, os.W_OK) and _read_only_mount(folder)
    )
    if primary in (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM) or errno_ in (
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
    ):
        if read_only_fs:
            why = "it is on a read-only file system"
        elif not _writable(folder):
            why = f"this user cannot write in {folder} (the database needs its folder too)"
        elif path.exists() and not os.access(path, os.R_OK | os.W_OK):
            why = "this user cannot read and write that file"
        else:
            return None
        return StorageUnusable(
            f"cannot write the database {path}: {why} ({text}). Set DATABASE_URL to a file in "
            "a writable folder (or, under systemd, give the unit StateDirectory=)."
        )
    return None


def free_bytes(folder: Path) -> int | None:
    """The space this process may still fill on the file system of ``folder`` (or of its
    nearest existing parent); None if the system does not say."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    blocks = st.f_bfree if os.geteuid() == 0 else st.f_bavail
    return blocks * st.f_frsize


def file_size_limit() -> int | None:
    """The largest file this process may write (its ``RLIMIT_FSIZE``), if it has a limit."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _writable(folder: Path) -> bool:
    """Whether ``folder`` (or its nearest existing parent, for one yet to be made) is writable."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return os.access(folder, os.W_OK)


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def translated(path: Path, e: Exception, busy_timeout_ms: int) -> Exception:
    """The store error SQLite (or system) error ``e`` stands for, or ``e`` itself."""
    found = damaged(path, e)
    if found is not None:
        return found
    place = unusable(path, e)
    if place is not None:
        return place
    text = str(e)
    if isinstance(e, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return StoreError(
            f"the database {path} is locked by another process (waited {busy_timeout_ms} ms): "
            "nothing was written"
        )
    return e


def check_file(path: Path) -> None:
    """Raise :class:`DatabaseDamaged` if the existing file ``path`` cannot be a database."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise StoreError(f"cannot read the database {path}: {e}") from e
    if not head:
        raise DatabaseDamaged(damaged_message(path, "the file is empty: 0 bytes"))
    if head != SQLITE_HEADER:
        raise DatabaseDamaged(damaged_message(path, "the file is not a SQLite database"))


def settings(synchronous: str, busy_timeout_ms: int) -> tuple[str, ...]:
    """The statements every connection to the store opens with. The busy timeout comes first:
    setting up may meet another process's lock (one opening or closing the file), and SQLite
    then waits for it instead of failing at once."""
    return (
        f"PRAGMA busy_timeout = {int(busy_timeout_ms)}",
        f"PRAGMA synchronous = {synchronous}",
        "PRAGMA foreign_keys = ON",
    )


async def connect(
    path: Path | str, synchronous: str, busy_timeout_ms: int, *, uri: bool = False
) -> aiosqlite.Connection:
    """An aiosqlite connection with the store's settings. A caller cancelled meanwhile (the
    store closed while its checkpoint connection was opening) leaves nothing behind: the opening
    runs to its end and the connection is closed, before its event loop may end; else its
    thread would finish on a closed loop ("Event loop is closed") and keep the file open."""
    opening = asyncio.ensure_future(_connect(path, synchronous, busy_timeout_ms, uri))
    try:
        return await asyncio.shield(opening)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            conn = await opening
            await conn.close()
        raise


async def _connect(
    path: Path | str, synchronous: str, busy_timeout_ms: int, uri: bool = False
) -> aiosqlite.Connection:
    conn = aiosqlite.connect(path, isolation_level=None, uri=uri)
    try:
        await conn
    except BaseException:
        # aiosqlite ends its worker thread after a failed connect (a read-only folder, say)
        # without waiting: wait for it here, or it finishes on a closed event loop and prints
        # "Event loop is closed" after the error was reported.
        thread = getattr(conn, "_thread", None)
        if thread is not None:
            await asyncio.to_thread(thread.join, 5.0)
        raise
    try:
        for statement in settings(synchronous, busy_timeout_ms):
            await conn.execute(statement)
    except BaseException:
        await conn.close()
        raise
    return conn


async def enter_wal(conn: aiosqlite.Connection, path: Path, busy_timeout_ms: int) -> None:
    """Switch the file to WAL mode (a no-op for the bot's own files, made in WAL mode). It can
    meet another process's lock without SQLite waiting for it: try again for the busy timeout."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            mode = None
        else:
            mode = next(iter(rows))[0] if rows else None
        if isinstance(mode, str) and mode.lower() == "wal":
            return
        if time.monotonic() >= deadline:
            raise StoreError(f"cannot switch {path} to WAL mode (it stays {mode})")
        await asyncio.sleep(0.01)


async def create(path: Path, synchronous: str, busy_timeout_ms: int) -> None:
    """Make a new database at ``path`` (nothing happens if one appears there meanwhile).

    Its table ids start past the creation time in milliseconds: a database made after an old
    one was lost never issues an id the old one did, so a button of an old game can never reach
    a new one (the old database would have needed a table a millisecond since it was made).
    """
    if path.parent != Path():
        path.parent.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(path)
    tmp = path.with_name(f"{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        conn = await connect(tmp, synchronous, busy_timeout_ms)
        try:
            await enter_wal(conn, tmp, busy_timeout_ms)
            await migrate(conn)
            await start_ids(conn)
        finally:
            await conn.close()
        with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
            os.link(tmp, path)
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    log.debug("created the database %s", path)


def _remove_abandoned(path: Path) -> None:
    """Remove the half-built new databases of processes that died building them."""
    for leftover in path.parent.glob(f"{glob.escape(path.name)}.new-*"):
        pid = leftover.name[len(path.name) + 5 :].split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                leftover.unlink()
        except OSError:
            pass  # (alive, another user's)


async def start_ids(conn: aiosqlite.Connection) -> None:
    """Start the table id sequence at :func:`first_table_id`, if no table was ever made."""
    await conn.execute(
        "INSERT INTO sqlite_sequence (name, seq) SELECT 'tables', ? WHERE NOT EXISTS "
        "(SELECT 1 FROM sqlite_sequence WHERE name = 'tables') "
        "AND NOT EXISTS (SELECT 1 FROM tables)",
        (first_table_id(),),
    )


def first_table_id(now: float | None = None) -> int:
    """The id sequence's start for a database made at ``now``: unix time in milliseconds
    (below 2**53 for the next 280,000 years, so JSON-safe).

    >>> first_table_id(1_700_000_000.0)
    1700000000000
    """
    return int((time.time() if now is None else now) * 1000)


class _Busy(Exception):
    """Another process holds the write lock: the transaction was rolled back, try again."""

    def __init__(self, error: sqlite3.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


class Database:
    """The connections to one SQLite file (see the module's docstring)."""

    def __init__(
        self, path: Path, synchronous: str, busy_timeout_ms: int, *, read_only: bool = False
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self._writer: sqlite3.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._checkpoint_wanted = asyncio.Event()
        self._closing = False  # the checkpoint loop is to end (see close)
        self._moves_unchecked = 0  # moves in the WAL since the last checkpoint began
        self._writing = False
        self._last_write = 0.0  # time.monotonic() when the last write ended

    @property
    def is_open(self) -> bool:
        return self._reader is not None

    async def open(self, *, migrate_schema: bool) -> None:
        """Open the file (made if missing and ``migrate_schema``), check it, migrate it.

        Raises :class:`DatabaseDamaged`, :class:`SchemaTooNew`, or :class:`StoreError`.
        """
        if not self.path.exists():
            if not migrate_schema or self.read_only:
                raise StoreError(f"no database at {self.path}")
            try:
                await create(self.path, self.synchronous, self.busy_timeout_ms)
            except (sqlite3.Error, OSError) as e:
                raise translated(self.path, e, self.busy_timeout_ms) from e
        check_file(self.path)
        try:
            if self.read_only:
                await self._open_read_only()
            else:
                await self._open(migrate_schema)
        except (sqlite3.Error, OSError) as e:
            raise translated(self.path, e, self.busy_timeout_ms) from e
        self._read_lock = asyncio.Lock()  # (fresh: the store may be reopened in another loop)
        self._checkpoint_wanted = asyncio.Event()
        self._closing = False
        if migrate_schema and not self.read_only:
            self._checkpoint_task = asyncio.create_task(
                self._checkpoint_loop(), name=f"checkpoints of {self.path}"
            )

    async def _open(self, migrate_schema: bool) -> None:
        setup = await connect(self.path, self.synchronous, self.busy_timeout_ms)
        try:
            await self._set_up(setup, migrate_schema)
        finally:
            await setup.close()
        writer = self._connect_writer()
        try:
            reader = await connect(self.path, self.synchronous, self.busy_timeout_ms)
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            writer.close()
            raise
        self._writer, self._reader = writer, reader

    async def _open_read_only(self) -> None:
        """Only a reader, opened read-only: nothing is written, not even the WAL's index, so a
        database on read-only media (a mounted backup, a snapshot) can be read. In a folder that
        cannot be written, a file without a pending write-ahead log is opened ``immutable``
        (SQLite then needs no lock files at all)."""
        folder = self.path.parent
        wal = Path(f"{self.path}-wal")
        params = "mode=ro"
        if not os.access(folder, os.W_OK) and (not wal.exists() or wal.stat().st_size == 0):
            params += "&immutable=1"
        target = f"{self.path.absolute().as_uri()}?{params}"
        try:
            reader = await connect(target, self.synchronous, self.busy_timeout_ms, uri=True)
        except sqlite3.Error as e:
            if "immutable" in params or not wal.exists() or wal.stat().st_size == 0:
                raise  # (not about a pending log: the open translates it)
            raise StoreError(
                f"cannot read {self.path} where it is: its write-ahead log {wal.name} holds "
                "changes not yet in the file, and reading them needs a folder SQLite can write "
                f"in ({e}). Copy the database with its {wal.name} to such a folder and use the copy"
            ) from e
        try:
            await self._set_up(reader, migrate_schema=False)
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            raise
        self._reader = reader

    def _connect_writer(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            for statement in settings(self.synchronous, self.busy_timeout_ms):
                conn.execute(statement)
            conn.execute("PRAGMA journal_size_limit = 67108864")
            # Never a checkpoint inside a commit: it would hold up the event loop for the copy
            # (a quarter of a second for 64 MB). The checkpoint connection does it instead.
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            # Only once set up does the writer stop waiting inside SQLite: its writes wait for a
            # lock with asyncio.sleep.
            conn.execute("PRAGMA busy_timeout = 0")
        except BaseException:
            conn.close()
            raise
        return conn

    async def _set_up(self, conn: aiosqlite.Connection, migrate_schema: bool) -> None:
        """Check the file, and migrate it (or only check its version)."""
        problems = [str(r[0]) for r in await conn.execute_fetchall("PRAGMA quick_check")]
        if problems != ["ok"]:
            shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
            raise DatabaseDamaged(damaged_message(self.path, f"integrity check: {shown}"))
        if migrate_schema:
            await enter_wal(conn, self.path, self.busy_timeout_ms)
            await migrate(conn)
            await start_ids(conn)  # (a SQLite file made by another program: ours now)
        else:
            found, known = await current_version(conn), latest_version()
            if found > known:
                raise SchemaTooNew(too_new_message(found, known))

    async def close(self) -> None:
        """Close the connections (no write is ever half done: each runs whole)."""
        if self._reader is None:
            return
        writer, reader = self._writer, self._reader
        self._writer = self._reader = None
        try:
            if self._checkpoint_task is not None:
                # Python 3.11's wait_for can turn a cancellation that lands as its timeout
                # expires into a TimeoutError (fixed in 3.12): the flag ends the loop anyway.
                self._closing = True
                self._checkpoint_wanted.set()
                self._checkpoint_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._checkpoint_task
        except Exception:
            log.exception("the checkpoints of %s failed", self.path)
        finally:
            self._checkpoint_task = None
            try:
                if reader is not None:
                    await reader.close()
            finally:
                if writer is not None:
                    writer.close()

    # --- writing --------------------------------------------------------------------------------

    async def write(self, fn: Callable[[sqlite3.Connection], T], moves: int = 0) -> T:
        """``fn(conn)`` (synchronous: it must not wait for anything) in its own write
        transaction; its result once committed. ``moves`` is how many game moves it writes
        (they call for checkpoints). While another process holds the write lock, it tries again
        after a pause, for up to the busy timeout; then :class:`StoreError`."""
        if self._writer is None:
            why = "read-only" if self.read_only else "not open"
            raise StoreError(f"the store is {why}")
        deadline: float | None = None
        pause = 0.001
        while True:
            try:
                result = self._transaction(fn)
                break
            except _Busy as busy:
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self.busy_timeout_ms / 1000
                if now >= deadline:
                    raise translated(self.path, busy.error, self.busy_timeout_ms) from busy.error
                await asyncio.sleep(min(pause, deadline - now))
                pause = min(pause * 2, 0.05)
        if moves:
            self._moves_unchecked += moves
            if self._moves_unchecked >= CHECKPOINT_MOVES:
                self._checkpoint_wanted.set()
        return result

    def _transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._writer
        if conn is None:
            raise StoreError("the store is not open")
        self._writing = True
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
                conn.execute("COMMIT")
            except BaseException:
                self._rollback(conn)
                raise
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise _Busy(e) from e
            raise translated(self.path, e, self.busy_timeout_ms) from e
        except sqlite3.Error as e:
            raise translated(self.path, e, self.busy_timeout_ms) from e
        finally:
            self._writing = False
            self._last_write = time.monotonic()
        return result

    def _rollback(self, conn: sqlite3.Connection) -> None:
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except Exception:
            log.exception("rollback failed on %s", self.path)

    # --- reading --------------------------------------------------------------------------------

    def _reader_conn(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise StoreError("the store is not open")
        return self._reader

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one query, as last committed."""
        conn = self._reader_conn()
        async with self._read_lock:
            try:
                return list(await conn.execute_fetchall(sql, params))
            except sqlite3.Error as e:
                raise translated(self.path, e, self.busy_timeout_ms) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of one read (:class:`data.sql.Sql`)."""
        return list(await self.read(sql, params))

    async def change(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> int:
        """One write in a transaction of its own; how many rows it changed
        (:class:`data.sql.Sql`: ``what`` and ``repeatable`` serve PostgreSQL)."""

        def op(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(sql, params)
            cursor.fetchall()  # (a RETURNING clause counts its rows once they are read)
            return cursor.rowcount

        return await self.write(op)

    async def change_rows(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> list[Sequence[Any]]:
        """One write in a transaction of its own; the rows its ``RETURNING`` gives."""

        def op(conn: sqlite3.Connection) -> list[Sequence[Any]]:
            return list(conn.execute(sql, params).fetchall())

        return await self.write(op)

    async def snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of several queries, read in one snapshot."""
        conn = self._reader_conn()
        async with self._read_lock:
            try:
                await conn.execute("BEGIN")
                try:
                    return [list(await conn.execute_fetchall(q, p)) for q, p in queries]
                finally:
                    await conn.execute("COMMIT")
            except sqlite3.Error as e:
                raise translated(self.path, e, self.busy_timeout_ms) from e

    # --- checkpoints ----------------------------------------------------------------------------

    async def _checkpoint_loop(self) -> None:
        """Copy the WAL into the database file from a connection of its own: after
        ``CHECKPOINT_MOVES`` moves or every ``CHECKPOINT_INTERVAL_S``, once no write has run for
        ``CHECKPOINT_QUIET_S`` (at once past ``CHECKPOINT_ANYWAY_MOVES``)."""
        try:
            conn = await connect(self.path, self.synchronous, self.busy_timeout_ms)
        except sqlite3.Error as e:
            log.error("no checkpoints for %s: %s", self.path, translated(self.path, e, 0))
            return
        try:
            while not self._closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._checkpoint_wanted.wait(), CHECKPOINT_INTERVAL_S)
                if self._closing:
                    return
                self._checkpoint_wanted.clear()
                while not self._quiet() and self._moves_unchecked < CHECKPOINT_ANYWAY_MOVES:
                    await asyncio.sleep(min(CHECKPOINT_QUIET_S, 0.05))
                self._moves_unchecked = 0
                try:
                    await self._checkpoint(conn)
                except sqlite3.Error as e:
                    log.warning("checkpoint of %s failed: %s", self.path, e)
                await asyncio.sleep(CHECKPOINT_MIN_GAP_S)
        finally:
            await conn.close()

    async def _checkpoint(self, conn: aiosqlite.Connection) -> None:
        """One checkpoint that never holds writers up for long.

        Passive passes copy the WAL without blocking anyone; each copies what the last one left,
        so under a steady stream of commits the gap shrinks to what one short pass lets in. The
        WAL only starts over once a pass has copied everything, which a steady stream can keep
        from happening: past ``CHECKPOINT_RESTART_BYTES`` of frames a RESTART checkpoint then
        copies the few frames still left while writers wait (with ``asyncio.sleep``, the event
        loop free), so the WAL stays bounded without copying megabytes under the write lock.
        """
        frames, copied = await _wal_checkpoint(conn, "PASSIVE")
        for _ in range(CHECKPOINT_CATCH_UP_PASSES):
            if frames - copied <= CHECKPOINT_CATCH_UP_FRAMES:
                break
            frames, copied = await _wal_checkpoint(conn, "PASSIVE")
        if frames * (PAGE_SIZE + WAL_FRAME_HEADER) > CHECKPOINT_RESTART_BYTES:
            await _wal_checkpoint(conn, "RESTART")

    def _quiet(self) -> bool:
        return not self._writing and time.monotonic() - self._last_write >= CHECKPOINT_QUIET_S


async def _wal_checkpoint(conn: aiosqlite.Connection, mode: str) -> tuple[int, int]:
    """``PRAGMA wal_checkpoint(mode)``: the frames in the WAL, and how many of them are copied."""
    async with conn.execute(f"PRAGMA wal_checkpoint({mode})") as cursor:
        row = await cursor.fetchone()
    return (int(row[1]), int(row[2])) if row is not None else (0, 0)

"""The move writer: commits game moves, a batch per transaction, in a process of its own.

:class:`~data.sqlite.SqliteStore` starts it when it opens (:func:`main`, run by the bot's own
interpreter; ``python -m data.writer FILE`` runs it by hand) and sends it every batch of moves
through a pipe; everything else the store writes (lobbies, starts, timers, message ids) it
writes itself, never while a batch is out.

Why a process: with hundreds of games moving at once the store spends about as long in
SQLite as in the Python of its callers, and on one interpreter the two take turns. In a process
of its own the writer commits one batch while the bot's process answers the callers of the
previous one, on the other core.

What the writer does with a batch is what a group commit did before: one ``BEGIN IMMEDIATE``
... ``COMMIT`` for all of its moves, each still checked on its own (the table exists and is
playing, the expected version is the stored one, the row reads), so one stale or damaged move
fails alone and the others commit. A batch that breaks on a row (a damaged action log, say) is
written again one move at a time; a locked or failing database fails the whole batch.

The pipe carries frames: 4 bytes of length (little-endian), then a pickle. The store sends
``(batch_id, need_initial, moves)`` (``moves``: :class:`MoveRow` values as plain tuples), or
``(0, table_ids, [])`` to have tables read ahead; the writer answers a batch with
``(batch_id, rows, initial, outcomes)``: each table's row as it was before the batch
(:data:`SELECT_FOR_WRITE`'s columns), the initial-state text of each table in ``need_initial``,
and per move ``None`` (committed) or a tuple naming the failure (see :func:`outcome_error`).
Its first frame is ``("ready", pid)``, or ``("failed", message)`` if it cannot open the file.
The writer stops when its input ends: when the store closes, or when the bot's process dies,
however it dies. It finishes the batch in hand first; a move is only stored once its
``COMMIT`` has returned, and the store answers a caller only after the writer has said so.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import pickle
import signal
import sqlite3
import struct
import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import IO, Any, NamedTuple

import orjson

from data import rows as R
from data.store import CorruptRecord, NotFound, Seat, StoreError, VersionConflict

log = logging.getLogger(__name__)

SELECT_MESSAGES = (
    "(SELECT json_group_object(m.key, m.message_id) FROM messages m WHERE m.table_id = t.id)"
)
#: What a batch needs to check its moves and to answer with a Table (no state, no log scan).
SELECT_FOR_WRITE = (
    "SELECT t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, t.seats, t.version, "
    f"t.start_version, t.created_at, {SELECT_MESSAGES} FROM tables t"
)
#: The columns of :data:`SELECT_FOR_WRITE`, by position.
ID, GUILD, CHANNEL, HOST, STATUS, OPTIONS, SEATS, VERSION, START_VERSION, CREATED, MESSAGES = range(
    11
)
INSERT_ACTION = (
    "INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)"
)
# An UPDATE that names the status rewrites every index on it, even with the same value: most
# moves leave it (and the seats) out.
UPDATE_MOVED = (
    "UPDATE tables SET version = ?, state = ?, deadline = ?, reminder_at = ?, updated_at = ? "
    "WHERE id = ? AND version = ?"
)
UPDATE_CHANGED = (
    "UPDATE tables SET seats = COALESCE(?, seats), status = COALESCE(?, status), version = ?, "
    "state = ?, deadline = ?, reminder_at = ?, updated_at = ? WHERE id = ? AND version = ?"
)

#: How many tables' checked options, seats and messages the writer keeps.
CHECKED_CACHE_SIZE = 1024
#: SQLite checkpoints inside a commit only past this many WAL pages: the store's own
#: checkpoints, on a connection of their own, normally keep the WAL well below it.
WRITER_CHECKPOINT_PAGES = 16384

#: The length before each frame's pickle.
FRAME_HEADER = struct.Struct("<I")


class MoveRow(NamedTuple):
    """One move as the store sends it: JSON already written, nothing parsed."""

    table_id: int
    expected_version: int
    seat: int | None
    user_id: int | None
    action_json: str
    state_json: str
    deadline: float | None
    reminder_at: float | None
    now: float
    seats_json: str | None  # new seats, or None
    status: str | None  # a new status ("finished", ...), or None


#: Per move: None if committed, else what failed (see :func:`outcome_error`).
Outcome = tuple[Any, ...] | None
#: What the writer answers for a batch: the rows, the initial states asked for, the outcomes.
Reply = tuple[dict[int, tuple[Any, ...]], dict[int, str | None], list[Outcome]]


def outcome_error(outcome: tuple[Any, ...]) -> Exception:
    """The exception a failed move's outcome stands for."""
    kind = outcome[0]
    if kind == "conflict":
        return VersionConflict(outcome[1])
    if kind == "not found":
        return NotFound(outcome[1])
    if kind == "corrupt":
        return CorruptRecord(outcome[1], outcome[2], outcome[3])
    if kind == "sqlite":  # the database failed the batch (locked, full, I/O error...)
        cls = getattr(sqlite3, outcome[1], None)
        if isinstance(cls, type) and issubclass(cls, sqlite3.Error):
            return cls(outcome[2])
        return sqlite3.Error(outcome[2])
    return StoreError(str(outcome[-1]))


class _Checked(NamedTuple):
    """A table's options, seats and messages texts, and what reading them found."""

    options: str
    seats: str
    messages: str | None
    start_version: int | None
    parsed_seats: tuple[Seat, ...] | None  # None: the row is damaged (see ``why``)
    why: str | None


class MoveWriter:
    """Commits batches of moves on a sqlite3 connection (used by the writer process)."""

    def __init__(self, conn: sqlite3.Connection, cache_size: int = CHECKED_CACHE_SIZE) -> None:
        self.conn = conn
        self.cache_size = cache_size
        self._checked: OrderedDict[int, _Checked] = OrderedDict()

    def write(self, moves: Sequence[MoveRow], need_initial: Sequence[int] = ()) -> Reply:
        """Commit what can be of ``moves``, in order; see the module's docstring."""
        try:
            return self._transaction(moves, need_initial)
        except Exception as e:
            if len(moves) > 1 and not isinstance(e, sqlite3.OperationalError):
                # A row broke the batch: redo each move alone, so that only the move that
                # causes it fails. (A locked or failing database fails them all.)
                log.warning("a batch of %d moves failed (%s); retrying one by one", len(moves), e)
                rows: dict[int, tuple[Any, ...]] = {}
                initial: dict[int, str | None] = {}
                outcomes: list[Outcome] = []
                wanted = set(need_initial)
                for move in moves:
                    ask = [move.table_id] if move.table_id in wanted else []
                    r, i, o = self.write([move], ask)
                    rows |= r
                    initial |= i
                    outcomes += o
                return rows, initial, outcomes
            if len(moves) == 1 and isinstance(e, sqlite3.IntegrityError):
                move = moves[0]
                failed: tuple[Any, ...] = (
                    "corrupt",
                    move.table_id,
                    f"cannot append to the action log ({e})",
                    move.expected_version,
                )
            elif isinstance(e, sqlite3.Error):
                failed = ("sqlite", type(e).__name__, str(e))
            else:
                log.exception("a move failed")
                failed = ("error", f"{type(e).__name__}: {e}")
            return {}, {}, [failed] * len(moves)

    def warm(self, table_ids: Sequence[int]) -> None:
        """Check these tables' rows now (in a read transaction), so that their next moves find
        them checked. Failures are left for the moves to meet."""
        ids = sorted(set(table_ids))
        if not ids:
            return
        conn = self.conn
        try:
            conn.execute("BEGIN")
            try:
                marks = ",".join("?" * len(ids))
                fetched = conn.execute(f"{SELECT_FOR_WRITE} WHERE t.id IN ({marks})", ids)
                checked, _ = self._check_rows({r[ID]: r for r in fetched.fetchall()}, ())
            finally:
                conn.execute("COMMIT")
        except sqlite3.Error as e:
            log.debug("could not read tables ahead: %s", e)
            return
        for tid, entry in checked.items():
            self._remember(tid, entry)

    def _transaction(self, moves: Sequence[MoveRow], need_initial: Sequence[int]) -> Reply:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            reply = self._write(moves, need_initial)
            conn.execute("COMMIT")
        except BaseException:
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except Exception:
                log.exception("rollback failed")
            raise
        return reply

    def _write(self, moves: Sequence[MoveRow], need_initial: Sequence[int]) -> Reply:
        conn = self.conn
        ids = sorted({m.table_id for m in moves})
        marks = ",".join("?" * len(ids))
        fetched = conn.execute(f"{SELECT_FOR_WRITE} WHERE t.id IN ({marks})", ids).fetchall()
        rows = {r[ID]: r for r in fetched}
        checked, initial = self._check_rows(rows, need_initial)
        # What the batch has made of each table so far: [status, version, seats].
        current = {tid: [r[STATUS], r[VERSION], checked[tid]] for tid, r in rows.items()}
        outcomes: list[Outcome] = []
        log_rows: list[tuple[Any, ...]] = []
        moved: list[tuple[Any, ...]] = []  # most moves: the state and the timers
        changed: list[tuple[Any, ...]] = []  # also the seats or the status
        finished: list[tuple[MoveRow, tuple[Any, ...], tuple[Seat, ...]]] = []
        for m in moves:
            cur = current.get(m.table_id)
            if cur is None:
                outcomes.append(("not found", f"no table {m.table_id}"))
                continue
            status, version, entry = cur
            if version != m.expected_version:
                outcomes.append(
                    (
                        "conflict",
                        f"table {m.table_id} is at version {version}, not {m.expected_version}",
                    )
                )
                continue
            if status != "playing":
                outcomes.append(
                    ("not found", f"table {m.table_id} is not playing (it is {status})")
                )
                continue
            if entry.parsed_seats is None:
                outcomes.append(("corrupt", m.table_id, entry.why, version))
                continue
            new_version = version + 1
            log_rows.append((m.table_id, new_version, m.seat, m.user_id, m.action_json, m.now))
            row = (new_version, m.state_json, m.deadline, m.reminder_at, m.now, m.table_id, version)
            if m.seats_json is None and m.status is None:
                moved.append(row)
            else:
                changed.append((m.seats_json, m.status, *row))
            cur[0] = m.status or status
            cur[1] = new_version
            if m.seats_json is not None:
                seats = R.parse_seats(m.seats_json)  # the store wrote it from Seat objects
                cur[2] = entry = entry._replace(seats=m.seats_json, parsed_seats=seats)
            if m.status == "finished":
                assert entry.parsed_seats is not None
                finished.append((m, rows[m.table_id], entry.parsed_seats))
            outcomes.append(None)
        if log_rows:
            conn.executemany(INSERT_ACTION, log_rows)
            updated = 0
            if moved:
                updated += conn.executemany(UPDATE_MOVED, moved).rowcount
            if changed:
                updated += conn.executemany(UPDATE_CHANGED, changed).rowcount
            if updated != len(log_rows):
                raise StoreError(f"{updated} of {len(log_rows)} table rows were updated")
        for m, r, seats in finished:
            match, players = R.result_rows(
                m.table_id, r[GUILD], r[CHANNEL], m.now, seats, orjson.loads(m.state_json), None
            )
            conn.execute(R.RESULT_UPSERT, match)
            conn.execute(R.RESULT_PLAYERS_DELETE, (m.table_id,))
            conn.executemany(R.RESULT_PLAYERS_INSERT, players)
        for tid, (_, _, entry) in current.items():
            self._remember(tid, entry)
        return rows, initial, outcomes

    def _check_rows(
        self, rows: dict[int, tuple[Any, ...]], need_initial: Sequence[int]
    ) -> tuple[dict[int, _Checked], dict[int, str | None]]:
        """Each row's options, seats, messages and initial state read (from the cache while the
        texts are the same), and the initial-state texts the store asked for."""
        checked: dict[int, _Checked] = {}
        unchecked: list[tuple[Any, ...]] = []
        for tid, r in rows.items():
            entry = self._checked.get(tid)
            if (
                entry is not None
                and entry.options == r[OPTIONS]
                and entry.seats == r[SEATS]
                and entry.messages == r[MESSAGES]
                and entry.start_version == r[START_VERSION]
            ):
                checked[tid] = entry
            else:
                unchecked.append(r)
        wanted = {tid for tid in need_initial if tid in rows} | {r[ID] for r in unchecked}
        initial: dict[int, str | None] = {}
        if wanted:
            marks = ",".join("?" * len(wanted))
            found = dict(
                self.conn.execute(
                    f"SELECT table_id, state FROM initial_states WHERE table_id IN ({marks})",
                    sorted(wanted),
                ).fetchall()
            )
            initial = {tid: found.get(tid) for tid in wanted}
        for r in unchecked:
            checked[r[ID]] = self._check(r, initial[r[ID]])
        return checked, {tid: initial[tid] for tid in need_initial if tid in initial}

    @staticmethod
    def _check(r: tuple[Any, ...], initial: str | None) -> _Checked:
        why: str | None = None
        seats: tuple[Seat, ...] | None = None
        try:
            R.parse_object(r[OPTIONS], "options")
            seats = R.parse_seats(r[SEATS])
            R.parse_messages(r[MESSAGES])
            if initial is not None and not isinstance(_loads(initial, "initial state"), dict):
                raise ValueError("initial state is not a JSON object")
        except (ValueError, TypeError) as e:
            why, seats = str(e) or "unreadable row", None
        return _Checked(r[OPTIONS], r[SEATS], r[MESSAGES], r[START_VERSION], seats, why)

    def _remember(self, table_id: int, entry: _Checked) -> None:
        cache = self._checked
        cache[table_id] = entry
        cache.move_to_end(table_id)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)


def _loads(text: str, what: str) -> Any:
    """``text``'s value, read by orjson: a few times faster than the json module, and at least
    as strict (whatever it reads, the json module reads the same)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"unreadable {what} JSON ({e})") from None


# --- the process ----------------------------------------------------------------------------


def frame(value: Any) -> bytes:
    """``value`` as one frame of the pipe: its length, then its pickle."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return FRAME_HEADER.pack(len(data)) + data


def write_frame(out: IO[bytes], value: Any) -> None:
    out.write(frame(value))
    out.flush()


def read_frame(src: IO[bytes]) -> Any:
    """The next frame's value; EOFError when the input has ended."""
    head = src.read(FRAME_HEADER.size)
    if len(head) < FRAME_HEADER.size:
        raise EOFError
    (size,) = FRAME_HEADER.unpack(head)
    data = src.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def connect(path: str, synchronous: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """The writer's connection, set up as the store's own."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_size_limit = 67108864")
    conn.execute(f"PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES}")
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if str(mode).lower() != "wal":
        conn.close()
        raise StoreError(f"{path} is not in WAL mode (it is {mode})")
    return conn


#: Pipes this large (Linux's default limit for a process) hold a whole batch: the store's
#: process writes it at once instead of in pieces between its other work.
PIPE_BYTES = 1 << 20


def _widen(*files: IO[bytes]) -> None:
    if sys.platform != "linux":  # (elsewhere pipes keep their size)
        return
    import fcntl

    for f in files:
        with contextlib.suppress(AttributeError, OSError, ValueError):
            fcntl.fcntl(f.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def serve(path: str, synchronous: str, busy_timeout_ms: int, src: IO[bytes], out: IO[bytes]) -> int:
    """Answer batches from ``src`` on ``out`` until ``src`` ends."""
    try:
        conn = connect(path, synchronous, busy_timeout_ms)
    except (sqlite3.Error, StoreError) as e:
        write_frame(out, ("failed", f"cannot open {path}: {e}"))
        return 1
    writer = MoveWriter(conn)
    _widen(src, out)
    write_frame(out, ("ready", os.getpid()))
    try:
        while True:
            try:
                batch_id, need_initial, moves = read_frame(src)
            except EOFError:
                return 0
            if batch_id == 0:  # no moves: tables to read ahead
                writer.warm(need_initial)
                continue
            rows = [MoveRow._make(m) for m in moves]  # (sent as plain tuples)
            write_frame(out, (batch_id, *writer.write(rows, need_initial)))
    except BrokenPipeError:  # the store's process is gone: nobody is waiting for the answer
        return 0
    finally:
        conn.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.writer", description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--synchronous", default="NORMAL", choices=["NORMAL", "FULL", "EXTRA"])
    parser.add_argument("--busy-timeout-ms", type=int, default=5000)
    args = parser.parse_args(argv)
    # Ctrl-C or a stop signal sent to the bot's process group is the bot's to handle: it closes
    # the store, which ends this process's input once every batch is answered.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    level = logging.getLevelName(os.environ.get("LOG_LEVEL", "WARNING").strip().upper())
    logging.basicConfig(
        level=level if isinstance(level, int) else logging.WARNING,
        format="%(asctime)s %(levelname)s data.writer: %(message)s",
        stream=sys.stderr,
    )
    return serve(
        args.path, args.synchronous, args.busy_timeout_ms, sys.stdin.buffer, sys.stdout.buffer
    )


if __name__ == "__main__":
    sys.exit(main())

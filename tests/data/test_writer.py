"""The writer process (data/writer.py): moves commit in a process of its own.

Real SQLite files and real processes: the writer is stopped, killed or kept from starting, and
the bot's stand-in is killed under it; in every case no acknowledged move is lost, none is
applied twice, and the store goes on.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from data import writer as W
from data.rows import dumps
from data.sqlite import SqliteStore
from data.store import CorruptRecord, NotFound, StoreError, VersionConflict
from tests.data.helpers import NOW, move, play, random_move, start_table

ROOT = Path(__file__).resolve().parents[2]


def gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie waiting for its parent counts as exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_gone(pid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.05)
    return False


async def test_moves_commit_in_a_process_of_their_own(store: SqliteStore) -> None:
    table, game = await start_table(store, 1, seed=5)
    table = await play(store, table, game, random.Random(5), moves=4)
    pid = store.writer_pid
    assert pid is not None and pid != os.getpid()
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"from data.writer import main" in b" ".join(cmdline)
    assert (await store.get_table(table.id)).version == table.version
    assert len(await store.action_log(table.id)) == 4


async def test_closing_the_store_stops_the_writer(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await store.open()
    table, game = await start_table(store, 1)
    await play(store, table, game, random.Random(1), moves=2)
    pid = store.writer_pid
    assert pid is not None
    await store.close()
    assert store.writer_pid is None
    assert await asyncio.to_thread(wait_gone, pid, 5.0)


async def test_moves_a_killed_writer_had_not_read_go_to_the_next(store: SqliteStore) -> None:
    """Moves out to a writer that dies before committing them are sent to a new writer: each
    caller hears back once, as if nothing had happened, and each move is applied once."""
    started = [await start_table(store, ch, seed=ch) for ch in range(3)]
    rnd = random.Random(11)
    tables = [await play(store, t, g, rnd, moves=1) for t, g in started]
    pid = store.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)  # the batch goes out and waits there
    moves = []
    for table, (_, game) in zip(tables, started, strict=True):
        seat, action = random_move(game, rnd)
        moves.append((table, seat, action, game.to_dict()))
    pending = [asyncio.ensure_future(move(store, *m)) for m in moves]
    await asyncio.sleep(0.2)
    assert not any(p.done() for p in pending)
    os.kill(pid, signal.SIGKILL)
    done = await asyncio.wait_for(asyncio.gather(*pending), 15)
    assert [t.version for t in done] == [m[0].version + 1 for m in moves]
    for (table, _, action, state), got in zip(moves, done, strict=True):
        assert got.state == state
        log = await store.action_log(table.id)
        assert [e.version for e in log] == [table.version, table.version + 1]
        assert log[-1].action == action
    assert store.writer_pid not in (None, pid)
    assert await store.check() == []


async def test_a_move_committed_by_a_writer_that_died_before_answering(
    store: SqliteStore, db_path: Path
) -> None:
    """The writer commits, then dies before its answer: the move is found in the log and its
    caller is told it is stored; it is not sent again (which would fail as stale)."""
    table, game = await start_table(store, 1, seed=3)
    rnd = random.Random(3)
    table = await play(store, table, game, rnd, moves=2)
    pid = store.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    seat, action = random_move(game, rnd)
    state = game.to_dict()
    pending = asyncio.ensure_future(move(store, table, seat, action, state))
    await asyncio.sleep(0.2)
    # What the stopped writer would have committed, committed by the same code in this process.
    conn = W.connect(str(db_path), "NORMAL", 5000)
    try:
        row = W.MoveRow(
            table.id,
            table.version,
            seat,
            1,
            dumps(action),
            dumps(state),
            None,
            None,
            NOW,
            None,
            None,
        )
        assert W.MoveWriter(conn).write([row])[2] == [None]
    finally:
        conn.close()
    os.kill(pid, signal.SIGKILL)
    got = await asyncio.wait_for(pending, 15)
    assert got.version == table.version + 1 and got.state == state
    assert [e.version for e in await store.action_log(table.id)] == [
        table.version - 1,
        table.version,
        table.version + 1,
    ]
    assert await store.check() == []


async def test_a_killed_writer_then_the_games_play_on(store: SqliteStore) -> None:
    started = [await start_table(store, ch, seed=ch) for ch in range(2)]
    rnd = random.Random(4)
    tables = [await play(store, t, g, rnd, moves=2) for t, g in started]
    pid = store.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    await asyncio.to_thread(wait_gone, pid, 5.0)
    # The first move after it died meets it dead (and goes to a new one) or starts a new one.
    for table, (_, game) in zip(tables, started, strict=True):
        fresh = await store.get_table(table.id)
        seat, action = random_move(game, rnd)
        fresh = await move(store, fresh, seat, action, game.to_dict())
        await play(store, fresh, game, rnd)
    assert store.writer_pid not in (None, pid)
    assert await store.check() == []


async def test_a_writer_that_cannot_start_fails_the_moves_clearly(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No writer process (here: no Python to run it): each move fails with a StoreError and
    changes nothing, the store's other writes still work, and moves work once it can start."""
    monkeypatch.setattr(sys, "executable", "/bin/false")
    store = SqliteStore(db_path)
    await store.open()
    try:
        table, game = await start_table(store, 1)
        seat, action = random_move(game, random.Random(2))
        with pytest.raises(StoreError, match="writer process did not start"):
            await move(store, table, seat, action, game.to_dict())
        assert (await store.get_table(table.id)).version == table.version
        assert await store.action_log(table.id) == []
        monkeypatch.undo()
        table = await move(store, table, seat, action, game.to_dict())
        await play(store, table, game, random.Random(2))
        assert await store.check() == []
    finally:
        await store.close()


def test_the_writer_stops_when_the_bots_process_dies(db_path: Path) -> None:
    """SIGKILL the process that owns the store: its writer sees its input end and exits
    (finishing the batch in hand, if any), leaving no process behind."""
    script = textwrap.dedent(
        f"""
        import asyncio, random, sys, time
        from data.sqlite import SqliteStore
        from tests.data.helpers import play, start_table

        async def main():
            store = SqliteStore({str(db_path)!r})
            await store.open()
            table, game = await start_table(store, 1)
            await play(store, table, game, random.Random(1), moves=3)
            print(store.writer_pid, flush=True)
            await asyncio.sleep(60)

        asyncio.run(main())
        """
    )
    owner = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert owner.stdout is not None
        pid = int(owner.stdout.readline())
        assert not gone(pid)
        owner.kill()
        owner.wait(10)
        assert wait_gone(pid), f"the writer process {pid} outlived its store's process"
    finally:
        owner.kill()
        owner.wait(10)


# --- the writer's own end, in this process ---------------------------------------------------


async def _ready(db_path: Path) -> list[tuple[int, int]]:
    """Two started tables in a new file: (id, version) each."""
    async with SqliteStore(db_path) as store:
        out = []
        for ch in (1, 2):
            table, _ = await start_table(store, ch, seed=ch)
            out.append((table.id, table.version))
        return out


def _row(table_id: int, version: int, *, status: str | None = None) -> W.MoveRow:
    return W.MoveRow(
        table_id, version, 0, 1001, '{"take":"A1"}', '{"n":1}', None, None, NOW, None, status
    )


async def test_each_move_of_a_batch_is_checked_on_its_own(db_path: Path) -> None:
    (a, va), (b, vb) = await _ready(db_path)
    conn = W.connect(str(db_path), "NORMAL", 1000)
    try:
        writer = W.MoveWriter(conn)
        rows, initial, outcomes = writer.write(
            [_row(a, va), _row(a, va), _row(b, vb + 1), _row(999, 1), _row(b, vb)], need_initial=[a]
        )
        assert outcomes[0] is None and outcomes[4] is None
        assert isinstance(W.outcome_error(outcomes[1]), VersionConflict)  # type: ignore[arg-type]
        assert isinstance(W.outcome_error(outcomes[2]), VersionConflict)  # type: ignore[arg-type]
        assert isinstance(W.outcome_error(outcomes[3]), NotFound)  # type: ignore[arg-type]
        assert set(rows) == {a, b} and rows[a][W.VERSION] == va  # as they were before
        assert set(initial) == {a} and initial[a] is not None and initial[a].startswith("{")
        versions = dict(conn.execute("SELECT id, version FROM tables").fetchall())
        assert versions == {a: va + 1, b: vb + 1}
    finally:
        conn.close()


async def test_a_damaged_row_fails_its_own_move_only(db_path: Path) -> None:
    (a, va), (b, vb) = await _ready(db_path)
    conn = W.connect(str(db_path), "NORMAL", 1000)
    try:
        # A log row already at the next version (a damaged log): the batch breaks on it, and is
        # written again one move at a time.
        conn.execute(
            "INSERT INTO actions (table_id, version, seat, user_id, action, at) "
            "VALUES (?, ?, 0, 1, '{}', 0)",
            (a, va + 1),
        )
        conn.execute("UPDATE tables SET options = '{' WHERE id = ?", (b,))
        writer = W.MoveWriter(conn)
        _, _, outcomes = writer.write([_row(a, va), _row(b, vb)])
        errors = [W.outcome_error(o) for o in outcomes if o is not None]
        assert len(errors) == 2 and all(isinstance(e, CorruptRecord) for e in errors)
        assert "action log" in str(errors[0]) and "options" in str(errors[1])
        versions = dict(conn.execute("SELECT id, version FROM tables").fetchall())
        assert versions == {a: va, b: vb}
    finally:
        conn.close()


async def test_a_locked_file_fails_the_batch_with_the_sqlite_error(db_path: Path) -> None:
    (a, va), _ = await _ready(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    conn = W.connect(str(db_path), "NORMAL", 50)
    try:
        other.execute("BEGIN IMMEDIATE")
        _, _, outcomes = W.MoveWriter(conn).write([_row(a, va), _row(a, va + 1)])
        other.execute("ROLLBACK")
        for o in outcomes:
            assert o is not None
            assert isinstance(W.outcome_error(o), sqlite3.OperationalError)
    finally:
        conn.close()
        other.close()


async def test_the_pipe_protocol(db_path: Path) -> None:
    """Ready, a batch answered, tables read ahead (no answer), and an exit when input ends."""
    (a, va), (b, _) = await _ready(db_path)
    src, out = io.BytesIO(), io.BytesIO()
    W.write_frame(src, (0, [a, b], []))
    W.write_frame(src, (7, [], [_row(a, va)]))
    src.seek(0)
    assert W.serve(str(db_path), "NORMAL", 1000, src, out) == 0
    out.seek(0)
    assert W.read_frame(out) == ("ready", os.getpid())
    batch_id, rows, initial, outcomes = W.read_frame(out)
    assert (batch_id, set(rows), initial, outcomes) == (7, {a}, {}, [None])
    with pytest.raises(EOFError):
        W.read_frame(out)


def test_a_file_it_cannot_use_is_refused_in_its_first_frame(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    sqlite3.connect(path).close()  # a database, but not in WAL mode
    out = io.BytesIO()
    assert W.serve(str(path), "NORMAL", 1000, io.BytesIO(), out) == 1
    out.seek(0)
    kind, message = W.read_frame(out)
    assert kind == "failed" and "WAL" in message


async def test_the_writer_starts_whatever_the_log_level_says(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "not a level")
    async with SqliteStore(db_path) as store:
        table, game = await start_table(store, 1)
        table = await play(store, table, game, random.Random(6), moves=2)
        assert len(await store.action_log(table.id)) == 2

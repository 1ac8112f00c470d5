"""Kill -9 in the middle of moves: every acknowledged move is kept, none is applied twice.

A subprocess (``tests.data.crash_worker``) plays real engine games through the store, several at
once, printing ``committed <table> <version>`` after each ``apply_action`` returns. It is killed
with SIGKILL at random moments, restarted on the same file, killed again... After every kill the
database opens, ``check`` finds no problem (every stored state is the replay of its log, no
version gaps), and every move the worker reported is in the log.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]


def committed(out: Path) -> set[tuple[int, int]]:
    found = set()
    for line in out.read_text().splitlines():
        if line.startswith("committed "):
            _, table, version = line.split()
            found.add((int(table), int(version)))
    return found


def logged(db: Path) -> set[tuple[int, int]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT table_id, version FROM actions").fetchall()
    conn.close()
    return {(t, v) for t, v in rows}


@contextlib.contextmanager
def worker(db: Path, out: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """The crash worker playing on ``db``, its output in ``out``; killed on the way out."""
    with out.open("w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.data.crash_worker", str(db), *args],
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            yield proc
        finally:
            proc.kill()
            proc.wait()
            if proc.stderr is not None:
                proc.stderr.close()


def run_and_kill(db: Path, out: Path, seed: int, rnd: random.Random) -> None:
    """Start the worker, let it run a random while, SIGKILL it."""
    with worker(db, out, str(seed)) as proc:
        if rnd.random() < 0.25:
            time.sleep(rnd.uniform(0.0, 0.6))  # anywhere, start-up and migrations included
        else:
            deadline = time.monotonic() + 30
            while "started" not in out.read_text() and time.monotonic() < deadline:
                if proc.poll() is not None:
                    break
                time.sleep(0.01)
            time.sleep(rnd.uniform(0.0, 0.4))  # in the middle of the moves
        if proc.poll() is not None:
            assert proc.stderr is not None
            pytest.fail(f"the worker stopped by itself: {proc.stderr.read().decode()}")
        proc.send_signal(signal.SIGKILL)


async def kill_loop(tmp_path: Path, kills: int, seed: int) -> int:
    db = tmp_path / "crash.db"
    rnd = random.Random(seed)
    acknowledged: set[tuple[int, int]] = set()
    for round_ in range(kills):
        out = tmp_path / f"out{round_}.txt"
        run_and_kill(db, out, rnd.randrange(1 << 30), rnd)
        acknowledged |= committed(out)
        if not db.exists():
            continue  # killed before the file was created
        async with SqliteStore(db) as store:
            problems = await store.check()
            assert problems == [], f"after kill {round_ + 1}: {problems}"
            assert await store.integrity_check() == []
            in_log = logged(db)
            lost = acknowledged - in_log
            assert not lost, f"after kill {round_ + 1}: acknowledged moves lost: {sorted(lost)}"
            for table in await store.open_tables():
                await store.get_table(table.id)  # every open game reads back
    return len(acknowledged)


async def test_crash_a_few_times(tmp_path: Path) -> None:
    moves = await kill_loop(tmp_path, kills=4, seed=11)
    assert moves > 0
    # The command line agrees, in its own process.
    result = subprocess.run(
        [sys.executable, "-m", "data", "check", str(tmp_path / "crash.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok:")


@pytest.mark.slow
async def test_crash_many_times(tmp_path: Path) -> None:
    moves = await kill_loop(tmp_path, kills=60, seed=12)
    assert moves > 0

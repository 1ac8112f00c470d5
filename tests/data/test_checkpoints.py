"""The WAL is copied into the database file in quiet moments, not in the middle of a burst."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

import data.sqlite_db as sqlite_store
from data.sqlite import SqliteStore
from tests.data.helpers import play, start_table


def moves_in_the_file(db_path: Path, scratch: Path) -> int:
    """How many logged moves the database file holds by itself (without its WAL); -1 before
    even the schema is in it."""
    copy = scratch / "file-only.db"
    shutil.copyfile(db_path, copy)
    with sqlite3.connect(copy) as conn:
        try:
            (count,) = conn.execute("SELECT count(*) FROM actions").fetchone()
        except sqlite3.OperationalError:
            count = -1
    conn.close()
    copy.unlink()
    return int(count)


async def wait_for_moves_in_the_file(db_path: Path, scratch: Path, want: int) -> bool:
    for _ in range(200):
        if moves_in_the_file(db_path, scratch) == want:
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.fixture
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint is due after every 5 moves, and every half second."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_INTERVAL_S", 0.5)
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_MOVES", 5)
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_MIN_GAP_S", 0.0)


async def test_a_burst_is_copied_once_the_writer_is_quiet(
    often: None, monkeypatch: pytest.MonkeyPatch, db_path: Path, tmp_path: Path
) -> None:
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_QUIET_S", 2.0)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    async with SqliteStore(db_path) as store:
        table, game = await start_table(store, 1)
        assert await wait_for_moves_in_the_file(db_path, scratch, 0)  # the schema is in
        table = await play(store, table, game, random.Random(1), moves=20)
        assert moves_in_the_file(db_path, scratch) == 0  # the burst is only in the WAL
        assert await wait_for_moves_in_the_file(db_path, scratch, 20)
        assert len(await store.action_log(table.id)) == 20


async def test_a_long_burst_is_copied_without_waiting(
    often: None, monkeypatch: pytest.MonkeyPatch, db_path: Path, tmp_path: Path
) -> None:
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_QUIET_S", 60.0)
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_ANYWAY_MOVES", 10)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    async with SqliteStore(db_path) as store:
        table, game = await start_table(store, 1)
        table = await play(store, table, game, random.Random(1), moves=20)
        # Never quiet for a minute, but past 10 moves the copy does not wait.
        assert await wait_for_moves_in_the_file(db_path, scratch, 20)

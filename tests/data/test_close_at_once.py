"""A SQLite store closed right after it opened (while its checkpoint connection is still
opening) leaves no connection behind: no aiosqlite thread keeps running, and none fails later
on an event loop that has ended ("Event loop is closed")."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from data.sqlite import SqliteStore


def aiosqlite_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name]


def test_a_store_closed_at_once_leaves_no_thread_behind(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))

    async def open_and_close() -> None:
        async with SqliteStore(db_path) as store:
            await store.open_tables()

    before = set(aiosqlite_threads())
    for _ in range(60):  # the race was lost about once in 25 rounds
        asyncio.run(open_and_close())
    left = [t for t in aiosqlite_threads() if t not in before]
    for thread in left:
        thread.join(timeout=5)
    assert failures == []
    assert [t for t in left if t.is_alive()] == []

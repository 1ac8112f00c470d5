"""Optimistic versions: of several writes with the same expected version, exactly one wins."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from data.sqlite_db import Database
from data.store import ChannelBusy, StoreError, Table, TableOptions, VersionConflict
from engine import Game
from tests.data.helpers import NOW, move, play, random_move, start_table


async def test_second_write_with_the_same_version_fails(store: SqliteStore) -> None:
    table, game = await start_table(store, 1)
    before = game.to_dict()
    seat, action = random_move(game, random.Random(1))
    won = await move(store, table, seat, action, game.to_dict())
    with pytest.raises(VersionConflict):
        await move(store, table, seat, action, before, user_id=2)
    assert await store.get_table(table.id) == won
    assert len(await store.action_log(table.id)) == 1


async def test_concurrent_clicks_in_one_store(store: SqliteStore) -> None:
    """Twenty clicks for the same decision at once: they share a group commit, one wins."""
    table, game = await start_table(store, 1)
    seat, action = random_move(game, random.Random(1))
    state = game.to_dict()
    results = await asyncio.gather(
        *(move(store, table, seat, action, state, user_id=u) for u in range(20)),
        return_exceptions=True,
    )
    wins = [r for r in results if isinstance(r, Table)]
    assert len(wins) == 1
    assert all(isinstance(r, VersionConflict) for r in results if not isinstance(r, Table))
    [entry] = await store.action_log(table.id)
    assert entry.user_id == 0  # the first submitted
    assert await store.check() == []


async def test_many_stores_many_games(db_path: Path) -> None:
    """Six store objects (six connections pairs) race on the same four games, move by move."""
    stores = [SqliteStore(db_path) for _ in range(6)]
    for s in stores:
        await s.open()
    try:
        rnd = random.Random(7)
        games: list[tuple[Table, Game]] = [
            await start_table(stores[0], ch, players=rnd.randint(2, 4), seed=ch) for ch in range(4)
        ]
        for _ in range(25):
            for i, (table, game) in enumerate(games):
                if game.pending is None:
                    continue
                seat, action = random_move(game, rnd)
                state = game.to_dict()
                outcome = await asyncio.gather(
                    *(move(s, table, seat, action, state, user_id=k) for k, s in enumerate(stores)),
                    return_exceptions=True,
                )
                wins = [r for r in outcome if isinstance(r, Table)]
                assert len(wins) == 1, outcome
                assert all(isinstance(r, VersionConflict) for r in outcome if r is not wins[0])
                games[i] = (wins[0], game)
        for table, game in games:
            for s in stores:
                got = await s.get_table(table.id)
                assert got.version == table.version
                assert got.state == game.to_dict()
        assert await stores[0].check() == []
    finally:
        for s in stores:
            await s.close()


async def test_channel_race_between_stores(db_path: Path) -> None:
    stores = [SqliteStore(db_path) for _ in range(4)]
    for s in stores:
        await s.open()
    try:
        outcome = await asyncio.gather(
            *(s.create_table(1, 99, k, TableOptions(), (), NOW) for k, s in enumerate(stores)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Table) for r in outcome) == 1
        assert sum(isinstance(r, ChannelBusy) for r in outcome) == 3
    finally:
        for s in stores:
            await s.close()


async def test_interleaved_games_in_one_store(store: SqliteStore) -> None:
    """Many games played at once through one store keep their own logs straight."""
    rnd = random.Random(3)

    async def one(channel: int) -> None:
        table, game = await start_table(store, channel, players=2 + channel % 3, seed=channel)
        await play(store, table, game, random.Random(channel), moves=rnd.randint(5, 30))

    await asyncio.gather(*(one(c) for c in range(30)))
    assert len(await store.open_tables()) == 30
    assert await store.check() == []


async def test_processes_race_on_one_game(db_path: Path, tmp_path: Path) -> None:
    """Three OS processes try every move of the same game: each version is won exactly once."""
    root = Path(__file__).resolve().parents[2]
    async with SqliteStore(db_path) as store:
        table, _ = await start_table(store, 1, players=3, seed=21)
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(root)}
    worker = [sys.executable, "-m", "tests.data.race_worker", str(db_path), str(table.id)]
    procs = [
        subprocess.Popen(
            [*worker, str(w), str(go)],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for w in range(3)
    ]
    # Start only once every worker has read the table and worked out the game: a worker that
    # read the table after the others had begun would number its moves from a later version.
    ready = [go.with_name(f"{go.name}.ready{w}") for w in range(3)]
    give_up = time.monotonic() + 60
    while not all(r.exists() for r in ready):
        assert time.monotonic() < give_up, "the workers did not get ready"
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        time.sleep(0.01)
    go.touch()
    won: dict[int, list[int]] = {}
    for w, proc in enumerate(procs):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        for word, version in zip(out.split()[::2], out.split()[1::2], strict=True):
            if word == "won":
                won.setdefault(int(version), []).append(w)
    async with SqliteStore(db_path) as store:
        final = await store.get_table(table.id)
        log = await store.action_log(table.id)
        assert final.status == "finished"
        assert sorted(won) == list(range(table.version + 1, final.version + 1))
        assert all(len(ws) == 1 for ws in won.values()), won
        assert {e.version: e.user_id for e in log} == {v: ws[0] for v, ws in won.items()}
        assert await store.check() == []


async def test_the_writer_waits_for_a_lock_met_while_it_is_set_up(db_path: Path) -> None:
    """The store's writer connection, set up while another process holds the whole file (in
    exclusive locking mode) for 0.3 s, waits for it as every connection does instead of failing
    at once with "database is locked": two bot processes opening one file together met this."""
    store = SqliteStore(db_path)
    await store.open()
    await store.close()
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("CREATE TABLE probe (x INTEGER)")  # (a write: it takes the lock, and keeps it)
    other.execute("INSERT INTO probe VALUES (1)")
    release = threading.Timer(0.3, other.close)
    release.start()
    try:
        writer = Database(db_path, "NORMAL", 5000)._connect_writer()
    finally:
        release.join()
    try:
        assert writer.execute("PRAGMA busy_timeout").fetchone() == (0,)
        assert writer.execute("SELECT x FROM probe").fetchall() == [(1,)]
    finally:
        writer.close()


async def test_a_locked_database_waits_then_fails_each_move_clearly(db_path: Path) -> None:
    """Another process holding the write lock past the busy timeout: each move waits, then gets
    a StoreError that says the database is locked (none waits forever), nothing is written, and
    the next moves go in once the lock is released."""
    store = SqliteStore(db_path, busy_timeout_ms=50)
    await store.open()
    try:
        started = [await start_table(store, ch, seed=ch) for ch in range(3)]
        rnd = random.Random(3)
        moves = []
        for table, game in started:
            before = game.to_dict()
            seat, action = random_move(game, rnd)
            moves.append((table, seat, action, game.to_dict(), before))
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            results = await asyncio.wait_for(
                asyncio.gather(
                    *(move(store, t, s, a, st) for t, s, a, st, _ in moves),
                    return_exceptions=True,
                ),
                timeout=10,
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(isinstance(r, StoreError) and "locked" in str(r) for r in results), results
        for table, *_ in moves:
            assert (await store.get_table(table.id)).version == table.version
            assert await store.action_log(table.id) == []
        done = await asyncio.gather(*(move(store, t, s, a, st) for t, s, a, st, _ in moves))
        assert [t.version for t in done] == [t.version + 1 for t, *_ in moves]
        assert await store.check() == []
    finally:
        await store.close()

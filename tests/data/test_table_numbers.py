"""Table numbers: each server counts its tables 1, 2, 3... ("table #12"), whoever creates them at
once, and a database from before the numbers numbers its old tables in the order they opened."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from pathlib import Path

import aiosqlite
import asyncpg

from data.migrate import migrate
from data.pgmigrate import migrate as pg_migrate
from data.postgres import PostgresStore
from data.sqlite import SqliteStore
from data.store import ChannelBusy, Store, TableOptions
from tests.data.helpers import NOW, play, seats, start_table

#: The SQLite and PostgreSQL schema versions just before table numbers.
SQLITE_BEFORE, PG_BEFORE = 9, 6


async def test_a_guilds_tables_are_numbered_from_one_and_another_guild_starts_again(
    store: Store,
) -> None:
    first = await store.create_table(1, 10, 5, TableOptions(), seats(2), NOW)
    second = await store.create_table(1, 11, 5, TableOptions(), seats(2), NOW)
    elsewhere = await store.create_table(2, 20, 5, TableOptions(), seats(2), NOW)
    assert (first.number, second.number, elsewhere.number) == (1, 2, 1)
    assert first.id != elsewhere.id
    # Read back, the numbers are the stored ones.
    assert [(await store.get_table(t.id)).number for t in (first, second, elsewhere)] == [1, 2, 1]
    assert {t.id: t.number for t in await store.open_tables()} == {
        first.id: 1,
        second.id: 2,
        elsewhere.id: 1,
    }


async def test_a_number_is_never_given_again_once_its_table_closed(store: Store) -> None:
    first = await store.create_table(1, 10, 5, TableOptions(), seats(2), NOW)
    await store.end_table(first.id, first.version, "cancelled", NOW)
    again = await store.create_table(1, 10, 5, TableOptions(), seats(2), NOW)
    assert again.number == 2


async def test_a_refused_table_takes_no_number(store: Store) -> None:
    await store.create_table(1, 10, 5, TableOptions(), seats(2), NOW)
    try:
        await store.create_table(1, 10, 6, TableOptions(), seats(2), NOW)
    except ChannelBusy:
        pass
    else:
        raise AssertionError("a second table opened in a busy channel")
    assert (await store.create_table(1, 11, 5, TableOptions(), seats(2), NOW)).number == 2


async def test_the_number_stays_with_the_table_through_its_game(store: Store) -> None:
    await store.create_table(77, 9, 5, TableOptions(), seats(2), NOW)
    table, game = await start_table(store, 10, guild_id=77)
    assert table.number == 2
    moved = await play(store, table, game, random.Random(3), moves=3)
    assert moved.number == 2
    finished = await play(store, moved, game, random.Random(4))
    assert finished.status == "finished"
    assert finished.number == 2
    assert (await store.get_table(table.id)).number == 2


async def test_tables_created_at_once_by_two_processes_never_share_a_number(
    store: Store, other: Store
) -> None:
    async def create(s: Store, channel: int) -> int:
        return (await s.create_table(5, channel, 1, TableOptions(), seats(2), NOW)).number

    numbers = await asyncio.gather(*(create(store if i % 2 else other, 100 + i) for i in range(24)))
    assert sorted(numbers) == list(range(1, 25))
    stored = sorted(t.number for t in await other.open_tables() if t.guild_id == 5)
    assert stored == list(range(1, 25))


#: A process that opens ``DB`` and creates ten tables of guild 5, in channels from ``FIRST`` on.
CREATOR = """
import asyncio, sys
from data.sqlite import SqliteStore
from data.store import TableOptions
async def main(path, first):
    async with SqliteStore(path) as s:
        for i in range(10):
            t = await s.create_table(5, first + i, 1, TableOptions(), (), 0.0)
            print(t.number, flush=True)
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def test_tables_created_at_once_by_three_os_processes_never_share_a_number(
    db_path: Path,
) -> None:
    async with SqliteStore(db_path):
        pass  # the schema, before the processes race
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CREATOR,
            str(db_path),
            str(1000 * (k + 1)),
            stdout=asyncio.subprocess.PIPE,
        )
        for k in range(3)
    ]
    outputs = await asyncio.gather(*(p.communicate() for p in procs))
    assert [p.returncode for p in procs] == [0, 0, 0]
    numbers = [int(n) for out, _ in outputs for n in out.split()]
    assert sorted(numbers) == list(range(1, 31))


def _old_tables(conn: sqlite3.Connection) -> None:
    rows = [(3, 7, 70), (1, 8, 80), (7, 7, 71), (9, 8, 81), (12, 7, 72)]
    conn.executemany(
        "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, version, "
        "created_at, updated_at) VALUES (?, ?, ?, 1, 'cancelled', '{}', '[]', 2, ?, ?)",
        [(i, g, c, NOW + i, NOW + i) for i, g, c in rows],
    )


async def test_the_migration_numbers_a_sqlite_databases_old_tables_per_guild_in_order(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, target=SQLITE_BEFORE)
    with sqlite3.connect(path) as raw:
        _old_tables(raw)
    raw.close()
    async with SqliteStore(path) as s:
        assert {i: (await s.get_table(i)).number for i in (1, 3, 7, 9, 12)} == {
            3: 1,
            7: 2,
            12: 3,
            1: 1,
            9: 2,
        }
        assert (await s.create_table(7, 73, 1, TableOptions(), seats(2), NOW)).number == 4
        assert (await s.create_table(8, 82, 1, TableOptions(), seats(2), NOW)).number == 3
        assert (await s.create_table(6, 60, 1, TableOptions(), seats(2), NOW)).number == 1


async def test_the_migration_numbers_a_postgresql_databases_old_tables_per_guild_in_order(
    pg_empty_url: str,
) -> None:
    conn = await asyncpg.connect(pg_empty_url)
    try:
        await pg_migrate(conn, target=PG_BEFORE)
        for i, g, c in [(3, 7, 70), (1, 8, 80), (7, 7, 71), (9, 8, 81), (12, 7, 72)]:
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, "
                "version, created_at, updated_at) "
                "VALUES ($1, $2, $3, 1, 'cancelled', '{}', '[]', 2, $4, $4)",
                i,
                g,
                c,
                NOW + i,
            )
    finally:
        await conn.close()
    s = PostgresStore(pg_empty_url)
    await s.open()
    try:
        assert {i: (await s.get_table(i)).number for i in (1, 3, 7, 9, 12)} == {
            3: 1,
            7: 2,
            12: 3,
            1: 1,
            9: 2,
        }
        assert (await s.create_table(7, 73, 1, TableOptions(), seats(2), NOW)).number == 4
        assert (await s.create_table(8, 82, 1, TableOptions(), seats(2), NOW)).number == 3
    finally:
        await s.close()


async def test_a_table_is_found_by_its_guild_and_number(store: Store) -> None:
    first = await store.create_table(1, 10, 5, TableOptions(), seats(2), NOW)
    other = await store.create_table(2, 20, 5, TableOptions(), seats(2), NOW)
    assert await store.table_numbered(1, 1) == first.id
    assert await store.table_numbered(2, 1) == other.id
    assert await store.table_numbered(1, 2) is None
    assert await store.table_numbered(3, 1) is None

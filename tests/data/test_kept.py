"""What the bot keeps beside a table (departures, DM failures, the version the channel was shown)
and the typed options records: each in its own home, never among the message ids."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from data.store import CorruptRecord, NotFound, TableDefaults, TableOptions
from tests.data.helpers import NOW, play, start_table


async def test_a_departure_is_kept_once_and_never_bumps_the_version(store: SqliteStore) -> None:
    table, _ = await start_table(store, 1)
    await store.record_departure(table.id, 1, 1002, NOW + 5, "player1")
    await store.record_departure(table.id, 1, 9999, NOW + 6, "x")  # the first record stays
    await store.record_departure(table.id, 2, 1003, NOW + 7, "player2")
    got = await store.get_table(table.id)
    assert got.departed == {1: 1002, 2: 1003}
    assert got.version == table.version
    assert got.messages == {}
    with pytest.raises(NotFound):
        await store.record_departure(table.id + 1000, 0, 1, NOW, "x")


async def test_the_departures_come_back_with_the_next_move(store: SqliteStore) -> None:
    table, game = await start_table(store, 1)
    await store.record_departure(table.id, 0, 1001, NOW, "player0")
    moved = await play(store, table, game, random.Random(1), moves=1)
    assert moved.departed == {0: 1001}
    assert [t.departed for t in await store.open_tables()] == [{0: 1001}]


async def test_a_failed_dm_is_news_only_the_first_time(store: SqliteStore) -> None:
    table, _ = await start_table(store, 1)
    assert await store.note_dm_failed(table.id, 1002) is True
    assert await store.note_dm_failed(table.id, 1002) is False
    assert await store.note_dm_failed(table.id, 1003) is True
    got = await store.get_table(table.id)
    assert got.dm_failed == frozenset({1002, 1003})
    assert got.version == table.version
    with pytest.raises(NotFound):
        await store.note_dm_failed(table.id + 1000, 1)


async def test_of_several_stores_noting_one_failed_dm_exactly_one_hears_it_is_new(
    db_path: Path,
) -> None:
    stores = [SqliteStore(db_path) for _ in range(4)]
    for s in stores:
        await s.open()
    try:
        table, _ = await start_table(stores[0], 1)
        news = await asyncio.gather(*(s.note_dm_failed(table.id, 1002) for s in stores))
        assert sorted(news) == [False, False, False, True]
    finally:
        for s in stores:
            await s.close()


async def test_the_shown_version_never_moves_backwards(store: SqliteStore) -> None:
    table, _ = await start_table(store, 1)
    assert table.shown_version is None
    await store.mark_shown(table.id, 5)
    await store.mark_shown(table.id, 3)
    got = await store.get_table(table.id)
    assert got.shown_version == 5
    assert got.version == table.version
    with pytest.raises(NotFound):
        await store.mark_shown(table.id + 1000, 1)


def test_options_round_trip_and_read_rows_of_other_versions() -> None:
    options = TableOptions(curse=True, fire_die=True, rounds=4, max_seats=3, preview=False)
    assert TableOptions.from_dict(options.to_dict()) == options
    # Written by an older bot (missing keys) or a newer one (unknown keys).
    assert TableOptions.from_dict({"curse": True, "colour": "red"}) == TableOptions(curse=True)
    assert TableOptions.from_dict({"curse": 1, "rounds": 2.0}) == TableOptions(curse=True, rounds=2)
    with pytest.raises(ValueError, match="rounds"):
        TableOptions.from_dict({"rounds": "three"})
    with pytest.raises(ValueError, match="curse"):
        TableOptions.from_dict({"curse": "yes"})


def test_defaults_keep_only_what_is_set_and_override_the_options() -> None:
    defaults = TableDefaults(curse=True, turn_limit_s=600)
    assert defaults.to_dict() == {"curse": True, "turn_limit_s": 600}
    assert TableDefaults.from_dict({**defaults.to_dict(), "rounds": None, "x": 1}) == defaults
    merged = TableOptions(rounds=3).with_defaults(defaults)
    assert merged == TableOptions(curse=True, rounds=3, turn_limit_s=600)


async def test_unreadable_options_are_a_corrupt_record_of_that_table(
    store: SqliteStore, db_path: Path
) -> None:
    table, _ = await start_table(store, 1)
    with sqlite3.connect(db_path) as conn:
        conn.execute('UPDATE tables SET options = \'{"rounds": "x"}\' WHERE id = ?', (table.id,))
    conn.close()
    with pytest.raises(CorruptRecord, match="rounds"):
        await store.get_table(table.id)

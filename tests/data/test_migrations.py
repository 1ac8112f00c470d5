"""Numbered migrations: from an empty file, from every older version, and never backwards."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from data.migrate import Migration, latest_version, migrate, migrations
from data.sqlite import SqliteStore
from data.store import SchemaTooNew, TableDefaults, TableOptions
from engine import Game
from tests.data.helpers import NOW, random_move


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    conn.close()
    return [(t, n, " ".join((sql or "").split())) for t, n, sql in rows]


def versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    conn.close()
    return [v for (v,) in rows]


def test_migrations_are_numbered_from_one() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert len(found) >= 2
    assert latest_version() == found[-1].version
    for m in found:
        assert m.statements(), m.name


def test_statements_keep_trigger_bodies_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x);\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 1;\n  SELECT 1;\nEND;\n"
    )
    stmts = Migration(1, "x", sql).statements()
    assert len(stmts) == 2
    assert stmts[1].startswith("CREATE TRIGGER") and stmts[1].endswith("END;")


async def test_from_empty(db_path: Path) -> None:
    async with SqliteStore(db_path) as s:
        assert await s.schema_version() == latest_version()
    assert versions(db_path) == list(range(1, latest_version() + 1))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    # Opening again applies nothing.
    async with SqliteStore(db_path) as s:
        assert await s.schema_version() == latest_version()
    assert versions(db_path) == list(range(1, latest_version() + 1))


async def _database_at(path: Path, version: int) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, target=version)


def _v1_rows(path: Path, version: int = 1) -> Game:
    """A lobby and a finished game, written as the schema at ``version`` holds them."""
    game = Game.new(2, 5)
    initial = game.to_dict()
    rnd = random.Random(1)
    log = []
    while game.pending is not None:
        seat, action = random_move(game, rnd)
        log.append((seat, action))
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, "
            "version, created_at, updated_at) VALUES (1, 7, 70, 1, 'lobby', '{}', '[]', 1, ?, ?)",
            (NOW, NOW),
        )
        if version >= 10:  # numbered tables: the first is #1, the next takes #2
            conn.execute("UPDATE tables SET number = 1 WHERE id = 1")
        seats = json.dumps([{"user_id": 1, "name": "a"}, {"user_id": 2, "name": "b"}])
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, "
            "version, state, initial_state, start_version, created_at, updated_at) "
            "VALUES (2, 7, 71, 1, 'finished', '{}', ?, ?, ?, ?, 2, ?, ?)",
            (
                seats,
                2 + len(log),
                json.dumps(game.to_dict()),
                json.dumps(initial) if version < 3 else None,
                NOW,
                NOW + 9,
            ),
        )
        if version >= 10:
            conn.execute("UPDATE tables SET number = 2 WHERE id = 2")
        if version >= 3:
            conn.execute("INSERT INTO initial_states VALUES (2, ?)", (json.dumps(initial),))
        conn.executemany(
            "INSERT INTO actions (table_id, version, seat, user_id, action, at) "
            "VALUES (2, ?, ?, ?, ?, ?)",
            [(3 + i, s, s + 1, json.dumps(a), NOW + i) for i, (s, a) in enumerate(log)],
        )
        conn.execute("INSERT INTO player_prefs (user_id, hand_mode) VALUES (1, 'channel')")
        if version >= 13:  # the settings as one record
            conn.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (7, "
                '\'{"turn_limit_s":60,"reminder_s":30,"defaults":{"curse":true}}\')'
            )
        else:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_limit_s, reminder_s, defaults) "
                "VALUES (7, 60, 30, '{\"curse\":true}')"
            )
    conn.close()
    return game


@pytest.mark.parametrize("start", range(1, latest_version()))
async def test_from_each_older_version(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.db"
    async with SqliteStore(fresh):
        pass
    old = tmp_path / "old.db"
    await _database_at(old, start)
    assert versions(old) == list(range(1, start + 1))
    game = _v1_rows(old, start)
    async with SqliteStore(old) as s:
        assert await s.schema_version() == latest_version()
        assert (await s.get_table(1)).status == "lobby"
        finished = await s.get_table(2)
        assert finished.state == game.to_dict()
        assert (await s.get_prefs(1)).hand_mode == "channel"
        assert (await s.get_guild_settings(7)).defaults == TableDefaults(curse=True)
        assert finished.initial_state == Game.new(2, 5).to_dict()  # moved out by 0003
        if start < 2:
            [result] = await s.results()  # filled in from the final state by 0002
            assert result["table_id"] == 2
            assert result["scores"] == game.scores
            assert result["winners"] == game.winners()
        assert [t.id for t in await s.open_tables()] == [1]
        assert await s.check() == []
    assert schema(old) == schema(fresh)


async def test_refuses_a_newer_database(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (999,))
    conn.close()
    before = schema(db_path)
    for migrate_schema in (True, False):
        s = SqliteStore(db_path, migrate_schema=migrate_schema)
        with pytest.raises(SchemaTooNew, match="999"):
            await s.open()
    assert schema(db_path) == before


async def test_concurrent_first_starts(db_path: Path) -> None:
    """Several processes' stores opening an empty file at once apply each migration once."""
    stores = [SqliteStore(db_path) for _ in range(5)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert versions(db_path) == list(range(1, latest_version() + 1))
        t = await stores[1].create_table(1, 2, 3, TableOptions(), (), NOW)
        assert await stores[4].get_table(t.id) == t
    finally:
        for s in stores:
            await s.close()


async def test_0004_moves_the_kept_values_out_of_the_message_ids(tmp_path: Path) -> None:
    """Departures, DM failures and the shown version were message keys before 0004: they move
    to their own homes, and only real message ids stay among the messages."""
    old = tmp_path / "old.db"
    await _database_at(old, 3)
    _v1_rows(old, 3)
    with sqlite3.connect(old) as conn:
        conn.executemany(
            "INSERT INTO messages (table_id, key, message_id) VALUES (?, ?, ?)",
            [
                (2, "status", 900),
                (2, "hand:1", 901),
                (2, "left:1", 2),
                (2, "nodm:1", 1),
                (2, "nodm:2", 1),
                (2, "shown", 17),
                (1, "lobby", 800),
            ],
        )
    conn.close()
    async with SqliteStore(old) as s:
        finished = await s.get_table(2)
        assert finished.messages == {"status": 900, "hand:1": 901}
        assert finished.departed == {1: 2}
        assert finished.dm_failed == frozenset({1, 2})
        assert finished.shown_version == 17
        lobby = await s.get_table(1)
        assert lobby.messages == {"lobby": 800}
        assert (lobby.departed, lobby.dm_failed, lobby.shown_version) == ({}, frozenset(), None)
        assert await s.check() == []

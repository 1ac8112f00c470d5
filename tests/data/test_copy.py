"""``python -m data copy``: a SQLite database of real games moves into PostgreSQL whole."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from data import pgmigrate
from data.cli import main
from data.postgres import PostgresStore
from data.sqlite import SqliteStore
from data.store import GuildSettings, PlayerPrefs, TableDefaults, TableOptions
from tests.data.helpers import NOW, play, seats, start_table
from tests.data.test_analyses import REVIEWS


async def a_season_of_games(path: Path) -> dict[str, list[int]]:
    """Real engine games through the SQLite store: finished ones (with results), running ones
    (with timers, message ids, a departure, a failed DM), a lobby, a cancelled table, and
    preferences and server settings."""
    made: dict[str, list[int]] = {"finished": [], "running": [], "lobby": [], "cancelled": []}
    async with SqliteStore(path) as store:
        for ch in range(1, 4):
            table, game = await start_table(store, ch, seed=ch, players=2 + ch % 3)
            table = await play(store, table, game, random.Random(ch))
            await store.end_table(table.id, table.version, "finished", NOW + 999, {"mvp": ch})
            made["finished"].append(table.id)
        # The turning points of one match are worked out, another's are being worked out.
        done, _, working = made["finished"]
        assert await store.analyses().save_analysis(done, REVIEWS, NOW + 1000)
        assert await store.analyses().claim_analysis("a", NOW + 1000, 60, NOW) == working
        for ch in range(10, 13):
            table, game = await start_table(store, ch, seed=ch, curse=True, fire_die=ch == 11)
            table = await play(store, table, game, random.Random(ch), moves=15)
            await store.set_message(table.id, "status", 900_000_000_000_000_000 + ch)
            await store.set_message(table.id, "hand:1001", 900_000_000_000_000_100 + ch)
            await store.record_departure(table.id, 1, 1002, NOW + 5, "player1")
            await store.note_dm_failed(table.id, 1001)
            await store.mark_shown(table.id, table.version)
            await store.set_thread(table.id, 800_000_000_000_000_000 + ch)
            made["running"].append(table.id)
        lobby = await store.create_table(
            77, 20, 1001, TableOptions(rounds=3), seats(2), NOW, language="fr"
        )
        await store.set_message(lobby.id, "lobby", 42)
        made["lobby"].append(lobby.id)
        gone = await store.create_table(77, 21, 1001, TableOptions(), seats(2), NOW)
        await store.update_lobby(gone.id, gone.version, status="cancelled", now=NOW + 1)
        made["cancelled"].append(gone.id)
        await store.set_prefs(PlayerPrefs(1001, "channel", dm_on_turn=False, language="fr"))
        await store.set_guild_settings(
            GuildSettings(
                77, 3600, 600, TableDefaults(curse=True, rounds=2), "fr", guild_locale="en-GB"
            )
        )
    return made


def test_copy_moves_every_game_and_setting_and_check_finds_nothing(
    tmp_path: Path, pg_empty_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.db"
    made = asyncio.run(a_season_of_games(source))

    assert main(["copy", f"sqlite:///{source}", pg_empty_url]) == 0
    out = capsys.readouterr().out
    assert "copied 8 tables (4 open)" in out
    assert "check: ok" in out
    asyncio.run(same_in_both(source, pg_empty_url, made))
    assert main(["check", pg_empty_url]) == 0


async def same_in_both(source: Path, pg_url: str, made: dict[str, list[int]]) -> None:
    """The copy reads back exactly as the SQLite file does, and plays on."""
    async with SqliteStore(source) as lite, PostgresStore(pg_url) as pg:
        assert await pg.open_tables() == await lite.open_tables()
        for ids in made.values():
            for table_id in ids:
                assert await pg.get_table(table_id) == await lite.get_table(table_id)
                assert await pg.action_log(table_id) == await lite.action_log(table_id)
        assert await pg.results() == await lite.results()
        states = []
        for table_id in made["finished"]:
            found = await pg.analyses().analysis(table_id, NOW + 1001)
            assert found == await lite.analyses().analysis(table_id, NOW + 1001)
            states.append(found.state if found is not None else None)
        assert states == ["done", None, "working"]

        # The running games play on, and a new table never takes an old table's id.
        running = await pg.get_table(made["running"][0])
        assert running.departed == {1: 1002} and running.dm_failed == frozenset({1001})
        new = await pg.create_table(77, 30, 1001, TableOptions(), seats(2), NOW)
        assert new.id > max(i for ids in made.values() for i in ids)


async def count(url: str, table: str) -> int:
    async with PostgresStore(url) as pg:
        return await pg.count_rows(table)


async def set_prefs(url: str, prefs: PlayerPrefs) -> None:
    async with PostgresStore(url) as pg:
        await pg.set_prefs(prefs)


def test_copy_refuses_a_database_that_already_holds_games(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.db"
    asyncio.run(a_season_of_games(source))
    asyncio.run(set_prefs(pg_url, PlayerPrefs(5, "dm")))

    assert main(["copy", str(source), pg_url]) == 2
    assert "not empty (it holds player_prefs)" in capsys.readouterr().err
    assert asyncio.run(count(pg_url, "tables")) == 0


def test_copy_stops_at_a_row_postgresql_cannot_hold_and_writes_nothing(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.db"
    made = asyncio.run(a_season_of_games(source))
    with sqlite3.connect(source) as conn:
        conn.execute("UPDATE tables SET state = '{' WHERE id = ?", (made["running"][1],))

    assert main(["copy", str(source), pg_url]) == 2
    err = capsys.readouterr().err
    assert f"tables row {made['running'][1]}: its state is not JSON" in err
    assert asyncio.run(count(pg_url, "tables")) == 0


def test_copy_goes_from_sqlite_to_postgresql_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["copy", "postgresql://a/b", str(tmp_path / "x.db")]) == 2
    assert "from a SQLite file to a postgresql:// database" in capsys.readouterr().err
    assert main(["copy", str(tmp_path / "missing.db"), "postgresql://a/b"]) == 2
    assert "no SQLite database" in capsys.readouterr().err


async def a_game_with_a_gap(url: str) -> int:
    """A game of ten moves whose fifth logged move is then deleted; its table id."""
    async with PostgresStore(url) as pg:
        table, game = await start_table(pg, 5, seed=3)
        await play(pg, table, game, random.Random(1), moves=10)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "DELETE FROM actions WHERE table_id = $1 AND version = $2", table.id, table.version + 5
        )
    finally:
        await conn.close()
    return table.id


def test_check_and_migrate_take_a_postgresql_url(
    pg_empty_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", pg_empty_url]) == 2  # not a database of the bot yet
    assert "no schema version" in capsys.readouterr().err
    assert main(["migrate", pg_empty_url]) == 0
    assert f"schema version {pgmigrate.latest_version()}" in capsys.readouterr().out
    table_id = asyncio.run(a_game_with_a_gap(pg_empty_url))
    assert main(["check", pg_empty_url]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"table {table_id}: version gap in the action log")

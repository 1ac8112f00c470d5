"""Languages kept by the store: each player's (their client's, for the direct messages sent them
later), each server's (Discord's as last seen, and the one ``/fp-settings`` chose), and each
table's, chosen when it opened and kept through its game and a restart; a database from before
them speaks English."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg

from data.migrate import migrate
from data.pgmigrate import migrate as pg_migrate
from data.postgres import PostgresStore
from data.sqlite import SqliteStore
from data.store import GuildSettings, PlayerPrefs, Store, TableDefaults, TableOptions
from engine import Game
from tests.data.helpers import NOW, play, seats

#: The SQLite and PostgreSQL schema versions just before languages.
SQLITE_BEFORE, PG_BEFORE = 10, 7


async def test_a_players_language_is_kept_and_leaves_their_choices_alone(
    store: Store, other: Store
) -> None:
    assert (await store.get_prefs(1)).language == "en"  # never seen: English
    await store.set_player_language(1, "fr")  # a player with no preferences yet
    assert await other.get_prefs(1) == PlayerPrefs(1, language="fr")  # another process sees it
    quiet = PlayerPrefs(2, "channel", dm_on_turn=False, reminders=False)
    await store.set_prefs(quiet)
    await store.set_player_language(2, "fr")
    assert await other.get_prefs(2) == PlayerPrefs(2, "channel", False, False, "fr")
    await other.set_player_language(2, "en")
    assert await store.get_prefs(2) == quiet
    # Their choices, written whole, carry the language they were read with.
    await store.set_prefs(PlayerPrefs(3, "dm", reminders=False, language="fr"))
    assert (await other.get_prefs(3)).language == "fr"
    await store.set_prefs(PlayerPrefs(3, "channel", language="fr"))
    assert await other.get_prefs(3) == PlayerPrefs(3, "channel", language="fr")
    assert (await store.get_prefs(4)).language == "en"


async def test_a_servers_languages_are_kept_and_leave_its_settings_alone(
    store: Store, other: Store
) -> None:
    fresh = await store.get_guild_settings(9)
    assert (fresh.language, fresh.guild_locale) == (None, None)
    await store.set_guild_locale(9, "fr")  # a server with no settings yet
    assert await other.get_guild_settings(9) == GuildSettings(9, guild_locale="fr")
    chosen = GuildSettings(10, 3600, 600, TableDefaults(curse=True), language="en")
    await store.set_guild_settings(chosen)
    await store.set_guild_locale(10, "fr")
    assert await other.get_guild_settings(10) == GuildSettings(
        10, 3600, 600, TableDefaults(curse=True), language="en", guild_locale="fr"
    )
    await other.set_guild_locale(10, "en-GB")
    after = await store.get_guild_settings(10)
    assert (after.language, after.guild_locale, after.turn_limit_s) == ("en", "en-GB", 3600)
    # Back to the server's own language.
    await store.set_guild_settings(GuildSettings(10, 3600, 600, guild_locale="en-GB"))
    assert (await other.get_guild_settings(10)).language is None
    await store.set_guild_locale(10, None)
    assert (await other.get_guild_settings(10)).guild_locale is None


async def test_a_tables_language_is_kept_through_its_game_and_by_every_read(
    store: Store, other: Store
) -> None:
    english = await store.create_table(77, 10, 1001, TableOptions(), seats(2), NOW)
    assert english.language == "en"
    table = await store.create_table(77, 11, 1001, TableOptions(), seats(3), NOW, language="fr")
    assert table.language == "fr"
    assert (await other.get_table(table.id)).language == "fr"
    assert (await other.get_table(english.id)).language == "en"
    game = Game.new(3, 1)
    table = await store.start_game(
        table.id, table.version, table.seats, game.to_dict(), NOW + 3600, NOW + 1800, NOW
    )
    assert table.language == "fr"
    moved = await play(store, table, game, random.Random(2), moves=4)
    assert moved.language == "fr"
    assert (await other.open_table_in_channel(11)) is not None
    assert {t.id: t.language for t in await other.open_tables()} == {
        english.id: "en",
        table.id: "fr",
    }
    claimed = await other.claim_timers(NOW + 7200, "p1", 30.0, 10)
    assert {t.id: t.language for t in claimed} == {table.id: "fr"}
    finished = await play(store, moved, game, random.Random(3))
    assert finished.status == "finished" and finished.language == "fr"
    assert (await other.get_table(table.id)).language == "fr"


async def test_a_table_keeps_its_language_when_the_bot_starts_again(db_path: Path) -> None:
    async with SqliteStore(db_path) as s:
        table = await s.create_table(77, 10, 1001, TableOptions(), seats(2), NOW, language="fr")
    async with SqliteStore(db_path) as s:
        assert (await s.get_table(table.id)).language == "fr"
        assert [t.language for t in await s.open_tables()] == ["fr"]


def _old_rows(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, version, "
        "created_at, updated_at, number) VALUES (1, 7, 70, 1, 'lobby', '{}', '[]', 1, ?, ?, 1)",
        (NOW, NOW),
    )
    conn.execute(
        "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders) "
        "VALUES (5, 'channel', 0, 1)"
    )
    conn.execute("INSERT INTO guild_settings VALUES (7, 60, 30, '{\"curse\":true}')")


async def test_a_sqlite_database_from_before_languages_speaks_english(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, target=SQLITE_BEFORE)
    with sqlite3.connect(path) as raw:
        _old_rows(raw)
    raw.close()
    async with SqliteStore(path) as s:
        assert (await s.get_table(1)).language == "en"
        assert await s.get_prefs(5) == PlayerPrefs(5, "channel", False, True, "en")
        settings = await s.get_guild_settings(7)
        assert settings == GuildSettings(7, 60, 30, TableDefaults(curse=True))
        assert (settings.language, settings.guild_locale) == (None, None)
        await s.set_player_language(5, "fr")
        await s.set_guild_locale(7, "fr")
        assert (await s.get_prefs(5)).hand_mode == "channel"
        assert (await s.get_guild_settings(7)).defaults == TableDefaults(curse=True)
        assert await s.check() == []


async def test_a_postgresql_database_from_before_languages_speaks_english(
    pg_empty_url: str,
) -> None:
    conn = await asyncpg.connect(pg_empty_url)
    try:
        await pg_migrate(conn, target=PG_BEFORE)
        await conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, "
            "version, created_at, updated_at, number) "
            "VALUES (1, 7, 70, 1, 'lobby', '{}', '[]', 1, $1, $1, 1)",
            NOW,
        )
        await conn.execute(
            "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders) "
            "VALUES (5, 'channel', false, true)"
        )
        await conn.execute(
            "INSERT INTO guild_settings VALUES (7, 60, 30, '{\"curse\": true}'::jsonb)"
        )
    finally:
        await conn.close()
    async with PostgresStore(pg_empty_url) as s:
        assert (await s.get_table(1)).language == "en"
        assert await s.get_prefs(5) == PlayerPrefs(5, "channel", False, True, "en")
        assert await s.get_guild_settings(7) == GuildSettings(7, 60, 30, TableDefaults(curse=True))
        await s.set_player_language(5, "fr")
        await s.set_guild_locale(7, "fr")
        assert await s.get_prefs(5) == PlayerPrefs(5, "channel", False, True, "fr")
        assert await s.get_guild_settings(7) == GuildSettings(
            7, 60, 30, TableDefaults(curse=True), guild_locale="fr"
        )
        assert await s.check() == []

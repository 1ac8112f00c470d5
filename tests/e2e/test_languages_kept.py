"""The languages the bot keeps, as Discord tells them with clicks and commands: a player's client's
is written once, and again only when it changes (a player who switches their client's language is
known in the new one from their next click); a server's language is the one of its new tables,
unless ``/fp-settings language`` chose another.

Writes are counted in the database itself: the test adds triggers to the bot's SQLite file that
log every write of a player's language or a server's Discord language."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.fakediscord import Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TableDriver, answer, stored_prefs, stored_settings, stored_table

COUNTERS = """
CREATE TABLE test_language_writes (n INTEGER PRIMARY KEY, what TEXT, id INTEGER, value TEXT);
CREATE TRIGGER test_player_inserted AFTER INSERT ON player_prefs BEGIN
    INSERT INTO test_language_writes (what, id, value) VALUES ('player', NEW.user_id, NEW.language);
END;
CREATE TRIGGER test_player_updated AFTER UPDATE OF language ON player_prefs BEGIN
    INSERT INTO test_language_writes (what, id, value) VALUES ('player', NEW.user_id, NEW.language);
END;
CREATE TRIGGER test_server_inserted AFTER INSERT ON guild_settings BEGIN
    INSERT INTO test_language_writes (what, id, value)
        VALUES ('server', NEW.guild_id, NEW.guild_locale);
END;
CREATE TRIGGER test_server_updated AFTER UPDATE OF guild_locale ON guild_settings BEGIN
    INSERT INTO test_language_writes (what, id, value)
        VALUES ('server', NEW.guild_id, NEW.guild_locale);
END;
"""


def db_file(db_url: str) -> Path:
    return Path(db_url.removeprefix("sqlite:///"))


def count_language_writes(db_url: str) -> None:
    with sqlite3.connect(db_file(db_url)) as conn:
        conn.executescript(COUNTERS)
    conn.close()


def language_writes(db_url: str) -> list[tuple[str, int, str | None]]:
    with sqlite3.connect(db_file(db_url)) as conn:
        rows = conn.execute("SELECT what, id, value FROM test_language_writes ORDER BY n")
        found = [(str(w), int(i), v) for w, i, v in rows]
    conn.close()
    return found


async def test_a_players_language_is_written_once_then_only_when_their_client_switches(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    count_language_writes(db_url)
    alice, bob = world.alice, world.bob
    alice.locale = "fr"
    await (await table.slash(alice, "fp nouvelle")).wait_response()  # her client names it so
    lobby = table.lobby()
    await table.click(bob, lobby, "Join")  # Bob's client: English, as Discord's default
    await table.fake.wait_for(lambda: len(lobby.revisions) > 1, 5, "Bob seated")
    assert (await stored_prefs(db_url, alice.id)).language == "fr"
    assert (await stored_prefs(db_url, bob.id)).language == "en"
    server = ("server", world.guild.id, "en-US")
    assert language_writes(db_url) == [("player", alice.id, "fr"), server]
    # More clicks in the same languages write nothing.
    for user in (alice, bob, alice):
        await answer(await table.click(user, lobby, "How to play"))
    assert language_writes(db_url) == [("player", alice.id, "fr"), server]
    # Alice switches her client to English: her next click is known in it, once.
    alice.locale = "en-GB"
    await answer(await table.click(alice, lobby, "How to play"))
    assert (await stored_prefs(db_url, alice.id)).language == "en"
    await answer(await table.click(alice, lobby, "How to play"))
    # And back to French with a command.
    alice.locale = "fr"
    await answer(await table.slash(alice, "fp règles"))
    assert language_writes(db_url) == [
        ("player", alice.id, "fr"),
        server,
        ("player", alice.id, "en"),
        ("player", alice.id, "fr"),
    ]
    assert (await stored_prefs(db_url, alice.id)).language == "fr"


async def test_a_french_servers_table_is_french_unless_the_settings_choose_english(
    world: World, run_bot: MakeBot, db_url: str
) -> None:
    world.fake.set_guild_locale(world.guild, "fr")
    await run_bot()
    users = {u.id: u for u in world.users}
    here, there = (TableDriver(world.fake, c, users) for c in (world.games, world.general))
    await here.open(world.alice, world.bob)
    assert (await stored_table(db_url, here.table_id())).language == "fr"
    assert (await stored_settings(db_url, world.guild.id)).guild_locale == "fr"

    admins = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, world.carol.account, [admins])
    shown = await answer(await there.slash(world.carol, "fp-settings", language="en"))
    assert shown.ephemeral
    assert (await stored_settings(db_url, world.guild.id)).language == "en"
    await there.open(world.carol)
    assert (await stored_table(db_url, there.table_id())).language == "en"
    # The table opened before keeps its language.
    assert (await stored_table(db_url, here.table_id())).language == "fr"

    await answer(await there.slash(world.carol, "fp-settings", language="server"))
    assert (await stored_settings(db_url, world.guild.id)).language is None
    third = TableDriver(world.fake, world.fake.create_text_channel(world.guild, "more"), users)
    await third.open(world.bob)
    assert (await stored_table(db_url, third.table_id())).language == "fr"

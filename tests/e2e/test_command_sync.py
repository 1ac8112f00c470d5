"""Slash commands are registered with Discord only when they changed (their translations
included), and by one process of several starting together (Discord limits how often commands
may be created); French clients get them in French, and a French ``/fp nouvelle`` works."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import i18n
from bot.app import Bot
from bot.translator import CommandTranslator
from tests.fakediscord import BotProcess, Perm
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MakeBot, MovableClock, bot_config
from .driver import TableDriver, card_text

PUT_GLOBAL = "PUT /applications/{application_id}/commands"


class Reworded(Bot):
    """The bot with another description on its ``/fp`` group (a changed command)."""

    async def sync_commands(self) -> None:
        group = self.tree.get_command("fp")
        assert group is not None
        group.description = "Flaming Pyramids, reworded"
        await super().sync_commands()


class Retranslated(Bot):
    """The bot with the catalogs of another folder (a changed translation)."""

    locales: Path

    async def sync_commands(self) -> None:
        await self.tree.set_translator(CommandTranslator(i18n.Catalogs(self.locales)))
        await super().sync_commands()


def by_name(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(item for item in items if item["name"] == name)


async def test_the_commands_are_registered_with_their_french_words(
    world: World, run_bot: MakeBot
) -> None:
    await run_bot()
    (fp,) = [c.data for c in world.fake.commands(None) if c.name == "fp"]
    assert fp["description_localizations"] == {"fr": "Jouer à Flaming Pyramids dans ce salon"}
    french = {o["name"]: (o["name_localizations"] or {}).get("fr") for o in fp["options"]}
    assert french == {
        "new": "nouvelle",
        "notify": "notifications",
        "hand": "main",
        "status": "état",
        "leave": "quitter",
        "abort": "fermer",
        "rules": "règles",
        "stats": None,  # the same word in French: Discord ignores a localization equal to the name
        "leaderboard": "classement",
        "history": "historique",
        "replay": "revoir",
        "away": "absence",
        "pause": None,  # the same word in French
        "resume": "reprendre",
        "help": "aide",
    }
    (settings,) = [c.data for c in world.fake.commands(None) if c.name == "fp-settings"]
    assert settings["name_localizations"] == {"fr": "fp-réglages"}
    assert int(settings["default_member_permissions"]) == Perm.MANAGE_GUILD
    new = by_name(fp["options"], "new")
    assert {o["name"]: o["name_localizations"]["fr"] for o in new["options"]} == {
        "curse": "malédiction",
        "fire_die": "dé_de_feu",
        "rounds": "manches",
        "time_limit": "délai",
        "max_seats": "places",
        "preview": "aperçu",
        "undo": "annulation",
        "hints": "conseils",
    }
    day = by_name(by_name(new["options"], "time_limit")["choices"], "24 hours")
    assert day["name_localizations"] == {"fr": "24 heures"}


async def test_a_french_player_opens_a_table_with_the_french_command_and_options(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    world.alice.locale = "fr"
    french = {"malédiction": True, "dé_de_feu": True, "manches": 3, "délai": 900, "places": 2}
    ix = await table.slash(world.alice, "fp nouvelle", **french)
    assert ix.data["options"][0]["name"] == "new"  # Discord sends the bot the default names
    assert {o["name"] for o in ix.data["options"][0]["options"]} == {
        "curse",
        "fire_die",
        "rounds",
        "time_limit",
        "max_seats",
    }
    await ix.wait_response()
    text = card_text(table.lobby())
    for shown in ("curse on", "fire die on", "3 rounds", "15 minutes per decision", "(1/2)"):
        assert shown in text, text


async def test_a_changed_translation_registers_the_commands_again(
    world: World, start_bot: StartBot, db_url: str, clock: MovableClock, tmp_path: Path
) -> None:
    fake = world.fake
    first = await start_bot(Bot(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 1
    await first.stop()

    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    po = locales / "fr" / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="fr")
    catalog.get("new", context="command name").string = "ouvrir"
    with po.with_suffix(".mo").open("wb") as f:
        write_mo(f, catalog)
    bot = Retranslated(bot_config(db_url), clock=clock)
    bot.locales = locales
    await start_bot(bot)
    assert len(fake.requests_to(PUT_GLOBAL)) == 2
    (fp,) = [c.data for c in fake.commands(None) if c.name == "fp"]
    assert by_name(fp["options"], "new")["name_localizations"] == {"fr": "ouvrir"}


async def test_a_second_start_registers_nothing_until_a_command_changes(
    world: World, start_bot: StartBot, db_url: str, clock: MovableClock
) -> None:
    fake = world.fake
    first = await start_bot(Bot(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 1
    await first.stop()

    again = await start_bot(Bot(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 1  # the same commands: not sent again
    await again.stop()

    reworded = await start_bot(Reworded(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 2
    assert {c.data["description"] for c in fake.commands(None) if c.name == "fp"} == {
        "Flaming Pyramids, reworded"
    }
    await reworded.stop()

    await start_bot(Reworded(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 2


async def test_of_two_processes_starting_together_exactly_one_registers(
    world: World, pg_url: str, tmp_path: Path
) -> None:
    fake = world.fake
    env = {"DATABASE_URL": pg_url, "FP_TEST_MODE": "1", "LOG_LEVEL": "INFO"}
    procs = [BotProcess(fake, "bot", env=env, cwd=tmp_path) for _ in range(2)]
    try:
        await asyncio.gather(*(p.start(wait_ready=False) for p in procs))

        def decided(proc: BotProcess) -> bool:
            return "commands (global)" in proc.output or "commands unchanged" in proc.output

        async with asyncio.timeout(60):
            while not all(decided(p) or not p.running for p in procs):
                await asyncio.sleep(0.05)
        assert all(p.running for p in procs), "".join(p.output for p in procs)
        assert len(fake.requests_to(PUT_GLOBAL)) == 1
        assert sum("commands unchanged" in p.output for p in procs) == 1
    finally:
        for proc in procs:
            await proc.kill()

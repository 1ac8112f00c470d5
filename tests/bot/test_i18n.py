"""Languages: which one a Discord locale gets, a new catalog picked up with no code change, plural
rules and number formats per language, and the slash commands' localizations for each."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from discord import app_commands

import i18n
from bot.cogs.tables import Tables
from bot.translator import CommandTranslator
from i18n import Catalogs


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("fr", "fr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("pt-BR", "en"),  # no Portuguese catalog: English
        ("ko", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_a_discord_locale_gets_its_language_or_english(locale: str | None, language: str) -> None:
    assert i18n.language_for(locale) == language


def test_the_bots_languages_are_english_and_french() -> None:
    assert i18n.catalogs.languages == {"en", "fr"}


def test_each_language_is_loaded_once() -> None:
    catalogs = Catalogs()
    assert catalogs.translations("fr") is catalogs.translations("fr")
    assert catalogs.for_locale("fr").translations is catalogs.translations("fr")


def add_catalog(folder: Path, language: str, words: dict[tuple[str, str], str]) -> None:
    """A compiled catalog for ``language`` in ``folder``, as a translator would add one (from
    the template, with ``words`` translated)."""
    with (i18n.LOCALES_DIR / "messages.pot").open("rb") as template:
        catalog: Catalog = read_po(template, locale=language)
    for entry in catalog:
        if entry.id:
            entry.string = words.get((entry.context, entry.id), entry.id)
    target = folder / language / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.po").open("wb") as po:
        write_po(po, catalog)
    with (target / "messages.mo").open("wb") as mo:
        write_mo(mo, catalog)


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    """A copy of the bot's catalogs that a test may add languages to."""
    folder = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, folder)
    return folder


async def translated_fp(catalogs: Catalogs) -> dict[str, Any]:
    """The ``/fp`` payload the bot registers, translated from ``catalogs``."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    await tree.set_translator(CommandTranslator(catalogs))
    fp = next(c for c in Tables.__cog_app_commands__ if c.name == "fp")
    assert tree.translator is not None
    return await fp.get_translated_payload(tree, tree.translator)


def subcommand(payload: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in payload["options"] if o["name"] == name)


async def test_a_new_catalog_is_picked_up_with_no_code_change(locales: Path) -> None:
    before = await translated_fp(Catalogs(locales))
    assert "de" not in subcommand(before, "new").get("name_localizations", {})

    add_catalog(locales, "de", {("command name", "new"): "neu"})
    catalogs = Catalogs(locales)
    assert catalogs.languages == {"en", "fr", "de"}
    assert catalogs.language_for("de") == "de"
    assert catalogs.for_locale("de").pgettext("command name", "new") == "neu"
    after = await translated_fp(catalogs)
    assert subcommand(after, "new")["name_localizations"] == {"de": "neu", "fr": "nouvelle"}


def test_a_locale_gets_a_catalog_of_its_language_or_of_a_variant(locales: Path) -> None:
    add_catalog(locales, "pt", {})
    add_catalog(locales, "es_ES", {})
    add_catalog(locales, "nb", {})
    catalogs = Catalogs(locales)
    assert catalogs.language_for("pt-BR") == "pt"  # the language's catalog
    assert catalogs.language_for("es-ES") == "es_ES"  # the exact locale's
    assert catalogs.language_for("es-419") == "es_ES"  # another variant of the language
    assert catalogs.language_for("no") == "nb"  # Discord's "no" is Norwegian Bokmål
    assert catalogs.language_for("sv-SE") == "en"


def test_a_folder_without_a_compiled_catalog_is_no_language(locales: Path) -> None:
    (locales / "it" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(locales / "messages.pot", locales / "it" / "LC_MESSAGES" / "messages.po")
    (locales / "not-a-language" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(
        locales / "fr" / "LC_MESSAGES" / "messages.mo", locales / "not-a-language" / "LC_MESSAGES"
    )
    catalogs = Catalogs(locales)
    assert catalogs.languages == {"en", "fr"}
    assert catalogs.language_for("it") == "en"


def test_plural_forms_follow_each_languages_rule(locales: Path) -> None:
    add_catalog(locales, "de", {})
    with (locales / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale="fr")
    catalog.add(("{n} tile", "{n} tiles"), ("{n} tuile", "{n} tuiles"), context="count")
    with (locales / "fr" / "LC_MESSAGES" / "messages.mo").open("wb") as mo:
        write_mo(mo, catalog)
    fr = Catalogs(locales).language("fr")
    en = Catalogs(locales).language("en")
    said = {n: fr.npgettext("count", "{n} tile", "{n} tiles", n).format(n=n) for n in (0, 1, 2)}
    assert said == {0: "0 tuile", 1: "1 tuile", 2: "2 tuiles"}  # French: 0 is singular
    assert en.npgettext("count", "{n} tile", "{n} tiles", 0).format(n=0) == "0 tiles"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    fr, en = i18n.catalogs.language("fr"), i18n.catalogs.language("en")
    assert fr.format_decimal(1234.5) == "1\u202f234,5"
    assert en.format_decimal(1234.5) == "1,234.5"
    assert fr.format_percent(0.25) == "25\u00a0%"
    assert en.format_percent(0.25) == "25%"


def test_an_unknown_language_speaks_english() -> None:
    words = i18n.catalogs.language("xx")
    assert words.code == "en"
    assert words.pgettext("command name", "new") == "new"


async def test_english_clients_get_no_localizations_and_french_ones_french() -> None:
    payload = await translated_fp(i18n.catalogs)
    new = subcommand(payload, "new")
    assert new["name_localizations"] == {"fr": "nouvelle"}
    options = {o["name"]: o for o in new["options"]}
    assert options["curse"]["name_localizations"] == {"fr": "malédiction"}
    time_limit = {c["name"]: c for c in options["time_limit"]["choices"]}
    assert time_limit["1 hour"]["name_localizations"] == {"fr": "1 heure"}
    assert "name_localizations" not in time_limit["5 minutes"]  # the same word in French
    assert not payload.get("name_localizations")  # "fp" is "fp" in French too


async def test_the_start_up_log_names_the_languages(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.translator")
    await CommandTranslator().load()
    assert "slash commands in: en, fr" in caplog.messages

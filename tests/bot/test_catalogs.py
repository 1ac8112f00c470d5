"""The catalogs shipped in ``i18n/locales``: complete, compiled, up to date with the code, and
their slash command words within Discord's rules.

A new string in the code fails here until the template is extracted again and every language
translates it (``docs/translating.md``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from discord import app_commands

import i18n
from bot.cogs.tables import Tables
from bot.translator import CommandTranslator, translatable
from tests.fakediscord.commands import MAX_COMMAND_SIZE, command_size, validate_command

ROOT = Path(__file__).resolve().parents[2]
LOCALES = i18n.LOCALES_DIR
TEMPLATE = LOCALES / f"{i18n.DOMAIN}.pot"
LANGUAGES = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po"))

#: ``{name}`` (str.format) and ``%(name)s`` / ``%s`` (printf) placeholders.
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]")

Key = tuple[str | None, str]


def load_po(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language)


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def key(context: str | bytes | None, message_id: Any) -> Key:
    if isinstance(context, bytes):  # read_mo gives the contexts undecoded
        context = context.decode()
    return context, message_id if isinstance(message_id, str) else message_id[0]


def ids(catalog: Catalog) -> set[Key]:
    return {key(m.context, m.id) for m in catalog if m.id}


def forms(string: Any) -> tuple[str, ...]:
    """A translation's forms (one, or one per plural form), however the reader gives them."""
    return (string,) if isinstance(string, str) else tuple(string)


def placeholders(texts: Any) -> set[str]:
    texts = [texts] if isinstance(texts, str) else list(texts)
    return {p for text in texts for p in PLACEHOLDER.findall(text or "")}


def test_french_is_among_the_catalogs() -> None:
    assert "fr" in LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_has_a_finished_translation_with_the_same_placeholders(
    language: str,
) -> None:
    catalog = load_po(po_path(language), language)
    assert str(catalog.locale) == language, "the catalog's Language header names its folder"
    missing, fuzzy, mismatched = [], [], []
    for message in catalog:
        if not message.id:
            continue
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        if not all(forms):
            missing.append(message.id)
        elif message.fuzzy:
            fuzzy.append(message.id)
        expected = placeholders(message.id)
        if placeholders(forms) != expected or any(placeholders(f) - expected for f in forms):
            mismatched.append((message.id, forms))
    assert missing == [], f"untranslated in {language}"
    assert fuzzy == [], f"fuzzy (to be checked) in {language}"
    assert mismatched == [], f"placeholders unlike the English in {language}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(language: str) -> None:
    """The ``.mo`` files are committed (the bot runs from a checkout as from a wheel): this
    fails until ``pybabel compile`` is run after a change to a ``.po``."""
    po = load_po(po_path(language), language)
    with po_path(language).with_suffix(".mo").open("rb") as f:
        mo = read_mo(f)
    expected = {key(m.context, m.id): forms(m.string) for m in po if m.id and not m.fuzzy}
    compiled = {key(m.context, m.id): forms(m.string) for m in mo if m.id}
    assert compiled == expected


def test_the_template_is_up_to_date_with_the_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extracting again (as ``docs/translating.md`` says) gives the committed template's
    messages: a string added to the code fails here until the template and catalogs follow."""
    monkeypatch.chdir(ROOT)
    fresh = tmp_path / f"{i18n.DOMAIN}.pot"
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(fresh), "."]
    )
    assert ids(load_po(fresh)) == ids(load_po(TEMPLATE))


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_has_exactly_the_templates_messages(language: str) -> None:
    assert ids(load_po(po_path(language), language)) == ids(load_po(TEMPLATE))


def test_every_command_string_is_in_the_template() -> None:
    """What the translator is asked for when the commands are registered (the extractor and the
    translator agree on the contexts)."""
    assert translatable(Tables.__cog_app_commands__) <= ids(load_po(TEMPLATE))


async def test_the_translated_commands_follow_discords_rules() -> None:
    """Every localization of every language, as Discord checks a registration (the local
    fake's rules: names, lengths, locales, distinct option names, 8000 characters)."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    await tree.set_translator(CommandTranslator())
    assert tree.translator is not None
    for i, command in enumerate(Tables.__cog_app_commands__):
        payload = await command.get_translated_payload(tree, tree.translator)
        validate_command(payload, i)  # raises Discord's 400 if not
        assert command_size(payload) <= MAX_COMMAND_SIZE

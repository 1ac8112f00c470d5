"""Discord's rules for registering slash commands, their localizations above all: each case
registers a command Discord accepts and one it refuses, over raw HTTP (no bot involved), and
checks the refusal's field path and code.

The rules and their pages: ``tests/fakediscord/commands.py`` and the table in
``tests/fakediscord/README.md``. Also: a person whose client is in another language types the
names Discord shows them, and Discord still sends the bot the default names.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest

from tests.fake.conftest import Rest
from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import LOCALES, command_size
from tests.fakediscord.errors import CommandNotSynced
from tests.fakediscord.fixtures import World

JSON = dict[str, Any]


def option(name: str, type: int = 5, **fields: Any) -> JSON:
    return {"type": type, "name": name, "description": "An option", **fields}


def command(*options: JSON, **fields: Any) -> JSON:
    return {"name": "fp", "description": "Flaming Pyramids", "options": list(options), **fields}


def sub(name: str, *options: JSON, **fields: Any) -> JSON:
    return {"type": 1, "name": name, "description": "A subcommand", "options": [*options], **fields}


def choices(n: int, **fields: Any) -> list[JSON]:
    return [{"name": f"choice {i}", "value": f"v{i}", **fields} for i in range(n)]


def fr(text: str) -> JSON:
    return {"fr": text}


def at_8000(description: int) -> JSON:
    """A command of 7984 counted characters plus an option of ``3 + description``: three string
    options of 25 choices whose French names have 100 characters (their default names only 8),
    so it weighs 8000 with ``description=13`` only because the longest localization counts."""
    options = [
        option(
            f"o{i}",
            type=3,
            description="x",
            choices=[
                {"name": "c", "name_localizations": fr("é" * 100), "value": f"{j:05d}"}
                for j in range(25)
            ],
        )
        for i in range(3)
    ]
    options.append(option("pad", description="d" * description))
    return command(*options, description="d" * 98)


@dataclass
class CommandRule:
    """A command Discord accepts and one it refuses at ``path`` with ``code``."""

    valid: JSON
    invalid: JSON
    path: str
    code: str


INVALID_NAME = "APPLICATION_COMMAND_INVALID_NAME"
DUPLICATE = "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"
BAD_LENGTH = "BASE_TYPE_BAD_LENGTH"

RULES: dict[str, CommandRule] = {
    "name-characters": CommandRule(
        command(name="règles"), command(name="new game"), "0.name", INVALID_NAME
    ),
    "name-lowercase": CommandRule(command(name="fp"), command(name="Fp"), "0.name", INVALID_NAME),
    "name-devanagari-and-thai-marks": CommandRule(
        command(option("नया"), option("ใหม่")),
        command(option("🔥")),
        "0.options.0.name",
        INVALID_NAME,
    ),
    "name-apostrophe": CommandRule(
        command(option("aujourd'hui")), command(option("a.b")), "0.options.0.name", INVALID_NAME
    ),
    "name-32": CommandRule(
        command(option("a" * 32)), command(option("a" * 33)), "0.options.0.name", BAD_LENGTH
    ),
    "localized-command-name": CommandRule(
        command(name_localizations=fr("règles")),
        command(name_localizations=fr("nouvelle partie")),
        "0.name_localizations",
        INVALID_NAME,
    ),
    "localized-option-name-lowercase": CommandRule(
        command(option("curse", name_localizations=fr("malédiction"))),
        command(option("curse", name_localizations=fr("Malédiction"))),
        "0.options.0.name_localizations.fr",
        INVALID_NAME,
    ),
    "localized-name-32": CommandRule(
        command(option("curse", name_localizations=fr("é" * 32))),
        command(option("curse", name_localizations=fr("é" * 33))),
        "0.options.0.name_localizations.fr",
        BAD_LENGTH,
    ),
    "localized-subcommand-option-name": CommandRule(
        command(sub("new", option("curse", name_localizations=fr("dé_de_feu")))),
        command(sub("new", option("curse", name_localizations=fr("dé de feu")))),
        "0.options.0.options.0.name_localizations.fr",
        INVALID_NAME,
    ),
    "locale-keys": CommandRule(
        command(name_localizations={"pt-BR": "regras", "fr": "règles"}),
        command(name_localizations={"fr-FR": "règles"}),
        "0.name_localizations.fr-FR",
        "BASE_TYPE_CHOICES",
    ),
    "localized-description-100": CommandRule(
        command(description_localizations=fr("é" * 100)),
        command(description_localizations=fr("é" * 101)),
        "0.description_localizations.fr",
        BAD_LENGTH,
    ),
    "localized-description-not-empty": CommandRule(
        command(option("curse", description_localizations=fr("Une malédiction"))),
        command(option("curse", description_localizations=fr(""))),
        "0.options.0.description_localizations.fr",
        BAD_LENGTH,
    ),
    "option-names-unique": CommandRule(
        command(option("curse"), option("rounds")),
        command(option("curse"), option("curse")),
        "0.options.1.name",
        DUPLICATE,
    ),
    "localized-option-name-unlike-other-defaults": CommandRule(
        command(option("curse", name_localizations=fr("malédiction")), option("rounds")),
        command(option("curse", name_localizations=fr("rounds")), option("rounds")),
        "0.options.0.name_localizations.fr",
        DUPLICATE,
    ),
    "localized-option-names-unique-in-a-locale": CommandRule(
        command(
            option("curse", name_localizations=fr("malédiction")),
            option("rounds", name_localizations=fr("manches")),
        ),
        command(
            option("curse", name_localizations=fr("manches")),
            option("rounds", name_localizations=fr("manches")),
        ),
        "0.options.1.name_localizations.fr",
        DUPLICATE,
    ),
    "choices-25": CommandRule(
        command(option("speed", type=3, choices=choices(25))),
        command(option("speed", type=3, choices=choices(26))),
        "0.options.0.choices",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "localized-choice-name-100": CommandRule(
        command(option("speed", type=3, choices=choices(2, name_localizations=fr("é" * 100)))),
        command(option("speed", type=3, choices=choices(2, name_localizations=fr("é" * 101)))),
        "0.options.0.choices.0.name_localizations.fr",
        BAD_LENGTH,
    ),
    "description-100": CommandRule(
        command(description="d" * 100),
        command(description="d" * 101),
        "0.description",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "options-25": CommandRule(
        command(*(option(f"o{i}") for i in range(25))),
        command(*(option(f"o{i}") for i in range(26))),
        "0.options",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "options-only-on-slash-commands": CommandRule(
        {"type": 2, "name": "Show Hand", "description": ""},
        {"type": 2, "name": "Show Hand", "description": "", "options": [option("curse")]},
        "0.options",
        "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
    ),
    "choices-on-string-integer-number-options": CommandRule(
        command(option("speed", type=3, choices=choices(2))),
        command(option("speed", type=5, choices=choices(2))),
        "0.options.0.choices",
        "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED",
    ),
    "choice-value-100": CommandRule(
        command(option("speed", type=3, choices=[{"name": "fast", "value": "v" * 100}])),
        command(option("speed", type=3, choices=[{"name": "fast", "value": "v" * 101}])),
        "0.options.0.choices.0.value",
        BAD_LENGTH,
    ),
    "command-8000-counting-the-longest-localization": CommandRule(
        at_8000(13), at_8000(14), "0", "APPLICATION_COMMAND_TOO_LARGE"
    ),
}


@pytest.mark.parametrize("rule", list(RULES), ids=list(RULES))
async def test_a_command_registration_rule(world: World, rest: Rest, rule: str) -> None:
    case = RULES[rule]
    path = f"/applications/{world.fake.application_id}/commands"
    accepted = await rest("PUT", path, [case.valid])
    assert accepted.status == 200, accepted.body
    refused = await rest("PUT", path, [case.invalid])
    assert (refused.status, refused.body["code"]) == (400, 50035), refused.body
    assert refused.field_error(case.path) == case.code, refused.body
    # Refused means nothing changed: the valid command is still the registered one.
    assert [c.data for c in world.fake.commands()] == [case.valid]


def test_the_8000_case_weighs_what_its_name_says() -> None:
    assert command_size(at_8000(13)) == 8000
    defaults_only = copy.deepcopy(at_8000(14))
    for o in defaults_only["options"]:
        for c in o.get("choices", []):
            del c["name_localizations"]
    assert command_size(defaults_only) < 8000  # only the localizations make it too large


LOCALIZED = command(
    sub(
        "new",
        option("curse", name_localizations=fr("malédiction")),
        option("rounds", type=4, name_localizations=fr("manches")),
        name_localizations=fr("nouvelle"),
    ),
    name_localizations=fr("fp"),
)


async def test_a_client_in_french_types_french_names_and_the_bot_gets_the_defaults(
    world: World, rest: Rest
) -> None:
    fake = world.fake
    registered = await rest("PUT", f"/applications/{fake.application_id}/commands", [LOCALIZED])
    assert registered.status == 200, registered.body
    alice = world.alice
    assert alice.locale == "en-US"
    with pytest.raises(CommandNotSynced):  # an English client shows no /fp nouvelle
        await alice.slash("fp nouvelle", world.games, wait_connected=False)

    alice.locale = "fr"
    fake.set_guild_locale(world.guild, "de")
    ix = await alice.slash(
        "fp nouvelle",
        world.games,
        options={"malédiction": True, "manches": 3},
        wait_connected=False,
    )
    assert ix.data["options"] == [
        {
            "name": "new",
            "type": 1,
            "options": [
                {"name": "curse", "type": 5, "value": True},
                {"name": "rounds", "type": 4, "value": 3},
            ],
        }
    ]
    sent = ix.payload(app_permissions=0, attachment_size_limit=1)
    assert (sent["locale"], sent["guild_locale"], sent["guild"]["locale"]) == ("fr", "de", "de")
    assert world.guild.payload()["preferred_locale"] == "de"
    with pytest.raises(CommandNotSynced):  # a French client shows /fp nouvelle, not /fp new
        await alice.slash("fp new", world.games, wait_connected=False)


def test_a_client_locale_is_one_of_discords() -> None:
    assert "fr" in LOCALES and "en-US" in LOCALES
    with pytest.raises(ValueError, match="no locale 'fr-FR'"):
        FakeDiscord().create_user("zoe", locale="fr-FR")

"""The first words a newcomer reads, the lobby's **How to play** and ``/fp help``, in English and
French: they introduce the pile before using it (everyone starts with one, tiles sent under it
come back, what is left in hand and pile is the score), and say what a collapse, a fire and an
explosion do before calling them mayhem."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TableDriver, answer

WORDS: dict[str, dict[str, Any]] = {
    "en-US": {
        "pile": "pile",
        "introduced": "a pile of tiles",
        "comes back": ("draw them again", "you draw them again later"),
        "score": ("the others score the tiles left in their hand and pile", "are your score"),
        "mayhem": "mayhem",
        "explained": "does not fit collapses",
        "help": "fp help",
        "help score": "the others score the tiles left in their hand and pile (lowest total wins)",
    },
    "fr": {
        "pile": "pioche",
        "introduced": "une pioche de tuiles",
        "comes back": ("vous les repiocherez plus tard", "vous la repiocherez plus tard"),
        "score": ("les autres marquent les tuiles qui leur restent", "sont vos points"),
        "mayhem": "chaos",
        "explained": "s'effondre",
        "help": "fp aide",
        "help score": "les autres marquent les tuiles qui leur restent en main et en pioche",
    },
}


def pile_is_introduced_first(text: str, words: dict[str, str]) -> bool:
    """Whether the first time ``text`` names the pile is where it introduces it."""
    intro = text.find(words["introduced"])
    return intro >= 0 and text.find(words["pile"]) == intro + words["introduced"].index(
        words["pile"]
    )


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_how_to_play_introduces_the_pile_and_explains_mayhem_before_naming_it(
    world: World, run_bot: MakeBot, table: TableDriver, locale: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    world.dave.locale = locale
    shown = await answer(await table.click_action(world.dave, lobby, "howto"))
    words = WORDS[locale]
    text = shown.content + "\n" + shown.embed_text()
    assert pile_is_introduced_first(text, words), text
    assert words["comes back"][0] in shown.content and words["score"][0] in shown.content
    assert words["comes back"][1] in shown.embed_text()
    assert words["score"][1] in shown.embed_text()
    assert text.lower().index(words["mayhem"]) > text.index(words["explained"])


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_help_introduces_the_pile_before_using_it(
    world: World, run_bot: MakeBot, table: TableDriver, locale: str
) -> None:
    await run_bot()
    world.dave.locale = locale
    words = WORDS[locale]
    shown = await answer(await table.slash(world.dave, words["help"]))
    text = shown.embed_text()
    assert pile_is_introduced_first(text, words), text
    assert words["comes back"][0] in text and words["help score"] in text
    assert words["mayhem"] not in text.lower()

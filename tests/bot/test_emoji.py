"""Every emoji the bot shows is one Discord accepts, and they all live in ``bot/emoji.py``."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import emoji as unicode_emoji
import pytest

from bot import emoji as em
from bot.show import buttons

BOT_DIR = Path(em.__file__).resolve().parent


@pytest.mark.parametrize("name", em.ALL, ids=lambda e: unicodedata.name(e[0]))
def test_every_emoji_of_the_bot_is_a_unicode_emoji(name: str) -> None:
    assert unicode_emoji.is_emoji(name), f"{name!r} is not an emoji Discord accepts"


def test_the_playing_card_back_is_not_an_emoji() -> None:
    """The symbol the "My hand" button used to carry, which Discord refused."""
    assert not unicode_emoji.is_emoji("\U0001f0a0")


def test_every_emoji_constant_is_listed_in_all() -> None:
    constants = {v for k, v in vars(em).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(em.ALL)
    assert set(em.COLOURS.values()) <= set(em.ALL)


def test_the_my_hand_button_carries_an_emoji() -> None:
    assert unicode_emoji.is_emoji(em.HAND)
    assert buttons.COLOUR_EMOJI == em.COLOURS


def test_no_module_of_the_bot_writes_an_emoji_of_its_own() -> None:
    found: list[str] = []
    for path in sorted(BOT_DIR.rglob("*.py")):
        if path.name == "emoji.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = [e["emoji"] for e in unicode_emoji.emoji_list(line)]
            if hits:
                found.append(f"{path.relative_to(BOT_DIR)}:{number}: {''.join(hits)}")
    assert not found, "emoji outside bot/emoji.py:\n" + "\n".join(found)

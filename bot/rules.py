"""``/fp rules``: the rules in short, with two pictures drawn from small example games, in the
reader's language (their Discord client's, ``interaction.locale``).

The text only summarises RULES.md for players (its French comes from the French rulebook's own
words: pioche, effondrement, chaos, meule, charbon, chalumeau); the examples are real engine games
(so the pictures can never contradict the rules) and are drawn once per language, then kept.
"""

from __future__ import annotations

import discord

from bot.show import pictures
from bot.show.message import attachment
from engine import Game, Play, View, view
from i18n import Language
from render import alttext

COLOUR = 0xE8590C

_cache: dict[tuple[str, str], bytes] = {}


def summary(lang: Language) -> str:
    """The rules in short, one paragraph per topic."""
    return "\n".join(
        [
            lang.gettext(
                "**Your tiles:** everyone starts with a pile of tiles, face down, and draws a "
                "hand of 5 from it; after your turn you draw back up to 5."
            ),
            lang.gettext(
                "**Goal:** be the first with no tile left in your hand and your pile. Tiles sent "
                "under your pile are not lost: you draw them again later. Over several rounds, "
                "the tiles left in your hand and pile are your score, and the lowest total wins."
            ),
            lang.gettext(
                "**Your turn:** play one tile of your hand on a free spot of the pyramid (the "
                "picture labels them A, B, C…). A spot is a gap in the bottom row, or a place "
                "resting on two tiles."
            ),
            lang.gettext(
                "**Building rule:** a tile on two tiles must share a **colour or a weight** "
                "with one of them and weigh **at most their sum**. The millstone has every "
                "colour."
            ),
            lang.gettext(
                "**When a tile does not fit:** you may play anything anywhere, but a tile that "
                "does not fit collapses: the tiles under it go under **your** pile and you choose "
                "where it falls (left or right). Coals and blowtorches set straw (and wood, for a "
                "blowtorch) on fire: the burnt tiles go under your pile and the incendiary that "
                "started the fire leaves the game. Incendiaries that touch explode: the tiles "
                "around them go under your pile and they leave the game. Collapses, fires and "
                "explosions are called *mayhem*."
            ),
            lang.gettext(
                "**Options:** with the *curse*, three tiles of equal weight as a mini-pyramid "
                "go under the **previous** player's pile, and that player takes every tile that "
                "leaves the pyramid for the rest of the turn and chooses where tiles fall. With "
                "the *fire die*, the die decides each fire."
            ),
            lang.gettext(
                "**Undo:** a turn you play waits a few seconds (the table's undo window) before "
                "anyone else sees it: **Undo** puts the table back as it was before your tile, "
                "**Done** hands it on at once. There is no undo once the turn shows something "
                "you could not see before: a roll of the fire die, or a decision passed to "
                "another player by the curse. The tiles you draw come only once the turn is "
                "handed on."
            ),
            lang.gettext(
                "**Hints:** at a practice table (the *hints* option of a new table), the "
                "**{hint}** button of your turn, and of a fall you choose, shows you privately "
                "the move the expert computer would play and why, in tiles: what it sends under "
                "your pile this turn, and what it leaves you after everyone's next turn. It "
                "sees only what you see. A practice match is not rated."
            ).format(hint=lang.pgettext("button", "Hint")),
        ]
    )


def _fits_example() -> Game:
    return Game(
        2,
        pyramid={(0, 0): "Y30", (0, 2): "R10", (0, 4): "B20", (1, 1): "Y40"},
        hands=[["B6"], ["G4"]],
        piles=[[], []],
    )


def _collapse_example() -> Game:
    game = Game(
        2,
        pyramid={(0, 0): "Y2", (0, 2): "R4", (0, 4): "B6"},
        hands=[["G20", "Y6"], ["R2"]],
        piles=[[], []],
    )
    game.apply(Play("G20", (1, 1)))
    return game


def _titles(lang: Language) -> dict[str, str]:
    return {
        "fits": lang.gettext("A tile that fits"),
        "collapse": lang.gettext("Too heavy: where does it fall?"),
    }


EXAMPLE_NAMES = ("Léa", "Max")
"""The players of the examples."""


def _example(key: str) -> View:
    return view(_fits_example() if key == "fits" else _collapse_example(), None)


async def _picture(key: str, lang: Language) -> bytes:
    if (key, lang.code) not in _cache:
        _cache[key, lang.code] = await pictures.table_png(
            _example(key),
            EXAMPLE_NAMES,
            title=_titles(lang)[key],
            lang=lang,
            chips=pictures.NO_CHIPS,
        )
    return _cache[key, lang.code]


def _described(key: str, lang: Language) -> str:
    """What a screen reader reads of an example's picture."""
    return alttext.table_text(_example(key), EXAMPLE_NAMES, title=_titles(lang)[key], lang=lang)


async def rules_message(
    lang: Language,
) -> tuple[list[discord.Embed], list[discord.File]]:
    """The embeds and picture files of the ``/fp rules`` answer, in ``lang``."""
    fits, collapse = await _picture("fits", lang), await _picture("collapse", lang)
    first = discord.Embed(
        title=lang.gettext("Flaming Pyramids in short"), description=summary(lang), colour=COLOUR
    )
    first.set_image(url="attachment://fits.png")
    second = discord.Embed(
        description=lang.gettext(
            "Yellow 40 fits on yellow 30 and red 10 (same colour as yellow 30, and 40 is not "
            "more than 30 + 10). Below: green 20 on yellow 2 and red 4 is too heavy, so it "
            "collapses and its player chooses where it falls."
        ),
        colour=COLOUR,
    )
    second.set_image(url="attachment://collapse.png")
    files = [
        attachment(fits, "fits.png", _described("fits", lang)),
        attachment(collapse, "collapse.png", _described("collapse", lang)),
    ]
    return [first, second], files

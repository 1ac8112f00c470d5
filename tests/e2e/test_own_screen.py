"""A player's own screen speaks to them, end to end: the *fits* marks are explained on each
player's first turn only; a fall of someone else's turn says by when to decide; the final
picture says the round once.

What the pictures say is read from the texts they draw: :func:`drawn` watches the one function
every picture's words go through (``render.fonts.draw``), called through unchanged."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

from engine import Game
from i18n import ENGLISH
from render import fonts
from tests.fakediscord import Message
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import iter_components

from .conftest import MakeBot
from .driver import (
    TableDriver,
    button_actions,
    turn_notices,
)
from .test_decisions import COLLAPSE, CURSE, begin, write_state

FITS_LINE = ENGLISH.gettext("Tiles marked *fits* go somewhere without mayhem.")


@contextmanager
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the pictures drawn meanwhile put on them (in the bot's drawing threads too)."""
    seen: list[str] = []
    draw = fonts.draw

    def watched(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *a: Any) -> None:
        seen.append(text)
        draw(d, xy, text, *a)

    monkeypatch.setattr(fonts, "draw", watched)
    yield seen


def first_content(m: Message) -> str:
    return m.revisions[0].content


def first_labels(m: Message) -> list[str]:
    """The labels of a message's buttons when it was sent."""
    return [
        str(c.get("label") or "")
        for c in iter_components(m.revisions[0].components)
        if c.get("type") == 2
    ]


async def test_the_fits_marks_are_explained_on_each_players_first_turn_only(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot(seed=877)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    for _ in range(6):  # two turns each
        game = await table.step(game)
    later_with_marks = 0
    for user in (world.alice, world.bob, world.carol):
        screens = sorted(turn_notices(user), key=lambda m: m.id)
        assert len(screens) >= 2, user.name
        first, *later = screens
        marked = [m for m in later if any(label.endswith(" · fits") for label in first_labels(m))]
        later_with_marks += len(marked)
        assert FITS_LINE in first_content(first), first_content(first)
        assert all(FITS_LINE not in first_content(m) for m in later), user.name
    assert later_with_marks  # later screens mark tiles that fit: the line is not said again


async def test_a_fall_of_someone_elses_turn_says_by_when_to_decide(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, CURSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    screen = await table.fall_screen(world.carol, falling)
    text = first_content(screen)
    assert "Your turn ends" not in text, text
    assert re.search(r"Decide by <t:(\d+):t> \(<t:\1:R>\)\.", text), text


async def test_a_fall_of_ones_own_turn_still_ends_with_the_turn(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    assert button_actions(falling)[:2] == [("fall", "left"), ("fall", "right")]
    assert "Your turn ends <t:" in falling.content and "Decide by" not in falling.content


def last_tile_of_the_match(tmp_path: Path) -> str:
    """A two-round match in its second round, where Alice is about to play her last tile."""
    game = Game.from_dict(
        {
            "players": 3,
            "pyramid": {"0,0": "Y30", "0,2": "R10"},
            "hands": [["Y40"], ["R2", "G2"], ["B4", "Y4"]],
            "piles": [[], ["R20"], ["B10"]],
            "active": 0,
        }
    )
    game.rounds, game.round = 2, 2
    return write_state(tmp_path, game.to_dict())


async def test_the_final_picture_says_the_round_once(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await run_bot(test_state_file=last_tile_of_the_match(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    with drawn(monkeypatch) as texts:
        final = await table.play(world.alice, game)
    assert "rematch" in [a for a, _ in button_actions(final)]
    rounds = [t for t in texts if re.search(r"round 2\b", t, re.IGNORECASE)]
    assert not [t for t in rounds if "2/2" in t], rounds  # the title no longer says it
    assert [t for t in rounds if "Round 2 of 2" in t], rounds  # the info line does, once
    assert "Flaming Pyramids · table #1" in texts

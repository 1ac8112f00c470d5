"""A player's own screen speaks to them, end to end: the spot step shows their chosen tile at
each spot with their hand, its picture and words in the second person; every account of a turn
on it says "you" (English and French); the *fits* marks are explained on each player's first
turn only; a fall of someone else's turn says by when to decide; the final picture says the
round once.

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

import i18n
from bot import emoji as em
from engine import Game, view
from i18n import ENGLISH
from render import fonts, theme, turn_screen_layout
from render.scene import summary
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import iter_components
from tests.render.conftest import decode, inner, mode_colour, ring_pixels, share

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    button_actions,
    is_spot_step,
    stored_game,
    turn_notices,
)
from .test_decisions import COLLAPSE, CURSE, TWO_SPOTS, begin, write_state
from .test_full_game import last_tile_of_round_one

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


def unbroken(text: str) -> str:
    """``text`` with French no-break spaces as plain ones."""
    return text.replace("\u00a0", " ")


async def closed_screen(world: World, screen: Message) -> str:
    """What a screen in direct messages says once its player's last click closed it."""
    await world.fake.wait_for(
        lambda: screen.settled and not screen.buttons(), TIMEOUT, "the screen closed"
    )
    return screen.content


async def test_the_spot_step_shows_the_chosen_tile_at_each_spot_with_the_hand(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    turn_size = screen.picture().size
    before = len(screen.revisions)
    with drawn(monkeypatch) as texts:
        ix = await table.click(world.alice, screen, "yellow 40 · fits")
        screen = await table.screen_after(screen, before, "her spot step", ix, is_spot_step)
    # Her screen, spoken to her: which tile, which spots; not "Alice to play a tile".
    assert "Where do you play yellow 40? Spots A–B" in texts, texts
    assert not [t for t in texts if "Alice to play" in t]
    assert "Your hand (only you see it)" in texts
    # The picture is her turn screen (her hand below the board), now with yellow 40 drawn at
    # each spot, faintly (not placed yet), and ringed in her hand.
    (picture,) = screen.images()
    image = decode(picture.data)
    assert image.size == turn_size
    state = await stored_game(db_url, table.table_id())
    mine = view(state, 0)
    assert mine.hand == ("Y40", "R6") and mine.pending is not None
    lay = turn_screen_layout(
        mine, ["Alice", "Bob", "Carol"], title="Flaming Pyramids · table #1", lang=ENGLISH
    )
    faint = theme.mix(theme.TILE_FILL["Y"], theme.BG, 0.5)
    for spot in mine.pending.spots:
        x0, y0, x1, y1 = lay.pyramid.pixel_box(spot)
        number_side = inner(((x0 + x1) // 2, y0, x1, y1))
        assert mode_colour(image, number_side) == faint, spot
    assert share(ring_pixels(image, lay.slots[0], 2, 4), theme.GOLD) > 0.5
    assert share(ring_pixels(image, lay.slots[1], 2, 4), theme.GOLD) == 0


@pytest.mark.parametrize(
    ("lang", "played", "yours", "bear", "chose"),
    [
        (
            "en",
            "✅ You played green 10.\nA curse",
            "went under your pile",
            "For the rest of this turn you take the tiles",
            "(you chose)",
        ),
        (
            "fr",
            "✅ Vous posez le vert 10.\nUne malédiction",
            "passent sous votre pioche",
            "Jusqu'à la fin du tour, vous récupérez les tuiles",
            "(votre choix)",
        ),
    ],
)
async def test_every_account_on_a_players_own_screen_says_you(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    played: str,
    yours: str,
    bear: str,
    chose: str,
) -> None:
    """Alice's curse passes the mayhem to Carol: Alice's screen tells her turn as hers ("You
    played"), Carol's tells her what came to her ("your pile", "you take", "you chose"), in the
    words and on the picture; the thread names everyone."""
    locale = {"en": "en-US", "fr": "fr"}[lang]
    world.carol.locale = locale  # her Join notes it
    await begin(world, run_bot, table, tmp_path, CURSE)
    world.alice.locale = locale  # her Start notes it (the host's /fp new was typed before)
    game = await table.start(world.alice)
    alices = await table.hand_for(world.alice, game, turn=True)
    with drawn(monkeypatch) as texts:
        falling = await table.play(world.alice, game)
        told = await closed_screen(world, alices)
        carols = await table.fall_screen(world.carol, falling)
    assert unbroken(told).startswith(played), told
    assert "Alice" not in told
    since = " ".join(line for line in first_content(carols).splitlines() if line.startswith("> "))
    assert yours in since and bear in since and "Carol" not in since, since
    # Carol's picture tells the last move to her too, line by line (the thread's names her).
    state = await stored_game(db_url, table.table_id())
    reader = i18n.catalogs.language(lang)
    names = ["Alice", "Bob", "Carol"]
    lines = summary(view(state, 2).last_events, names, reader, viewer=2)
    told = " ".join(unbroken(" ".join(lines)).split())  # its rows, as one text
    assert yours in told and all(line in texts for line in lines), lines
    after = await table.fall(world.carol, falling, "left")
    assert "Carol chose" in after.content or "choix de Carol" in after.content
    done = await closed_screen(world, carols)
    assert chose in done and "Carol" not in done, done


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


async def test_the_players_own_screen_names_nobody_as_they_play_a_whole_game(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    """A whole game read as each player reads it: no screen of theirs names them."""
    await run_bot(seed=877)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    await table.play_to_the_end(game)
    users: list[FakeUser] = [world.alice, world.bob, world.carol]
    for user in users:
        name = user.name.capitalize()
        said = [r.content for m in user.dms() for r in m.revisions]
        assert said, user.name
        naming = [text for text in said if re.search(rf"\b{name}\b", text)]
        assert naming == [], naming[:3]


async def test_the_round_won_is_told_to_its_winner_on_their_own_screen(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    """Alice plays her last tile and wins round 1 of 2: her first screen of round 2 says "You
    win round 1 of 2.", where the others' and the post say "Alice wins round 1 of 2."."""
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    won = await table.play(world.alice, first)
    assert "Alice wins round 1 of 2." in won.content
    await table.click_action(world.bob, won, "next")
    game = await table.settled_game(won.id)
    for _ in range(6):
        if TableDriver.decider(game) == world.alice.id:
            break
        game = await table.step(game)
    screen = await table.hand_for(world.alice, game, turn=True)
    lines = first_content(screen).splitlines()
    assert f"{em.ROUND_WON} You win round 1 of 2." in lines, lines
    # Only the standings, a table of every player, name her.
    assert [line for line in lines if "Alice" in line] == ["1. Alice: 0 (this round 0)"], lines

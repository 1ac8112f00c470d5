"""The colours' letters on the tiles, as each reader sees them through Discord: in a French
server's thread and on a French player's screens every tile says J for jaune and V for vert; an
English player at the same table reads Y and G. The buttons name the tiles in words."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

import i18n
from engine import View, view
from i18n import ENGLISH, Language
from render.draw import tile_set
from render.screen import turn_screen_layout
from render.table import table_layout
from tests.fakediscord.fixtures import World
from tests.render.conftest import face_places

from .conftest import MakeBot
from .driver import TableDriver, answer, is_spot_step, stored_game
from .test_decisions import write_state

FRENCH = i18n.catalogs.language("fr")

STATE = {
    # Bob (seat 1, a French client) plays first, with a yellow and a green tile in hand, and the
    # pyramid holds a yellow and a green tile.
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "G10"},
    "hands": [["Y40", "G2"], ["Y20", "G40"], ["B4", "R4"]],
    "piles": [["R20"], ["G30"], ["B10"]],
    "active": 1,
}


def shows(picture: Image.Image, tile: str, size: tuple[int, int], lang: Language) -> bool:
    """Whether ``picture`` shows ``tile`` drawn with ``lang``'s colour letters."""
    return bool(face_places(picture, tile_set(*size, lang=lang), tile))


def hand_tile_size(seat_view: View) -> tuple[int, int]:
    """The size of the tiles of a hand on a turn screen of ``seat_view``."""
    slot = turn_screen_layout(seat_view, [], lang=ENGLISH).slots[0]
    return slot[2] - slot[0], slot[3] - slot[1]


async def test_french_readers_see_french_colour_letters_and_english_readers_english_ones(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, STATE))
    world.fake.set_guild_locale(world.guild, "fr")
    world.bob.locale = "fr"
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    state = await stored_game(db_url, table.table_id())
    assert TableDriver.decider(game) == world.bob.id

    # The thread's board, in the server's French: jaune 30 and vert 10 say J and V.
    board = game.picture()
    size = table_layout(view(state), [], lang=FRENCH).pyramid.block_size
    for tile in ("Y30", "G10"):
        assert shows(board, tile, size, FRENCH), tile
        assert not shows(board, tile, size, ENGLISH), tile

    # Bob's turn screen and its spot step, in his French: his yellow 20 says J.
    screen = await table.hand_for(world.bob, game, turn=True)
    assert [a.filename for a in screen.images()] == ["turn.png"]
    size = hand_tile_size(view(state, 1))
    assert shows(screen.picture(), "Y20", size, FRENCH)
    assert not shows(screen.picture(), "Y20", size, ENGLISH)
    assert table.tiles(screen) == ["jaune 20", "vert 40"]  # the buttons name them in words
    before = len(screen.revisions)
    ix = await table.click(world.bob, screen, table.tile_labels(screen)[0])
    spots = await table.screen_after(screen, before, "Bob's spot step", ix, is_spot_step)
    assert [a.filename for a in spots.images()] == ["spots.png"]
    size = table_layout(view(state, 1), [], lang=FRENCH).pyramid.block_size
    for tile in ("Y30", "G10"):
        assert shows(spots.picture(), tile, size, FRENCH), tile
        assert not shows(spots.picture(), tile, size, ENGLISH), tile

    # Alice reads English: her hand, opened in the same French thread, says Y and G.
    alices = await answer(await table.click_action(world.alice, game, "hand"))
    size = hand_tile_size(view(state, 0))
    assert shows(alices.picture(), "Y40", size, ENGLISH)
    assert not shows(alices.picture(), "Y40", size, FRENCH)
    assert shows(alices.picture(), "G2", size, ENGLISH)
    assert not shows(alices.picture(), "G2", size, FRENCH)

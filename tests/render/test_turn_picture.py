"""One picture per turn: the mayhem animation ends on the board, or the board comes alone.

The last frame of the animation is compared pixel for pixel with the table picture of the same
view; the turn number, the fall arrows and the file sizes are checked on real pictures too.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageSequence

from engine import Fall, Game, Play, view
from i18n import ENGLISH
from render import render_mayhem, render_table, render_turn, samples, table_layout
from render import theme as th
from render.scene import info_line
from tests.render.conftest import NAMES, decode, flat, inner, mode_colour

DISCORD_LIMIT = 10 * 1024 * 1024
"""The smallest upload limit Discord applies (a server without boosts)."""
ANIMATION_GOAL = 1_000_000
"""The animation's size goal (render/README.md)."""


def gif_frames(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    return [f.convert("RGB") for f in ImageSequence.Iterator(im)]


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_the_animation_ends_on_the_table_picture_of_the_view_after_the_turn() -> None:
    before, events, game = samples.jenny_turn()
    after = view(game)
    data = render_mayhem(before, events, NAMES, after=after, title="Table #3", lang=ENGLISH)
    assert data is not None
    last = gif_frames(data)[-1]
    board = decode(render_table(after, NAMES, title="Table #3", lang=ENGLISH))
    assert same_pixels(last.crop((0, 0, *board.size)), board)
    # Anything below the board (room the trays needed) is plain background.
    if last.height > board.height:
        below = last.crop((0, board.height, last.width, last.height))
        assert set(flat(below)) == {th.BG}


def test_the_animation_keeps_the_pyramid_where_the_board_has_it() -> None:
    before, events, game = samples.jenny_turn()
    after = view(game)
    data = render_mayhem(before, events, NAMES, after=after, lang=ENGLISH)
    assert data is not None
    shown = gif_frames(data)
    pyr = table_layout(after, NAMES, lang=ENGLISH).pyramid
    for pos, tile in before.pyramid.items():  # the first frame: the pyramid before the play
        assert mode_colour(shown[0], inner(pyr.pixel_box(pos))) == th.TILE_FILL[tile[0]], pos
    for pos, tile in after.pyramid.items():  # the frame before the board: what is left
        assert mode_colour(shown[-2], inner(pyr.pixel_box(pos))) == th.TILE_FILL[tile[0]], pos


def test_a_turn_with_mayhem_is_one_gif_and_a_calm_turn_is_the_board_alone() -> None:
    before, events, game = samples.jenny_turn()
    turn = render_turn(before, events, view(game), NAMES, lang=ENGLISH)
    assert turn.animated and turn.extension == "gif"
    assert len(turn.data) < ANIMATION_GOAL < DISCORD_LIMIT
    g = Game(2, pyramid={(0, 0): "Y20", (0, 2): "R40"}, hands=[["Y10"], ["G2"]], piles=[[], []])
    calm_before = view(g)
    calm = render_turn(calm_before, g.apply(Play("Y10", (1, 1))), view(g), NAMES, lang=ENGLISH)
    assert not calm.animated and calm.extension == "png"
    assert calm.data == render_table(view(g), NAMES, lang=ENGLISH)


def test_the_first_picture_of_a_game_says_turn_1() -> None:
    g = Game.new(3, seed=1)
    assert info_line(view(g), lang=ENGLISH).startswith("Turn 1 ·")
    g.apply(g.legal_actions()[0])
    assert info_line(view(g), lang=ENGLISH).startswith("Turn 2 ·")


def test_a_fall_choice_belongs_to_the_turn_being_played() -> None:
    g = samples.jenny()
    assert info_line(view(g), lang=ENGLISH).startswith("Turn 1 ·")
    g.apply(Play("Y1", samples.JENNY_SPOT))
    assert g.pending is not None and g.pending.kind == "fall"
    assert info_line(view(g), lang=ENGLISH).startswith("Turn 1 ·")
    g.apply(Fall("right"))
    g.apply(Fall("right"))
    assert info_line(view(g), lang=ENGLISH).startswith("Turn 2 ·")


def test_the_landing_places_of_a_fall_show_arrows_pointing_their_way() -> None:
    v = view(samples.jenny_fall())
    img = decode(render_table(v, NAMES, lang=ENGLISH))
    pyr = table_layout(v, NAMES, lang=ENGLISH).pyramid
    assert v.pending is not None and v.pending.at is not None
    r, x = v.pending.at
    for side, pos in ((-1, (r - 1, x - 1)), (1, (r - 1, x + 1))):
        x0, y0, x1, y1 = inner(pyr.pixel_box(pos), 0.15)
        crop = img.crop((x0, y0, x1, y1))
        w, h = crop.size
        px = flat(crop)
        ink = [[px[y * w + c] == th.TEXT for y in range(h)] for c in range(w)]
        heights = [sum(col) for col in ink]
        columns = [c for c in range(w) if heights[c]]
        assert columns, f"no arrow at {pos}"
        # The head is much taller than the shaft: it is in the half the arrow points to.
        mid = (columns[0] + columns[-1]) // 2
        left = max(heights[: mid + 1])
        right = max(heights[mid + 1 :])
        head, tail = (left, right) if side < 0 else (right, left)
        assert head > 2 * tail, (pos, head, tail)

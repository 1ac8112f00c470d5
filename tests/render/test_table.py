"""The table picture, checked by its pixels."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from engine import Event, Fall, Game, Play, View, parse_pos, view
from engine.tiles import ALL_TILES
from i18n import ENGLISH
from render import render_table, spot_labels, table_layout
from render import theme as th
from render.draw import tile_set
from render.encode import to_palette
from render.layout import Box
from tests.render.conftest import (
    NAMES,
    decode,
    flat,
    inner,
    mode_colour,
    pixels,
    ring_pixels,
    share,
)


def _all_tiles_view() -> View:
    """Every one of the 45 tiles, in the stable full pyramid."""
    from render import samples

    return view(samples.full_pyramid())


def test_the_centre_of_each_tiles_block_shows_its_colour() -> None:
    v = _all_tiles_view()
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    assert len(v.pyramid) == 45
    for pos, tile in v.pyramid.items():
        box = inner(lay.pyramid.pixel_box(pos), 0.1)
        if tile == "M200":
            seen = set(pixels(im, box))
            assert {*th.TILE_FILL.values(), th.MILL_GREY} <= seen
        else:
            assert mode_colour(im, box) == th.TILE_FILL[tile[0]], (pos, tile)


def test_nothing_else_is_drawn_in_a_blocks_place(jenny_view: View) -> None:
    lay = table_layout(jenny_view, NAMES, lang=ENGLISH)
    im = decode(render_table(jenny_view, NAMES, lang=ENGLISH))
    for pos in jenny_view.pyramid:
        box = lay.pyramid.pixel_box(pos)
        assert th.SPOT_FILL not in set(pixels(im, inner(box))), pos


def test_spots_are_outlined_empty_blocks_where_the_spots_are(jenny_view: View) -> None:
    lay = table_layout(jenny_view, NAMES, lang=ENGLISH)
    im = decode(render_table(jenny_view, NAMES, lang=ENGLISH))
    labels = spot_labels(jenny_view)
    assert labels == {"A": (3, 3), "B": (2, 6)}
    for pos in labels.values():
        box = lay.pyramid.pixel_box(pos)
        edge = ring_pixels(im, box, -2, -1)
        assert share(edge, th.SPOT_LINE) > 0.25, pos  # the dashed outline
        corner = (box[0] + 5, box[1] + 5, box[0] + 12, box[1] + 9)
        assert mode_colour(im, corner) == th.SPOT_FILL  # empty inside
        middle = inner(box, 0.3)
        assert th.SPOT_LINE in set(pixels(im, middle))  # its letter
    # and no spot outline where there is no spot
    for pos in [(3, 1), (3, 5), (2, 0), (1, 9)]:
        box = lay.pyramid.pixel_box(pos)
        assert share(ring_pixels(im, box, -2, -1), th.SPOT_LINE) == 0


def test_spot_letters_differ_so_each_spot_is_told_apart() -> None:
    pyramid = {(0, 0): "Y2", (0, 2): "R4", (0, 4): "B6"}
    g = Game(2, pyramid=pyramid, hands=[["G2"], ["G4"]], piles=[[], []])
    v = view(g)
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    a, b = (im.crop(lay.pyramid.pixel_box(p)) for p in spot_labels(v).values())
    assert a.size == b.size
    assert a.tobytes() != b.tobytes()


def _ring_share(im: Image.Image, box: Box, colour: th.RGB) -> float:
    return share(ring_pixels(im, box, 2, 6), colour)


def test_the_last_placed_tile_is_ringed_and_differs_from_a_plain_rendering() -> None:
    g = Game(
        2,
        pyramid={(0, 0): "Y20", (0, 2): "R40"},
        hands=[["Y10", "B2"], ["G4", "G2"]],
        piles=[[], []],
    )
    g.apply(Play("Y10", (1, 1)))
    v = view(g)
    assert [e.kind for e in v.last_events][:2] == ["placed", "turn"]
    plain = dataclasses.replace(v, last_events=())
    lay = table_layout(plain, NAMES, lang=ENGLISH)
    box = lay.pyramid.pixel_box((1, 1))
    lit = decode(render_table(v, NAMES, lang=ENGLISH))
    dull = decode(render_table(plain, NAMES, lang=ENGLISH))
    # the last-move line shifts the pyramid down in the highlighted picture
    lit_box = table_layout(v, NAMES, lang=ENGLISH).pyramid.pixel_box((1, 1))
    assert _ring_share(lit, lit_box, th.NEW_RING) > 0.2
    assert _ring_share(dull, box, th.NEW_RING) == 0
    # the tile itself is the same tile in both (past its rounded corners)
    assert lit.crop(inner(lit_box, 0.08)).tobytes() == dull.crop(inner(box, 0.08)).tobytes()
    # the other tiles are not ringed (look beside the base tile, away from the ringed one)
    _x0, y0, x1, y1 = table_layout(v, NAMES, lang=ENGLISH).pyramid.pixel_box((0, 2))
    beside = [lit.getpixel((x, y)) for x in range(x1 + 1, x1 + 3) for y in range(y0 + 8, y1)]
    assert th.NEW_RING not in beside


def test_a_fall_choice_rings_the_falling_tile_and_marks_L_and_R(jenny: Game) -> None:
    jenny.apply(Play("Y1", (3, 3)))
    v = view(jenny)
    assert v.pending is not None and v.pending.kind == "fall"
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    falling = lay.pyramid.pixel_box((3, 3))
    assert _ring_share(im, falling, th.FALL_RING) > 0.3
    assert mode_colour(im, inner(falling)) == th.TILE_FILL["Y"]
    boxes = {}
    for pos in [(2, 2), (2, 4)]:
        box = lay.pyramid.pixel_box(pos)
        boxes[pos] = box
        assert share(ring_pixels(im, box, -2, -1), th.FALL_RING) > 0.25, pos
        corner = (box[0] + 5, box[3] - 9, box[0] + 12, box[3] - 5)
        assert mode_colour(im, corner) == th.SPOT_FILL
    left = im.crop(inner(boxes[(2, 2)], 0.3))
    right = im.crop(inner(boxes[(2, 4)], 0.3))
    assert left.tobytes() != right.tobytes()  # "L" and "R"
    assert th.TEXT in set(flat(left)) and th.TEXT in set(flat(right))
    # no spot letters while a fall is pending
    assert spot_labels(v) == {}


def test_where_tiles_left_from_is_outlined_faintly(jenny: Game) -> None:
    jenny.apply(Play("Y1", (3, 3)))
    jenny.apply(Fall("right"))
    jenny.apply(Fall("right"))
    v = view(jenny)
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    spots_now = set(spot_labels(v).values())
    gone = {(2, 2), (2, 4), (1, 3), (1, 5), (1, 7), (0, 4), (0, 6), (0, 8), (3, 3)} - spots_now
    assert gone
    for pos in gone:
        box = lay.pyramid.pixel_box(pos)
        assert share(ring_pixels(im, box, -2, -1), th.GHOST_LINE) > 0.12, pos
        assert mode_colour(im, inner(box)) == th.BG


def test_the_header_marks_whose_decision_it_is(jenny_view: View) -> None:
    lay = table_layout(jenny_view, NAMES, lang=ENGLISH)
    im = decode(render_table(jenny_view, NAMES, lang=ENGLISH))
    for i, box in enumerate(lay.chips):
        edge = ring_pixels(im, box, -1, -1)
        if i == jenny_view.active:
            assert share(edge, th.GOLD) > 0.5
            assert mode_colour(im, inner(box, 0.3)) == th.PANEL_ACTIVE
        else:
            assert share(edge, th.GOLD) == 0
            assert mode_colour(im, inner(box, 0.3)) == th.PANEL


def test_removed_tiles_are_in_the_tray(jenny_view: View) -> None:
    assert jenny_view.removed == ("B7",)
    lay = table_layout(jenny_view, NAMES, lang=ENGLISH)
    assert lay.tray_y is not None
    im = decode(render_table(jenny_view, NAMES, lang=ENGLISH))
    row = (16, lay.tray_y, lay.width - 16, lay.tray_y + 28)
    assert th.TILE_FILL["B"] in set(pixels(im, row))
    without = dataclasses.replace(jenny_view, removed=())
    assert table_layout(without, NAMES, lang=ENGLISH).tray_y is None


def test_an_empty_table_shows_the_one_spot() -> None:
    g = Game.new(3, seed=1)
    v = view(g)
    assert v.pyramid == {}
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    box = lay.pyramid.pixel_box((0, 0))
    assert share(ring_pixels(im, box, -2, -1), th.SPOT_LINE) > 0.25


def test_a_won_round_and_a_match_render() -> None:
    from render import samples

    g = samples.full_pyramid()
    v = view(g)
    assert v.pending is None and v.winner == 0
    im = decode(render_table(v, NAMES, lang=ENGLISH))
    lay = table_layout(v, NAMES, lang=ENGLISH)
    assert share(ring_pixels(im, lay.chips[0], -1, -1), th.GOLD) > 0.5
    match = dataclasses.replace(v, rounds=3, round=3, scores=(0, 4, 9, 2))
    assert render_table(match, NAMES, lang=ENGLISH) != render_table(v, NAMES, lang=ENGLISH)


def test_every_face_maps_exactly_onto_the_palette() -> None:
    """The tile fills survive palette encoding unchanged (the fixed palette holds them)."""
    ts = tile_set(80, 49, lang=ENGLISH)
    for tile in ALL_TILES:
        face = ts.face(tile)
        if tile != "M200":
            fill = th.TILE_FILL[tile[0]]
            assert fill in set(flat(to_palette(face).convert("RGB")))


def test_base_colours_are_exact_palette_entries() -> None:
    colours = list(th.PALETTE[:30])
    im = Image.new("RGB", (len(colours), 1))
    im.putdata(colours)
    assert flat(to_palette(im).convert("RGB")) == colours


def test_rendering_is_deterministic(jenny_view: View) -> None:
    assert render_table(jenny_view, NAMES, title="t", lang=ENGLISH) == render_table(
        jenny_view, NAMES, title="t", lang=ENGLISH
    )


def test_the_picture_is_a_palette_png_no_wider_than_discord_shows(jenny_view: View) -> None:
    im = Image.open(io.BytesIO(render_table(jenny_view, NAMES, lang=ENGLISH)))
    assert im.format == "PNG" and im.mode == "P"
    assert im.width <= 1000


NASTY_NAMES = [
    "",
    "   ",
    "🔥🔥🔥",
    "Jenny 🔥",
    "山田太郎",
    "مرحبا بالعالم",
    "שלום",
    "Zalgo" + "\u0301\u0302\u0303\u0304" * 20,
    "a\x00b\x1b[31mc",
    "\ud800lone",
    "\u202etxet desrever",
    "W" * 200,
    "👨‍👩‍👧‍👦 family",
    "\ufeff\u200b\u200d",
    "Ǆ ß ﬁ Å",
]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_any_name_renders(jenny_view: View, name: str) -> None:
    data = render_table(jenny_view, [name, name, name], title=name, lang=ENGLISH)
    assert decode(data).width <= 1000


def test_missing_names_become_seat_numbers(jenny_view: View) -> None:
    assert render_table(jenny_view, [], lang=ENGLISH) == render_table(
        jenny_view, ["Player 1", "Player 2", "Player 3"], lang=ENGLISH
    )


def test_unknown_events_and_odd_views_do_not_crash(jenny_view: View) -> None:
    odd = dataclasses.replace(
        jenny_view,
        last_events=(
            Event("placed", 0, "Y1", (9, 9)),
            Event("fell", 0, "Y1", (9, 9), (8, 8), detail="left"),
            Event("mystery", 0),
            Event("exploded", 0, out=(("Y1", (8, 8)),)),
        ),
        hand_sizes=(),
        pile_sizes=(),
    )
    decode(render_table(odd, NAMES, lang=ENGLISH))


def test_the_picture_fits_a_six_player_header() -> None:
    pyramid = {parse_pos("0,0"): "Y2", parse_pos("0,2"): "R4"}
    g = Game(6, pyramid=pyramid, hands=[["G2"]] * 6, piles=[[]] * 6)
    v = view(g)
    lay = table_layout(v, ["A very long display name that goes on"] * 6, lang=ENGLISH)
    assert len(lay.chips) == 6
    assert all(box[2] <= lay.width - 16 for box in lay.chips)
    assert lay.chips[-1][3] < lay.pyramid.top


def test_unknown_tiles_and_many_spots_do_not_crash(jenny_view: View) -> None:
    from engine import Pending

    odd = dataclasses.replace(
        jenny_view,
        pyramid={**jenny_view.pyramid, (4, 4): "X9", (5, 5): "", (0, 10): "LONGCODE"},
        removed=("Q1", "") * 20,
        pending=Pending("play", 7, tuple((0, 2 * i) for i in range(-30, 30))),
    )
    im = decode(render_table(odd, [None, "a"], lang=ENGLISH))  # type: ignore[list-item]
    assert im.width <= 1000
    assert list(spot_labels(odd))[-1] == "BH"

"""Geometry: where each position goes (RULES 2), spot labels, and sizes for extreme pyramids."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine import Game, Pending, Pos, View, reading_key, spots, view
from i18n import ENGLISH
from render import Layout, render_table, spot_labels, table_layout
from render.labels import spot_label as label
from render.layout import CANVAS_W, TILE_MAX_W, hand_layout
from tests.render.conftest import NAMES

MAX_WIDTH = 1000


def fit(positions: list[Pos], width: int = 928, height: int = 600) -> Layout:
    return Layout.fit(positions, left=16, top=100, width=width, max_height=height)


def test_supports_sit_half_a_tile_left_and_right_below() -> None:
    lay = fit([(0, 0), (0, 2), (1, 1)])
    top = lay.pixel_box((1, 1))
    left = lay.pixel_box((0, 0))
    right = lay.pixel_box((0, 2))
    assert top[0] - left[0] == lay.tile_w // 2
    assert right[0] - top[0] == lay.tile_w // 2
    assert left[1] - top[1] == lay.tile_h
    assert left[1] == right[1]


def test_pixel_box_is_the_cell_less_the_inset() -> None:
    lay = fit([(0, -4), (0, 6), (3, 1)])
    for pos in [(0, -4), (1, -1), (3, 1), (0, 6)]:
        x0, y0, x1, y1 = lay.pixel_box(pos)
        cx0, cy0, cx1, cy1 = lay.cell(pos)
        assert (x0 - cx0, y0 - cy0, cx1 - x1, cy1 - y1) == (lay.inset,) * 4
        assert (x1 - x0, y1 - y0) == lay.block_size


def test_row_zero_is_at_the_bottom_and_negative_x_to_the_left() -> None:
    lay = fit([(0, -6), (0, 0), (2, -2)])
    assert lay.pixel_box((0, -6))[0] < lay.pixel_box((0, 0))[0]
    assert lay.pixel_box((2, -2))[1] < lay.pixel_box((0, 0))[1]
    assert lay.pixel_box((0, 0))[3] + lay.inset == lay.bottom
    assert lay.pixel_box((0, -6))[0] - lay.inset >= 16


def test_small_pyramids_get_big_tiles_but_no_bigger_than_the_cap() -> None:
    assert fit([(0, 0)]).tile_w == TILE_MAX_W
    assert fit([(0, 0), (0, 2)]).tile_w == TILE_MAX_W


def test_tile_width_is_even_so_half_steps_are_whole_pixels() -> None:
    for n in range(1, 40):
        lay = fit([(0, 2 * i) for i in range(n)])
        assert lay.tile_w % 2 == 0


def test_position_at_finds_each_block() -> None:
    shown = [(0, 0), (0, 2), (0, 4), (1, 1), (1, 3), (2, 2), (0, -2)]
    lay = fit(shown)
    for pos in shown:
        assert lay.position_at(*lay.centre(pos)) == pos
    assert lay.position_at(0, 0) is None


positions_st = st.sets(
    st.tuples(st.integers(0, 10), st.integers(-30, 30)).filter(lambda p: (p[0] + p[1]) % 2 == 0),
    min_size=1,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(positions_st, st.integers(200, 928), st.integers(100, 600))
def test_every_block_is_inside_the_area_and_no_two_overlap(
    shown: set[Pos], width: int, height: int
) -> None:
    lay = Layout.fit(shown, left=16, top=50, width=width, max_height=height)
    boxes = {p: lay.pixel_box(p) for p in shown}
    for x0, y0, x1, y1 in boxes.values():
        assert x0 >= 16 and y0 >= 50 and x1 > x0 and y1 > y0
        if lay.tile_w > 12:  # above the floor, the fit respects the area
            assert x1 <= 16 + width
            assert y1 <= 50 + height
    ordered = sorted(boxes.values())
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b[0] >= a[2]:
                break
            assert a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_labels_are_bijective_base_26() -> None:
    assert [label(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA",
    ]  # fmt: skip


def test_spot_labels_follow_the_pending_spots_in_reading_order(jenny_view: View) -> None:
    labels = spot_labels(jenny_view)
    assert labels == {"A": (3, 3), "B": (2, 6)}
    pyramid = {(0, 0): "Y2", (0, 2): "R4", (0, 6): "B6", (0, 8): "G6", (0, 10): "Y10"}
    v = _play_view(pyramid, spots(pyramid))
    labels = spot_labels(v)
    assert list(labels) == ["A", "B", "C", "D"]
    assert list(labels.values()) == sorted(labels.values(), key=reading_key)
    assert list(labels.values()) == [(1, 1), (1, 7), (1, 9), (0, 4)]


def test_no_spot_labels_unless_a_play_is_pending(jenny: Game) -> None:
    from engine import Play

    jenny.apply(Play("Y1", (3, 3)))
    assert jenny.pending is not None and jenny.pending.kind == "fall"
    assert spot_labels(view(jenny)) == {}


def _play_view(pyramid: dict[Pos, str], spot_list: tuple[Pos, ...], players: int = 4) -> View:
    return View(
        player=None,
        players=players,
        curse=False,
        fire_die=False,
        pyramid=dict(pyramid),
        hand=None,
        hand_sizes=(5,) * players,
        pile_sizes=(3,) * players,
        removed=(),
        active=0,
        responsible=0,
        pending=Pending("play", 0, spot_list),
        winner=None,
        round=1,
        rounds=1,
        scores=(0,) * players,
        turn=10,
    )


def _extreme(kind: str) -> View:
    from render import samples

    codes = [t for t in samples.FULL_PYRAMID.values()]
    if kind == "empty":
        return _play_view({}, ((0, 0),), players=6)
    if kind == "wide":  # a base of 20 after many extensions
        pyramid = {(0, 2 * i): codes[i] for i in range(20)}
        return _play_view(pyramid, spots(pyramid), players=6)
    if kind == "widest":  # every tile in one row (a hand-made state)
        pyramid = {(0, 2 * i): codes[i] for i in range(45)}
        return _play_view(pyramid, ((0, -2), (0, 90)), players=6)
    if kind == "tall":  # a staircase of single supports
        pyramid = {(r, r): codes[r] for r in range(12)}
        pyramid[(0, 2)] = codes[12]
        return _play_view(pyramid, spots(pyramid), players=6)
    pyramid = {tuple(map(int, k.split(","))): t for k, t in samples.FULL_PYRAMID.items()}
    return _play_view(pyramid, spots(pyramid), players=6)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["empty", "wide", "widest", "tall", "full"])
def test_extreme_pyramids_fit_in_one_legible_image(kind: str) -> None:
    v = _extreme(kind)
    lay = table_layout(v, NAMES, lang=ENGLISH)
    im = Image.open(io.BytesIO(render_table(v, NAMES, lang=ENGLISH)))
    assert im.size == (lay.width, lay.height)
    assert lay.width <= MAX_WIDTH
    assert lay.height <= 1100
    for pos in list(v.pyramid) + list(spot_labels(v).values()):
        x0, y0, x1, y1 = lay.pyramid.pixel_box(pos)
        assert x0 >= 0 and x1 <= lay.width and y0 >= 0 and y1 <= lay.height
    minimum = {"empty": TILE_MAX_W, "wide": 40, "widest": 18, "tall": 60, "full": 80}[kind]
    assert lay.pyramid.tile_w >= minimum


def test_the_table_is_as_wide_as_the_canvas_for_any_pyramid() -> None:
    for kind in ("empty", "full", "widest"):
        assert table_layout(_extreme(kind), NAMES, lang=ENGLISH).width == CANVAS_W


def test_hand_layout_keeps_five_slots_and_fits() -> None:
    lay = hand_layout(5)
    assert len(lay.slots) == 5
    assert lay.width <= MAX_WIDTH
    assert all(a[2] < b[0] for a, b in zip(lay.slots, lay.slots[1:], strict=False))
    assert lay.slots[-1][2] < lay.pile[0]
    assert hand_layout(8).width <= MAX_WIDTH

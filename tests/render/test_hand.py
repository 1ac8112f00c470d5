"""The hand picture shows exactly the viewer's hand, in order, and the pile's size."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Game, View, view
from i18n import ENGLISH
from render import hand_layout, render_hand
from render import theme as th
from tests.render.conftest import decode, inner, mode_colour, pixels, ring_pixels, share


def _hand_view(hand: tuple[str, ...], pile: int = 7) -> View:
    g = Game(
        2,
        pyramid={(0, 0): "Y20", (0, 2): "R40"},
        hands=[list(hand), ["G2"]],
        piles=[["B2"] * 0, []],
    )
    v = view(g, 0)
    return dataclasses.replace(v, pile_sizes=(pile, 0))


def test_each_slot_shows_that_tile_in_hand_order() -> None:
    hand = ("Y30", "B7", "G2", "M200", "R100")
    v = _hand_view(hand)
    lay = hand_layout(v)
    im = decode(render_hand(v, "Jenny", lang=ENGLISH))
    assert (im.width, im.height) == (lay.width, lay.height)
    for tile, box in zip(hand, lay.slots, strict=True):
        area = inner(box, 0.1)
        if tile == "M200":
            assert {*th.TILE_FILL.values(), th.MILL_GREY} <= set(pixels(im, area))
        else:
            assert mode_colour(im, area) == th.TILE_FILL[tile[0]], tile


def test_the_same_tile_looks_the_same_in_any_slot_and_others_differ() -> None:
    a = _hand_view(("Y30", "B7", "G2"))
    b = _hand_view(("G2", "Y30", "B7"))
    lay = hand_layout(a)
    ia, ib = decode(render_hand(a, "x", lang=ENGLISH)), decode(render_hand(b, "x", lang=ENGLISH))
    slots = lay.slots

    def crop(im: object, i: int) -> bytes:
        return im.crop(slots[i]).tobytes()  # type: ignore[attr-defined]

    assert crop(ia, 0) == crop(ib, 1)  # Y30
    assert crop(ia, 1) == crop(ib, 2)  # B7
    assert crop(ia, 2) == crop(ib, 0)  # G2
    assert len({crop(ia, 0), crop(ia, 1), crop(ia, 2)}) == 3

    # the code under each tile moves with it
    def code(im: object, i: int) -> bytes:
        x0, _, x1, _ = slots[i]
        return im.crop((x0, lay.code_y, x1, lay.desc_y)).tobytes()  # type: ignore[attr-defined]

    assert code(ia, 0) == code(ib, 1)
    assert code(ia, 0) != code(ia, 1)


def test_empty_slots_are_outlined_and_hold_no_tile() -> None:
    v = _hand_view(("Y30", "B7"))
    lay = hand_layout(v)
    im = decode(render_hand(v, "x", lang=ENGLISH))
    assert len(lay.slots) == 5
    for box in lay.slots[2:]:
        assert mode_colour(im, inner(box)) == th.BG
        assert share(ring_pixels(im, box, -2, -1), th.GHOST_LINE) > 0.1
        fills = set(th.TILE_FILL.values())
        assert not fills & set(pixels(im, box))


def test_the_pile_size_is_shown_and_changes_only_the_pile() -> None:
    a = _hand_view(("Y30",), pile=7)
    b = _hand_view(("Y30",), pile=12)
    lay = hand_layout(a)
    ia, ib = decode(render_hand(a, "x", lang=ENGLISH)), decode(render_hand(b, "x", lang=ENGLISH))
    assert ia.crop(lay.pile).tobytes() != ib.crop(lay.pile).tobytes()
    assert ia.crop(lay.slots[0]).tobytes() == ib.crop(lay.slots[0]).tobytes()
    assert th.BACK in set(pixels(ia, lay.pile))


def test_the_public_view_has_no_hand() -> None:
    g = Game.new(3, seed=1)
    with pytest.raises(ValueError):
        render_hand(view(g), "x", lang=ENGLISH)


@pytest.mark.parametrize("name", ["", "🔥", "山田", "a" * 300, "\ud800", "x\u0301" * 40])
def test_any_name_renders(name: str) -> None:
    decode(render_hand(_hand_view(("Y30",)), name, lang=ENGLISH))


def test_a_hand_picture_is_small_and_narrow() -> None:
    data = render_hand(_hand_view(("Y30", "B7", "G2", "M200", "R100")), "Jenny", lang=ENGLISH)
    assert decode(data).width <= 1000
    assert len(data) < 60_000


def test_unknown_codes_and_a_missing_name_do_not_crash() -> None:
    v = dataclasses.replace(_hand_view(("Y30",)), hand=("Y1", "ZZ", ""))
    decode(render_hand(v, None, lang=ENGLISH))  # type: ignore[arg-type]

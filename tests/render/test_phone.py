"""Pictures stay readable on a phone, which shows them about 400 px wide.

Each picture is rendered, scaled down to ``PHONE_W`` pixels across as a phone would show it, and
the height of the first letter of each text is measured in the pixels: a capital letter, a digit
or a letter with an ascender must be at least ``READABLE_CAP`` px tall (7 px), a lowercase letter
without one at least ``READABLE_X`` px (5 px; DejaVu's x-height is three quarters of its capitals).
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

from engine import View, view
from i18n import ENGLISH
from render import render_hand, render_mayhem, render_table, samples, table_layout
from render.hand import hand_layout
from render.layout import (
    CAPTION_LINE_H,
    CHIP_COUNT_SIZE,
    CHIP_NAME_SIZE,
    INFO_H,
    LAST_MOVE_H,
    LEGEND_H,
    MARGIN,
    MINI_H,
    MINI_W,
    READABLE_CAP,
    STATUS_H,
    TITLE_H,
    chip_parts,
)
from render.legibility import first_glyph_height, phone
from render.scene import spot_labels
from tests.render.conftest import decode, inner

READABLE_X = 5
"""Lowercase letters without ascender (x-height) at least this tall at PHONE_W."""
NAMES = ("Hal", "Bob", "Ida", "Kim")
"""Names whose first letter is a capital without descender, so the first glyph is a capital."""


def mid_game() -> tuple[Image.Image, View]:
    v = view(samples.mid_game())
    return decode(render_table(v, NAMES, title="Table #2", lang=ENGLISH)), v


def test_the_header_texts_of_the_table_are_readable_at_phone_width() -> None:
    img, v = mid_game()
    lay = table_layout(v, NAMES, title="Table #2", lang=ENGLISH)
    small, scale = phone(img)
    right = img.width - MARGIN
    assert lay.title_y is not None and lay.last_move_y is not None
    lines = {
        "title 'Table #2'": (MARGIN, lay.title_y, right, lay.title_y + TITLE_H),
        "status 'Bob to play'": (MARGIN, lay.status_y, right, lay.status_y + STATUS_H),
        "turn line 'Turn 2'": (MARGIN, lay.info_y, right, lay.info_y + INFO_H),
        "last move 'Last move'": (MARGIN, lay.last_move_y, right, lay.last_move_y + LAST_MOVE_H),
    }
    for what, box in lines.items():
        assert first_glyph_height(small, box, scale) >= READABLE_CAP, what


def test_names_and_counts_on_the_player_chips_are_readable_at_phone_width() -> None:
    img, v = mid_game()
    lay = table_layout(v, NAMES, title="Table #2", lang=ENGLISH)
    small, scale = phone(img)
    for box in lay.chips:
        parts = chip_parts(box)
        name = (parts.text_x, parts.name_y, parts.right - 130, parts.name_y + CHIP_NAME_SIZE + 6)
        counts = (parts.text_x, parts.counts_y - CHIP_COUNT_SIZE - 2, parts.right, parts.counts_y)
        assert first_glyph_height(small, name, scale) >= READABLE_CAP  # "Hal", "Bob"...
        assert first_glyph_height(small, counts, scale) >= READABLE_CAP  # "hand 5 ..."


def test_spot_letters_are_readable_at_phone_width() -> None:
    img, v = mid_game()
    lay = table_layout(v, NAMES, title="Table #2", lang=ENGLISH)
    small, scale = phone(img)
    for letter, pos in spot_labels(v).items():
        assert first_glyph_height(small, inner(lay.pyramid.pixel_box(pos), 0.2), scale) >= (
            READABLE_CAP
        ), letter


def test_the_tray_and_the_legend_are_readable_at_phone_width() -> None:
    img, v = mid_game()
    lay = table_layout(v, NAMES, title="Table #2", lang=ENGLISH)
    small, scale = phone(img)
    assert lay.tray_y is not None
    tray = (MARGIN, lay.tray_y, MARGIN + 240, lay.tray_y + MINI_H)  # "Out of the game:"
    assert first_glyph_height(small, tray, scale) >= READABLE_CAP
    word_x = MARGIN + MINI_W + 8  # the first legend word, "straw", right of its tile
    legend = (word_x, lay.legend_y, word_x + 80, lay.legend_y + LEGEND_H // 2)
    assert first_glyph_height(small, legend, scale) >= READABLE_X


def test_the_hand_picture_is_readable_at_phone_width() -> None:
    v = view(samples.jenny(), 0)
    img = decode(render_hand(v, "Hal", lang=ENGLISH))
    lay = hand_layout(v)
    small, scale = phone(img)
    slot = lay.slots[0]
    code = (slot[0], lay.code_y, slot[2], lay.code_y + 36)  # "Y1"
    assert first_glyph_height(small, code, scale) >= READABLE_CAP
    colour = (slot[0] + 20, lay.desc_y, slot[2], lay.desc_y + 28)  # "yellow": y descends
    assert first_glyph_height(small, colour, scale) >= READABLE_X
    pile = lay.pile_cards[0]
    assert first_glyph_height(small, inner(pile, 0.2), scale) >= READABLE_CAP  # the count


@pytest.mark.parametrize("after", [False, True], ids=["frames", "frames-ending-on-the-board"])
def test_the_captions_and_trays_of_the_animation_are_readable_at_phone_width(after: bool) -> None:
    before, events, game = samples.jenny_turn()
    data = render_mayhem(before, events, NAMES, after=view(game) if after else None, lang=ENGLISH)
    assert data is not None
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
    frame = frames[4]  # the collapse, its supports under Hal's pile
    small, scale = phone(frame)
    head = (MARGIN, MARGIN, frame.width - MARGIN, MARGIN + CAPTION_LINE_H)  # "Collapse!"
    detail = (MARGIN, MARGIN + CAPTION_LINE_H, frame.width - MARGIN, MARGIN + 2 * CAPTION_LINE_H)
    assert first_glyph_height(small, head, scale) >= READABLE_CAP
    assert first_glyph_height(small, detail, scale) >= READABLE_CAP  # "B6 and R30 ..."

"""Every player's remaining tiles at the end of a match, laid down: one job, for the pictures
of a match's end (:mod:`render.summary`).

Under each player's line ("Sam: 7 tiles left", a star for the winners), their hand and then their
pile (top first), tile by tile after the words "hand:" and "pile:", wrapping onto more lines as
the width runs out: every tile is shown. :func:`left_rows` places everything, :func:`draw_left`
draws it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from engine import View
from i18n import Language
from render import draw, fonts, layout, theme
from render.scene import crowned, player_name

LEFT_NAME_H: Final = 40
"""A player's line over their tiles left: seat, name, how many."""
LEFT_TILE: Final = (layout.MINI_W, layout.MINI_H)
"""The tiles' size: the legend's."""
SMALLER_TILES: Final = ((68, 38), (60, 34))
"""Smaller sizes, for a picture with little room (:func:`fitting_tile`)."""
TILE_GAP: Final = 6
"""Between two tiles of a line."""
LINE_GAP: Final = 8
"""Between two lines of tiles."""
LEFT_GAP: Final = 14
"""Between two players' tiles left."""
LEFT_WORD_GAP: Final = 10
"""Between "pile" and the tiles that follow it."""


@dataclass(frozen=True)
class TilesLeft:
    """One player's tiles when the match ended: in hand, and in the pile (top first)."""

    hand: tuple[str, ...]
    pile: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.hand) + len(self.pile)


@dataclass(frozen=True)
class LeftRow:
    """Where one player's tiles left go: their line, then the tiles, line after line."""

    seat: int
    top: int
    height: int
    tiles: tuple[tuple[str, int, int], ...]
    """``(tile, x, y)`` of each tile shown, the hand's first."""
    pile_word: tuple[int, int] | None
    """Where the word "pile" goes, before the pile's tiles (None: an empty pile)."""
    hand_word: tuple[int, int] | None
    """Where the word "hand" goes (None: an empty hand)."""


def left_rows(
    left: Sequence[TilesLeft], top: int, lang: Language, tile: tuple[int, int] = LEFT_TILE
) -> tuple[LeftRow, ...]:
    """Each player's tiles left under their name, the hand then the pile, ``tile`` pixels each,
    wrapping onto more lines as the width runs out (every tile is shown)."""
    step, line_h = tile[0] + TILE_GAP, tile[1] + LINE_GAP
    f = fonts.regular(layout.SMALL_SIZE)
    hand_w = fonts.length(hand_word(lang), f) + LEFT_WORD_GAP
    pile_w = fonts.length(pile_word(lang), f) + LEFT_WORD_GAP
    x0, right = layout.MARGIN, layout.CANVAS_W - layout.MARGIN
    rows = []
    y = top
    for seat, tiles in enumerate(left):
        line_y = y + LEFT_NAME_H
        x = x0
        placed: list[tuple[str, int, int]] = []
        words: dict[str, tuple[int, int]] = {}
        for part, width, kind in ((tiles.hand, hand_w, "hand"), (tiles.pile, pile_w, "pile")):
            if not part:
                continue
            if x > x0 and x + width + tile[0] > right:
                x, line_y = x0, line_y + line_h
            words[kind] = (x, line_y + tile[1] // 2)
            x += math.ceil(width)
            for t in part:
                if x + tile[0] > right:
                    x, line_y = x0 + math.ceil(width), line_y + line_h
                placed.append((t, x, line_y))
                x += step
            x += LEFT_WORD_GAP
        lines = (line_y - y - LEFT_NAME_H) // line_h + 1 if placed else 0
        height = LEFT_NAME_H + lines * line_h
        rows.append(LeftRow(seat, y, height, tuple(placed), words.get("pile"), words.get("hand")))
        y += height + LEFT_GAP
    return tuple(rows)


def left_height(
    left: Sequence[TilesLeft], lang: Language, tile: tuple[int, int] = LEFT_TILE
) -> int:
    """How tall the tiles left of every player are, drawn by :func:`draw_left`."""
    rows = left_rows(left, 0, lang, tile)
    return rows[-1].top + rows[-1].height if rows else 0


def fitting_tile(left: Sequence[TilesLeft], lang: Language, room: int) -> tuple[int, int]:
    """The largest tile size whose tiles left fit ``room`` pixels of height (the smallest when
    none does): a picture made for a board need not grow for the end of a big table."""
    sizes = (LEFT_TILE, *SMALLER_TILES)
    return next((t for t in sizes if left_height(left, lang, t) <= room), sizes[-1])


def hand_word(lang: Language) -> str:
    # TRANSLATORS: before a player's tiles in hand at the end of a match, in a picture.
    return lang.pgettext("tiles left", "hand:")


def pile_word(lang: Language) -> str:
    # TRANSLATORS: before a player's tiles in their pile at the end of a match, in a picture.
    return lang.pgettext("tiles left", "pile:")


def count_line(seat: int, tiles: TilesLeft, names: Sequence[str], lang: Language) -> str:
    """``"Sam: 7 tiles left"``, ``"Léa: no tile left"``."""
    name = player_name(names, seat, lang)
    if tiles.count:
        return lang.ngettext(
            "{player}: {count} tile left", "{player}: {count} tiles left", tiles.count
        ).format(player=name, count=tiles.count)
    return lang.gettext("{player}: no tile left").format(player=name)


def left_line(v: View, seat: int, tiles: TilesLeft, names: Sequence[str], lang: Language) -> str:
    """A player's line over their tiles left (:func:`count_line`); a star for the match's
    winners (a star and the word: never colour alone)."""
    said = count_line(seat, tiles, names, lang)
    return f"★ {said}" if seat in crowned(v) else said


def draw_left(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    top: int,
    v: View,
    left: Sequence[TilesLeft],
    names: Sequence[str],
    lang: Language,
    tile: tuple[int, int] = LEFT_TILE,
) -> None:
    """Every player's tiles left from ``top``, a player under another (see :func:`left_rows`)."""
    name_font = fonts.bold(layout.CHIP_NAME_SIZE)
    word_font = fonts.regular(layout.SMALL_SIZE)
    width = layout.CANVAS_W - 2 * layout.MARGIN
    won = crowned(v)
    for row in left_rows(left, top, lang, tile):
        box = (layout.MARGIN // 2, row.top, layout.CANVAS_W - layout.MARGIN // 2,
               row.top + row.height)  # fmt: skip
        on = row.seat in won
        d.rounded_rectangle(
            (box[0], box[1], box[2] - 1, box[3] - 1),
            radius=layout.CHIP_RADIUS,
            fill=theme.PANEL_ACTIVE if on else theme.PANEL,
            outline=theme.GOLD if on else None,
            width=layout.CHIP_LINE,
        )
        line = fonts.fit(left_line(v, row.seat, left[row.seat], names, lang), name_font, width)
        draw.text(
            d, (layout.MARGIN, row.top + 6), line, name_font, theme.GOLD if on else theme.TEXT
        )
        for word, at in ((hand_word(lang), row.hand_word), (pile_word(lang), row.pile_word)):
            if at is not None:
                draw.text(d, at, word, word_font, theme.TEXT_DIM, "lm")
        ts = draw.tile_set(*tile, lang=lang)
        for code, x, y in row.tiles:
            draw.paste_tile(img, ts, code, (x, y, x + tile[0], y + tile[1]))

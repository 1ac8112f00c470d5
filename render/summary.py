"""A played match told in pictures: its animated summary, and the picture of its end.

One job: draw moments of a match as what happened in them. The table picture of a moment asks
the next player to play (its headline, its lettered spots); a moment of a summary tells instead
what was just played: its title, the moment told in full (wrapped onto as many lines as it takes,
never cut), the turn line, the players' chips with no "to play", and the board with the tile
played ringed and the places tiles left marked. At the end of a match every player's remaining
tiles are shown, their hand and then their pile, as a board game ends with the hands laid down.

- :func:`render_summary`: the animation. Every frame has the same layout, made for all its
  moments (the widest pyramid, the longest account), so the ground stays put from frame to frame
  and no frame leaves a band empty; a moment that shows the tiles left (:attr:`Moment.left`)
  has them where the chips and the board are. A frame stays as long as its words take to read.
- :func:`render_end`: one picture of a match's last moment with the tiles left under the
  board (a replay's last step).

The words are the caller's (the title and the account, in the reader's language); the few words
the pictures add (the turn line, "hand", "pile", the legend) are in ``lang``. The tiles left are
laid down by :mod:`render.tilesleft`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from PIL import Image, ImageDraw

from engine import View
from i18n import Language
from render import draw, encode, fonts, layout, theme
from render.layout import Box, Layout
from render.scene import TableScene, info_line, table_scene, wrap
from render.table import draw_chip, draw_legend, draw_pyramid, out_of_game
from render.tilesleft import LEFT_TILE, TilesLeft, draw_left, fitting_tile, left_height

LOOK_MS: Final = 1500
"""Time to look at a frame's board, before reading its words."""
MS_PER_CHAR: Final = 60
"""Reading time per character of a frame's words: about 17 characters a second, the pace
subtitles are written for."""
LONGEST_MS: Final = 30_000
"""No frame stays longer than this."""
LAST_MS: Final = 4000
"""The last frame stays this much longer, before the animation starts again."""
LOOP_FOREVER: Final = 0
PYRAMID_MAX_H: Final = layout.FRAME_PYRAMID_MAX_H
"""The board's area of a summary is at most this tall (before the tiles left need more)."""
MAX_STORY_LINES: Final = 40
"""A moment's account wraps onto at most this many lines (far more than any turn needs)."""


@dataclass(frozen=True)
class Moment:
    """One moment of a match, as a summary or a replay tells it."""

    view: View
    """The public view just after it."""
    title: str
    """Where it is in the match ("Step 12 of 80"), in the reader's language."""
    story: str
    """What happened, in full (paragraphs separated by a newline)."""
    left: tuple[TilesLeft, ...] | None = None
    """Every player's tiles at the end, shown instead of the chips and the board (None: the
    chips and the board)."""


def story_lines(m: Moment) -> tuple[str, ...]:
    """The moment's account wrapped to the picture's width: every word of it, on as many lines
    as it takes."""
    f = fonts.regular(layout.INFO_SIZE)
    width = layout.CANVAS_W - 2 * layout.MARGIN
    lines: list[str] = []
    for paragraph in m.story.split("\n"):
        if paragraph.strip():
            lines += wrap(fonts.clean(paragraph.strip()), f, width, MAX_STORY_LINES)
    return tuple(lines)


def reading_ms(m: Moment) -> int:
    """How long a frame stays: a look at the board, then the time its words take to read."""
    words = len(m.title) + len(m.story)
    return min(LONGEST_MS, LOOK_MS + MS_PER_CHAR * words)


def recap_view(v: View) -> View:
    """``v`` with no decision pending: what a moment shows once it has happened (no spots to
    choose, no "to play", the turn just played)."""
    return replace(v, pending=None)


def _scene(m: Moment, names: Sequence[str], lang: Language) -> TableScene:
    return table_scene(recap_view(m.view), names, lang, viewer=None, told=False)


# --- one frame ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FrameLayout:
    """Where the board and the footer of a summary's frames go (one layout for every frame of
    a summary); the header above them is each frame's own (:func:`body_top`)."""

    width: int
    height: int
    pyramid: Layout
    """The board, standing on the ground."""
    ground: Box
    tray_y: int | None
    legend_y: int
    left_tile: tuple[int, int] = LEFT_TILE
    """The size of the tiles left (smaller when the board's frames leave less room)."""


def info_top(lines: int) -> int:
    """Top of the turn line, under the title and an account of ``lines`` lines."""
    return layout.MARGIN + layout.STATUS_H + lines * layout.LAST_MOVE_H


def body_top(lines: int) -> int:
    """Top of the chips, or of the tiles left, under a header with ``lines`` lines of account."""
    return info_top(lines) + layout.INFO_H + layout.LINE_GAP


def _chips_h(players: int) -> int:
    rows = math.ceil(players / layout.CHIP_COLUMNS.get(players, 2)) if players else 0
    return rows * (layout.CHIP_H + layout.CHIP_GAP)


def _footer(ground_y: int, tray: bool) -> tuple[Box, int | None, int, int]:
    ground = (layout.MARGIN, ground_y, layout.CANVAS_W - layout.MARGIN, ground_y + layout.GROUND_H)
    y = ground[3] + layout.FOOTER_GAP
    tray_y = None
    if tray:
        tray_y, y = y, y + layout.TRAY_H
    return ground, tray_y, y, y + layout.LEGEND_H + layout.MARGIN // 2


def _pyramid(positions: set[tuple[int, int]], bottom: int) -> Layout:
    """The board's layout for ``positions``, standing on ``bottom``."""
    width = layout.CANVAS_W - 2 * layout.MARGIN
    fit = Layout.fit(positions, left=layout.MARGIN, top=0, width=width, max_height=PYRAMID_MAX_H)
    return Layout.fit(
        positions, left=layout.MARGIN, top=bottom - fit.height, width=width,
        max_height=PYRAMID_MAX_H,
    )  # fmt: skip


def frame_layout(moments: Sequence[Moment], names: Sequence[str], *, lang: Language) -> FrameLayout:
    """The one layout of every frame of ``moments``: the ground low enough for the longest
    header over the chips and a board showing every position any moment shows, or over the
    tiles left, whichever is taller. A frame with a shorter account has more sky above the
    board, and nothing moves below it."""
    positions: set[tuple[int, int]] = set()
    for m in moments:
        if m.left is None:
            positions |= _scene(m, names, lang).positions()
    board = _pyramid(positions, 0)
    ground_y = 0
    for m in moments:
        if m.left is None:
            below = _chips_h(m.view.players) + layout.PYRAMID_PAD + board.height
            ground_y = max(ground_y, body_top(len(story_lines(m))) + below)
    tile = LEFT_TILE
    for m in moments:
        if m.left is not None:
            top = body_top(len(story_lines(m)))
            if ground_y:
                tile = fitting_tile(m.left, lang, ground_y - layout.LINE_GAP - top)
            ground_y = max(ground_y, top + left_height(m.left, lang, tile) + layout.LINE_GAP)
    tray = any(m.view.removed for m in moments)
    ground, tray_y, legend_y, height = _footer(ground_y, tray)
    return FrameLayout(
        layout.CANVAS_W, height, _pyramid(positions, ground_y), ground, tray_y, legend_y, tile
    )


def _header(d: ImageDraw.ImageDraw, m: Moment, lines: Sequence[str], lang: Language) -> None:
    """The title, the account and the turn line."""
    x = layout.MARGIN
    width = layout.CANVAS_W - 2 * layout.MARGIN
    f = fonts.bold(layout.STATUS_SIZE)
    gold = m.view.pending is None and m.view.winner is not None
    title = fonts.fit(fonts.clean(m.title), f, width)
    draw.text(d, (x, layout.MARGIN), title, f, theme.GOLD if gold else theme.TEXT)
    f = fonts.regular(layout.INFO_SIZE)
    for k, line in enumerate(lines):
        y = layout.MARGIN + layout.STATUS_H + k * layout.LAST_MOVE_H
        draw.text(d, (x, y), line, f, theme.TEXT)
    info = fonts.fit(info_line(recap_view(m.view), lang), f, width)
    draw.text(d, (x, info_top(len(lines))), info, f, theme.TEXT_DIM)


def _chips(d: ImageDraw.ImageDraw, top: int, v: View, names: Sequence[str], lang: Language) -> None:
    for i, box in enumerate(layout.chip_boxes(v.players, top)):
        draw_chip(d, box, i, recap_view(v), names, lang)


def _footer_draw(
    img: Image.Image, d: ImageDraw.ImageDraw, lay: FrameLayout, v: View, *, board: bool,
    lang: Language,
) -> None:  # fmt: skip
    if board:
        draw.ground(d, lay.ground)
    if lay.tray_y is not None and v.removed:
        draw.tray(img, d, lay.tray_y, out_of_game(lang), v.removed, lang=lang)
    draw_legend(img, lay.legend_y, lang)


def board_fits_under(m: Moment, lay: FrameLayout, names: Sequence[str], lang: Language) -> bool:
    """Whether the board of a tiles-left moment fits between the tiles left and the ground."""
    if m.left is None:
        return True
    scene = _scene(m, names, lang)
    if not scene.pyramid:
        return False
    bottom = body_top(len(story_lines(m))) + left_height(m.left, lang, lay.left_tile)
    top = min(lay.pyramid.cell(pos)[1] for pos in scene.positions())
    return bottom + layout.PYRAMID_PAD <= top


def frame_image(
    m: Moment, lay: FrameLayout, names: Sequence[str], *, lang: Language
) -> Image.Image:
    """One frame of a summary, drawn in ``lay``: its header, then the chips and the board, or
    every player's tiles left (over the board the match ended on, when it fits under them)."""
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    lines = story_lines(m)
    _header(d, m, lines, lang)
    top = body_top(len(lines))
    if m.left is not None:
        draw_left(img, d, top, m.view, m.left, names, lang, lay.left_tile)
    else:
        _chips(d, top, m.view, names, lang)
    board = board_fits_under(m, lay, names, lang)
    if board:
        draw_pyramid(img, d, lay.pyramid, _scene(m, names, lang), lang)
    _footer_draw(img, d, lay, m.view, board=board, lang=lang)
    return img


def summary_frames(
    moments: Sequence[Moment], names: Sequence[str], *, lang: Language
) -> list[Image.Image]:
    """The frames (RGB, one size) of ``moments``, in order."""
    if not moments:
        raise ValueError("a summary needs at least one moment")
    lay = frame_layout(moments, names, lang=lang)
    return [frame_image(m, lay, names, lang=lang) for m in moments]


def summary_durations(moments: Sequence[Moment]) -> list[int]:
    """How long each frame stays (:func:`reading_ms`), the last one :data:`LAST_MS` more."""
    durations = [reading_ms(m) for m in moments]
    durations[-1] += LAST_MS
    return durations


def render_summary(moments: Sequence[Moment], names: Sequence[str], *, lang: Language) -> bytes:
    """An animated GIF of ``moments`` in order, each frame for the time its words take to
    read; it repeats, as Discord plays a GIF inline."""
    frames = summary_frames(moments, names, lang=lang)
    return encode.gif(frames, summary_durations(moments), loop=LOOP_FOREVER)


# --- the end, as one picture ----------------------------------------------------------------------


def end_image(m: Moment, names: Sequence[str], *, lang: Language) -> Image.Image:
    """The last moment of a match as one picture: its title and account, the tiles every player
    had left (``m.left``, required), then the board as the last move left it."""
    if m.left is None:
        raise ValueError("the end of a match shows the tiles left")
    lines = story_lines(m)
    top = body_top(len(lines))
    scene = _scene(m, names, lang)
    board = _pyramid(scene.positions(), 0)
    ground_y = top + left_height(m.left, lang) + layout.PYRAMID_PAD + board.height
    ground, tray_y, legend_y, height = _footer(ground_y, bool(m.view.removed))
    lay = FrameLayout(
        layout.CANVAS_W, height, _pyramid(scene.positions(), ground_y), ground, tray_y, legend_y
    )
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    _header(d, m, lines, lang)
    draw_left(img, d, top, m.view, m.left, names, lang)
    draw_pyramid(img, d, lay.pyramid, scene, lang)
    _footer_draw(img, d, lay, m.view, board=True, lang=lang)
    return img


def render_end(m: Moment, names: Sequence[str], *, lang: Language) -> bytes:
    """PNG of :func:`end_image`."""
    return encode.png(end_image(m, names, lang=lang))

"""All the geometry of the pictures, in one place: where each position, header line and tray goes.

Positions follow RULES 2: ``(row, x)`` with row 0 at the bottom and ``x`` in half-tile steps, so a
tile at ``(r, x)`` sits centred over the gap between its supports ``(r-1, x-1)`` and ``(r-1, x+1)``.
A :class:`Layout` maps positions to pixel boxes (like python-qrcode's ``pixel_box``); its tile size
adapts to the pyramid's extent so that any pyramid fits :data:`CANVAS_W` pixels across.

Boxes are ``(x0, y0, x1, y1)`` with ``x1`` and ``y1`` exclusive, as :meth:`PIL.Image.Image.crop`
takes them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from engine import Pos

Box = tuple[int, int, int, int]

# --- the page -------------------------------------------------------------------------------------
CANVAS_W: Final = 960
"""Width of the table picture and the animation (Discord shows about 1,000 px well)."""
MARGIN: Final = 16
"""Space around everything."""
LINE_GAP: Final = 6

# --- the pyramid ----------------------------------------------------------------------------------
TILE_ASPECT: Final = 0.62
"""A tile's height over its width (tiles are bricks, wider than tall)."""
TILE_MAX_W: Final = 120
"""Tiles never get wider than this, however small the pyramid."""
TILE_MIN_W: Final = 12
"""Tiles never get narrower than this (reached only past 70 tiles in one row)."""
PYRAMID_MAX_H: Final = 600
"""The pyramid's area on the table picture is at most this tall."""
FRAME_PYRAMID_MAX_H: Final = 470
"""The pyramid's area in an animation frame is at most this tall."""
INSET_DIVISOR: Final = 40
"""The gap between two neighbouring blocks is ``2 * max(1, tile_w // INSET_DIVISOR)``."""
GROUND_H: Final = 8
"""The strip of sand under row 0."""
PYRAMID_PAD: Final = 14
"""Room above the pyramid for the highlight rings."""

# --- text ---------------------------------------------------------------------------------------
# Pictures are 960 px wide and phones show them about 400 px wide: every text is at least
# TEXT_MIN px, so that its capitals stay READABLE_CAP px tall there (DejaVu's capitals are 0.73
# of the font size; tests/render/test_phone.py measures the pixels).
TEXT_MIN: Final = 24
"""The smallest font size on any picture, in pixels at full size."""
PHONE_W: Final = 400
"""The width a phone shows a picture at, for the readability checks."""
READABLE_CAP: Final = 7
"""Capital letters are at least this many pixels tall once a picture is shown PHONE_W wide."""

# --- header ---------------------------------------------------------------------------------------
TITLE_SIZE: Final = TEXT_MIN
STATUS_SIZE: Final = 28
INFO_SIZE: Final = TEXT_MIN
TITLE_H: Final = 32
STATUS_H: Final = 40
INFO_H: Final = 34
CHIP_H: Final = 76
CHIP_GAP: Final = 8
CHIP_COLUMNS: Final = {1: 1, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
"""Player chips per header row, by number of players (two: the counts need the width)."""
CHIP_BADGE: Final = 44
"""Diameter of the seat number's disc in a chip."""
CHIP_PAD: Final = 12
CHIP_NAME_SIZE: Final = 26
CHIP_COUNT_SIZE: Final = TEXT_MIN
CHIP_BADGE_SIZE: Final = 26
"""Font size of the seat number."""
CHIP_RADIUS: Final = 8
CHIP_LINE: Final = 2
"""Width of the gold outline of the chip of the player who must decide."""
CHIP_TEXT_INSET: Final = 8
"""Pixels between a chip's top (bottom) edge and its name (counts)."""
LAST_MOVE_H: Final = 32
LAST_MOVE_LINES: Final = 7
"""The last move's lines take at most this many rows; a longer account shows its first lines
whole, then how many more it has (:func:`render.scene.fold`)."""

# --- footer ---------------------------------------------------------------------------------------
MINI_W: Final = 76
"""Width of the small tiles in trays and the legend."""
MINI_H: Final = 42
TRAY_H: Final = 52
LEGEND_ROWS: Final = 2
LEGEND_H: Final = LEGEND_ROWS * (MINI_H + 8)
FOOTER_GAP: Final = 10
SMALL_SIZE: Final = TEXT_MIN
TRAY_LABEL_SIZE: Final = 26
"""The label before a tray of tiles ("Out of the game:"): at TEXT_MIN its round capital read
6 px tall on a phone at most heights the tray can sit at (the last move's lines move it), just
under READABLE_CAP; two pixels more keep it readable wherever it sits."""

# --- hand -----------------------------------------------------------------------------------------
HAND_TILE_W: Final = 136
HAND_TILE_H: Final = 88
HAND_GAP: Final = 18
HAND_SLOTS: Final = 5
HAND_HEADER_H: Final = 52
HAND_LABEL_SIZE: Final = TEXT_MIN
"""The tile's name under it in a hand (bold), as its button names it."""
HAND_CODE_H: Final = 38
HAND_DESC_LINE_H: Final = 28
HAND_DESC_H: Final = 2 * HAND_DESC_LINE_H
"""Two lines under each tile: its colour, its material."""
HAND_PILE_W: Final = 170
PILE_CARDS: Final = 3
"""Tile backs drawn at most in the pile's stack."""
PILE_STEP: Final = 6
"""Offset between two tile backs of the stack."""
PILE_COUNT_SIZE: Final = 34
PILE_RADIUS: Final = 10

# --- animation ------------------------------------------------------------------------------------
CAPTION_SIZE: Final = 28
CAPTION_DETAIL_SIZE: Final = TEXT_MIN
CAPTION_LINE_H: Final = 36
CAPTION_LINES: Final = 3
"""A caption's headline, then its detail on at most two lines (a long list of tiles, or a
language whose words are longer than English's, wraps instead of being cut)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of a pyramid: every position's box for one tile size.

    Build it with :meth:`fit`. ``tile_w`` is even, so half-tile steps are whole pixels.
    """

    tile_w: int
    """Width of one position's cell (block plus gap), in pixels."""
    tile_h: int
    """Height of one row."""
    inset: int
    """Pixels between a cell's edge and its block (half the gap between neighbours)."""
    x_min: int
    """Leftmost half-tile step shown."""
    top_row: int
    """Highest row shown."""
    left: int
    """Pixel x of the left edge of a cell at ``x_min``."""
    top: int
    """Pixel y of the top edge of ``top_row``."""
    x_max: int
    """Rightmost half-tile step shown."""

    @classmethod
    def fit(
        cls,
        positions: Iterable[Pos],
        *,
        left: int,
        top: int,
        width: int,
        max_height: int,
    ) -> Layout:
        """The largest tiles (at most :data:`TILE_MAX_W`) that show every one of ``positions``
        within ``width`` x ``max_height`` pixels, centred across ``width`` from ``left``.

        With no positions it lays out the first spot, ``(0, 0)``.
        """
        pos = list(positions) or [(0, 0)]
        x_min = min(x for _, x in pos)
        x_max = max(x for _, x in pos)
        top_row = max(0, max(r for r, _ in pos))
        half_steps = x_max - x_min + 2
        by_width = width * 2 // half_steps
        by_height = math.floor(max_height / ((top_row + 1) * TILE_ASPECT))
        w = min(TILE_MAX_W, by_width, by_height)
        w = max(TILE_MIN_W, w - w % 2)
        h = int(w * TILE_ASPECT)
        used = half_steps * w // 2
        return cls(
            tile_w=w,
            tile_h=h,
            inset=max(1, w // INSET_DIVISOR),
            x_min=x_min,
            top_row=top_row,
            left=left + max(0, (width - used) // 2),
            top=top,
            x_max=x_max,
        )

    @property
    def width(self) -> int:
        """Pixels from the leftmost to the rightmost cell edge."""
        return (self.x_max - self.x_min + 2) * self.tile_w // 2

    @property
    def height(self) -> int:
        """Pixels from the top of the highest row to the bottom of row 0."""
        return (self.top_row + 1) * self.tile_h

    @property
    def bottom(self) -> int:
        """Pixel y of the bottom edge of row 0."""
        return self.top + self.height

    @property
    def block_size(self) -> tuple[int, int]:
        """Width and height of one tile's block."""
        return (self.tile_w - 2 * self.inset, self.tile_h - 2 * self.inset)

    def cell(self, pos: Pos) -> Box:
        """The whole cell of ``pos``: its block plus half the gap around it."""
        r, x = pos
        x0 = self.left + (x - self.x_min) * self.tile_w // 2
        y0 = self.top + (self.top_row - r) * self.tile_h
        return (x0, y0, x0 + self.tile_w, y0 + self.tile_h)

    def pixel_box(self, pos: Pos) -> Box:
        """The block drawn for a tile (or spot) at ``pos``.

        >>> lay = Layout.fit([(0, 0), (0, 2), (1, 1)], left=0, top=0, width=400, max_height=400)
        >>> lay.pixel_box((1, 1))[0] - lay.pixel_box((0, 0))[0] == lay.tile_w // 2
        True
        """
        x0, y0, x1, y1 = self.cell(pos)
        i = self.inset
        return (x0 + i, y0 + i, x1 - i, y1 - i)

    def centre(self, pos: Pos) -> tuple[int, int]:
        """The pixel at the middle of ``pos``'s block."""
        x0, y0, x1, y1 = self.pixel_box(pos)
        return ((x0 + x1) // 2, (y0 + y1) // 2)

    def between(self, a: Pos, b: Pos, t: float) -> Box:
        """A block ``t`` of the way from ``a`` to ``b`` (for a tile on the move)."""
        ax0, ay0, _, _ = self.pixel_box(a)
        bx0, by0, _, _ = self.pixel_box(b)
        bw, bh = self.block_size
        x0 = round(ax0 + (bx0 - ax0) * t)
        y0 = round(ay0 + (by0 - ay0) * t)
        return (x0, y0, x0 + bw, y0 + bh)

    def position_at(self, px: int, py: int) -> Pos | None:
        """The position whose block holds pixel ``(px, py)``, if any (for tests and tools)."""
        r = self.top_row - (py - self.top) // self.tile_h
        if r < 0 or py < self.top:
            return None
        for x in (
            self.x_min + 2 * ((px - self.left) // self.tile_w),
            self.x_min + 2 * ((px - self.left) // self.tile_w) + 1,
            self.x_min + 2 * ((px - self.left) // self.tile_w) - 1,
        ):
            if (r + x) % 2:
                continue
            x0, y0, x1, y1 = self.pixel_box((r, x))
            if x0 <= px < x1 and y0 <= py < y1:
                return (r, x)
        return None


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Where everything goes on the table picture."""

    width: int
    height: int
    title_y: int | None
    """Top of the title line, if there is a title."""
    status_y: int
    """Top of the status line (whose decision it is)."""
    info_y: int
    """Top of the line with the turn, round and options."""
    chips: tuple[Box, ...]
    """One box per player, in seat order."""
    last_move_y: int | None
    """Top of the lines that tell the last move (:data:`LAST_MOVE_H` apart), if there was one."""
    pyramid: Layout
    ground: Box
    """The sand under row 0."""
    tray_y: int | None
    """Top of the tray of tiles out of the game, if any are."""
    legend_y: int
    """Top of the legend of materials."""


@dataclass(frozen=True, slots=True)
class ChipParts:
    """Where the parts of one player's chip go."""

    badge: Box
    """The disc with the seat number."""
    text_x: int
    """Left edge of the name and the counts."""
    name_y: int
    """Top of the name."""
    counts_y: int
    """Bottom of the counts line."""
    tag_xy: tuple[int, int]
    """Top right corner of the tag (``to play``, ``winner``)."""
    right: int
    """Right limit of the texts."""


def chip_parts(box: Box) -> ChipParts:
    """The parts of the chip in ``box``."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    badge = (x0 + CHIP_PAD, cy - CHIP_BADGE // 2, x0 + CHIP_PAD + CHIP_BADGE, cy + CHIP_BADGE // 2)
    return ChipParts(
        badge=badge,
        text_x=badge[2] + CHIP_PAD,
        name_y=y0 + CHIP_TEXT_INSET,
        counts_y=y1 - CHIP_TEXT_INSET - 1,
        tag_xy=(x1 - CHIP_PAD, y0 + CHIP_PAD),
        right=x1 - CHIP_PAD,
    )


def chip_boxes(players: int, top: int) -> tuple[Box, ...]:
    """The players' chips, in rows of :data:`CHIP_COLUMNS`, from ``top``."""
    cols = CHIP_COLUMNS.get(players, 2)
    inner = CANVAS_W - 2 * MARGIN
    w = (inner - (cols - 1) * CHIP_GAP) // cols
    boxes = []
    for i in range(players):
        row, col = divmod(i, cols)
        x0 = MARGIN + col * (w + CHIP_GAP)
        y0 = top + row * (CHIP_H + CHIP_GAP)
        boxes.append((x0, y0, x0 + w, y0 + CHIP_H))
    return tuple(boxes)


def table_layout(
    players: int,
    positions: Iterable[Pos],
    *,
    title: bool,
    last_move: int,
    tray: bool,
) -> TableLayout:
    """The table picture's layout for ``players`` seats and a pyramid showing ``positions``
    (tiles, spots, landing places, ghosts). ``title`` and ``tray`` say whether those optional
    lines are drawn; ``last_move`` is how many lines tell the last move."""
    y = MARGIN
    title_y = None
    if title:
        title_y = y
        y += TITLE_H
    status_y = y
    y += STATUS_H
    info_y = y
    y += INFO_H + LINE_GAP
    chips = chip_boxes(players, y)
    rows = math.ceil(players / CHIP_COLUMNS.get(players, 2)) if players else 0
    y += rows * (CHIP_H + CHIP_GAP)
    last_move_y = None
    if last_move:
        last_move_y = y
        y += last_move * LAST_MOVE_H
    y += PYRAMID_PAD
    pyramid = Layout.fit(
        positions,
        left=MARGIN,
        top=y,
        width=CANVAS_W - 2 * MARGIN,
        max_height=PYRAMID_MAX_H,
    )
    ground = (MARGIN, pyramid.bottom, CANVAS_W - MARGIN, pyramid.bottom + GROUND_H)
    y = ground[3] + FOOTER_GAP
    tray_y = None
    if tray:
        tray_y = y
        y += TRAY_H
    legend_y = y
    y += LEGEND_H + MARGIN // 2
    return TableLayout(
        width=CANVAS_W,
        height=y,
        title_y=title_y,
        status_y=status_y,
        info_y=info_y,
        chips=chips,
        last_move_y=last_move_y,
        pyramid=pyramid,
        ground=ground,
        tray_y=tray_y,
        legend_y=legend_y,
    )


@dataclass(frozen=True, slots=True)
class HandLayout:
    """Where everything goes on a hand picture."""

    width: int
    height: int
    title_y: int
    slots: tuple[Box, ...]
    """The tile blocks, left to right, in the hand's order."""
    code_y: int
    """Top of the tile codes under the blocks."""
    desc_y: int
    """Top of the short descriptions under the codes."""
    pile: Box
    """The pile's box, right of the tiles."""
    pile_cards: tuple[Box, ...]
    """The tile backs of the pile's stack, the top one first."""


def hand_layout(slots: int = HAND_SLOTS) -> HandLayout:
    """The hand picture: ``slots`` big tiles in a row (at least five places), the pile beside.

    Tiles shrink only if a hand ever had more than five tiles, so the picture stays within
    :data:`CANVAS_W`.
    """
    n = max(HAND_SLOTS, slots)
    room = CANVAS_W - 2 * MARGIN - HAND_PILE_W - HAND_GAP
    tile_w = min(HAND_TILE_W, room // n - HAND_GAP)
    tile_h = min(HAND_TILE_H, round(tile_w * HAND_TILE_H / HAND_TILE_W))
    top = MARGIN + HAND_HEADER_H
    boxes = []
    for i in range(n):
        x0 = MARGIN + i * (tile_w + HAND_GAP)
        boxes.append((x0, top, x0 + tile_w, top + tile_h))
    pile_x = MARGIN + n * (tile_w + HAND_GAP) + HAND_GAP
    code_y = top + tile_h + LINE_GAP
    desc_y = code_y + HAND_CODE_H
    height = desc_y + HAND_DESC_H + MARGIN
    card_w = HAND_PILE_W - (PILE_CARDS - 1) * PILE_STEP - HAND_GAP
    card_h = tile_h - (PILE_CARDS - 1) * PILE_STEP
    cards = tuple(
        (
            pile_x + k * PILE_STEP,
            top + k * PILE_STEP,
            pile_x + k * PILE_STEP + card_w,
            top + k * PILE_STEP + card_h,
        )
        for k in range(PILE_CARDS)
    )
    return HandLayout(
        width=pile_x + HAND_PILE_W + MARGIN,
        height=height,
        title_y=MARGIN,
        slots=tuple(boxes),
        code_y=code_y,
        desc_y=desc_y,
        pile=(pile_x, top, pile_x + HAND_PILE_W, desc_y + HAND_DESC_H),
        pile_cards=cards,
    )


@dataclass(frozen=True, slots=True)
class FrameLayout:
    """Where everything goes on a frame of the animation."""

    width: int
    height: int
    caption_y: int
    """Top of the caption (:data:`CAPTION_LINES` lines)."""
    pyramid: Layout
    ground: Box
    trays_y: int
    """Top of the trays: tiles gone under piles, tiles out of the game."""


def frame_layout(positions: Iterable[Pos], trays: int) -> FrameLayout:
    """An animation frame showing ``positions`` over the turn, with ``trays`` tray rows."""
    y = MARGIN
    caption_y = y
    y += CAPTION_LINES * CAPTION_LINE_H + PYRAMID_PAD
    pyramid = Layout.fit(
        positions,
        left=MARGIN,
        top=y,
        width=CANVAS_W - 2 * MARGIN,
        max_height=FRAME_PYRAMID_MAX_H,
    )
    ground = (MARGIN, pyramid.bottom, CANVAS_W - MARGIN, pyramid.bottom + GROUND_H)
    trays_y = ground[3] + FOOTER_GAP
    height = trays_y + trays * TRAY_H + MARGIN // 2
    return FrameLayout(
        width=CANVAS_W,
        height=height,
        caption_y=caption_y,
        pyramid=pyramid,
        ground=ground,
        trays_y=trays_y,
    )


# --- the turn screen ------------------------------------------------------------------------------
SCREEN_PYRAMID_MAX_H: Final = 520
"""The pyramid's area on a turn screen is at most this tall (the hand needs room below it)."""
SCREEN_HAND_HEAD_H: Final = 44
"""The line that opens the hand: "Your hand" and the pile's size."""
SCREEN_TILE_W: Final = 168
"""The hand's tiles on a turn screen are at most this wide (they have the whole width)."""
SCREEN_HAND_GAP_MIN: Final = HAND_GAP
"""The least space between two tiles of the hand on a turn screen."""
SCREEN_LABEL_LINES: Final = 3
"""Lines under each tile of the hand: its name (one or two lines) and its material."""


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """Where everything goes on a turn screen: the table's header and pyramid, then the hand."""

    width: int
    height: int
    title_y: int | None
    status_y: int
    info_y: int
    chips: tuple[Box, ...]
    last_move_y: int | None
    """Top of the last move's lines (:data:`LAST_MOVE_H` apart), if there was one."""
    pyramid: Layout
    ground: Box
    tray_y: int | None
    """Top of the tray of tiles out of the game, if any are."""
    hand_head_y: int
    """Top of the line that opens the hand."""
    slots: tuple[Box, ...]
    """The hand's tile blocks, left to right, in the hand's order (five places at least)."""
    label_y: int
    """Top of the names under the hand's tiles."""


def screen_layout(
    players: int,
    positions: Iterable[Pos],
    *,
    title: bool,
    last_move: int,
    tray: bool,
    hand_slots: int,
) -> ScreenLayout:
    """A turn screen for ``players`` seats, a pyramid showing ``positions`` and a hand of
    ``hand_slots`` places (at least :data:`HAND_SLOTS`), spread across the whole width."""
    y = MARGIN
    title_y = None
    if title:
        title_y = y
        y += TITLE_H
    status_y = y
    y += STATUS_H
    info_y = y
    y += INFO_H + LINE_GAP
    chips = chip_boxes(players, y)
    rows = math.ceil(players / CHIP_COLUMNS.get(players, 2)) if players else 0
    y += rows * (CHIP_H + CHIP_GAP)
    last_move_y = None
    if last_move:
        last_move_y = y
        y += last_move * LAST_MOVE_H
    y += PYRAMID_PAD
    inner = CANVAS_W - 2 * MARGIN
    pyramid = Layout.fit(
        positions, left=MARGIN, top=y, width=inner, max_height=SCREEN_PYRAMID_MAX_H
    )
    ground = (MARGIN, pyramid.bottom, CANVAS_W - MARGIN, pyramid.bottom + GROUND_H)
    y = ground[3] + FOOTER_GAP
    tray_y = None
    if tray:
        tray_y = y
        y += TRAY_H
    hand_head_y = y + FOOTER_GAP
    y = hand_head_y + SCREEN_HAND_HEAD_H
    n = max(HAND_SLOTS, hand_slots)
    tile_w = min(SCREEN_TILE_W, (inner - (n - 1) * SCREEN_HAND_GAP_MIN) // n)
    tile_h = round(tile_w * HAND_TILE_H / HAND_TILE_W)
    gap = (inner - n * tile_w) // (n - 1) if n > 1 else 0
    slots = tuple(
        (MARGIN + i * (tile_w + gap), y, MARGIN + i * (tile_w + gap) + tile_w, y + tile_h)
        for i in range(n)
    )
    label_y = y + tile_h + LINE_GAP
    height = label_y + SCREEN_LABEL_LINES * HAND_DESC_LINE_H + MARGIN
    return ScreenLayout(
        width=CANVAS_W,
        height=height,
        title_y=title_y,
        status_y=status_y,
        info_y=info_y,
        chips=chips,
        last_move_y=last_move_y,
        pyramid=pyramid,
        ground=ground,
        tray_y=tray_y,
        hand_head_y=hand_head_y,
        slots=slots,
        label_y=label_y,
    )

"""Drawing: tile faces (made once per size and cached), marks, and the pyramid itself.

A tile's face shows its colour as fill, its weight as a large number, its colour's letter (in
the reader's language, :func:`render.labels.colour_letters`) and the colour's shape (circle,
triangle, square, diamond) in a badge (colour is never the only signal), and its material as a
pattern: diagonal stripes for straw, wavy grain for wood, bricks for stone, a flame for coals
and blowtorches (over a lump of coal or a torch's nozzle), the four colours around a grey disc
for the millstone.

Faces are drawn at twice their size and scaled down (smooth edges), once per tile, block size
and set of colour letters when first needed, and kept in a small cache guarded by locks;
pictures paste them.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from PIL import Image, ImageDraw

from engine import Pos
from engine.tiles import BLOWTORCH, COAL, MATERIAL, MILLSTONE_CODE, STONE, STRAW, TILE_SET, WOOD
from i18n import Language
from render import fonts, layout, theme
from render.labels import ColourLetters, colour_letters
from render.layout import Box, Layout
from render.theme import RGB

SUPERSAMPLE: Final = 2
"""Faces are drawn this many times larger, then scaled down."""
COMPACT_W: Final = 50
"""Blocks narrower than this show the code (``Y30``, French ``J30``) instead of a badge and a
large number."""
FACE_CACHE_SIZES: Final = 24
"""How many block sizes (each with one language's letters) keep their faces cached."""
NUMBER_HEIGHT: Final = 0.56
"""The weight's font size, as a share of the block's height."""
NUMBER_WIDTH: Final = 0.56
"""The weight never takes more than this share of the block's width."""
BADGE_SIZE: Final = 0.27
"""The colour letter's font size, as a share of the block's height."""
SHAPE_SIZE: Final = 0.8
"""The colour's shape beside its letter, as a share of the letter's font size."""
MILL_QUADRANTS: Final = ("Y", "R", "B", "G")
"""The millstone's colours: top left, top right, bottom left, bottom right."""
MILL_DISC: Final = (0.34, 0.45)
"""The millstone's grey disc: half its width and height, as shares of the block's."""


class TileSet:
    """The tile faces for one block size and one set of colour letters, drawn on first use and
    kept, and the mask that rounds their corners. Safe to share between threads: faces are added
    under a lock and never changed once made."""

    def __init__(self, width: int, height: int, letters: ColourLetters) -> None:
        self.size = (width, height)
        self.letters = letters
        self.mask = _mask(width, height)
        self._faces: dict[str, Image.Image] = {}
        self._lock = threading.Lock()

    def face(self, tile: str) -> Image.Image:
        """The face of ``tile``; an unknown code gets a plain grey face with its text."""
        found = self._faces.get(tile)
        if found is not None:
            return found
        # Drawn outside the lock: two threads may draw the same face, which is harmless (the
        # result is the same) and keeps one drawing from holding up every other picture.
        made = _face(tile, *self.size, self.letters)
        if tile not in TILE_SET:
            return made
        with self._lock:
            return self._faces.setdefault(tile, made)


_cache: OrderedDict[tuple[int, int, ColourLetters], TileSet] = OrderedDict()
_cache_lock = threading.Lock()


def tile_set(width: int, height: int, *, lang: Language) -> TileSet:
    """The faces of the tiles as ``width`` x ``height`` blocks, with the colours' letters of
    ``lang`` (cached per size and letters)."""
    key = (max(4, width), max(4, height), colour_letters(lang))
    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = TileSet(*key)
            while len(_cache) > FACE_CACHE_SIZES:
                _cache.popitem(last=False)
        else:
            _cache.move_to_end(key)
        return found


def _radius(w: int, h: int) -> int:
    return max(2, min(w, h) // 7)


def _mask(w: int, h: int) -> Image.Image:
    s = SUPERSAMPLE
    big = Image.new("L", (w * s, h * s), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=_radius(w * s, h * s), fill=255
    )
    return big.resize((w, h), Image.Resampling.BOX)


def _face(tile: str, w: int, h: int, letters: ColourLetters) -> Image.Image:
    """Draw one tile's face at ``SUPERSAMPLE`` times the size, then scale it down; its colour
    is named by its letter in ``letters``."""
    s = SUPERSAMPLE
    W, H = w * s, h * s
    material = MATERIAL.get(tile, "")
    colour = tile[:1]
    fill = theme.TILE_FILL.get(colour, theme.MILL_GREY)
    im = Image.new("RGB", (W, H), fill)
    d = ImageDraw.Draw(im)
    line = max(2, W // 45)
    if tile == MILLSTONE_CODE:
        _millstone(d, W, H, line)
        fill = theme.MILL_GREY
    elif material == STRAW:
        _straw(d, W, H, fill)
    elif material == WOOD:
        _wood(d, W, H, fill)
    elif material == STONE:
        _bricks(d, W, H, fill, line)
    compact = w < COMPACT_W
    icon_room = 0
    if material in (COAL, BLOWTORCH):
        icon_room = _incendiary(d, W, H, material == COAL, compact)
    border = max(2, W // 40) + (s if material == STONE else 0)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=_radius(W, H), outline=theme.INK, width=border)
    halo = theme.light(fill)
    if compact or tile not in MATERIAL:
        kind = theme.TILE_SHAPE.get(colour)
        left = 0
        if kind and tile in MATERIAL:
            mark = H * 0.34
            pad = H * 0.12
            shape(d, kind, (pad, (H - mark) / 2, pad + mark, (H + mark) / 2), theme.INK)
            left = int(pad + mark)
        code = letters.code(tile) if tile in MATERIAL else tile
        _centred(d, code, (left, 0, W - icon_room, H), 0.9, 0.62, halo)
    else:
        badge_right = _badge(d, colour, letters[colour], H, halo)
        number_box = (badge_right, 0, W - icon_room, H)
        if tile == MILLSTONE_CODE:
            half = int(W * MILL_DISC[0])
            number_box = (W // 2 - half, 0, W // 2 + half, H)
        share = min(NUMBER_WIDTH * W, 0.8 * (number_box[2] - number_box[0]))
        _centred(
            d,
            tile[1:],
            number_box,
            share / max(1, number_box[2] - number_box[0]),
            NUMBER_HEIGHT,
            halo,
        )
    return im.resize((w, h), Image.Resampling.BOX)


def _centred(
    d: ImageDraw.ImageDraw, text: str, box: Box, max_w: float, max_h: float, halo: RGB
) -> None:
    """``text`` in the number font, as large as fits ``max_w`` x ``max_h`` of ``box``, centred."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    size = max(6, int(bh * max_h))
    f = fonts.numbers(size)
    width = f.getlength(text)
    limit = bw * min(1.0, max_w)
    if width > limit:
        size = max(6, int(size * limit / width))
        f = fonts.numbers(size)
    stroke = max(1, size // 11)
    d.text(
        ((x0 + x1) / 2, (y0 + y1) / 2),
        text,
        font=f,
        fill=theme.INK,
        anchor="mm",
        stroke_width=stroke,
        stroke_fill=halo,
    )


def _badge(d: ImageDraw.ImageDraw, colour: str, letter: str, H: int, halo: RGB) -> int:
    """The colour's letter (as the reader writes it) and the colour's shape in a light badge,
    top left; returns the badge's right edge."""
    size = max(8, int(H * BADGE_SIZE))
    f = fonts.bold(size)
    pad = max(2, size // 5)
    x0 = y0 = max(3, H // 12)
    tw = int(f.getlength(letter))
    kind = theme.TILE_SHAPE.get(colour)
    mark = int(size * SHAPE_SIZE) if kind else 0
    box = (x0, y0, x0 + tw + 2 * pad + (mark + pad if kind else 0), y0 + size + pad)
    d.rounded_rectangle(box, radius=pad, fill=halo, outline=theme.INK, width=max(1, H // 60))
    cy = (box[1] + box[3]) / 2
    d.text((x0 + pad + tw / 2, cy), letter, font=f, fill=theme.INK, anchor="mm")
    if kind:
        left = x0 + 2 * pad + tw
        shape(d, kind, (left, cy - mark / 2, left + mark, cy + mark / 2), theme.INK)
    return box[2]


def shape(
    d: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], c: RGB
) -> None:
    """A colour's shape (:data:`render.theme.TILE_SHAPE`) filling ``box``: circle, triangle
    (point up), square or diamond."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == "circle":
        d.ellipse(box, fill=c)
    elif kind == "triangle":
        d.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=c)
    elif kind == "square":
        inset = (x1 - x0) * 0.08
        d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=c)
    elif kind == "diamond":
        d.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=c)


def _straw(d: ImageDraw.ImageDraw, W: int, H: int, fill: RGB) -> None:
    step = max(8, W // 9)
    width = max(2, W // 36)
    shade = theme.light(fill)
    for k in range(-H, W + H, step):
        d.line([(k, H), (k + H, 0)], fill=shade, width=width)


def _wood(d: ImageDraw.ImageDraw, W: int, H: int, fill: RGB) -> None:
    shade = theme.dark(fill)
    width = max(2, H // 28)
    amp = H / 22
    for i, fy in enumerate((0.17, 0.39, 0.61, 0.83)):
        pts = [
            (x, fy * H + amp * math.sin(x / W * 2 * math.pi * 1.5 + i * 1.7))
            for x in range(0, W + 4, 4)
        ]
        d.line(pts, fill=shade, width=width, joint="curve")
    kx, ky, kr = W * 0.82, H * 0.5, H / 11
    d.ellipse((kx - 1.6 * kr, ky - kr, kx + 1.6 * kr, ky + kr), outline=shade, width=width)


def _bricks(d: ImageDraw.ImageDraw, W: int, H: int, fill: RGB, line: int) -> None:
    shade = theme.dark(fill)
    rows = 3
    for i in range(1, rows):
        y = H * i // rows
        d.line([(0, y), (W, y)], fill=shade, width=line)
    for i in range(rows):
        y0, y1 = H * i // rows, H * (i + 1) // rows
        offset = W / 6 if i % 2 else 0.0
        x = offset + W / 3
        while x < W:
            d.line([(x, y0), (x, y1)], fill=shade, width=line)
            x += W / 3


def _millstone(d: ImageDraw.ImageDraw, W: int, H: int, line: int) -> None:
    for i, colour in enumerate(MILL_QUADRANTS):
        col, row = i % 2, i // 2
        d.rectangle(
            (col * W // 2, row * H // 2, (col + 1) * W // 2, (row + 1) * H // 2),
            fill=theme.TILE_FILL[colour],
        )
    cx, cy = W / 2, H / 2
    rx, ry = W * MILL_DISC[0], H * MILL_DISC[1]
    d.ellipse(
        (cx - rx, cy - ry, cx + rx, cy + ry), fill=theme.MILL_GREY, outline=theme.INK, width=line
    )
    d.ellipse(
        (cx - rx * 0.8, cy - ry * 0.8, cx + rx * 0.8, cy + ry * 0.8),
        outline=theme.dark(theme.MILL_GREY),
        width=max(1, line // 2),
    )


def flame(d: ImageDraw.ImageDraw, cx: float, base: float, height: float) -> None:
    """A flame (the incendiaries' mark) standing on ``base`` at ``cx``, ``height`` tall."""
    w = height * 0.62
    _teardrop(d, cx, base, height, w, theme.FLAME_OUTER)
    _teardrop(d, cx, base - height * 0.06, height * 0.58, w * 0.55, theme.FLAME_INNER)


def _teardrop(d: ImageDraw.ImageDraw, cx: float, base: float, h: float, w: float, c: RGB) -> None:
    r = w / 2
    d.ellipse((cx - r, base - w, cx + r, base), fill=c)
    tip = (cx + r * 0.25, base - h)
    d.polygon([(cx - r, base - r), tip, (cx + r, base - r * 1.1)], fill=c)


def _incendiary(d: ImageDraw.ImageDraw, W: int, H: int, coal: bool, compact: bool) -> int:
    """A flame over a lump of coal or a torch's nozzle at the right; returns the width used."""
    room = int(W * (0.3 if compact else 0.36))
    cx = W - room / 2 - W * 0.03
    foot = H * 0.84
    if coal:
        lump = [
            (cx - room * 0.34, foot),
            (cx - room * 0.28, foot - H * 0.14),
            (cx - room * 0.05, foot - H * 0.2),
            (cx + room * 0.26, foot - H * 0.15),
            (cx + room * 0.34, foot),
        ]
        d.polygon(lump, fill=theme.COAL_BLACK)
        top = foot - H * 0.16
    else:
        nw = room * 0.22
        d.rectangle(
            (cx - nw, foot - H * 0.24, cx + nw, foot),
            fill=theme.NOZZLE,
            outline=theme.INK,
            width=max(1, W // 90),
        )
        d.rectangle(
            (cx - nw * 1.8, foot - H * 0.06, cx + nw * 1.8, foot),
            fill=theme.NOZZLE,
            outline=theme.INK,
            width=max(1, W // 90),
        )
        top = foot - H * 0.24
    flame(d, cx, top + H * 0.04, H * 0.56)
    return room


# --- marks on the table ---------------------------------------------------------------------------


def grow(box: Box, by: int) -> Box:
    """``box`` grown by ``by`` pixels on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def paste_tile(img: Image.Image, tiles: TileSet, tile: str, box: Box) -> None:
    """Paste ``tile``'s face with its top-left corner at ``box``'s."""
    img.paste(tiles.face(tile), (box[0], box[1]), tiles.mask)


def ring(d: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int, gap: int = 1) -> None:
    """A rounded ring ``width`` thick around ``box``, ``gap`` pixels away (never over it)."""
    x0, y0, x1, y1 = grow(box, gap + width)
    d.rounded_rectangle(
        (x0, y0, x1 - 1, y1 - 1),
        radius=_radius(x1 - x0, y1 - y0) + gap,
        outline=colour,
        width=width,
    )


def dashed_box(d: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int, dash: int) -> None:
    """A dashed rectangle just inside ``box``."""
    x0, y0, x1, y1 = box[0], box[1], box[2] - 1, box[3] - 1
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length == 0:
            continue
        n = max(1, int(length // (2 * dash)))
        seg = length / (2 * n - 1)
        for i in range(0, 2 * n - 1, 2):
            t0, t1 = i * seg / length, min(1.0, (i + 1) * seg / length)
            d.line(
                [
                    (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                    (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
                ],
                fill=colour,
                width=width,
            )


def slot(d: ImageDraw.ImageDraw, box: Box, text: str, line: RGB, text_colour: RGB) -> None:
    """An empty, outlined block with a label: a spot (``A``) or a landing place (``L``)."""
    x0, y0, x1, y1 = box
    bh = y1 - y0
    d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=_radius(x1 - x0, bh), fill=theme.SPOT_FILL)
    dashed_box(d, box, line, max(2, bh // 22), max(4, bh // 7))
    f = fonts.bold(max(8, int(bh * (0.62 if len(text) == 1 else 0.46))))
    d.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=f, fill=text_colour, anchor="mm")


def landing(d: ImageDraw.ImageDraw, box: Box, side: int) -> None:
    """Where a falling tile may land: an outlined block with a drawn arrow pointing left
    (``side`` -1) or right (1). An arrow, not a letter: ``R`` is also red's letter."""
    slot(d, box, "", theme.FALL_RING, theme.TEXT)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cy = (y0 + y1) / 2
    tail, tip = x0 + w * 0.72, x0 + w * 0.26
    if side > 0:
        tail, tip = x0 + w * 0.28, x0 + w * 0.74
    arrow(d, (tail, cy), (tip, cy), theme.TEXT, max(3, h // 9))


def ghost(d: ImageDraw.ImageDraw, box: Box) -> None:
    """Where a tile left from: a faint dashed outline."""
    bh = box[3] - box[1]
    dashed_box(d, box, theme.GHOST_LINE, max(1, bh // 30), max(3, bh // 9))


def arrow(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: RGB, width: int
) -> None:
    """A straight arrow from ``a`` to ``b``."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = width * 3.2
    shaft_end = (b[0] - math.cos(ang) * head * 0.8, b[1] - math.sin(ang) * head * 0.8)
    d.line([a, shaft_end], fill=colour, width=width)
    left = (b[0] - head * math.cos(ang - 0.45), b[1] - head * math.sin(ang - 0.45))
    right = (b[0] - head * math.cos(ang + 0.45), b[1] - head * math.sin(ang + 0.45))
    d.polygon([b, left, right], fill=colour)


def cross(d: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """A bold X over ``box`` (a support giving way), outlined in white to stand out."""
    x0, y0, x1, y1 = box
    w = max(3, (y1 - y0) // 8)
    m = (y1 - y0) // 6
    for pts in (((x0 + m, y0 + m), (x1 - m, y1 - m)), ((x1 - m, y0 + m), (x0 + m, y1 - m))):
        d.line(pts, fill=theme.WHITE, width=w + 4)
    for pts in (((x0 + m, y0 + m), (x1 - m, y1 - m)), ((x1 - m, y0 + m), (x0 + m, y1 - m))):
        d.line(pts, fill=colour, width=w)


def burst(d: ImageDraw.ImageDraw, box: Box) -> None:
    """An explosion's star over ``box``."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = max(box[2] - box[0], box[3] - box[1]) * 0.62
    for colour, scale in ((theme.FLAME_OUTER, 1.0), (theme.FLAME_INNER, 0.6)):
        pts = []
        for k in range(24):
            rad = r * scale * (1.0 if k % 2 == 0 else 0.5)
            ang = math.pi * k / 12
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang) * 0.8))
        d.polygon(pts, fill=colour, outline=theme.INK)


def fire(d: ImageDraw.ImageDraw, box: Box) -> None:
    """Flames over a burning tile."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    h = y1 - y0
    for fx, fh in ((0.25, 0.8), (0.5, 1.15), (0.75, 0.85)):
        flame(d, x0 + w * fx, y1 - h * 0.08, h * fh)


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    f: fonts.Font,
    colour: RGB,
    anchor: str = "la",
) -> None:
    """Draw ``s`` (already cleaned) at ``xy``, in ``f`` or the fallback font that has each
    character."""
    fonts.draw(d, xy, s, f, colour, anchor)


def pyramid(
    img: Image.Image,
    lay: Layout,
    tiles: Mapping[Pos, str],
    *,
    skip: Iterable[Pos] = (),
    lang: Language,
) -> TileSet:
    """Paste every tile of ``tiles`` (but those at ``skip``) in its place, each with its
    colour's letter in ``lang``; returns the faces."""
    ts = tile_set(*lay.block_size, lang=lang)
    hidden = set(skip)
    for pos, tile in tiles.items():
        if pos not in hidden:
            paste_tile(img, ts, tile, lay.pixel_box(pos))
    return ts


def ground(d: ImageDraw.ImageDraw, box: Box) -> None:
    """The sand the pyramid stands on."""
    d.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=theme.GROUND)


def mini_row(
    img: Image.Image,
    x: int,
    y: int,
    tiles: Iterable[str],
    size: tuple[int, int],
    right: int,
    *,
    lang: Language,
) -> int:
    """Small tiles side by side from ``(x, y)``, stopping before ``right``; returns x reached.
    Each shows its colour's letter in ``lang``."""
    ts = tile_set(*size, lang=lang)
    step = size[0] + 4
    for t in tiles:
        if x + size[0] > right:
            break
        paste_tile(img, ts, t, (x, y, x + size[0], y + size[1]))
        x += step
    return x


def tray(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    y: int,
    label: str,
    tiles: Sequence[str],
    *,
    lang: Language,
) -> None:
    """A row of small tiles after ``label`` (both in ``lang``); ``+N`` when they do not all
    fit."""
    f = fonts.regular(layout.TRAY_LABEL_SIZE)
    x = layout.MARGIN
    cy = y + layout.MINI_H // 2
    text(d, (x, cy), label, f, theme.TEXT_DIM, "lm")
    x += int(f.getlength(label)) + 10
    right = layout.CANVAS_W - layout.MARGIN - 40
    step = layout.MINI_W + 4
    room = max(0, (right - x) // step)
    shown = list(tiles) if len(tiles) <= room else list(tiles[: max(0, room - 1)])
    x = mini_row(img, x, y, shown, (layout.MINI_W, layout.MINI_H), right, lang=lang)
    if len(shown) < len(tiles):
        text(
            d,
            (x + 4, cy),
            f"+{len(tiles) - len(shown)}",
            fonts.bold(layout.TRAY_LABEL_SIZE),
            theme.TEXT,
            "lm",
        )

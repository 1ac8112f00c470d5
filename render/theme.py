"""Colours, and the fixed palette every picture is encoded with.

Pictures are drawn in RGB and mapped onto one fixed palette of at most 256 colours
(:data:`PALETTE`): the base colours below exactly, plus blends of the pairs that meet at
anti-aliased edges (text on a tile, a tile's edge on the table). A fixed palette makes PNG
encoding fast and small, lets every GIF frame share one colour table, and keeps rendering
deterministic.
"""

from __future__ import annotations

from typing import Final

from PIL import Image

RGB = tuple[int, int, int]

# --- the table -----------------------------------------------------------------------------------
BG: Final[RGB] = (43, 45, 50)
"""Background of every picture (dark, like Discord's dark theme; fine on the light one)."""
PANEL: Final[RGB] = (58, 61, 68)
"""Player chips, trays."""
PANEL_ACTIVE: Final[RGB] = (84, 76, 46)
"""The chip of the player whose turn it is."""
GROUND: Final[RGB] = (110, 92, 66)
"""The strip of sand the pyramid stands on."""
TEXT: Final[RGB] = (236, 237, 240)
TEXT_DIM: Final[RGB] = (158, 163, 172)
GOLD: Final[RGB] = (255, 204, 64)
"""Whose turn it is; the winner."""
INK: Final[RGB] = (22, 22, 26)
"""Text on tiles and tile outlines."""
WHITE: Final[RGB] = (255, 255, 255)

SPOT_FILL: Final[RGB] = (62, 66, 76)
SPOT_LINE: Final[RGB] = (226, 230, 238)
"""A spot the next tile may go to: outlined, with its letter."""
GHOST_LINE: Final[RGB] = (88, 92, 101)
"""Where a tile left from in the last move (faint)."""
NEW_RING: Final[RGB] = (255, 255, 255)
"""Ring around the tile just placed."""
FALL_RING: Final[RGB] = (255, 140, 0)
"""Ring around a falling tile, arrows to its landing places."""
DANGER: Final[RGB] = (235, 50, 50)
"""Collapse marks."""
CURSE: Final[RGB] = (178, 102, 255)
"""Curse marks."""

# --- tiles ----------------------------------------------------------------------------------------
TILE_FILL: Final[dict[str, RGB]] = {
    "Y": (240, 224, 66),
    "R": (205, 60, 50),
    "G": (70, 190, 150),
    "B": (76, 142, 224),
}
"""Fill of each colour's tiles (the millstone shows all four). Chosen so that the four stay
apart for people with red-green colour blindness too: a deep red and a bluish green differ in
lightness as well as hue (tests/render/test_colour_blind.py measures it)."""
TILE_SHAPE: Final[dict[str, str]] = {
    "Y": "circle",
    "R": "triangle",
    "G": "square",
    "B": "diamond",
}
"""The shape drawn beside each colour's letter on its tiles: colour is never the only sign."""
MILL_GREY: Final[RGB] = (176, 176, 182)
"""The millstone's disc."""
FLAME_OUTER: Final[RGB] = (255, 110, 20)
FLAME_INNER: Final[RGB] = (255, 226, 70)
COAL_BLACK: Final[RGB] = (34, 34, 38)
NOZZLE: Final[RGB] = (120, 122, 130)
BACK: Final[RGB] = (96, 82, 120)
"""The back of a tile (piles)."""


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def light(c: RGB) -> RGB:
    """The lighter shade of a fill (straw stripes, the halo around numbers)."""
    return mix(c, WHITE, 0.45)


def dark(c: RGB) -> RGB:
    """The darker shade of a fill (wood grain, stone joints)."""
    return mix(c, INK, 0.3)


_FILLS: Final = (*TILE_FILL.values(), MILL_GREY)
_BASE: Final[tuple[RGB, ...]] = (
    BG,
    PANEL,
    PANEL_ACTIVE,
    GROUND,
    TEXT,
    TEXT_DIM,
    GOLD,
    INK,
    WHITE,
    SPOT_FILL,
    SPOT_LINE,
    GHOST_LINE,
    FALL_RING,
    DANGER,
    CURSE,
    FLAME_OUTER,
    FLAME_INNER,
    COAL_BLACK,
    NOZZLE,
    BACK,
    *_FILLS,
    *(light(c) for c in _FILLS),
    *(dark(c) for c in _FILLS),
)
_BLENDS: Final[tuple[tuple[RGB, RGB], ...]] = (
    *((INK, c) for c in _FILLS),
    *((INK, light(c)) for c in _FILLS),
    *((light(c), c) for c in _FILLS),
    *((dark(c), c) for c in _FILLS),
    *((INK, BG) for _ in (0,)),
    *((c, BG) for c in _FILLS),
    (TEXT, BG),
    (TEXT, PANEL),
    (TEXT, PANEL_ACTIVE),
    (TEXT_DIM, BG),
    (TEXT_DIM, PANEL),
    (TEXT_DIM, PANEL_ACTIVE),
    (GOLD, BG),
    (GOLD, PANEL),
    (GOLD, PANEL_ACTIVE),
    (SPOT_LINE, SPOT_FILL),
    (SPOT_LINE, BG),
    (GHOST_LINE, BG),
    (NEW_RING, BG),
    (FALL_RING, BG),
    (FALL_RING, SPOT_FILL),
    (DANGER, BG),
    (CURSE, BG),
    (INK, PANEL),
    (INK, GOLD),
    (FLAME_OUTER, FLAME_INNER),
    (INK, FLAME_INNER),
    (INK, SPOT_LINE),
    (GROUND, BG),
    (BACK, BG),
    (WHITE, BACK),
    (WHITE, DANGER),
)
_LEVELS: Final = (0.25, 0.5, 0.75)
MIN_DISTANCE: Final = 10
"""Palette entries closer than this (sum of channel differences) are merged."""


def _build_palette() -> tuple[RGB, ...]:
    colours: list[RGB] = []

    def add(c: RGB) -> None:
        for have in colours:
            if sum(abs(a - b) for a, b in zip(have, c, strict=True)) < MIN_DISTANCE:
                return
        colours.append(c)

    for c in _BASE:
        add(c)
    for a, b in _BLENDS:
        for t in _LEVELS:
            add(mix(a, b, t))
    if len(colours) > 256:  # pragma: no cover - a guard for whoever adds colours
        raise AssertionError(f"palette has {len(colours)} colours")
    return tuple(colours)


PALETTE: Final[tuple[RGB, ...]] = _build_palette()
"""The fixed palette: base colours first (exact), then blends."""


def palette_image() -> Image.Image:
    """A 1x1 'P' image carrying :data:`PALETTE`, for :meth:`PIL.Image.Image.quantize`."""
    im = Image.new("P", (1, 1))
    flat = [v for c in PALETTE for v in c]
    flat += [0] * (768 - len(flat))
    im.putpalette(flat)
    return im

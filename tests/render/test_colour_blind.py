"""The four tile colours stay apart for colour-blind players, and each colour has its shape.

Colour vision deficiency is simulated with the matrices of Machado, Oliveira and Fernandes (2009,
"A physiologically-based model for simulation of color vision deficiency"), severity 1.0
(dichromacy: deuteranopia, protanopia), applied to linear RGB. Colours are compared in CIELAB
(D65) with CIEDE2000; every pair of the four fills must differ by at least ``MIN_DELTA_E``, for
normal vision and under each simulation, both for the theme's constants and for the colours the
pictures actually draw. (ΔE2000 of 2 is about the smallest difference people notice side by
side; 20 is a clear difference at a glance, on small tiles.)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from PIL import Image, ImageDraw

from engine import Game, view
from i18n import ENGLISH, Language
from render import draw, render_table, table_layout, theme
from tests.render.conftest import decode, flat, inner

MIN_DELTA_E = 20.0

Matrix = tuple[tuple[float, float, float], ...]
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
IDENTITY: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
VISIONS = {"normal": IDENTITY, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]


def to_linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(rgb: RGB, m: Matrix) -> tuple[float, float, float]:
    """Linear RGB as seen with the deficiency ``m`` (clipped to the gamut)."""
    lin = [to_linear(c) for c in rgb]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return (min(1.0, max(0.0, out[0])), min(1.0, max(0.0, out[1])), min(1.0, max(0.0, out[2])))


def lab(linear: tuple[float, float, float]) -> Lab:
    """Linear sRGB -> CIELAB, D65 white."""
    r, g, b = linear
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e_2000(p: Lab, q: Lab) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = p
    l2, a2, b2 = q
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def closest_pair(colours: dict[str, RGB], m: Matrix) -> tuple[float, str]:
    seen = {k: lab(simulate(c, m)) for k, c in colours.items()}
    return min((delta_e_2000(seen[a], seen[b]), a + b) for a, b in itertools.combinations(seen, 2))


# --- the measure itself ---------------------------------------------------------------------------


def test_ciede2000_matches_published_test_data() -> None:
    # Sharma, Wu and Dalal (2005), pairs 1, 7 and 17 of their table of test data.
    assert delta_e_2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(
        2.0425, abs=1e-4
    )
    assert delta_e_2000((50.0, 0.0, 0.0), (50.0, -1.0, 2.0)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e_2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)) == pytest.approx(27.1492, abs=1e-4)


def test_the_simulation_merges_red_and_green_that_only_differ_in_hue() -> None:
    # A red and a green of the same lightness, far apart for normal vision, nearly one colour
    # for a deuteranope: the check would catch such a palette.
    red_green = {"R": (200, 120, 60), "G": (120, 160, 60)}
    assert closest_pair(red_green, IDENTITY)[0] > MIN_DELTA_E
    assert closest_pair(red_green, DEUTERANOPIA)[0] < MIN_DELTA_E / 2


# --- the palette ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_the_four_tile_colours_stay_apart(vision: str) -> None:
    distance, pair = closest_pair(dict(theme.TILE_FILL), VISIONS[vision])
    assert distance >= MIN_DELTA_E, f"{pair} only {distance:.1f} apart ({vision})"


def drawn_fills() -> dict[str, RGB]:
    """The fill each colour's tiles are drawn with, read from a table picture: the most common
    colour inside a stone tile of each colour."""
    tiles = {"Y": "Y100", "R": "R100", "G": "G100", "B": "B100"}
    pyramid = {(0, 2 * i): t for i, t in enumerate(tiles.values())}
    game = Game(2, pyramid=pyramid, hands=[["Y2"], ["G2"]])
    v = view(game)
    img = decode(render_table(v, ("A", "B"), lang=ENGLISH))
    lay = table_layout(v, ("A", "B"), lang=ENGLISH).pyramid
    fills = {}
    for colour, pos in zip(tiles, pyramid, strict=True):
        box = inner(lay.pixel_box(pos), 0.05)
        fills[colour] = Counter(flat(img.crop(box))).most_common(1)[0][0]
    return fills


def test_the_pictures_draw_the_theme_fills() -> None:
    assert drawn_fills() == dict(theme.TILE_FILL)


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_the_drawn_tile_colours_stay_apart(vision: str) -> None:
    distance, pair = closest_pair(drawn_fills(), VISIONS[vision])
    assert distance >= MIN_DELTA_E, f"{pair} only {distance:.1f} apart ({vision})"


# --- shapes --------------------------------------------------------------------------------------


def classify(mask: list[list[bool]]) -> str:
    """Name the shape of a silhouette: its share of its bounding box, and where it is widest."""
    rows = [r for r in mask if any(r)]
    widths = [sum(r) for r in rows]
    cols = [x for x in range(len(mask[0])) if any(r[x] for r in mask)]
    share = sum(widths) / (len(rows) * (cols[-1] - cols[0] + 1))
    if share > 0.9:
        return "square"
    if share > 0.7:
        return "circle"
    widest = widths.index(max(widths)) / len(widths)
    return "triangle" if widest > 0.75 else "diamond"


def test_the_shape_drawer_draws_four_different_shapes() -> None:
    for kind in ("circle", "triangle", "square", "diamond"):
        im = Image.new("RGB", (60, 60), (0, 0, 0))
        draw.shape(ImageDraw.Draw(im), kind, (5, 5, 55, 55), (255, 255, 255))
        px = im.load()
        assert px is not None
        mask = [[px[x, y][0] > 127 for x in range(60)] for y in range(60)]
        assert classify(mask) == kind


def badge_shape(tile: str, lang: Language) -> str:
    """The shape in the badge of ``tile``'s face (its colour's letter in ``lang``): the ink
    right of the letter in the badge."""
    face = draw.tile_set(300, 186, lang=lang).face(tile).convert("RGB")
    halo = theme.light(theme.TILE_FILL[tile[0]])
    w, h = face.size
    px = face.load()
    assert px is not None

    def is_halo(x: int, y: int) -> bool:
        return max(abs(a - b) for a, b in zip(px[x, y], halo, strict=True)) < 8

    # The badge: the first halo pixel from the top left, then its halo runs right and down
    # (through the padding around the letter).
    x0, y0 = next((x, y) for y in range(h // 2) for x in range(w // 2) if is_halo(x, y))
    x1 = x0
    while is_halo(x1 + 1, y0 + 2):
        x1 += 1
    y1 = y0
    while is_halo(x1 - 2, y1 + 1):
        y1 += 1

    def ink(x: int, y: int) -> bool:
        return sum(px[x, y]) < 200

    inside = range(x0 + 3, x1 - 2)
    columns = [x for x in inside if any(ink(x, y) for y in range(y0 + 3, y1 - 2))]
    gaps = [a for a, b in itertools.pairwise(columns) if b > a + 1]
    start = max(a for a in columns if a > gaps[-1])  # the shape: the last blob of ink
    first = min(a for a in columns if a > gaps[-1])
    mask = [[ink(x, y) for x in range(first, start + 1)] for y in range(y0 + 3, y1 - 2)]
    return classify(mask)


@pytest.mark.parametrize("colour", ["Y", "R", "G", "B"])
def test_each_colours_tiles_show_its_shape_beside_the_letter(colour: str) -> None:
    assert badge_shape(f"{colour}40", ENGLISH) == theme.TILE_SHAPE[colour]


def test_the_four_colours_have_four_different_shapes() -> None:
    assert len(set(theme.TILE_SHAPE.values())) == 4
    assert set(theme.TILE_SHAPE) == set(theme.TILE_FILL)

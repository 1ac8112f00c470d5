"""The 45 tiles of Flaming Pyramids (RULES 1).

A tile is named by its **code**: colour letter and weight, e.g. ``"Y30"`` or ``"M200"``.
Tiles are plain strings everywhere in the engine; the tables below give their properties.

>>> WEIGHT["R120"], COLOUR["R120"], MATERIAL["R120"]
(120, 'R', 'stone')
>>> MATERIAL["B7"], IGNITES["B7"]
('blowtorch', frozenset({'straw', 'wood'}))
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("Y", "R", "G", "B")
"""The four colours, in the order tiles are listed. ``M`` (the millstone) has every colour."""

COLOUR_NAMES: Final = {"Y": "yellow", "R": "red", "G": "green", "B": "blue", "M": "millstone"}

STRAW_WEIGHTS: Final = (2, 4, 6)
WOOD_WEIGHTS: Final = (10, 20, 30, 40)
STONE_WEIGHTS: Final = (60, 100, 120)

STRAW: Final = "straw"
WOOD: Final = "wood"
STONE: Final = "stone"
COAL: Final = "coal"
BLOWTORCH: Final = "blowtorch"
MILLSTONE_CODE: Final = "M200"


def _build() -> tuple[tuple[str, ...], dict[str, str]]:
    material: dict[str, str] = {}
    for colour in COLOURS:
        for w in STRAW_WEIGHTS:
            material[f"{colour}{w}"] = STRAW
        for w in WOOD_WEIGHTS:
            material[f"{colour}{w}"] = WOOD
        for w in STONE_WEIGHTS:
            material[f"{colour}{w}"] = STONE
    for code in ("Y1", "G1"):
        material[code] = COAL
    for code in ("R7", "B7"):
        material[code] = BLOWTORCH
    material[MILLSTONE_CODE] = STONE
    return tuple(material), material


ALL_TILES, MATERIAL = _build()
"""Every tile code (45 of them) and each tile's material."""

WEIGHT: Final[dict[str, int]] = {code: int(code[1:]) for code in ALL_TILES}
COLOUR: Final[dict[str, str]] = {code: code[0] for code in ALL_TILES}

INCENDIARY: Final[frozenset[str]] = frozenset(
    c for c in ALL_TILES if MATERIAL[c] in (COAL, BLOWTORCH)
)
"""Coals and blowtorches."""

IGNITES: Final[dict[str, frozenset[str]]] = {
    code: (
        frozenset({STRAW})
        if MATERIAL[code] == COAL
        else frozenset({STRAW, WOOD})
        if MATERIAL[code] == BLOWTORCH
        else frozenset()
    )
    for code in ALL_TILES
}
"""The materials each tile sets alight: straw for a coal, straw and wood for a blowtorch."""

TILE_SET: Final[frozenset[str]] = frozenset(ALL_TILES)

assert len(ALL_TILES) == 45


def is_tile(code: str) -> bool:
    """Whether ``code`` names one of the 45 tiles."""
    return code in TILE_SET


def colours_match(a: str, b: str) -> bool:
    """Whether two tiles share a colour; the millstone has every colour."""
    ca = a[0]
    cb = b[0]
    return ca == cb or ca == "M" or cb == "M"


def describe(code: str) -> str:
    """A short human name: ``"red 40"``, ``"blue blowtorch (7)"``, ``"millstone (200)"``.

    >>> describe("R40"), describe("B7"), describe("Y1"), describe("M200")
    ('red 40', 'blue blowtorch (7)', 'yellow coal (1)', 'millstone (200)')
    """
    material = MATERIAL[code]
    if code == MILLSTONE_CODE:
        return "millstone (200)"
    colour = COLOUR_NAMES[code[0]]
    if material in (COAL, BLOWTORCH):
        return f"{colour} {material} ({WEIGHT[code]})"
    return f"{colour} {WEIGHT[code]}"

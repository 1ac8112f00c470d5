"""Fixtures and pixel helpers for the picture tests.

The tests look at pixels: they decode the PNG or GIF bytes and check colours where the layout
says a tile, a spot or a mark is. Colours are compared with the exact palette entries of
``render.theme`` (the encoder maps them exactly).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine import Game, View, view
from render import samples
from render.draw import TileSet
from render.encode import to_palette
from render.layout import Box
from render.theme import RGB

NAMES = ("Jenny", "Bob", "Zoë", "Amir")


def decode(data: bytes) -> Image.Image:
    """PNG bytes -> RGB image (also checks that the bytes are a PNG)."""
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def flat(im: Image.Image) -> list[Any]:
    """Every pixel value of ``im``, row by row (Pillow 12.1 renamed ``getdata``)."""
    get = getattr(im, "get_flattened_data", None)
    return list(get() if get is not None else im.getdata())


def pixels(im: Image.Image, box: Box) -> list[RGB]:
    """Every pixel of ``box``."""
    return [tuple(p) for p in flat(im.crop(box))]


def mode_colour(im: Image.Image, box: Box) -> RGB:
    """The most common colour in ``box``."""
    return Counter(pixels(im, box)).most_common(1)[0][0]


def inner(box: Box, frac: float = 0.12) -> Box:
    """``box`` without a margin of ``frac`` of its size on each side (past borders, rings)."""
    x0, y0, x1, y1 = box
    dx = max(2, int((x1 - x0) * frac))
    dy = max(2, int((y1 - y0) * frac))
    return (x0 + dx, y0 + dy, x1 - dx, y1 - dy)


def outline(box: Box, out: int, width: int = 1) -> Box:
    """``box`` grown by ``out`` pixels (to look at a ring around it)."""
    return (box[0] - out, box[1] - out, box[2] + out, box[3] + out)


def ring_pixels(im: Image.Image, box: Box, lo: int, hi: int) -> list[RGB]:
    """Pixels between ``lo`` and ``hi`` pixels outside ``box`` (a frame around it)."""
    x0, y0, x1, y1 = box
    found: list[RGB] = []
    for d in range(lo, hi + 1):
        for x in range(x0 - d, x1 + d):
            found.append(im.getpixel((x, y0 - d)))  # type: ignore[arg-type]
            found.append(im.getpixel((x, y1 - 1 + d)))  # type: ignore[arg-type]
        for y in range(y0 - d, y1 + d):
            found.append(im.getpixel((x0 - d, y)))  # type: ignore[arg-type]
            found.append(im.getpixel((x1 - 1 + d, y)))  # type: ignore[arg-type]
    return found


def face_places(picture: Image.Image, tiles: TileSet, tile: str) -> list[tuple[int, int]]:
    """The top-left corners of every place where ``picture`` (decoded) shows the face of
    ``tile`` from ``tiles`` exactly, as the encoder maps it onto the palette (every pixel the
    face covers whole: the rounded corners, blended with what is under them, are left out)."""
    face = to_palette(tiles.face(tile)).convert("RGB")
    whole = tiles.mask.point(lambda a: 255 if a == 255 else 0)
    w, h = face.size
    key_y = h // 2
    key = face.crop((2, key_y, w - 2, key_y + 1)).tobytes()  # a row across the middle
    data = picture.convert("RGB").tobytes()
    stride = picture.width * 3
    found = []
    for y in range(key_y, picture.height - (h - key_y) + 1):
        row = data[y * stride : (y + 1) * stride]
        at = row.find(key)
        while at >= 0:
            x, top = at // 3 - 2, y - key_y
            if at % 3 == 0 and 0 <= x <= picture.width - w:
                region = picture.crop((x, top, x + w, top + h)).convert("RGB")
                differs = (
                    ImageChops.difference(region, face)
                    .convert("L")
                    .point(lambda v: 255 if v else 0)
                )
                if ImageChops.multiply(differs, whole).getbbox() is None:
                    found.append((x, top))
            at = row.find(key, at + 1)
    return found


def share(colours: Iterable[RGB], wanted: RGB) -> float:
    """Fraction of ``colours`` equal to ``wanted``."""
    items = list(colours)
    return sum(1 for c in items if c == wanted) / max(1, len(items))


@pytest.fixture
def jenny() -> Game:
    """The French rules' detailed example, Jenny about to play Y1 at 3,3."""
    return samples.jenny()


@pytest.fixture
def jenny_view(jenny: Game) -> View:
    return view(jenny)

"""How readable a picture is on a phone: the height of its letters once shown 400 px wide.

Discord scales a picture down to the width of the chat; on a phone that is about
:data:`render.layout.PHONE_W` pixels. :func:`phone` scales a picture as a phone shows it, and
:func:`first_glyph_height` measures, in those pixels, how tall the first letter of a text is: for
a capital or a digit, its cap height. The picture tests and ``python -m render bench`` use both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PIL import Image

from render.layout import PHONE_W, Box


def _flat(im: Image.Image) -> list[Any]:
    get = getattr(im, "get_flattened_data", None)  # Pillow 12.1 renamed getdata
    return list(get() if get is not None else im.getdata())


def phone(img: Image.Image) -> tuple[Image.Image, float]:
    """``img`` as a phone shows it, and the scale from full size."""
    scale = PHONE_W / img.width
    return img.resize((PHONE_W, round(img.height * scale)), Image.Resampling.LANCZOS), scale


def first_glyph_height(img: Image.Image, box: Box, scale: float) -> int:
    """Height in pixels of the first glyph (from the left) of the text inside ``box`` (full-size
    coordinates) in the phone-size picture ``img``. Ink is any pixel at least 40% of the way
    from the box's background colour to the colour furthest from it. Raises ValueError when the
    box holds no text."""
    x0, y0, x1, y1 = (round(v * scale) for v in box)
    crop = img.crop((x0, y0, x1, y1))
    px = [tuple(p) for p in _flat(crop)]
    bg = Counter(px).most_common(1)[0][0]

    def dist(p: tuple[int, ...]) -> int:
        return int(max(abs(a - b) for a, b in zip(p, bg, strict=True)))

    far = max(dist(p) for p in px)
    if far <= 60:
        raise ValueError(f"no text in {box}")
    w, h = crop.size
    ink = [[dist(px[y * w + x]) >= 0.4 * far for x in range(w)] for y in range(h)]
    columns = [any(ink[y][x] for y in range(h)) for x in range(w)]
    start = columns.index(True)
    end = start
    while end < w and columns[end]:
        end += 1
    rows = [y for y in range(h) if any(ink[y][x] for x in range(start, end))]
    return int(rows[-1] - rows[0] + 1)

"""Fonts, loaded once per thread, and text that never crashes them.

The project ships DejaVu Sans (``render/fonts/``, licence beside it), so nothing is fetched and
every machine draws the same glyphs. Player names may hold any Unicode a Discord display name can:
:func:`clean` keeps what the font can draw, drops what it cannot (emoji, control characters, lone
surrogates, piles of combining marks) and replaces unknown letters by ``?``; :func:`fit` shortens
a text to a width with an ellipsis.

FreeType faces are not safe to share between threads, so each thread gets its own font objects
(the bot renders from ``asyncio.to_thread``'s pool).
"""

from __future__ import annotations

import struct
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
REGULAR: Final = FONT_DIR / "DejaVuSans.ttf"
BOLD: Final = FONT_DIR / "DejaVuSans-Bold.ttf"
CONDENSED_BOLD: Final = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
"""The three faces: body text, names and headings, numbers on tiles."""

ELLIPSIS: Final = "…"
MAX_MARKS: Final = 2
"""Combining marks kept after one base character (more would pile up over other text)."""

Font = ImageFont.FreeTypeFont

_local = threading.local()


def font(path: Path, size: int) -> Font:
    """The font at ``path`` in ``size`` pixels, made once per thread."""
    cache: dict[tuple[Path, int], Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    key = (path, size)
    f = cache.get(key)
    if f is None:
        f = ImageFont.truetype(str(path), max(1, size))
        cache[key] = f
    return f


def regular(size: int) -> Font:
    """DejaVu Sans."""
    return font(REGULAR, size)


def bold(size: int) -> Font:
    """DejaVu Sans Bold."""
    return font(BOLD, size)


def numbers(size: int) -> Font:
    """DejaVu Sans Condensed Bold, for the weights on tiles."""
    return font(CONDENSED_BOLD, size)


# --- which characters the font has ------------------------------------------------------------


def _cmap_coverage(data: bytes) -> frozenset[int]:
    """Every code point the TrueType font ``data`` maps to a real glyph (cmap formats 4, 12)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return frozenset()
    covered: set[int] = set()
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        sub = cmap + offset
        fmt = struct.unpack_from(">H", data, sub)[0]
        if fmt == 4:
            covered |= _format4(data, sub)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, sub + 12)[0]
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", data, sub + 16 + 12 * g)
                if glyph:
                    covered.update(range(start, end + 1))
                else:
                    covered.update(range(start + 1, end + 1))
    return frozenset(covered)


def _format4(data: bytes, sub: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, sub + 6)[0]
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, sub + 14)
    starts = struct.unpack_from(f">{segs}H", data, sub + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 2 * seg_x2)
    range_at = sub + 16 + 3 * seg_x2
    ranges = struct.unpack_from(f">{segs}H", data, range_at)
    covered: set[int] = set()
    for k in range(segs):
        for c in range(starts[k], ends[k] + 1):
            if c == 0xFFFF:
                continue
            if ranges[k] == 0:
                glyph = (c + deltas[k]) & 0xFFFF
            else:
                where = range_at + 2 * k + ranges[k] + 2 * (c - starts[k])
                glyph = struct.unpack_from(">H", data, where)[0]
                if glyph:
                    glyph = (glyph + deltas[k]) & 0xFFFF
            if glyph:
                covered.add(c)
    return covered


@lru_cache(maxsize=1)
def coverage() -> frozenset[int]:
    """Code points that both the regular and the bold face can draw."""
    return _cmap_coverage(REGULAR.read_bytes()) & _cmap_coverage(BOLD.read_bytes())


# --- text that is safe to draw ------------------------------------------------------------------


def clean(text: str, fallback: str = "?") -> str:
    """``text`` reduced to what the fonts can draw on one line.

    Control and format characters, lone surrogates and unsupported symbols (emoji) are dropped;
    an unsupported letter or digit becomes ``?``; runs of combining marks are cut to
    :data:`MAX_MARKS`; whitespace becomes single spaces. Returns ``fallback`` when nothing
    drawable is left.

    >>> clean("Jenny 🔥"), clean("a\\x00b"), clean("")
    ('Jenny', 'ab', '?')
    """
    have = coverage()
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in ("Zs", "Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        if cat in ("Mn", "Mc", "Me"):
            if not out or marks >= MAX_MARKS or ord(ch) not in have:
                continue
            marks += 1
            out.append(ch)
            continue
        marks = 0
        if ord(ch) in have:
            out.append(ch)
        elif cat[0] in ("L", "N"):
            out.append("?")
    result = "".join(out).strip()
    return result or fallback


def fit(text: str, f: Font, width: float) -> str:
    """``text`` (already :func:`clean`) cut to at most ``width`` pixels, with an ellipsis if cut."""
    if width <= 0:
        return ""
    if f.getlength(text) <= width:
        return text
    # Cut only before a base character so that marks stay with their letter.
    cuts = [i for i in range(1, len(text)) if unicodedata.category(text[i])[0] != "M"]
    lo, hi = 0, len(cuts) - 1
    best = ""
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = text[: cuts[mid]].rstrip() + ELLIPSIS
        if f.getlength(candidate) <= width:
            best = candidate
            lo = mid + 1
        else:
            hi = mid - 1
    if best:
        return best
    return ELLIPSIS if f.getlength(ELLIPSIS) <= width else ""

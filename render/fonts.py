"""Fonts, loaded once per thread, and text in any script that never crashes them.

The project ships DejaVu Sans (``render/fonts/``, licence beside it): Latin, Greek, Cyrillic,
Arabic, Hebrew and many symbols, the same on every machine. Player names may hold any Unicode a
Discord display name can, so every face has a *fallback chain*: the bundled faces first, then the
fonts the system has (found with fontconfig's ``fc-list``, or in the usual font folders), each
character drawn with the first face whose character map has it (fontTools reads the maps, lazily,
once per process). On Debian, ``fonts-noto-ui-core`` (Thai, Devanagari and the other Indic
scripts, Arabic), ``fonts-droid-fallback`` (Chinese, Japanese, Korean) and ``fonts-symbola``
(emoji, drawn as text in the picture's colour) cover what Discord users write in 5 MB.

:func:`clean` keeps what some face can draw and drops what cannot be drawn (control characters,
lone surrogates, piles of combining marks, symbols and emoji no face has); a letter or digit no
face has becomes :data:`PLACEHOLDER`, one per character, so the rest of the name stays readable.
:func:`draw` and :func:`length` draw and measure text run by run, each run in its face, on one
baseline; :func:`fit` shortens a text to a width with an ellipsis. Arabic is shaped by Pillow's
Raqm layout where Pillow has it (its wheels do): without Raqm the letters come out in their
isolated forms, left to right.

Colour bitmap fonts (Noto Color Emoji) are left out: FreeType draws them at their one fixed size
only. FreeType faces are not safe to share between threads, so each thread gets its own font
objects (the bot renders from ``asyncio.to_thread``'s pool).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import struct
import subprocess
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from fontTools.ttLib import TTFont, TTLibError
from PIL import ImageDraw, ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
REGULAR: Final = FONT_DIR / "DejaVuSans.ttf"
BOLD: Final = FONT_DIR / "DejaVuSans-Bold.ttf"
CONDENSED_BOLD: Final = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
"""The three faces: body text, names and headings, numbers on tiles."""

ELLIPSIS: Final = "…"
PLACEHOLDER: Final = "·"
"""Drawn in place of each letter or digit that no installed font has."""
MAX_MARKS: Final = 2
"""Combining marks kept after one base character (more would pile up over other text)."""
SYSTEM_FONT_DIRS: Final = (
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".local" / "share" / "fonts",
    Path.home() / ".fonts",
)
"""Where fonts are looked for when fontconfig's ``fc-list`` is not installed."""

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]

_local = threading.local()


@dataclass(frozen=True, order=True)
class Face:
    """One font file (and its index in a ``.ttc`` collection)."""

    path: Path
    index: int = 0


def font(path: Path, size: int, index: int = 0) -> Font:
    """The font at ``path`` in ``size`` pixels, made once per thread."""
    cache: dict[tuple[Path, int, int], Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    key = (path, max(1, size), index)
    f = cache.get(key)
    if f is None:
        f = ImageFont.truetype(str(path), key[1], index=index)
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


# --- which face has which character -------------------------------------------------------------


_COLOUR_TABLES: Final = ("CBDT", "sbix", "COLR", "SVG ")
_OUTLINE_TABLES: Final = ("glyf", "CFF ", "CFF2")


@cache
def face_coverage(face: Face) -> frozenset[int]:
    """Every code point ``face`` maps to a glyph it can draw in one colour at any size; empty for
    a colour or bitmap-only font, or a file fontTools cannot read."""
    try:
        with TTFont(str(face.path), fontNumber=face.index, lazy=True) as tt:
            if any(t in tt for t in _COLOUR_TABLES) or not any(t in tt for t in _OUTLINE_TABLES):
                return frozenset()
            cmap = tt.getBestCmap() or {}
            return frozenset(cp for cp, glyph in cmap.items() if glyph != ".notdef")
    except (OSError, TTLibError, AssertionError, KeyError, ValueError, struct.error):
        return frozenset()


@lru_cache(maxsize=1)
def coverage() -> frozenset[int]:
    """Code points that both the bundled regular and bold faces can draw."""
    return face_coverage(Face(REGULAR)) & face_coverage(Face(BOLD))


_SKIP: Final = re.compile(r"italic|oblique|lastresort", re.IGNORECASE)
_BOLD: Final = re.compile(r"bold|black|heavy", re.IGNORECASE)
_ODD: Final = re.compile(
    r"thin|light|medium|semi|demi|condensed|narrow|mono|serif|mincho|naskh|looped|unifont",
    re.IGNORECASE,
)


def _system_files() -> list[Face]:
    """Every font file the system has: fontconfig's list, else the usual folders."""
    faces: set[Face] = set()
    fc_list = shutil.which("fc-list")
    if fc_list:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [fc_list, "--format", "%{file}\t%{index}\n"],
                capture_output=True,
                text=True,
                timeout=20,
                check=True,
            ).stdout
            for line in out.splitlines():
                name, _, index = line.partition("\t")
                if name:
                    faces.add(Face(Path(name), int(index) if index.isdigit() else 0))
    if not faces:
        for folder in SYSTEM_FONT_DIRS:
            with contextlib.suppress(OSError):
                for path in folder.rglob("*"):
                    if path.suffix.lower() in (".ttf", ".otf", ".ttc") and path.is_file():
                        faces.add(Face(path))
    return sorted(faces)


def _rank(face: Face, want_bold: bool) -> tuple[int, int, int, str]:
    """Sort key: the wanted weight first, plain sans faces before odd ones, Noto first."""
    name = face.path.name
    return (
        0 if bool(_BOLD.search(name)) == want_bold else 1,
        1 if _ODD.search(name) else 0,
        0 if name.lower().startswith("noto") else 1,
        name.lower(),
    )


@lru_cache(maxsize=2)
def system_faces(want_bold: bool) -> tuple[Face, ...]:
    """The system's fonts in the order a chain tries them (empty if system fonts are off)."""
    if not _use_system[0]:
        return ()
    bundled = {REGULAR.name, BOLD.name, CONDENSED_BOLD.name}
    faces = [f for f in _system_files() if not _SKIP.search(f.path.name)]
    faces = [f for f in faces if f.path.name not in bundled]
    return tuple(sorted(faces, key=lambda f: _rank(f, want_bold)))


@dataclass
class Chain:
    """The faces one kind of text is drawn with, first choice first."""

    faces: tuple[Face, ...]
    _found: dict[int, Face | None] = field(default_factory=dict, repr=False)

    @property
    def primary(self) -> Face:
        return self.faces[0]

    def face_for(self, cp: int) -> Face | None:
        """The first face that has code point ``cp``; None if none has it."""
        try:
            return self._found[cp]
        except KeyError:
            pass
        found = next((f for f in self.faces if cp in face_coverage(f)), None)
        self._found[cp] = found
        return found


_use_system = [True]
"""Whether chains go on to the system's fonts (:func:`use_system_fonts`)."""
_chains: dict[Path, Chain] = {}
_chains_lock = threading.Lock()


def chain(primary: Path) -> Chain:
    """The fallback chain of the bundled face ``primary``: it, the other bundled faces, then the
    system's fonts, those of the same weight first."""
    with _chains_lock:
        c = _chains.get(primary)
        if c is None:
            want_bold = primary != REGULAR
            bundled = [primary] + [p for p in (BOLD, REGULAR, CONDENSED_BOLD) if p != primary]
            c = Chain(tuple(Face(p) for p in bundled) + system_faces(want_bold))
            _chains[primary] = c
        return c


def reset() -> None:
    """Forget the chains and the system's fonts (after fonts were installed, or in tests)."""
    with _chains_lock:
        _chains.clear()
    system_faces.cache_clear()


def use_system_fonts(enabled: bool) -> None:
    """Whether to draw with the system's fonts after the bundled ones (on by default); off, every
    machine draws the same pixels."""
    _use_system[0] = enabled
    reset()


def drawable(ch: str) -> bool:
    """Whether some face, bundled or installed, has ``ch``."""
    return chain(BOLD).face_for(ord(ch)) is not None


# --- text that is safe to draw ------------------------------------------------------------------


def clean(text: str, fallback: str = "?") -> str:
    """``text`` reduced to what the fonts can draw on one line.

    Control and format characters, lone surrogates and symbols no font has (an emoji without an
    emoji font) are dropped; a letter or digit no font has becomes :data:`PLACEHOLDER`; runs of
    combining marks are cut to :data:`MAX_MARKS`; whitespace becomes single spaces. Returns
    ``fallback`` when nothing but placeholders is left.

    >>> clean("Jenny"), clean("a\\x00b"), clean("")
    ('Jenny', 'ab', '?')
    """
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
        if cat[0] == "M":
            if not out or out[-1] in (" ", PLACEHOLDER) or marks >= MAX_MARKS or not drawable(ch):
                continue
            marks += 1
            out.append(ch)
            continue
        marks = 0
        if drawable(ch):
            out.append(ch)
        elif cat[0] in ("L", "N"):
            out.append(PLACEHOLDER)
    result = "".join(out).strip()
    if not result.replace(PLACEHOLDER, "").strip():
        return fallback
    return result


def runs(text: str, primary: Path) -> list[tuple[Face, str]]:
    """``text`` cut into runs, each with the face that draws it (the primary face for what no
    face has). Marks stay with their letter, and spaces, digits and punctuation with the run
    before them when its face has them, so that a right-to-left name stays one run."""
    c = chain(primary)
    out: list[tuple[Face, str]] = []
    for ch in text:
        cp = ord(ch)
        if out:
            face, run = out[-1]
            cat = unicodedata.category(ch)
            if cat[0] == "M" or (cat[0] != "L" and cp in face_coverage(face)):
                out[-1] = (face, run + ch)
                continue
        face = c.face_for(cp) or c.primary
        if out and out[-1][0] == face:
            out[-1] = (face, out[-1][1] + ch)
        else:
            out.append((face, ch))
    return out


def _simple(text: str, f: Font) -> bool:
    have = face_coverage(Face(Path(str(f.path)), f.index))
    return all(ord(ch) in have for ch in text)


def _primary_of(f: Font) -> Path:
    path = Path(str(f.path))
    return path if path in (REGULAR, BOLD, CONDENSED_BOLD) else REGULAR


def _run_fonts(text: str, f: Font) -> list[tuple[Font, str]]:
    return [
        (
            f
            if face == Face(Path(str(f.path)), f.index)
            else font(face.path, round(f.size), face.index),
            s,
        )
        for face, s in runs(text, _primary_of(f))
    ]


def length(text: str, f: Font) -> float:
    """The width of ``text`` drawn by :func:`draw` with ``f`` (fallback faces included)."""
    if _simple(text, f):
        return f.getlength(text)
    return sum(rf.getlength(s) for rf, s in _run_fonts(text, f))


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: Font,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """Draw ``text`` (already :func:`clean`) at ``xy`` like ``d.text`` with ``anchor``, each
    character in the first face of ``f``'s chain that has it, on ``f``'s baseline."""
    if _simple(text, f):
        d.text(xy, text, font=f, fill=fill, anchor=anchor)
        return
    parts = _run_fonts(text, f)
    widths = [rf.getlength(s) for rf, s in parts]
    total = sum(widths)
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
    baseline = xy[1] + _baseline_offset(f, anchor[1])
    for (rf, s), w in zip(parts, widths, strict=True):
        d.text((x, baseline), s, font=rf, fill=fill, anchor="ls")
        x += w


def _baseline_offset(f: Font, vertical: str) -> float:
    """How far below a point drawn with vertical anchor ``vertical`` the baseline of ``f`` is."""
    return float(f.getbbox("x", anchor="l" + vertical)[1] - f.getbbox("x", anchor="ls")[1])


def fit(text: str, f: Font, width: float) -> str:
    """``text`` (already :func:`clean`) cut to at most ``width`` pixels, with an ellipsis if cut."""
    if width <= 0:
        return ""
    if length(text, f) <= width:
        return text
    # Cut only before a base character so that marks stay with their letter.
    cuts = [i for i in range(1, len(text)) if unicodedata.category(text[i])[0] != "M"]
    lo, hi = 0, len(cuts) - 1
    best = ""
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = text[: cuts[mid]].rstrip() + ELLIPSIS
        if length(candidate, f) <= width:
            best = candidate
            lo = mid + 1
        else:
            hi = mid - 1
    if best:
        return best
    return ELLIPSIS if f.getlength(ELLIPSIS) <= width else ""


def missing(text: str, primary: Path = BOLD) -> list[str]:
    """The characters of ``text`` that no face of ``primary``'s chain has (for tests and checks)."""
    c = chain(primary)
    return [ch for ch in text if unicodedata.category(ch)[0] != "M" and c.face_for(ord(ch)) is None]

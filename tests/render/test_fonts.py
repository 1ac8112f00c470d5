"""Text that is safe to draw: names in any script, drawn with the font that has each character,
cut to fit, and a visible placeholder (never ``?``) for what no installed font has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, features

from engine import view
from i18n import ENGLISH
from render import fonts, render_table, samples
from tests.conftest import in_ci
from tests.render.conftest import decode

CI_FONT_PACKAGES = "fonts-noto-ui-core fonts-wqy-microhei fonts-symbola"
"""The Debian packages CI installs so that the names below find a font (see ``.ci/run``)."""

NAMES_BY_SCRIPT = {
    "Chinese": "王小明",
    "Japanese": "さくら・サクラ",
    "Korean": "김민준",
    "Thai": "สมชาย",
    "Arabic": "محمد علي",
    "Cyrillic": "Дмитрий",
    "Greek": "Δημήτρης",
    "Devanagari": "अर्जुन",
    "emoji": "Zoë 🔥🎲",
}
MISSING = "\U000e01ef"
"""A code point no font has a glyph for (a variation selector past every font's map)."""


@pytest.fixture
def bundled_only() -> Iterator[None]:
    """Draw with the bundled DejaVu faces alone, as on a machine without any system font."""
    fonts.use_system_fonts(False)
    try:
        yield
    finally:
        fonts.use_system_fonts(True)


def test_the_bundled_font_covers_latin_greek_cyrillic_arabic_hebrew() -> None:
    have = fonts.coverage()
    for ch in "AzÉßĳŒΔλЖжاש…–·▶★☠":
        assert ord(ch) in have, ch


@pytest.mark.usefixtures("bundled_only")
def test_without_a_font_for_a_script_each_letter_becomes_a_dot_and_the_rest_stays() -> None:
    assert fonts.clean("Jenny") == "Jenny"
    assert fonts.clean("Ann 山田") == "Ann ··"
    assert fonts.clean("สมชาย Lee") == "····· Lee"
    assert fonts.clean("Jenny \U0001f525") == "Jenny"  # an emoji no font has is left out
    assert fonts.clean("山田", "Player 2") == "Player 2"  # nothing readable: the seat's name
    assert "?" not in fonts.clean("김민준 and 王小明")


def test_clean_drops_controls_and_squeezes_spaces() -> None:
    assert fonts.clean("a\x00b\u200bc\ufeff") == "abc"
    assert fonts.clean("  lots   of\tspace \n") == "lots of space"
    assert fonts.clean("\ud800x") == "x"
    assert fonts.clean("\x00", "Player 2") == "Player 2"
    assert fonts.clean("") == "?"


def test_clean_limits_piles_of_combining_marks() -> None:
    zalgo = "e" + "\u0301\u0302\u0303\u0304\u0305" * 10
    assert fonts.clean(zalgo) == "\u00e9\u0302\u0303"  # NFC joins e and its first mark


def test_fit_cuts_with_an_ellipsis_and_stays_within_the_width() -> None:
    f = fonts.bold(18)
    text = "A very long display name indeed"
    short = fonts.fit(text, f, 120)
    assert short.endswith(fonts.ELLIPSIS) and fonts.length(short, f) <= 120
    assert fonts.fit("Bob", f, 120) == "Bob"
    assert fonts.fit(text, f, 0) == ""


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60), st.integers(0, 300))
def test_any_text_cleans_to_something_drawable_within_any_width(text: str, width: int) -> None:
    cleaned = fonts.clean(text)
    assert cleaned and cleaned == cleaned.strip()
    assert all(fonts.drawable(c) or c in (" ", fonts.PLACEHOLDER) for c in cleaned)
    f = fonts.regular(15)
    assert fonts.length(fonts.fit(cleaned, f, width), f) <= max(width, 0) or width == 0


# --- with the system's fonts ----------------------------------------------------------------


@pytest.fixture
def script_fonts() -> None:
    """Skips (or fails in CI) unless the installed fonts cover every script of the names."""
    fonts.reset()
    lacking = {s: fonts.missing(n) for s, n in NAMES_BY_SCRIPT.items() if fonts.missing(n)}
    if lacking:
        message = f"no installed font for {lacking}: install {CI_FONT_PACKAGES} (Debian)"
        if in_ci():
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message)


def _ink(text: str, f: fonts.Font) -> Image.Image:
    im = Image.new("RGB", (400, 80), (0, 0, 0))
    fonts.draw(ImageDraw.Draw(im), (10, 10), text, f, (255, 255, 255))
    return im


@pytest.mark.usefixtures("script_fonts")
@pytest.mark.parametrize("script", sorted(NAMES_BY_SCRIPT))
def test_names_in_every_script_are_drawn_with_a_font_that_has_each_character(script: str) -> None:
    name = NAMES_BY_SCRIPT[script]
    assert fonts.clean(name) == name  # nothing replaced, nothing dropped
    f = fonts.bold(40)
    box = _ink(MISSING, fonts.font(fonts.BOLD, 40))  # the "missing glyph" box of the font
    assert box.getbbox() is not None
    for face, run in fonts.runs(name, fonts.BOLD):
        for ch in run.replace(" ", ""):
            assert ord(ch) in fonts.face_coverage(face), (ch, face)
    for ch in name.replace(" ", ""):
        if ch.isalpha() or not ch.isascii():
            drawn = _ink(ch, f)
            assert drawn.getbbox() is not None, f"{ch!r} drew nothing"
            assert ImageChops.difference(drawn, box).getbbox() is not None, f"{ch!r} is a box"


@pytest.mark.usefixtures("script_fonts")
def test_a_table_picture_shows_every_name_and_only_as_wide_as_drawn() -> None:
    names = tuple(NAMES_BY_SCRIPT[s] for s in ("Chinese", "Thai", "Arabic", "emoji"))
    with_names = decode(render_table(view(samples.mid_game()), names, lang=ENGLISH))
    placeholders = ("Player 1", "Player 2", "Player 3", "Player 4")
    without = decode(render_table(view(samples.mid_game()), placeholders, lang=ENGLISH))
    assert with_names.size == without.size
    assert ImageChops.difference(with_names, without).getbbox() is not None


@pytest.mark.skipif(not features.check("raqm") and not in_ci(), reason="Pillow without Raqm")
def test_arabic_letters_join_as_arabic_is_written() -> None:
    # Shaped, the word's letters take their joined forms: the drawing differs from the same
    # letters drawn one by one (isolated forms) side by side, and is narrower.
    assert features.check("raqm"), "Pillow has no Raqm layout: Arabic would not be shaped"
    f = fonts.bold(40)
    word = "محمد"
    joined = _ink(word, f)
    isolated = Image.new("RGB", joined.size, (0, 0, 0))
    d = ImageDraw.Draw(isolated)
    x = 10.0
    for ch in reversed(word):  # right to left, each letter alone
        fonts.draw(d, (x, 10), ch, f, (255, 255, 255))
        x += f.getlength(ch)
    assert ImageChops.difference(joined, isolated).getbbox() is not None
    assert fonts.length(word, f) < sum(f.getlength(ch) for ch in word)


def test_the_system_fonts_come_after_the_bundled_faces() -> None:
    chain = fonts.chain(fonts.BOLD)
    assert [f.path for f in chain.faces[:3]] == [fonts.BOLD, fonts.REGULAR, fonts.CONDENSED_BOLD]
    assert all(isinstance(f.path, Path) for f in chain.faces)

"""Text that is safe to draw: names with any Unicode, cut to fit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from render import fonts


def test_the_bundled_font_covers_latin_greek_cyrillic_arabic_hebrew() -> None:
    have = fonts.coverage()
    for ch in "AzÉßĳŒΔλЖжاש…–·▶★☠":
        assert ord(ch) in have, ch


def test_clean_keeps_what_it_can_draw_and_drops_the_rest() -> None:
    assert fonts.clean("Jenny") == "Jenny"
    assert fonts.clean("Jenny 🔥") == "Jenny"
    assert fonts.clean("山田") == "??"
    assert fonts.clean("a\x00b\u200bc\ufeff") == "abc"
    assert fonts.clean("  lots   of\tspace \n") == "lots of space"
    assert fonts.clean("\ud800x") == "x"
    assert fonts.clean("🔥", "Player 2") == "Player 2"
    assert fonts.clean("") == "?"


def test_clean_limits_piles_of_combining_marks() -> None:
    zalgo = "e" + "\u0301\u0302\u0303\u0304\u0305" * 10
    assert fonts.clean(zalgo) == "\u00e9\u0302\u0303"  # NFC joins e and its first mark


def test_fit_cuts_with_an_ellipsis_and_stays_within_the_width() -> None:
    f = fonts.bold(18)
    text = "A very long display name indeed"
    short = fonts.fit(text, f, 120)
    assert short.endswith(fonts.ELLIPSIS) and f.getlength(short) <= 120
    assert fonts.fit("Bob", f, 120) == "Bob"
    assert fonts.fit(text, f, 0) == ""


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60), st.integers(0, 300))
def test_any_text_cleans_to_something_drawable_within_any_width(text: str, width: int) -> None:
    cleaned = fonts.clean(text)
    assert cleaned and cleaned == cleaned.strip()
    have = fonts.coverage()
    assert all(ord(c) in have or c in " ?" for c in cleaned)
    f = fonts.regular(15)
    assert f.getlength(fonts.fit(cleaned, f, width)) <= max(width, 0) or width == 0

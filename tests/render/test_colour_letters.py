"""Every tile a picture draws names its colour by the letter of the reader's language: French
J (jaune), R (rouge), V (vert), B (bleu), M (meule); English Y, R, G, B, M, which are also the
engine's notation. The shape beside the letter stays the colour's.

Checked two ways: on the drawing's code path (the texts each tile's face is drawn with, for every
kind of picture, the face cache emptied first so that every face is drawn again), and on the
pixels (a tile's place in the picture shows, exactly, the face drawn with the reader's letters,
and not the one with the English letters).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageDraw

import i18n
from engine import Game, view
from engine.tiles import ALL_TILES, COLOUR, COLOURS, MATERIAL
from i18n import ENGLISH, Language
from render import draw, fonts, render_hand, render_table, render_turn_screen, samples, table, theme
from render.hand import hand_layout
from render.labels import COLOUR_CODES, ENGLISH_LETTERS, colour_letter, colour_letters
from render.layout import CANVAS_W, MARGIN, MINI_H, MINI_W
from render.narration import tile_name
from render.screen import turn_screen_layout
from render.table import table_layout
from tests.render.conftest import NAMES, decode, face_places
from tests.render.test_colour_blind import badge_shape
from tests.render.test_languages import pictures

FRENCH = i18n.catalogs.language("fr")
LANGUAGES = sorted(i18n.catalogs.languages)


def wide_base() -> Game:
    """A base of 22 tiles: blocks too narrow for a badge show the tile's short name."""
    tiles = ["Y2", "Y4", "Y6", "R2", "R4", "R6", "G2", "G4", "G6", "B2", "B4", "B6"]
    tiles += ["Y10", "Y20", "Y30", "Y40", "R10", "R20", "R30", "M200", "G1", "R7"]
    return Game(2, pyramid={(0, 2 * i): t for i, t in enumerate(tiles)}, hands=[["B7"], ["G10"]])


# --- one place: the letters of each language ------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_names_the_five_colours_by_five_different_letters(language: str) -> None:
    """Yellow, red, green, blue and the millstone never share a letter, and each is one
    letter the pictures' fonts can draw: the catalog's own letters, not the English ones a
    catalog whose letters collide would get."""
    lang = i18n.catalogs.language(language)
    letters = tuple(str(lang.pgettext("colour letter", c)) for c in COLOUR_CODES)
    assert len(set(letters)) == 5, letters
    assert colour_letters(lang).letters == letters
    for letter in letters:
        assert len(letter) == 1 and letter.isalpha(), letter
        assert fonts.missing(letter) == [] and fonts.missing(letter, fonts.CONDENSED_BOLD) == []


def test_french_letters_are_the_first_letters_of_the_french_colours_names() -> None:
    assert colour_letters(FRENCH).letters == ("J", "R", "V", "B", "M")
    for tile in ("Y40", "R40", "G40", "B40", "M200"):
        assert tile_name(tile, FRENCH)[0].upper() == colour_letter(tile[0], FRENCH), tile


def test_english_letters_are_the_engines_notation() -> None:
    assert colour_letters(ENGLISH) == ENGLISH_LETTERS
    assert ENGLISH_LETTERS.letters == (*COLOURS, "M")
    assert {ENGLISH_LETTERS.code(t) for t in ALL_TILES} == set(ALL_TILES)


def test_a_catalog_whose_letters_collide_falls_back_to_letters_that_differ(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A translation giving two colours one letter would make them look alike: the pictures
    keep five different letters (the English ones) and the log says why."""

    class Colliding:
        def pgettext(self, context: str, message: str) -> str:
            return {"Y": "B", "B": "B"}.get(message, message)

    lang = Language("xx", Colliding())  # type: ignore[arg-type]
    assert colour_letters(lang) == ENGLISH_LETTERS
    assert "not five different letters" in caplog.text


# --- the code path: what each face is drawn with --------------------------------------------------


@contextmanager
def face_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, set[str]]]:
    """Per tile, the texts its faces were drawn with while inside (every face drawn anew)."""
    seen: dict[str, set[str]] = {}
    drawing: list[str] = []
    make_face: Callable[..., Image.Image] = draw._face
    pillow_text: Callable[..., None] = ImageDraw.ImageDraw.text

    def watched_face(tile: str, *args: Any) -> Image.Image:
        drawing.append(tile)
        try:
            return make_face(tile, *args)
        finally:
            drawing.pop()

    def watched_text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        if drawing:
            seen.setdefault(drawing[-1], set()).add(str(text))
        pillow_text(self, xy, text, *args, **kw)

    monkeypatch.setattr(draw, "_face", watched_face)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", watched_text)
    monkeypatch.setattr(draw, "_cache", OrderedDict())  # no face drawn before counts
    table._legend_strip.cache_clear()
    yield seen
    table._legend_strip.cache_clear()


def weight_or_code(tile: str, letters: Any) -> set[str]:
    """What a face may say: its letter and its weight (a badge and a large number), or its
    short name (a narrow block)."""
    return {letters[COLOUR[tile]], tile[1:], letters.code(tile)}


@pytest.mark.parametrize("lang", [FRENCH, ENGLISH], ids=["fr", "en"])
def test_every_picture_kind_draws_each_tile_with_the_readers_letters(
    monkeypatch: pytest.MonkeyPatch, lang: Language
) -> None:
    """Tables (with their legend and tray), hands, turn screens, the animations of a turn,
    the summary of a match, and a base too wide for badges: every tile's face is drawn with
    its colour's letter in the reader's language, and with nothing else but its weight."""
    letters = colour_letters(lang)
    kinds: dict[str, Callable[[], object]] = {
        "every picture": lambda: pictures(lang),
        "wide base": lambda: render_table(view(wide_base()), NAMES, lang=lang),
    }
    for kind, make in kinds.items():
        with face_texts(monkeypatch) as seen:
            make()
        assert set(seen) >= {"Y4", "R20", "B100", "G1", "B7", "M200"}, kind  # the legend's
        for tile, texts in seen.items():
            assert texts and texts <= weight_or_code(tile, letters), (kind, tile, texts)
        said = set().union(*seen.values())
        if lang == FRENCH:
            assert {"J", "V", "R", "B", "M"} <= said, kind
            assert not said & {"Y", "G"}, kind
            assert not any(t[0] in "YG" and t[1:].isdigit() for t in said), kind
        else:
            assert {"Y", "G", "R", "B", "M"} <= said, kind
            assert not said & {"J", "V"}, kind
        if kind == "wide base":
            assert letters.code("Y30") in said and letters.code("G4") in said


@pytest.mark.parametrize("lang", [FRENCH, ENGLISH], ids=["fr", "en"])
@pytest.mark.parametrize("colour", ["Y", "R", "G", "B"])
def test_the_shape_beside_the_letter_stays_the_colours(colour: str, lang: Language) -> None:
    """Yellow keeps its circle under J as under Y: the shape follows the colour, not the
    letter."""
    assert badge_shape(f"{colour}40", lang) == theme.TILE_SHAPE[colour]


# --- the pixels -----------------------------------------------------------------------------------


def shown(picture: Image.Image, tile: str, size: tuple[int, int], lang: Language) -> bool:
    """Whether ``picture`` shows ``tile``'s face drawn with ``lang``'s letters somewhere."""
    return bool(face_places(picture, draw.tile_set(*size, lang=lang), tile))


def test_a_french_table_shows_the_french_faces_and_an_english_one_the_english_faces() -> None:
    v = view(samples.mid_game())
    size = table_layout(v, NAMES, lang=FRENCH).pyramid.block_size
    french = decode(render_table(v, NAMES, lang=FRENCH))
    english = decode(render_table(v, NAMES, lang=ENGLISH))
    yellow = [t for t in v.pyramid.values() if t[0] == "Y"]
    green = [t for t in v.pyramid.values() if t[0] == "G"]
    assert yellow and green
    for tile in (*yellow, *green):
        assert shown(french, tile, size, FRENCH) and not shown(french, tile, size, ENGLISH), tile
        assert shown(english, tile, size, ENGLISH) and not shown(english, tile, size, FRENCH)
    red = next(t for t in v.pyramid.values() if t[0] == "R")  # rouge keeps its R
    assert shown(french, red, size, ENGLISH) and shown(french, red, size, FRENCH)


def test_the_legend_and_the_tray_show_the_french_faces() -> None:
    v = view(samples.mid_game())
    assert v.removed
    french = decode(render_table(v, NAMES, lang=FRENCH))
    lay = table_layout(v, NAMES, lang=FRENCH)
    legend = french.crop((MARGIN, lay.legend_y, CANVAS_W - MARGIN, french.height))
    assert shown(legend, "Y4", (MINI_W, MINI_H), FRENCH)
    assert not shown(legend, "Y4", (MINI_W, MINI_H), ENGLISH)
    assert shown(legend, "G1", (MINI_W, MINI_H), FRENCH)
    assert not shown(legend, "G1", (MINI_W, MINI_H), ENGLISH)
    assert lay.tray_y is not None
    tray = french.crop((0, lay.tray_y, CANVAS_W, lay.legend_y))
    for tile in v.removed:
        assert shown(tray, tile, (MINI_W, MINI_H), FRENCH), tile
        if COLOUR[tile] in "YG":
            assert not shown(tray, tile, (MINI_W, MINI_H), ENGLISH), tile


def test_a_french_hand_and_turn_screen_show_the_french_faces() -> None:
    me = view(samples.jenny(), 0)
    assert me.hand is not None
    yellow = next(t for t in me.hand if t[0] == "Y")
    slot = hand_layout(me).slots[0]
    size = (slot[2] - slot[0], slot[3] - slot[1])
    hand = decode(render_hand(me, "Jenny", lang=FRENCH))
    assert shown(hand, yellow, size, FRENCH) and not shown(hand, yellow, size, ENGLISH)
    assert shown(decode(render_hand(me, "Jenny", lang=ENGLISH)), yellow, size, ENGLISH)

    slot = turn_screen_layout(me, NAMES, lang=FRENCH).slots[0]
    size = (slot[2] - slot[0], slot[3] - slot[1])
    screen = decode(render_turn_screen(me, NAMES, lang=FRENCH))
    assert shown(screen, yellow, size, FRENCH) and not shown(screen, yellow, size, ENGLISH)


def test_narrow_blocks_show_the_french_short_names() -> None:
    v = view(wide_base())
    size = table_layout(v, NAMES, lang=FRENCH).pyramid.block_size
    assert size[0] < draw.COMPACT_W  # too narrow for a badge: "J30" drawn whole
    french = decode(render_table(v, NAMES, lang=FRENCH))
    for tile in ("Y30", "G4", "G1"):
        assert MATERIAL[tile]
        assert shown(french, tile, size, FRENCH) and not shown(french, tile, size, ENGLISH)

"""Every picture in French: each word comes from the catalog, every text fits where it is drawn
(nothing cut with an ellipsis, nothing past the picture's edge), the sizes stay within the bounds
the English pictures keep, and the texts stay readable once a phone shows them 400 px wide.

What fits is measured on the real drawing: :func:`drawn_texts` watches the two functions every
text goes through (``fonts.fit``, which cuts a text that is too long, and ``fonts.draw``), each
called through unchanged, and records what they were given. English is measured the same way,
so a cut that English has too (a long player name) is not blamed on the translation.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw, ImageSequence

import i18n
from engine import Fall, Game, Play, View, parse_pos, view
from i18n import Catalogs, Language
from render import (
    fonts,
    render_hand,
    render_mayhem,
    render_spot_screen,
    render_table,
    render_turn_screen,
    samples,
    table,
)
from render.account import narrate
from render.layout import CAPTION_LINE_H, INFO_H, LAST_MOVE_H, MARGIN, READABLE_CAP, STATUS_H
from render.legibility import first_glyph_height, phone
from render.summary import Moment, render_summary
from render.table import table_layout
from render.tilesleft import TilesLeft

NAMES = ("Jenny", "Bob", "Zoë", "Amir")
"""Ordinary names: nothing in English is cut, so nothing in French may be."""
FRENCH = i18n.catalogs.language("fr")
ENGLISH = i18n.catalogs.language("en")
MAX_W = 1000
"""The widest picture (tests/render/test_cli.py: every sample at most 1000 px wide)."""
MAX_H = 1100
"""The tallest table picture (tests/render/test_layout.py)."""


@dataclass
class Drawn:
    """What the pictures drawn inside :func:`drawn_texts` asked of the fonts."""

    picture: str = ""
    """The picture being drawn (set by :func:`pictures`)."""
    texts: list[str] = field(default_factory=list)
    """Every text drawn."""
    cut: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Per picture, ``(text, what was drawn instead)`` for every text too long for its room."""
    outside: list[tuple[str, str, float, float, int]] = field(default_factory=list)
    """``(picture, text, left, right, picture width)`` for every text drawn past an edge."""


@contextmanager
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    seen = Drawn()
    fit: Callable[..., str] = fonts.fit
    draw: Callable[..., None] = fonts.draw

    def watched_fit(text: str, f: fonts.Font, width: float) -> str:
        result = fit(text, f, width)
        if result != text:
            seen.cut.setdefault(seen.picture, []).append((text, result))
        return result

    def watched_draw(
        d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, f: fonts.Font, *a: Any
    ) -> None:
        seen.texts.append(text)
        anchor = a[1] if len(a) > 1 else "la"
        width = fonts.length(text, f)
        left = xy[0] - {"l": 0.0, "m": width / 2, "r": width}.get(anchor[0], 0.0)
        room = d.im.size[0]
        if text and (left < 0 or left + width > room):
            seen.outside.append((seen.picture, text, left, left + width, room))
        draw(d, xy, text, f, *a)

    monkeypatch.setattr(fonts, "fit", watched_fit)
    monkeypatch.setattr(fonts, "draw", watched_draw)
    table._legend_strip.cache_clear()  # the legend is drawn once per language: draw it again
    yield seen
    table._legend_strip.cache_clear()


def frames_of(data: bytes) -> list[Image.Image]:
    return [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]


def curse_turn() -> tuple[View, Game]:
    """Amir plays green 10 on yellow 10 and red 10: a curse sends the three 10s to Zoë, who
    then chooses where blue 30 falls (RULES 5.5)."""
    game = Game.from_dict(
        {
            "players": 3,
            "options": {"curse": True, "fire_die": True},
            "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
            "hands": [["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
            "piles": [["R20"], ["G20"], ["B10"]],
            "active": 0,
        }
    )
    before = view(game)
    game.apply(Play("G10", (1, 1)))
    game.apply(Fall("left"))
    return before, game


def wood_fire() -> tuple[View, Game]:
    """The rulebooks' wood fire: the blue blowtorch burns three woods and a straw."""
    pyramid = {
        "0,-2": "G100", "0,0": "Y30", "0,2": "R120", "0,4": "G6", "0,6": "B30",
        "1,1": "Y1", "1,3": "R40", "1,5": "B20",
    }  # fmt: skip
    game = Game(
        2,
        pyramid={parse_pos(k): t for k, t in pyramid.items()},
        hands=[["B7", "Y2"], ["B2"]],
        piles=[[], []],
    )
    before = view(game)
    game.apply(Play("B7", parse_pos("2,4")))
    return before, game


def pictures(lang: Language, seen: Drawn | None = None) -> dict[str, list[Image.Image]]:
    """Every kind of picture, in ``lang``: tables (empty, in play, a fall, a full pyramid, the
    end of a match), hands, turn screens (a play, a fall, waiting for someone else), the
    animations of three turns (a collapse and an explosion, a curse, a wood fire), alone and
    ending on the board, and a match's summary. ``seen`` learns which picture is drawn."""
    mid = samples.mid_game()
    before, events, after = samples.jenny_turn()
    curse_before, cursed = curse_turn()
    fire_before, burnt = wood_fire()
    title = lang.gettext("Table #{number}").format(number=12)
    png: dict[str, Callable[[], bytes]] = {
        "empty table": lambda: render_table(samples.empty_table(), NAMES, title=title, lang=lang),
        "mid game": lambda: render_table(view(mid), NAMES, title=title, lang=lang),
        "fall choice": lambda: render_table(
            view(samples.jenny_fall()), NAMES, title=title, lang=lang
        ),
        "full pyramid": lambda: render_table(view(samples.full_pyramid()), NAMES, lang=lang),
        "match over": lambda: render_table(
            view(samples.match_over()), NAMES, title=title, lang=lang
        ),
        "after mayhem": lambda: render_table(view(after), NAMES, title=title, lang=lang),
        "after curse": lambda: render_table(view(cursed), NAMES, title=title, lang=lang),
        "hand to play": lambda: render_hand(view(samples.jenny(), 0), NAMES[0], lang=lang),
        "hand waiting": lambda: render_hand(view(mid, 2), NAMES[2], lang=lang),
        "hand won": lambda: render_hand(view(samples.full_pyramid(), 0), NAMES[0], lang=lang),
        "screen play": lambda: render_turn_screen(view(mid, 1), NAMES, title=title, lang=lang),
        "screen waiting": lambda: render_turn_screen(view(mid, 3), NAMES, title=title, lang=lang),
        "screen fall": lambda: render_turn_screen(
            view(samples.jenny_fall(), 0), NAMES, title=title, lang=lang
        ),
        "screen fall waiting": lambda: render_turn_screen(
            view(samples.jenny_fall(), 1), NAMES, title=title, lang=lang
        ),
        "screen spots": lambda: render_spot_screen(
            view(mid, 1), NAMES, "Y6", title=title, lang=lang
        ),
    }
    found: dict[str, list[Image.Image]] = {}
    for name, make in png.items():
        if seen is not None:
            seen.picture = name
        found[name] = [decode(make())]
    turns = {
        "collapse and explosion": (before, events, after),
        "curse": (curse_before, list(cursed.turn_events), cursed),
        "wood fire": (fire_before, list(burnt.turn_events), burnt),
    }
    for turn, (was, evs, game) in turns.items():
        for ending in (False, True):
            name = f"{turn} animation{' on the board' if ending else ''}"
            if seen is not None:
                seen.picture = name
            gif = render_mayhem(
                was, evs, NAMES, after=view(game) if ending else None, title=title, lang=lang
            )
            assert gif is not None, name
            found[name] = frames_of(gif)
    if seen is not None:
        seen.picture = "summary"
    over = samples.match_over()
    left = tuple(TilesLeft(tuple(h), tuple(p)) for h, p in zip(over.hands, over.piles, strict=True))
    moments = [
        Moment(samples.empty_table(), title, lang.gettext("The deal")),
        Moment(view(after), title, narrate(events, NAMES, lang, viewer=None)),
        Moment(view(over), title, lang.gettext("Tiles left"), left),
    ]
    found["summary"] = frames_of(render_summary(moments, NAMES, lang=lang))
    return found


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def english() -> Drawn:
    with pytest.MonkeyPatch.context() as mp, drawn_texts(mp) as seen:
        pictures(ENGLISH, seen)
    return seen


def test_french_texts_fit_every_picture_where_english_ones_do(
    monkeypatch: pytest.MonkeyPatch, english: Drawn
) -> None:
    """Nothing is cut in French that is not cut in English, and every text fits whole within
    the picture's edges."""
    assert english.outside == []
    cut_in_english = {name: len(cuts) for name, cuts in english.cut.items()}
    assert set(cut_in_english) <= {"after mayhem", "after curse"} | {
        name for name in cut_in_english if "on the board" in name or name == "summary"
    }
    with drawn_texts(monkeypatch) as seen:
        drawn = pictures(FRENCH, seen)
    longer = {
        name: cuts for name, cuts in seen.cut.items() if len(cuts) > cut_in_english.get(name, 0)
    }
    assert longer == {}, "French texts cut with an ellipsis where English ones fit"
    assert seen.outside == [], "French texts past the picture's edge"
    for name, frames in drawn.items():
        for frame in frames:
            assert frame.width <= MAX_W and frame.height <= MAX_H, name


def test_no_picture_cuts_a_text_in_either_language(
    monkeypatch: pytest.MonkeyPatch, english: Drawn
) -> None:
    """Every text of every picture is drawn whole: the last move's lines after a collapse, a
    curse or a fire, and the captions of the animations, in English and in French."""
    assert english.cut == {}
    with drawn_texts(monkeypatch) as seen:
        pictures(FRENCH, seen)
    assert seen.cut == {}


def test_the_pictures_words_are_french(monkeypatch: pytest.MonkeyPatch) -> None:
    with drawn_texts(monkeypatch) as seen:
        pictures(FRENCH)
    said = "\n".join(seen.texts)
    for french in (
        "Dernier coup\u00a0: Jenny pose le charbon jaune\u00a0(1)",  # the last move
        "main 5 · pioche 0 · score 3",  # a chip's counts
        "Effondrement\u00a0!",
        "Explosion\u00a0!",
        "Malédiction\u00a0!",
        "Feu de paille et de bois\u00a0!",  # a blowtorch burns three woods and a straw
        "Hors du jeu\u00a0:",
        "meule\u00a0: toutes les couleurs",  # the legend
        "paille",
        "chalumeau",
        "charbon",  # the hand's labels: "charbon" / "jaune (1)", broken to fit
        "Votre main (cachée aux autres)",
        "Où glisse le charbon jaune\u00a0(1)\u00a0? ◀ à gauche ou à droite ▶",
        "Jenny gagne la partie\u00a0! Bob a gagné la manche 2.",
    ):
        assert french in said, french
    for english in ("Last move", "Collapse", "pile", "hand ", "Your ", "straw", "wins"):
        assert english not in said, english


def test_french_pictures_keep_the_english_sizes_but_for_the_last_moves_lines() -> None:
    """A layout depends on the words only through the number of lines of the last move: the
    hand, the empty table and the frames of an animation alone have exactly the English
    sizes."""
    french, english = pictures(FRENCH), pictures(ENGLISH)
    for name, frames in french.items():
        sizes = [f.size for f in frames]
        reference = [f.size for f in english[name]]
        if name.startswith(("hand", "empty")) or name.endswith("animation"):
            assert sizes == reference, name
        else:  # the last move takes one to three lines
            for (w, h), (ew, eh) in zip(sizes, reference, strict=True):
                assert w == ew and abs(h - eh) <= 2 * LAST_MOVE_H, name


def test_french_headers_and_captions_are_readable_at_phone_width() -> None:
    """The header lines and an animation's caption, measured as test_phone.py measures the
    English ones: capitals at least READABLE_CAP px tall once shown 400 px wide."""
    v = view(samples.mid_game())
    img = decode(render_table(v, NAMES, title="Table n° 2", lang=FRENCH))
    lay = table_layout(v, NAMES, title="Table n° 2", lang=FRENCH)
    small, scale = phone(img)
    right = img.width - MARGIN
    assert lay.last_move_y is not None
    for what, box in {
        "status 'À Bob de jouer'": (MARGIN, lay.status_y, right, lay.status_y + STATUS_H),
        "turn line 'Tour 2'": (MARGIN, lay.info_y, right, lay.info_y + INFO_H),
        "last move 'Dernier coup'": (
            MARGIN,
            lay.last_move_y,
            right,
            lay.last_move_y + LAST_MOVE_H,
        ),
    }.items():
        assert first_glyph_height(small, box, scale) >= READABLE_CAP, what
    before, events, after = samples.jenny_turn()
    gif = render_mayhem(before, events, NAMES, after=view(after), lang=FRENCH)
    assert gif is not None
    frame = frames_of(gif)[4]  # "Effondrement !" and what went under Jenny's pile
    small, scale = phone(frame)
    for line in range(2):
        top = MARGIN + line * CAPTION_LINE_H
        box = (MARGIN, top, frame.width - MARGIN, top + CAPTION_LINE_H)
        assert first_glyph_height(small, box, scale) >= READABLE_CAP, line


def add_catalog(folder: Path, language: str, words: dict[tuple[str | None, str], str]) -> None:
    """A compiled catalog for ``language`` in ``folder``, as a translator adds one: from the
    template, with ``words`` translated (the rest left in English)."""
    with (i18n.LOCALES_DIR / f"{i18n.DOMAIN}.pot").open("rb") as template:
        catalog: Catalog = read_po(template, locale=language)
    for entry in catalog:
        if entry.id and (entry.context, entry.id) in words:
            entry.string = words[(entry.context, entry.id)]
    target = folder / language / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / f"{i18n.DOMAIN}.mo").open("wb") as mo:
        write_mo(mo, catalog)


def test_a_new_language_reaches_the_pictures_with_no_code_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A German catalog dropped into a folder of catalogs: the pictures speak it."""
    add_catalog(
        tmp_path,
        "de",
        {
            (None, "Last move: {account}"): "Letzter Zug: {account}",
            (None, "{player} played {tile}"): "{player} legt {tile}",
            ("tile in a sentence", "yellow coal ({weight})"): "die gelbe Kohle ({weight})",
            ("material", "straw"): "Stroh",
        },
    )
    german = Catalogs(tmp_path).for_locale("de")
    assert german.code == "de"
    with drawn_texts(monkeypatch) as seen:
        render_table(view(samples.mid_game()), NAMES, lang=german)
    said = "\n".join(seen.texts)
    assert "Letzter Zug: Jenny legt die gelbe Kohle (1)" in said
    assert "Stroh" in said


def test_french_elides_de_before_a_name_that_begins_with_a_vowel() -> None:
    """ "La pioche d'Alice", "la pioche de Bob": the catalog's own French sentence, formatted
    with each name; the name itself is never changed."""
    fr = i18n.catalogs.language("fr")
    template = fr.ngettext(
        "{tiles} went under {player}'s pile", "{tiles} went under {player}'s pile", 2
    )
    assert "de {player}" in template  # the sentence as translated
    assert template.format(tiles="deux tuiles", player="Alice").endswith("pioche d'Alice")
    assert template.format(tiles="deux tuiles", player="Élodie").endswith("pioche d'Élodie")
    assert template.format(tiles="deux tuiles", player="Bob").endswith("pioche de Bob")
    # Only the template's "de" before the placeholder: a name's own words stay as written.
    said = template.format(tiles="deux tuiles", player="Jean de Arc")
    assert said.endswith("pioche de Jean de Arc")
    # English is untouched.
    english = i18n.catalogs.language("en").gettext("{player}'s {tile}")
    assert english.format(player="Alice", tile="red 6") == "Alice's red 6"

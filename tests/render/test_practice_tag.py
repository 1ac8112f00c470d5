"""A practice table (hints on, not rated) is tagged on its pictures' title row, in gold at its
right end, on the table's picture and on a player's screens alike, and its descriptions say it;
without the tag the pictures are as before."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

import i18n
from engine import Game, view
from i18n import ENGLISH
from render import Chips, alttext, render_spot_screen, render_table, render_turn_screen, theme
from render.table import practice_tag, table_layout

FRENCH = i18n.catalogs.language("fr")
NAMES = ["Ann", "Bob", "Cy"]
TITLE = "Flaming Pyramids · table #3"
PRACTICE = Chips(practice=True)


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    with Image.open(io.BytesIO(a)) as x, Image.open(io.BytesIO(b)) as y:
        return ImageChops.difference(x.convert("RGB"), y.convert("RGB")).getbbox()


def test_the_tag_is_drawn_on_the_title_row_only() -> None:
    v = view(Game.new(3, 2), None)
    plain = render_table(v, NAMES, title=TITLE, lang=ENGLISH)
    tagged = render_table(v, NAMES, title=TITLE, lang=ENGLISH, chips=PRACTICE)
    box = changed_box(plain, tagged)
    lay = table_layout(v, NAMES, title=TITLE, lang=ENGLISH)
    assert box is not None and lay.title_y is not None
    x0, y0, x1, y1 = box
    assert lay.title_y - 4 <= y0 and y1 <= lay.status_y  # the title's row, nothing else
    assert x0 > lay.width // 3  # at its right end, the title itself left as it was
    with Image.open(io.BytesIO(tagged)) as img:
        rgb = img.convert("RGB")
        drawn = {rgb.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)}
    assert theme.GOLD in drawn


def test_the_players_screens_are_tagged_too() -> None:
    game = Game.new(3, 2)
    assert game.pending is not None
    me = game.pending.player
    mine = view(game, me)
    plain = render_turn_screen(mine, NAMES, title=TITLE, lang=ENGLISH)
    assert render_turn_screen(mine, NAMES, title=TITLE, lang=ENGLISH, chips=PRACTICE) != plain
    assert mine.hand is not None
    tile = mine.hand[0]
    spots = render_spot_screen(mine, NAMES, tile, title=TITLE, lang=ENGLISH)
    assert render_spot_screen(mine, NAMES, tile, title=TITLE, lang=ENGLISH, chips=PRACTICE) != spots


def test_the_tag_in_words_and_its_short_form() -> None:
    assert practice_tag(ENGLISH) == ("☼ practice table: hints on, not rated", "☼ not rated")
    assert practice_tag(FRENCH) == ("☼ entraînement · conseils · non classée", "☼ non classée")
    v = view(Game.new(3, 2), None)
    # A title too long for both: the tag shrinks to its short form, the title is cut.
    long = render_table(v, NAMES, title="T" * 200, lang=ENGLISH, chips=PRACTICE)
    assert long != render_table(v, NAMES, title="T" * 200, lang=ENGLISH)


def test_the_descriptions_say_it_is_a_practice_table() -> None:
    game = Game.new(3, 2)
    v = view(game, None)
    said = alttext.table_text(v, NAMES, title=TITLE, lang=ENGLISH, chips=PRACTICE)
    assert "A practice table: hints on, not rated." in said
    assert "practice" not in alttext.table_text(v, NAMES, title=TITLE, lang=ENGLISH)
    french = alttext.table_text(v, NAMES, title=TITLE, lang=FRENCH, chips=PRACTICE)
    assert "Table d'entraînement, avec conseils, non classée." in french
    assert game.pending is not None
    mine = view(game, game.pending.player)
    assert "practice table" in alttext.screen_text(mine, NAMES, lang=ENGLISH, chips=PRACTICE)
    assert mine.hand is not None
    spots = alttext.spots_text(mine, NAMES, mine.hand[0], None, lang=ENGLISH, chips=PRACTICE)
    assert "practice table" in spots

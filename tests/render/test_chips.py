"""The players' chips beyond the game (issue 31): a player away is tagged with the day they come
back, the chip of whoever decides next in a paused game says it is paused, in the reader's
language; with no such chips the picture is the game's alone, as before."""

from __future__ import annotations

import i18n
from engine import Game, view
from i18n import ENGLISH
from render import NO_CHIPS, Chips, alttext, render_table, render_turn, render_turn_screen
from render.table import _tag, crowned

FRENCH = i18n.catalogs.language("fr")
DEC_24 = 1_798_110_000.0  # 24 December 2026, 11:00 UTC
NAMES = ["Ann", "Bob", "Cy"]


def test_an_away_seat_is_tagged_with_its_day_and_the_paused_decider_with_the_pause() -> None:
    v = view(Game.new(3, 1), None)
    assert v.pending is not None
    me, other = v.pending.player, (v.pending.player + 1) % 3
    chips = Chips({other: DEC_24}, paused=True)
    won = crowned(v)
    assert _tag(v, other, won, ENGLISH, chips) == ("☾ away until Dec 24", "☾")
    assert _tag(v, other, won, FRENCH, chips) == ("☾ retour le 24 déc.", "☾")
    assert _tag(v, me, won, ENGLISH, chips) == ("‖ paused", "‖")
    assert _tag(v, me, won, FRENCH, chips) == ("‖ en pause", "‖")
    # A decider who is away is tagged away: the computer plays for them, pause or not.
    assert _tag(v, me, won, ENGLISH, Chips({me: DEC_24}, paused=True))[0].startswith("☾")
    assert _tag(v, me, won, ENGLISH, NO_CHIPS) == ("▶ to play", "▶")


def test_chips_change_the_picture_and_none_leave_it_as_it_was() -> None:
    game = Game.new(3, 2)
    v = view(game, None)
    plain = render_table(v, NAMES, lang=ENGLISH)
    assert render_table(v, NAMES, lang=ENGLISH, chips=NO_CHIPS) == plain
    assert render_table(v, NAMES, lang=ENGLISH, chips=Chips({1: DEC_24})) != plain
    assert render_table(v, NAMES, lang=ENGLISH, chips=Chips(paused=True)) != plain
    turn = render_turn(v, [], v, NAMES, lang=ENGLISH, chips=Chips({1: DEC_24}))
    assert turn.data == render_table(v, NAMES, lang=ENGLISH, chips=Chips({1: DEC_24}))


def test_a_players_turn_screen_shows_the_same_chips() -> None:
    mine = view(Game.new(3, 2), 0)
    plain = render_turn_screen(mine, NAMES, lang=ENGLISH)
    assert render_turn_screen(mine, NAMES, lang=ENGLISH, chips=NO_CHIPS) == plain
    assert render_turn_screen(mine, NAMES, lang=ENGLISH, chips=Chips({1: DEC_24})) != plain


def test_the_pictures_descriptions_say_what_the_chips_show() -> None:
    v = view(Game.new(3, 2), None)
    chips = Chips({1: DEC_24}, paused=True)
    said = alttext.table_text(v, NAMES, lang=ENGLISH, chips=chips)
    assert "Bob (away until Dec 24)" in said and "The game is paused: no clock runs." in said
    assert "away" not in alttext.table_text(v, NAMES, lang=ENGLISH)
    french = alttext.table_text(v, NAMES, lang=FRENCH, chips=chips)
    assert "Bob (absent jusqu'au 24 déc.)" in french
    assert "La partie est en pause\u00a0: le temps ne court plus." in french
    mine = view(Game.new(3, 2), 0)
    assert "Bob (away until Dec 24)" in alttext.screen_text(mine, NAMES, lang=ENGLISH, chips=chips)

"""The last move drawn on a picture: the turn's account a line per event, each line whole (broken
onto rows with a hanging indent, never cut with an ellipsis), and when a cascade needs more rows
than the picture gives it, its first lines and how many more there are."""

from __future__ import annotations

import pytest

import i18n
from engine import Event, Fall, Game, Play, view
from i18n import ENGLISH
from render import render_table
from render.layout import LAST_MOVE_LINES
from render.scene import summary
from tests.render.test_languages import drawn_texts

FRENCH = i18n.catalogs.language("fr")
NAMES = ["Computer 1 (hard)", "Bob", "Carol the Magnificent"]


def chain(*falls: str) -> Game:
    """Seat 0 plays green 40 on yellow 6 and blue 10: too heavy, it falls; falling right, it is
    too heavy for red 4 and blue 6 and falls again (RULES 5.2)."""
    game = Game(
        3,
        pyramid={(0, 2): "Y2", (0, 4): "R4", (0, 6): "B6", (1, 3): "Y6", (1, 5): "B10"},
        hands=[["G40", "B2"], ["R2"], ["G2"]],
        piles=[["R20"], ["G20"], ["B20"]],
    )
    game.apply(Play("G40", (2, 4)))
    for side in falls:
        game.apply(Fall(side))
    return game


def events(game: Game) -> list[Event]:
    return list(game.turn_events)


def test_each_event_of_the_last_move_is_a_whole_line() -> None:
    assert summary(events(chain("right", "left")), NAMES, lang=ENGLISH, viewer=None) == (
        "Last move: Computer 1 (hard) played green 40.",
        "Green 40 collapsed (too heavy for the two tiles below): yellow 6 and blue 10",
        "   went under Computer 1 (hard)'s pile.",
        "Green 40 fell right.",
        "Green 40 collapsed again (too heavy for the two tiles below): red 4 and",
        "   blue 6 went under Computer 1 (hard)'s pile.",
        "Green 40 fell left.",
    )


def test_a_last_move_longer_than_its_rows_shows_its_first_lines_whole_and_counts_the_rest() -> None:
    rows = summary(events(chain("right", "left")), NAMES, lang=FRENCH, viewer=None)
    assert len(rows) <= LAST_MOVE_LINES
    assert rows[0] == "Dernier coup\u00a0: Computer 1 (hard) pose le vert\u00a040."
    assert rows[-2] == "Le vert\u00a040 glisse à droite."
    assert rows[-1] == "… et 2 autres événements."
    assert not [row for row in rows[:-1] if "…" in row]


@pytest.mark.parametrize("lang", [ENGLISH, FRENCH], ids=["en", "fr"])
def test_the_table_picture_draws_the_last_move_without_cutting_a_line(
    monkeypatch: pytest.MonkeyPatch, lang: i18n.Language
) -> None:
    v = view(chain("right", "left"))
    with drawn_texts(monkeypatch) as seen:
        render_table(v, NAMES, title="Table #2", lang=lang)
    assert seen.cut == {} and seen.outside == []
    rows = summary(v.last_events, NAMES, lang=lang, viewer=None)
    assert [t for t in seen.texts if t in rows] == list(rows)

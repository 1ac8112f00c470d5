"""The line of a hint (:mod:`bot.show.hinttexts`), from the figures of a hint: the move, then
one reason that is true of the figures (a play that fits, one that costs tiles this turn but
pays later, a fall), in English and in French. (The figures themselves, from the coach, are
checked in ``tests/bot/test_hints.py``; the line as a player reads it end to end in
``tests/e2e/test_hints.py``.)"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

import i18n
from bot.service import Hint, HintOption
from bot.show.hinttexts import NOTEWORTHY, hint_line, whole
from engine import Fall, Play
from i18n import ENGLISH

FRENCH = i18n.catalogs.language("fr")


def play(tile: str, spot: str, *, now: float, later: float, others: float = 5.0) -> HintOption:
    """A play on the spot lettered ``spot`` (its place in the pyramid plays no part here)."""
    fits = now == 0
    return HintOption(Play(tile, (0, ord(spot) * 2)), spot, fits, now, later, others)


def fall(side: str, *, now: float, later: float, others: float = 5.0) -> HintOption:
    return HintOption(Fall(side), None, False, now, later, others)


def hint(best: HintOption, *others: HintOption, players: int = 3, opened: int = 6) -> Hint:
    kind = "fall" if isinstance(best.action, Fall) else "play"
    alternatives = tuple(sorted(others, key=lambda o: o.now))
    return Hint(1, 11, 5, kind, best, alternatives, opened, players)


def test_a_play_that_fits_when_no_other_does() -> None:
    h = hint(play("Y40", "B", now=0, later=4), play("R100", "A", now=3, later=7))
    assert hint_line(h, ENGLISH) == (
        "💡 **Play yellow 40 on spot B.** It fits, and no other play does: any other sends at "
        "least 3 tiles under your pile."
    )
    assert hint_line(h, FRENCH) == (
        "💡 **Posez le jaune\u00a040 sur l'emplacement B.** La tuile tient, et aucun autre coup "
        "ne tient\u00a0: tout autre coup envoie au moins 3 tuiles sous votre pioche."
    )


def test_a_play_that_fits_and_keeps_more_off_the_pile_than_another_that_fits() -> None:
    h = hint(play("G20", "C", now=0, later=3.1), play("Y20", "A", now=0, later=5.2))
    assert hint_line(h, ENGLISH) == (
        "💡 **Play green 20 on spot C.** It fits, and after everyone's next turn it leaves you "
        "about 2 tiles fewer than yellow 20 on A, which fits."
    )
    # Nothing to tell between two plays that fit and come to the same: it fits, that is all.
    same = hint(play("G20", "C", now=0, later=3.1), play("Y20", "A", now=0, later=3.4))
    assert hint_line(same, ENGLISH) == "💡 **Play green 20 on spot C.** It fits."


def test_a_play_that_costs_a_tile_now_but_pays_later() -> None:
    # Mine: fewer tiles for me after everyone's next turn than the play that fits.
    mine = hint(play("R100", "C", now=1, later=3.0), play("Y20", "A", now=0, later=4.6))
    assert hint_line(mine, ENGLISH) == (
        "💡 **Play red 100 on spot C.** It sends 1 tile under your pile this turn, but after "
        "everyone's next turn it leaves you about 2 tiles fewer than yellow 20 on A, which fits."
    )
    assert hint_line(mine, FRENCH) == (
        "💡 **Posez le rouge\u00a0100 sur l'emplacement C.** Ce coup envoie 1 tuile sous votre "
        "pioche pendant ce tour, mais après le prochain tour de chacun il vous laisse environ 2 "
        "tuiles de moins que le jaune\u00a020 en A, qui tient."
    )
    # Theirs: no fewer for me, but more for each of the others.
    theirs = hint(
        play("R100", "C", now=1, later=4.5, others=7.0),
        play("Y20", "A", now=0, later=4.6, others=5.1),
    )
    assert hint_line(theirs, ENGLISH) == (
        "💡 **Play red 100 on spot C.** It sends 1 tile under your pile this turn, but after "
        "everyone's next turn it leaves each other player about 2 tiles more than yellow 20 on "
        "A, which fits."
    )
    two = hint(
        play("R100", "C", now=1, later=4.5, others=7.0),
        play("Y20", "A", now=0, later=4.6, others=5.1),
        players=2,
    )
    assert "it leaves the other player about 2 tiles more" in hint_line(two, ENGLISH)
    # Neither gain is worth telling: it says only that the expert looks further.
    neither = hint(play("R100", "C", now=2, later=4.5), play("Y20", "A", now=0, later=4.6))
    assert hint_line(neither, ENGLISH) == (
        "💡 **Play red 100 on spot C.** It sends 2 tiles under your pile this turn, more than "
        "yellow 20 on A, which fits, but the expert's look-ahead prefers it."
    )


def test_a_play_when_nothing_fits() -> None:
    h = hint(play("B6", "A", now=2, later=6), play("G4", "B", now=2, later=6.2))
    assert hint_line(h, ENGLISH) == (
        "💡 **Play blue 6 on spot A.** No play fits, and none sends fewer tiles under your pile "
        "this turn: this one sends 2 tiles."
    )
    only = hint(play("B6", "A", now=2, later=6), opened=1)
    assert hint_line(only, ENGLISH) == (
        "💡 **Play blue 6 on spot A.** It is your only play: it sends 2 tiles under your pile "
        "this turn."
    )


def test_the_fire_die_is_said_as_an_average() -> None:
    # A blowtorch beside straw: the die may burn 3 tiles (half the faces), or nothing.
    h = hint(play("R7", "A", now=1.5, later=5), play("G2", "B", now=2, later=6))
    assert "It fits" not in hint_line(h, ENGLISH)
    assert "this one sends about 2 tiles." in hint_line(h, ENGLISH)
    little = hint(play("R7", "A", now=1 / 6, later=5), play("G2", "B", now=2, later=6))
    assert hint_line(little, ENGLISH) == (
        "💡 **Play red blowtorch (7) on spot A.** No play fits, and none sends fewer tiles under "
        "your pile this turn: this one sends less than a tile on average."
    )


def test_a_fall() -> None:
    # A fall comes after the collapse already sent its supports under the pile: each side is
    # counted for the rest of the turn, and said so.
    cheaper = hint(fall("left", now=0, later=4), fall("right", now=2, later=6))
    assert hint_line(cheaper, ENGLISH) == (
        "💡 Press **Fall left**. It sends no tile under your pile for the rest of this turn; the "
        "other side would send 2 tiles."
    )
    assert hint_line(cheaper, FRENCH) == (
        "💡 Appuyez sur **Glisser à gauche**. Ce côté n'envoie aucune tuile sous votre pioche "
        "d'ici la fin de ce tour\u00a0; l'autre côté enverrait 2 tuiles."
    )
    later = hint(fall("right", now=1, later=3.2), fall("left", now=1, later=4.4))
    assert hint_line(later, ENGLISH) == (
        "💡 Press **Fall right**. Both sides send 1 tile under your pile for the rest of this "
        "turn, but after everyone's next turn this one leaves you about 1 tile fewer."
    )
    pays = hint(fall("right", now=2, later=3.0), fall("left", now=1, later=5.0))
    assert hint_line(pays, ENGLISH) == (
        "💡 Press **Fall right**. It sends 2 tiles under your pile for the rest of this turn, the "
        "other side 1 tile, but after everyone's next turn it leaves you about 2 tiles fewer."
    )
    same = hint(fall("left", now=0, later=4.0), fall("right", now=0, later=4.2))
    assert hint_line(same, ENGLISH) == (
        "💡 Press **Fall left**. Neither side sends a tile under your pile for the rest of this "
        "turn, and they come to about the same after."
    )
    assert hint_line(same, FRENCH) == (
        "💡 Appuyez sur **Glisser à gauche**. Aucun côté n'envoie de tuile sous votre pioche "
        "d'ici la fin de ce tour, et ils reviennent à peu près au même ensuite."
    )


FIGURES = st.floats(0, 12, allow_nan=False).map(lambda x: round(x * 6) / 6)
"""Tiles, exact or in sixths (the fire die's faces)."""


@st.composite
def hints(draw: st.DrawFn) -> Hint:
    kind = draw(st.sampled_from(["play", "fall"]))
    n = 1 if kind == "fall" else draw(st.integers(0, 3))
    options = []
    for i in range(n + 1):
        now, later, others = draw(FIGURES), draw(FIGURES), draw(FIGURES)
        if kind == "fall":
            options.append(fall(("left", "right")[i], now=now, later=later, others=others))
        else:
            o = play("Y40", "ABCD"[i], now=now, later=later, others=others)
            fits = (
                draw(st.booleans()) and whole(now) == 0
            )  # a curse sends no tile, yet does not fit
            options.append(HintOption(o.action, o.spot, fits, now, later, others))
    return hint(options[0], *options[1:], players=draw(st.integers(2, 6)), opened=n + 1)


@given(hints())
def test_a_hint_claims_only_what_its_figures_say(h: Hint) -> None:
    line = hint_line(h, ENGLISH)
    best = h.best
    # "fits" only for a play that fits and sends no tile.
    said_fits = re.search(r"\bit fits\b", line, re.IGNORECASE) is not None
    assert said_fits == (best.fits and whole(best.now) == 0), line
    # A gain is told only when it is worth telling, and as it rounds.
    gain = re.search(r"leaves you about (\d+) tiles? fewer", line)
    if gain:
        rivals = [o.later - best.later for o in h.alternatives]
        assert any(d >= NOTEWORTHY and int(gain[1]) == int(d + 0.5) for d in rivals), line
    more = re.search(r"leaves (?:each|the) other player about (\d+) tiles? more", line)
    if more:
        given_ = [best.others - o.others for o in h.alternatives]
        assert any(d >= NOTEWORTHY and int(more[1]) == int(d + 0.5) for d in given_), line
    # An exact count this turn is said as it is.
    cost = re.search(r"(?:It|this one) sends (\d+) tiles? ", line)
    if cost:
        assert whole(best.now) == int(cost[1]), line
    assert line.count("\n") == 0 and len(line) < 300

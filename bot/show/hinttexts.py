"""The words of a hint (a practice table's Hint button): the move the expert would make, and why, in
one line a player reads at a glance, from the figures of a :class:`bot.service.Hint`.

The line claims only what the figures say:

- a play *fits* only when nothing but its placement would happen and it sends no tile under the
  player's pile (as its spot button says *fits*); a decision that sends tiles there this turn
  says how many (an exact count as it is, an average over the fire die as "about" so many);
- a decision that costs more this turn than another says what it gains after everyone's next
  turn (fewer tiles left to the player, or more to the others, on average over the deals of the
  tiles nobody sees) only when that gain is :data:`NOTEWORTHY` or more, rounded to whole tiles;
  without such a gain it says only that the expert's look-ahead prefers it;
- a decision compared with the expert's is named as the player's buttons name it: their own
  tile and the spot's letter, or the side a tile falls.

Each sentence is whole in the catalog; the line is a heading (the move) and one reason.
"""

from __future__ import annotations

import math
from typing import Final

from bot import emoji as em
from bot.service import Hint, HintOption
from engine import Fall, Play
from i18n import Language
from render.narration import tile_in_text

NOTEWORTHY: Final = 0.5
"""The smallest difference of two averages (in tiles) a hint tells: less is the deals' noise."""
EXACT: Final = 1e-6
"""How far a figure may be from a whole number and still be that number (an exact count)."""


def hint_line(hint: Hint, lang: Language) -> str:
    """The hint in one line: the move, then why."""
    if hint.decision == "fall":
        return f"{em.HINT} {fall_heading(hint.best, lang)} {fall_reason(hint, lang)}"
    return f"{em.HINT} {play_heading(hint.best, lang)} {play_reason(hint, lang)}"


# --- numbers of tiles --------------------------------------------------------------------------


def whole(x: float) -> int | None:
    """``x`` as a whole number of tiles when it is one (an exact count), else None."""
    n = math.floor(x + 0.5)
    return n if abs(x - n) < EXACT else None


def tiles(x: float, lang: Language) -> str:
    """Tiles sent this turn: an exact count ("no tile", "2 tiles"), or an average over the fire
    die ("about 2 tiles", "less than a tile on average")."""
    n = whole(x)
    if n == 0:
        return lang.gettext("no tile")
    if n is not None:
        return lang.ngettext("{count} tile", "{count} tiles", n).format(count=n)
    if x < NOTEWORTHY:
        return lang.gettext("less than a tile on average")
    return about(x, lang)


def about(x: float, lang: Language) -> str:
    """An average of tiles, rounded to a whole number of at least one: "about 2 tiles"."""
    n = max(1, math.floor(x + 0.5))
    return lang.ngettext("about {count} tile", "about {count} tiles", n).format(count=n)


# --- a play --------------------------------------------------------------------------------------


def play_heading(best: HintOption, lang: Language) -> str:
    """The move: the tile, and the spot by its letter."""
    assert isinstance(best.action, Play)
    return lang.gettext("**Play {tile} on spot {spot}.**").format(
        tile=tile_in_text(best.action.tile, lang), spot=best.spot or "?"
    )


def play_named(o: HintOption, lang: Language) -> str:
    """Another play, as the player finds it on their buttons: "yellow 20 on A" (and whether it
    fits)."""
    assert isinstance(o.action, Play)
    tile, spot = tile_in_text(o.action.tile, lang), o.spot or "?"
    if fits(o):
        return lang.gettext("{tile} on {spot}, which fits").format(tile=tile, spot=spot)
    return lang.gettext("{tile} on {spot}").format(tile=tile, spot=spot)


def fits(o: HintOption) -> bool:
    """Whether ``o`` fits: nothing but its placement, and no tile to the player's pile."""
    return o.fits and whole(o.now) == 0


def play_reason(hint: Hint, lang: Language) -> str:
    """Why the expert plays what it plays (see the module's text)."""
    best, others = hint.best, hint.alternatives
    if hint.open_decisions <= 1 or not others:
        if fits(best):
            return lang.gettext("It is your only play, and it fits.")
        return lang.gettext(
            "It is your only play: it sends {cost} under your pile this turn."
        ).format(cost=tiles(best.now, lang))
    cheapest = others[0]
    if fits(best):
        if cheapest.now > EXACT:  # no other play sends no tile: none fits
            least = math.floor(cheapest.now + EXACT)
            if least < 1:
                return lang.gettext("It fits, and no other play does.")
            return lang.gettext(
                "It fits, and no other play does: any other sends at least {tiles} under your pile."
            ).format(tiles=tiles(least, lang))
        rival = min(
            (o for o in others if whole(o.now) == 0), key=lambda o: o.later, default=cheapest
        )
        if rival.later - best.later >= NOTEWORTHY:
            return lang.gettext(
                "It fits, and after everyone's next turn it leaves you {gain} fewer than {other}."
            ).format(gain=about(rival.later - best.later, lang), other=play_named(rival, lang))
        if best.others - rival.others >= NOTEWORTHY:
            return lang.ngettext(
                "It fits, and after everyone's next turn it leaves the other player {gain} "
                "more than {other}.",
                "It fits, and after everyone's next turn it leaves each other player {gain} "
                "more than {other}.",
                hint.players - 1,
            ).format(gain=about(best.others - rival.others, lang), other=play_named(rival, lang))
        return lang.gettext("It fits.")
    if whole(best.now) == 0:
        return lang.gettext("It sends no tile under your pile this turn.")
    cheaper = [o for o in others if o.now < best.now - EXACT]
    cost = tiles(best.now, lang)
    if not cheaper:
        return lang.gettext(
            "No play fits, and none sends fewer tiles under your pile this turn: this one "
            "sends {cost}."
        ).format(cost=cost)
    other = cheaper[0]
    named = play_named(other, lang)
    if other.later - best.later >= NOTEWORTHY:
        return lang.gettext(
            "It sends {cost} under your pile this turn, but after everyone's next turn it "
            "leaves you {gain} fewer than {other}."
        ).format(cost=cost, gain=about(other.later - best.later, lang), other=named)
    if best.others - other.others >= NOTEWORTHY:
        return lang.ngettext(
            "It sends {cost} under your pile this turn, but after everyone's next turn it "
            "leaves the other player {gain} more than {other}.",
            "It sends {cost} under your pile this turn, but after everyone's next turn it "
            "leaves each other player {gain} more than {other}.",
            hint.players - 1,
        ).format(cost=cost, gain=about(best.others - other.others, lang), other=named)
    return lang.gettext(
        "It sends {cost} under your pile this turn, more than {other}, but the expert's "
        "look-ahead prefers it."
    ).format(cost=cost, other=named)


# --- a fall --------------------------------------------------------------------------------------


def fall_button(direction: str, lang: Language) -> str:
    """A fall's side as its button says it."""
    if direction == "left":
        return lang.pgettext("button", "Fall left")
    return lang.pgettext("button", "Fall right")


def fall_heading(best: HintOption, lang: Language) -> str:
    """The fall to choose, by its button."""
    assert isinstance(best.action, Fall)
    return lang.gettext("Press **{fall}**.").format(fall=fall_button(best.action.direction, lang))


def fall_reason(hint: Hint, lang: Language) -> str:
    """Why the expert lets the tile fall on that side (see the module's text)."""
    best = hint.best
    other = hint.alternatives[0] if hint.alternatives else None
    cost = tiles(best.now, lang)
    if other is None:
        return lang.gettext("It sends {cost} under your pile for the rest of this turn.").format(
            cost=cost
        )
    other_cost = tiles(other.now, lang)
    gain = other.later - best.later
    given = best.others - other.others
    if best.now < other.now - EXACT:
        if whole(best.now) == 0:
            return lang.gettext(
                "It sends no tile under your pile for the rest of this turn; the other side would "
                "send {other_cost}."
            ).format(other_cost=other_cost)
        return lang.gettext(
            "It sends {cost} under your pile for the rest of this turn; the other side would send "
            "{other_cost}."
        ).format(cost=cost, other_cost=other_cost)
    if best.now <= other.now + EXACT:
        return same_cost(hint, gain, given, lang)
    if gain >= NOTEWORTHY:
        return lang.gettext(
            "It sends {cost} under your pile for the rest of this turn, the other side "
            "{other_cost}, but after everyone's next turn it leaves you {gain} fewer."
        ).format(cost=cost, other_cost=other_cost, gain=about(gain, lang))
    if given >= NOTEWORTHY:
        return lang.ngettext(
            "It sends {cost} under your pile for the rest of this turn, the other side "
            "{other_cost}, but after everyone's next turn it leaves the other player {gain} more.",
            "It sends {cost} under your pile for the rest of this turn, the other side "
            "{other_cost}, but after everyone's next turn it leaves each other player {gain} more.",
            hint.players - 1,
        ).format(cost=cost, other_cost=other_cost, gain=about(given, lang))
    return lang.gettext(
        "It sends {cost} under your pile for the rest of this turn, the other side {other_cost}, "
        "but the expert's look-ahead prefers it."
    ).format(cost=cost, other_cost=other_cost)


def same_cost(hint: Hint, gain: float, given: float, lang: Language) -> str:
    """Why one side rather than the other when both send as many tiles this turn (``gain``:
    tiles fewer it leaves the player after everyone's next turn; ``given``: more it leaves each
    other player)."""
    if whole(hint.best.now) == 0:
        if gain >= NOTEWORTHY:
            return lang.gettext(
                "Neither side sends a tile under your pile for the rest of this turn, but after "
                "everyone's next turn this one leaves you {gain} fewer."
            ).format(gain=about(gain, lang))
        if given >= NOTEWORTHY:
            return lang.ngettext(
                "Neither side sends a tile under your pile for the rest of this turn, but after "
                "everyone's next turn this one leaves the other player {gain} more.",
                "Neither side sends a tile under your pile for the rest of this turn, but after "
                "everyone's next turn this one leaves each other player {gain} more.",
                hint.players - 1,
            ).format(gain=about(given, lang))
        return lang.gettext(
            "Neither side sends a tile under your pile for the rest of this turn, and they come "
            "to about the same after."
        )
    cost = tiles(hint.best.now, lang)
    if gain >= NOTEWORTHY:
        return lang.gettext(
            "Both sides send {cost} under your pile for the rest of this turn, but after "
            "everyone's next turn this one leaves you {gain} fewer."
        ).format(cost=cost, gain=about(gain, lang))
    if given >= NOTEWORTHY:
        return lang.ngettext(
            "Both sides send {cost} under your pile for the rest of this turn, but after "
            "everyone's next turn this one leaves the other player {gain} more.",
            "Both sides send {cost} under your pile for the rest of this turn, but after "
            "everyone's next turn this one leaves each other player {gain} more.",
            hint.players - 1,
        ).format(cost=cost, gain=about(given, lang))
    return lang.gettext(
        "Both sides send {cost} under your pile for the rest of this turn, and come to about the "
        "same after."
    ).format(cost=cost)

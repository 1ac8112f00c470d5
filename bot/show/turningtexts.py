"""The words of a match's turning points (``/fp replay``'s **Turning points**).

One job: word :class:`bot.records.results.TurningShown` for its reader: where each costly move
is (its round, turn and replay step), what was played, what the expert would have played and
what each sent under the player's pile that turn, and the tiles the expert's move would have kept
off that pile on average. Pure functions; they never ask the service or the store. The reader's
own moves are told to them in the second person; a computer's by its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Final

import babel.numbers
from babel import Locale

from bot.records.results import TurningGroup, TurningPoint, TurningShown
from bot.show.texts import esc, table_name
from engine import Fall, Play
from i18n import Language
from render.narration import player_name, side_word, tile_in_text, tile_list

MAX_CHARS: Final = 2000
"""Discord's limit on a message's text: the computers' cheapest moves give way beyond it."""


def _tenths(value: float, lang: Language) -> str:
    """``2.3`` (English), ``2,3`` (French): one decimal, always."""
    return babel.numbers.format_decimal(round(value, 1), format="0.0", locale=lang.code)


def _count(value: float, lang: Language) -> str:
    """``2`` or ``1.5``: a whole number when it is one (the fire die makes halves)."""
    return babel.numbers.format_decimal(round(value, 1), format="0.#", locale=lang.code)


def _plural(written: str, lang: Language) -> int:
    """The ``n`` for ``ngettext`` of a decimal as written: English says "1.0 tiles", French
    "1,5 tuile" (CLDR's plural rules of decimals, which gettext's whole numbers cannot say)."""
    number = Decimal(written.replace(",", ".").replace("\u202f", "").replace("\xa0", ""))
    try:
        one = Locale.parse(lang.code).plural_form(number) == "one"
    except (ValueError, TypeError):
        one = number == 1
    return 1 if one else 2


def tiles(value: float, lang: Language, *, tenths: bool = True) -> str:
    """``2.3 tiles``, ``1,5 tuile``: a number of tiles, as it is written."""
    written = _tenths(value, lang) if tenths else _count(value, lang)
    return lang.ngettext("{count} tile", "{count} tiles", _plural(written, lang)).format(
        count=written
    )


def play_words(play: Play, below: Sequence[str], lang: Language) -> str:
    """``blue 40 on red 20 and yellow 30``, ``green 6 in the bottom row``."""
    tile = tile_in_text(play.tile, lang)
    if not below:
        # TRANSLATORS: a tile played in the pyramid's bottom row: "green 6 in the bottom row".
        return lang.gettext("{tile} in the bottom row").format(tile=tile)
    # TRANSLATORS: a tile played on the tiles below it: "blue 40 on red 20 and yellow 30".
    return lang.gettext("{tile} on {tiles}").format(tile=tile, tiles=tile_list(below, lang))


def _sent(now: float, mine: bool, *, played: bool, fall: bool, lang: Language) -> str:
    """What a decision sent under the player's pile that turn: ``it fit`` (a tile played),
    ``nothing to your pile`` (a fall), ``2 tiles to your pile``."""
    if now <= 0 and fall:
        return (
            lang.gettext("nothing to your pile") if mine else lang.gettext("nothing to their pile")
        )
    if now <= 0:
        return lang.gettext("it fit") if played else lang.gettext("it fits")
    count = tiles(now, lang, tenths=False)
    if mine:
        # TRANSLATORS: what a move sent under the reader's pile that turn: "2 tiles to your pile".
        return lang.gettext("{tiles} to your pile").format(tiles=count)
    return lang.gettext("{tiles} to their pile").format(tiles=count)


def where(point: TurningPoint, rounds: int, lang: Language) -> str:
    """``Round 2, turn 14 (step 61)``; ``Turn 14 (step 15)`` in a match of one round."""
    if rounds > 1:
        return lang.gettext("Round {round}, turn {turn} (step {step})").format(
            round=point.round, turn=point.turn, step=point.step + 1
        )
    return lang.gettext("Turn {turn} (step {step})").format(turn=point.turn, step=point.step + 1)


def point_line(point: TurningPoint, who: str | None, rounds: int, lang: Language) -> str:
    """One costly move: where, what was played and what the expert would have played, and the
    tiles kept off the pile on average. ``who``: a computer's name, None for the reader."""
    mine = who is None
    kept = tiles(point.kept_off, lang)
    if isinstance(point.played, Fall) and isinstance(point.best, Fall):
        values = {
            "where": where(point, rounds, lang),
            "tile": tile_in_text(point.played_on[0], lang) if point.played_on else "",
            "side": side_word(point.played.direction, lang),
            "best_side": side_word(point.best.direction, lang),
            "now": _sent(point.now, mine, played=True, fall=True, lang=lang),
            "best_now": _sent(point.best_now, mine, played=False, fall=True, lang=lang),
            "tiles": kept,
        }
        if mine:
            return lang.gettext(
                "{where}: you let {tile} fall {side} ({now}); the expert would have let it fall "
                "{best_side} ({best_now}). About **{tiles}** kept off your pile by your next turn, "
                "on average."
            ).format(**values)
        return lang.gettext(
            "{where}: {player} let {tile} fall {side} ({now}); the expert would have let it fall "
            "{best_side} ({best_now}). About **{tiles}** kept off their pile by their next turn, "
            "on average."
        ).format(player=who, **values)
    assert isinstance(point.played, Play) and isinstance(point.best, Play)
    values = {
        "where": where(point, rounds, lang),
        "move": play_words(point.played, point.played_on, lang),
        "best": play_words(point.best, point.best_on, lang),
        "now": _sent(point.now, mine, played=True, fall=False, lang=lang),
        "best_now": _sent(point.best_now, mine, played=False, fall=False, lang=lang),
        "tiles": kept,
    }
    if mine:
        return lang.gettext(
            "{where}: you played {move} ({now}); the expert would have played {best} "
            "({best_now}). About **{tiles}** kept off your pile by your next turn, on average."
        ).format(**values)
    return lang.gettext(
        "{where}: {player} played {move} ({now}); the expert would have played {best} "
        "({best_now}). About **{tiles}** kept off their pile by their next turn, on average."
    ).format(player=who, **values)


def group_lines(
    group: TurningGroup, names: Sequence[str], rounds: int, lang: Language
) -> list[str]:
    """A player's heading (how often the expert agreed) and their costly moves, numbered."""
    who = None if group.mine else esc(player_name(names, group.seat, lang))
    if group.mine:
        head = lang.ngettext(
            "**Your moves**: the expert agrees with {agreed} of your {count} decision.",
            "**Your moves**: the expert agrees with {agreed} of your {count} decisions.",
            group.decisions,
        ).format(agreed=group.agreed, count=group.decisions)
    else:
        head = lang.ngettext(
            "**{player}**: the expert agrees with {agreed} of their {count} decision.",
            "**{player}**: the expert agrees with {agreed} of their {count} decisions.",
            group.decisions,
        ).format(player=who, agreed=group.agreed, count=group.decisions)
    lines = [head]
    lines += [
        f"{i}. {point_line(p, who, rounds, lang)}" for i, p in enumerate(group.points, start=1)
    ]
    if not group.points:
        if group.mine:
            lines.append(lang.gettext("None of your moves cost half a tile or more."))
        else:
            lines.append(
                lang.gettext("None of {player}'s moves cost half a tile or more.").format(
                    player=who
                )
            )
    return lines


@dataclass(frozen=True)
class TurningText:
    """The turning points' message: its text, and the moves it tells (their steps get a
    button)."""

    content: str
    points: tuple[TurningPoint, ...] = ()


def turning_text(shown: TurningShown, lang: Language) -> TurningText:
    """The turning points' message: what they are, then each player's (see the module); or
    why there are none to show."""
    table = table_name(shown.table.number, lang=lang)
    if shown.state == "working":
        return TurningText(
            lang.gettext(
                "Turning points of {table} are being worked out (ready within a minute)."
            ).format(table=table)
        )
    if shown.state == "unavailable":
        return TurningText(
            lang.gettext(
                "Turning points are not available for {table}: it could not be analysed, or it "
                "ended before the bot worked them out."
            ).format(table=table)
        )
    if shown.state == "players_only":
        return TurningText(
            lang.gettext(
                "Turning points show each player their own moves, and everyone the computers' "
                "moves: {table} had no computer player."
            ).format(table=table)
        )
    return _fitted(shown, lang, table)


def _fitted(shown: TurningShown, lang: Language, table: str) -> TurningText:
    """The message, its computers' cheapest moves left out while it is too long for Discord."""
    head = lang.gettext(
        "**Turning points of {table}**: the moves that cost the most, judged by the expert from "
        "what the player could see at the time."
    ).format(table=table)
    groups = list(shown.groups)
    left_out = 0
    while True:
        blocks = ["\n".join(group_lines(g, shown.names, shown.rounds, lang)) for g in groups]
        if left_out:
            blocks.append(
                lang.ngettext(
                    "({count} move of the computers is left out to fit.)",
                    "({count} moves of the computers are left out to fit.)",
                    left_out,
                ).format(count=left_out)
            )
        text = "\n\n".join([head, *blocks])
        theirs = [(p.kept_off, i) for i, g in enumerate(groups) if not g.mine for p in g.points]
        if len(text) <= MAX_CHARS or not theirs:
            return TurningText(text[:MAX_CHARS], tuple(p for g in groups for p in g.points))
        _, i = min(theirs)
        cheapest = min(groups[i].points, key=lambda p: p.kept_off)
        groups[i] = replace(
            groups[i], points=tuple(p for p in groups[i].points if p is not cheapest)
        )
        left_out += 1


def jump_label(step: int, lang: Language) -> str:
    """The button that opens the replay at a turning point's step (from 0): ``Step 15``."""
    return lang.pgettext("button", "Step {step}").format(step=step + 1)

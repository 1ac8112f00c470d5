"""The words of a finished match: who won, the standings explained, the lobby card's podium, and
what a player's screen says once the match is over. Shared by the lobby card, a move's message
and the players' screens; the common pieces are in :mod:`bot.show.texts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import emoji as em
from bot.narrate import scores_line
from bot.service import Board, MatchResult
from bot.show.texts import (
    names_of,
    table_name,
)
from i18n import ENGLISH, Language
from render.narration import names_and


def winners_sentence(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """``Winner: **Léa**.``: who won a finished match."""
    won = [i for i in results.winners if 0 <= i < len(names)]
    if not won:
        return lang.gettext("Winner: **—**.")
    return lang.ngettext("Winner: **{players}**.", "Winners: **{players}**.", len(won)).format(
        players=names_and(won, names, lang)
    )


def podium(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """The finished match's standings, one line a player, lowest total first (ties share a
    place): medals for the first three places, the winners named first."""
    scores = list(results.scores)
    if len(scores) != len(names):
        return match_result(names, results, lang)
    rounds = results.rounds or 1
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    lines = []
    for i in order:
        place = 1 + sum(1 for s in scores if s < scores[i])
        mark = em.MEDALS[place - 1] if place <= len(em.MEDALS) else f"{place}."
        lines.append(f"{mark} {names[i]} — {lang.format_decimal(scores[i])}")
    if rounds > 1:
        explained = lang.gettext(
            "Tiles left in hand and pile, over {rounds} rounds (lower wins):"
        ).format(rounds=lang.format_decimal(rounds))
    else:
        explained = lang.gettext("Tiles left in hand and pile (lower wins):")
    return f"{winners_sentence(names, results, lang)} {explained}\n" + "\n".join(lines)


def match_over(lang: Language) -> str:
    """The note that the match is over."""
    return f"{em.MATCH_OVER} " + lang.gettext("The match is over.")


def match_result(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """Who won a finished match and the final standings, explained: each player's tiles left
    in hand and pile when someone went out (over every round of the match), lowest wins."""
    scores = list(results.scores)
    rounds = results.rounds or 1
    text = winners_sentence(names, results, lang)
    if len(scores) == len(names):
        line = scores_line(names, scores, lang)
        if rounds > 1:
            text += " " + lang.gettext(
                "Final standings, tiles left in hand and pile, over {rounds} rounds "
                "(lower wins): {scores}."
            ).format(rounds=lang.format_decimal(rounds), scores=line)
        else:
            text += " " + lang.gettext(
                "Final standings, tiles left in hand and pile (lower wins): {scores}."
            ).format(scores=line)
    return text


MATCH_OVER: Final = match_over(ENGLISH)
"""The note that the match is over, in English: a key chosen before the reader is known, worded
in their language by :func:`translated` (:func:`match_over` in a language)."""


def hand_closed(board: Board, results: MatchResult, lang: Language) -> str:
    """What a player's hand message says once the match is over."""
    over = lang.gettext("The match at {table} is over.").format(
        table=table_name(board.number, lang=lang)
    )
    return f"{em.MATCH_OVER} {over} " + match_result(names_of(board), results, lang)

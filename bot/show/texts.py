"""The words every message of the game shares: names (a player's, safely escaped; a table's; its
thread's), links, durations and moments, a table's options, and Discord's length limit.

The messages themselves are worded by job, each in its module: the lobby card
(:mod:`bot.show.lobbytexts`), a move's message and the channel's notices
(:mod:`bot.show.turntexts`), a player's own screen (:mod:`bot.show.handtexts`), the end of a
match (:mod:`bot.show.endtexts`) and the answers to commands (:mod:`bot.show.answertexts`); the
refusals' words are in :mod:`bot.show.words`, the accounts of turns in :mod:`bot.narrate`, the
records' words in :mod:`bot.show.recordtexts`.

Pure functions: the table service says what happened and what is pending; these put it into
words within Discord's limits (messages of at most 2000 characters). Every function takes the
reader's language (``lang``, always given: see :mod:`bot.languages`): each sentence is one whole
message of the catalogs (``i18n/locales``, see ``docs/translating.md``) with named placeholders.
A constant marked with ``N_`` is the English message; whoever shows it translates it
(``lang.gettext(CLOSED)``).
"""

from __future__ import annotations

import re

import discord

from bot import names
from bot.service import Board
from data.store import TableOptions
from i18n import Language

MAX_CONTENT = 2000


EMBED_COLOUR = 0xE8590C


MENTION_MARKUP = re.compile(r"<(?=[@#])")
"""The start of Discord's mention markup, ``<@id>``, ``<@&id>``, ``<#id>``, whatever the id."""


def esc(text: str) -> str:
    """A player-chosen name, safe in a message: cleaned of control and bidirectional characters
    (:func:`bot.names.clean`), no markdown, no mentions. Every name put into text goes through
    here, private answers included. discord.py's ``escape_mentions`` leaves ``<@123>`` alone
    (ids shorter than a snowflake), which Discord still shows as a mention: a zero-width space
    after ``<`` breaks the markup."""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(names.clean(text)))
    return MENTION_MARKUP.sub("<\u200b", text)


def names_of(board: Board) -> list[str]:
    return [esc(n) for n in board.names]


def table_name(number: int, *, start: bool = False, lang: Language) -> str:
    """How players name a table: by its short number on its server (``table #12``; ``start``:
    capitalised, to begin a sentence), never by its long id, which stays in button ids and logs.

    >>> from i18n import ENGLISH
    >>> table_name(12, lang=ENGLISH), table_name(3, start=True, lang=ENGLISH)
    ('table #12', 'Table #3')
    """
    if start:
        return lang.gettext("Table #{number}").format(number=number)
    # TRANSLATORS: a table named inside a sentence ("Your turn at table #3").
    return lang.gettext("table #{number}").format(number=number)


def thread_name(number: int, lang: Language) -> str:
    """The name of a game's thread (``number``: the table's number on its server)."""
    # TRANSLATORS: the name of a game's thread; at most 100 characters.
    return lang.gettext("Flaming Pyramids · {table}").format(table=table_name(number, lang=lang))


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel (or one of its messages)."""
    url = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{url}/{message_id}" if message_id else url


def duration(seconds: float, lang: Language) -> str:
    """``86400`` -> ``"24 hours"``; ``300`` -> ``"5 minutes"``."""
    s = int(seconds)
    if s % 86400 == 0 and s >= 2 * 86400:
        d = s // 86400
        return lang.ngettext("{count} day", "{count} days", d).format(count=lang.format_decimal(d))
    if s % 3600 == 0:
        h = s // 3600
        return lang.ngettext("{count} hour", "{count} hours", h).format(
            count=lang.format_decimal(h)
        )
    m = max(1, s // 60)
    return lang.ngettext("{count} minute", "{count} minutes", m).format(
        count=lang.format_decimal(m)
    )


def relative(when: float) -> str:
    """A moment as Discord shows it relative to now, in each reader's language ("in 23 hours")."""
    return f"<t:{int(when)}:R>"


def clock_time(when: float) -> str:
    """A moment as the time of day, as Discord shows it in each reader's time zone ("16:20")."""
    return f"<t:{int(when)}:t>"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def curse_word(on: bool, lang: Language) -> str:
    return lang.gettext("curse on") if on else lang.gettext("curse off")


def fire_die_word(on: bool, lang: Language) -> str:
    return lang.gettext("fire die on") if on else lang.gettext("fire die off")


def undo_words(seconds: int, lang: Language) -> str:
    """A table's undo window, as its options line says it."""
    if seconds <= 0:
        return lang.gettext("no undo")
    return lang.ngettext("{count} second to undo", "{count} seconds to undo", seconds).format(
        count=lang.format_decimal(seconds)
    )


def level_word(level: str, lang: Language) -> str:
    """A computer player's level, as a word."""
    said = {
        "easy": lang.pgettext("computer level", "easy"),
        "normal": lang.pgettext("computer level", "normal"),
        "hard": lang.pgettext("computer level", "hard"),
        "expert": lang.pgettext("computer level", "expert"),
    }
    return said.get(level, level)


def options_line(options: TableOptions, lang: Language, *, undo_s: int) -> str:
    """A table's options in one line; ``undo_s``: its undo window as it applies to the table's
    seats (:attr:`bot.service.Board.undo_s`)."""
    parts = [
        curse_word(options.curse, lang),
        fire_die_word(options.fire_die, lang),
        lang.ngettext("{count} round", "{count} rounds", options.rounds).format(
            count=lang.format_decimal(options.rounds)
        ),
        lang.gettext("{duration} per decision").format(
            duration=duration(options.turn_limit_s, lang)
        ),
        lang.gettext("up to {count} players").format(count=lang.format_decimal(options.max_seats)),
    ]
    if not options.preview:
        parts.append(lang.gettext("no previews"))
    parts.append(undo_words(undo_s, lang))
    return " · ".join(parts)


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else f"**{name}**"

"""The private answers to commands and to the buttons that act like them (``/fp new``, ``leave``,
``abort``, ``notify``, ``/fp-settings``, Rematch, how hands are delivered). The refusals' words
are in :mod:`bot.show.words`; the common pieces in :mod:`bot.show.texts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

from bot import emoji as em
from bot.service import DEFAULT_UNDO_S
from bot.show.texts import (
    curse_word,
    duration,
    fire_die_word,
    level_word,
    undo_words,
)
from data.store import GuildSettings, PlayerPrefs
from i18n import N_, Language


def yes_no(value: bool, lang: Language) -> str:
    return lang.pgettext("answer", "yes") if value else lang.pgettext("answer", "no")


def notify_choices(prefs: PlayerPrefs, lang: Language) -> str:
    """What ``/fp notify`` answers: the player's choices as they now stand."""
    return lang.gettext(
        "Direct message when your turn begins: **{turn}**. Reminders: **{reminders}**.\n"
        "Change them with `/fp notify turn:` and `/fp notify reminders:`."
    ).format(turn=yes_no(prefs.dm_on_turn, lang), reminders=yes_no(prefs.reminders, lang))


MODE_CHOSEN: Final = {
    "dm": N_("From now on your hands come by direct message."),
    "channel": N_("From now on I will not DM your hands: use **My hand** or `/fp hand`."),
}
"""The answer to a choice of how hands are delivered (English; translated where shown)."""


ABORT_DONE: Final = N_("The table is closed.")
"""The private answer to ``/fp abort``."""


SETTINGS_ADMINS_ONLY: Final = N_(
    "Only members who can manage this server can change its Flaming Pyramids settings."
)


def cannot_host(missing: Sequence[str], lang: Language) -> str:
    """``/fp new`` where the bot lacks permissions (named as Discord names them)."""
    return lang.gettext(
        "I cannot host a game here: I am missing these permissions in this channel: "
        "{permissions}. Ask a server admin to grant them, then try again."
    ).format(permissions=", ".join(missing))


def channel_busy(link: str, lang: Language) -> str:
    """``/fp new`` in a channel that has a table (``link`` leads to it)."""
    return lang.gettext(
        "This channel already has a table: {link}. Join it there, or open a new "
        "table in another channel."
    ).format(link=link)


def lobby_not_posted(err: BaseException, lang: Language) -> str:
    """``/fp new`` whose lobby card Discord did not take (so no table was opened)."""
    if isinstance(err, discord.Forbidden):
        return lang.gettext(
            "I cannot post in this channel ({why}). Ask a server admin to let me send messages, "
            "attach files and embed links here."
        ).format(why=err.text or lang.gettext("missing permissions"))
    return lang.gettext(
        "Discord did not take the table's message just now, so no table was "
        "opened. Please try /fp new again in a moment."
    )


def table_open(number: int, url: str, lang: Language) -> str:
    """The host's private answer to ``/fp new`` (``number``: the table's number on its server,
    ``url``: the lobby card)."""
    return lang.gettext(
        "Table #{number} is open: {url}\n"
        "Friends join with the **Join** button; you press **Start** when everyone is "
        "seated."
    ).format(number=number, url=url)


LEAVE_CONFIRM: Final = N_(
    "If you leave, a computer player takes your seat for the rest of the match, and you are "
    "placed last in the records."
)
"""``/fp leave`` in a running game: the private question above its button."""


def you_left(left_game: bool, lang: Language) -> str:
    """The private answer to ``/fp leave``."""
    if left_game:
        return lang.gettext("You left the game; a computer player took your seat.")
    return lang.gettext("You left the table.")


def rematch_open(url: str, lang: Language) -> str:
    """The private answer to Rematch (``url``: the new lobby)."""
    return f"{em.FIRE} " + lang.gettext(
        "Rematch: a new table is open, the others join it there: {url}"
    ).format(url=url)


def settings_now(current: GuildSettings, lang: Language) -> str:
    """``/fp-settings``: the server's settings as they now stand."""
    if current.reminder_s:
        reminder = lang.gettext("reminder {duration} before the end").format(
            duration=duration(current.reminder_s, lang)
        )
    else:
        reminder = lang.gettext("reminder off")
    undo_s = current.defaults.undo_s
    tables = lang.gettext(
        "Settings for new tables on this server: {duration} per decision, {reminder}, "
        "{curse}, {fire_die}, {undo}."
    ).format(
        duration=duration(current.turn_limit_s, lang),
        reminder=reminder,
        curse=curse_word(bool(current.defaults.curse), lang),
        fire_die=fire_die_word(bool(current.defaults.fire_die), lang),
        undo=undo_words(DEFAULT_UNDO_S if undo_s is None else undo_s, lang),
    )
    if current.away_after:
        away = lang.ngettext(
            "A player whose time runs out on {count} decision in a row is set away (a computer "
            "plays for them until they come back).",
            "A player whose time runs out on {count} decisions in a row is set away (a computer "
            "plays for them until they come back).",
            current.away_after,
        ).format(count=lang.format_decimal(current.away_after))
    else:
        away = lang.gettext("Nobody is set away by the clock.")
    stand_in = lang.gettext(
        "A computer player ({level}) plays for a player whose time runs out, who is away or "
        "who leaves a game."
    ).format(level=level_word(current.stand_in, lang))
    lines = [tables, away, stand_in]
    if current.defaults.hints:
        lines.append(
            lang.gettext(
                "New tables are practice tables: the Hint button shows the move the expert would "
                "play, and their matches are not rated (`/fp new hints:False` opens a rated one)."
            )
        )
    return "\n".join(lines)

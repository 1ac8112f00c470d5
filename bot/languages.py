"""Whose language a text speaks: one function for each of the bot's three readers.

Every text the bot sends is for one of them, and is worded in their language:

- the **clicker**, whose click or command it answers (a private answer, their own screen
  edited through their click): :func:`clicker_language`, their Discord client's language at
  that click (``interaction.locale``, read at each click, so a switch shows at their next one);
- a **player**, reached unasked in their direct messages (a decision's screen, a reminder, a
  screen closed for them): :func:`player_language`, their language as the bot last saw it
  (``Hand.language``, ``Reminder.language``);
- the **table**, everyone who reads its channel or thread (its posts and their pictures):
  :func:`table_language`, the table's language (its server's, ``Board.language``).

A text nobody of these reads (a log line, the operator's alert) is English, said so where it is
written. The language a new table takes from its server's settings is the service's choice
(:func:`bot.service.languages.new_table_language`), kept as ``Board.language``.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Board, Hand, Reminder, WentAway
from i18n import Language, catalogs


def clicker_language(interaction: discord.Interaction[Any]) -> Language:
    """The words of an answer to a click or a command: the clicker's client language now."""
    return catalogs.for_locale(str(interaction.locale))


def player_language(player: Hand | Reminder | WentAway) -> Language:
    """The words of what reaches a player unasked, in their direct messages: their language
    as the bot last saw it (their client's at their last click)."""
    return catalogs.language(player.language)


def table_language(board: Board) -> Language:
    """The words of a table's posts and their pictures: the table's language (its server's)."""
    return catalogs.language(board.language)

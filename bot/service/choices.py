"""The choices of players and servers: how a player gets their hands and which direct messages
they want, the languages their interactions come with, and a server's settings for its new
tables (``/fp-settings``, checked here: a language of the choices, a turn limit in range)."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from bot.errors import BadRequest, Why
from bot.service.core import (
    COMPUTER_LEVELS,
    MAX_AWAY_AFTER,
    MAX_TURN_LIMIT_S,
    MIN_TURN_LIMIT_S,
    TableCore,
    check_undo_s,
)
from bot.service.languages import SERVER_LANGUAGE, language_choices
from bot.service.settings import SettingsChange
from data.store import GuildSettings, PlayerPrefs, TableDefaults


class Choices(TableCore):
    """What players and servers choose, kept in the store for the tables to come."""

    async def set_hand_mode(self, user_id: int, mode: Literal["dm", "channel"]) -> None:
        """Choose for good how a player gets their hands: direct messages, or ephemeral replies.
        Choosing direct messages tries them again, even if Discord refused one lately."""
        prefs = await self.store.get_prefs(user_id)
        await self.store.set_prefs(replace(prefs, hand_mode=mode))
        if mode == "dm":
            await self.store.clear_dm_refused(user_id)

    async def set_notify(
        self, user_id: int, *, on_turn: bool | None = None, reminders: bool | None = None
    ) -> PlayerPrefs:
        """``/fp notify``: whether a player gets a direct message when their turn begins, and
        reminders before its end (None: unchanged). Returns the choices as they now stand.
        It also tries direct messages again, even if Discord refused one lately."""
        prefs = await self.store.get_prefs(user_id)
        await self.store.clear_dm_refused(user_id)
        if on_turn is not None:
            prefs = replace(prefs, dm_on_turn=on_turn)
        if reminders is not None:
            prefs = replace(prefs, reminders=reminders)
        await self.store.set_prefs(prefs)
        return prefs

    async def note_languages(
        self,
        user_id: int,
        locale: str | None,
        guild_id: int | None = None,
        guild_locale: str | None = None,
    ) -> None:
        """Note the languages an interaction came with (Discord's locale tags: the user's
        client's ``locale``; in a server, its ``guild_locale``), for what is sent later: the
        player's direct messages (:attr:`Hand.language`, :attr:`Reminder.language`) and the
        posts of the server's next tables (:attr:`Table.language`). Only a change is written
        (see :class:`~bot.service.languages.KnownLanguages`)."""
        await self.languages.note(user_id, locale, guild_id, guild_locale)

    async def settings(self, guild_id: int, change: SettingsChange) -> GuildSettings:
        """``/fp-settings``: change (and return) a server's settings. A ``language`` given is
        the language of the posts of the server's new tables, one of :func:`language_choices`
        (:data:`SERVER_LANGUAGE`: the server's own); a ValueError for one that is not a choice,
        or for a ``stand_in`` that is not one of :data:`COMPUTER_LEVELS` (the adapter offers
        only those)."""
        given = dict(change.given)
        language = given.get("language")
        if language is not None and language not in language_choices():
            raise ValueError(f"not a language choice: {language!r}")
        current = await self.store.get_guild_settings(guild_id)
        if language == SERVER_LANGUAGE:
            given["language"] = None
        turn_limit_s = given.get("turn_limit_s")
        if isinstance(turn_limit_s, int) and not (
            MIN_TURN_LIMIT_S <= turn_limit_s <= MAX_TURN_LIMIT_S
        ):
            raise BadRequest(Why.TURN_LIMIT_RANGE)
        defaults = given.get("defaults")
        if isinstance(defaults, TableDefaults) and defaults.undo_s is not None:
            check_undo_s(defaults.undo_s)
        stand_in = given.get("stand_in")
        if stand_in is not None and stand_in not in COMPUTER_LEVELS:
            raise ValueError(f"not a computer level: {stand_in!r}")
        away_after = given.get("away_after")
        if isinstance(away_after, int) and not 0 <= away_after <= MAX_AWAY_AFTER:
            raise BadRequest(Why.AWAY_AFTER_RANGE)
        reminder_s = given.get("reminder_s")
        if isinstance(reminder_s, int):
            given["reminder_s"] = max(0, reminder_s)
        if not given:
            return current
        current = SettingsChange(given).applied_to(current)
        await self.store.set_guild_settings(current)
        return current

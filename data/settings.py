"""Players' preferences, servers' settings and the slash commands' registration claims: one
implementation for both stores, each statement written once (:mod:`data.sql`).

A server's ``/fp-settings`` choices are one record (:meth:`data.model.GuildSettings.choices`)
kept as JSON in the ``settings`` column, as a table keeps its options: a new server setting is
a field of :class:`~data.model.GuildSettings`, with its type and default, and nothing here
changes. The server's language as Discord tells it (``guild_locale``) has a column of its own:
it is written alone, often, and must not undo a ``/fp-settings`` change made meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

from data import rows as R
from data.model import GuildSettings, PlayerPrefs, PlayerReach
from data.sql import Sql

log = logging.getLogger(__name__)

PREFS = "SELECT hand_mode, dm_on_turn, reminders, language FROM player_prefs WHERE user_id = ?"
SET_PREFS = (
    "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders, language) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
    "hand_mode = excluded.hand_mode, dm_on_turn = excluded.dm_on_turn, "
    "reminders = excluded.reminders, language = excluded.language"
)
SET_PLAYER_LANGUAGE = (
    "INSERT INTO player_prefs (user_id, hand_mode, dm_on_turn, reminders, language) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET language = excluded.language"
)
#: A later refusal moves the time forward, never back (CASE: SQLite's max() is PostgreSQL's
#: GREATEST()).
NOTE_DM_REFUSED = (
    "INSERT INTO dm_refusals (user_id, refused_at) VALUES (?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET refused_at = CASE "
    "WHEN excluded.refused_at > dm_refusals.refused_at THEN excluded.refused_at "
    "ELSE dm_refusals.refused_at END"
)
DM_REFUSED_AT = "SELECT refused_at FROM dm_refusals WHERE user_id = ?"
CLEAR_DM_REFUSED = "DELETE FROM dm_refusals WHERE user_id = ?"
GUILD = "SELECT settings, guild_locale FROM guild_settings WHERE guild_id = ?"
SET_GUILD = (
    "INSERT INTO guild_settings (guild_id, settings, guild_locale) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
    "guild_locale = excluded.guild_locale"
)
SET_GUILD_LOCALE = (
    "INSERT INTO guild_settings (guild_id, guild_locale) VALUES (?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET guild_locale = excluded.guild_locale"
)
CLAIM_COMMAND_SYNC = (
    "INSERT INTO command_sync (scope, hash, synced_at) VALUES (?, ?, ?) "
    "ON CONFLICT (scope) DO UPDATE SET hash = excluded.hash, "
    "synced_at = excluded.synced_at WHERE command_sync.hash <> excluded.hash"
)
FORGET_COMMAND_SYNC = "DELETE FROM command_sync WHERE scope = ? AND hash = ?"


def reach_sql(count: int) -> str:
    """The read of :meth:`SharedSettings.get_reach` for ``count`` players: one row per player
    asked: its id, then its ``player_prefs`` row's id and choices and its ``dm_refusals``
    time, or NULLs where it has none (the ids asked are cast so that PostgreSQL knows their
    type; SQLite reads the cast as an integer).

    >>> reach_sql(2).split(" SELECT ")[0]
    'WITH asked (user_id) AS (VALUES (CAST(? AS BIGINT)), (CAST(? AS BIGINT)))'
    """
    asked = ", ".join(["(CAST(? AS BIGINT))"] * count)
    return (
        f"WITH asked (user_id) AS (VALUES {asked}) "
        "SELECT asked.user_id, p.user_id, p.hand_mode, p.dm_on_turn, p.reminders, p.language, "
        "r.refused_at "
        "FROM asked LEFT JOIN player_prefs AS p ON p.user_id = asked.user_id "
        "LEFT JOIN dm_refusals AS r ON r.user_id = asked.user_id"
    )


class SharedSettings:
    """The store methods of :class:`data.store.Preferences`, :class:`data.store.ServerSettings`
    and the command-sync claims of :class:`data.store.Coordination`, on ``_sql``."""

    _sql: Sql

    # --- players --------------------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> PlayerPrefs:
        """The user's preferences (the defaults if they never set any)."""
        rows = await self._sql.fetch(PREFS, (user_id,))
        return _prefs(user_id, rows[0] if rows else None)

    async def get_reach(self, user_ids: Collection[int]) -> dict[int, PlayerReach]:
        """Every player's preferences and refused direct messages, in one statement."""
        asked = sorted(set(user_ids))
        if not asked:
            return {}
        reach = {}
        for user_id, kept, *prefs, refused_at in await self._sql.fetch(
            reach_sql(len(asked)), asked
        ):
            reach[int(user_id)] = PlayerReach(
                _prefs(int(user_id), None if kept is None else prefs),
                None if refused_at is None else float(refused_at),
            )
        return reach

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        params = (prefs.user_id, prefs.hand_mode, prefs.dm_on_turn, prefs.reminders, prefs.language)
        await self._sql.change(SET_PREFS, params, what="preferences")

    async def set_player_language(self, user_id: int, language: str) -> None:
        d = PlayerPrefs(user_id)
        params = (user_id, d.hand_mode, d.dm_on_turn, d.reminders, language)
        await self._sql.change(SET_PLAYER_LANGUAGE, params, what="a player's language")

    async def note_dm_refused(self, user_id: int, at: float) -> None:
        await self._sql.change(NOTE_DM_REFUSED, (user_id, at), what="a refused direct message")

    async def dm_refused_at(self, user_id: int) -> float | None:
        rows = await self._sql.fetch(DM_REFUSED_AT, (user_id,))
        return float(rows[0][0]) if rows else None

    async def clear_dm_refused(self, user_id: int) -> bool:
        changed = await self._sql.change(
            CLEAR_DM_REFUSED, (user_id,), what="a refused direct message"
        )
        return changed > 0

    # --- servers --------------------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if never set; a setting that does not read
        takes its default, which is logged)."""
        rows = await self._sql.fetch(GUILD, (guild_id,))
        if not rows:
            return GuildSettings(guild_id)
        text, guild_locale = rows[0]
        try:
            choices = R.parse_object(text, "settings")
        except ValueError as e:
            log.warning("guild %s: %s; using the defaults", guild_id, e)
            choices = {}
        return GuildSettings.from_choices(guild_id, choices, guild_locale)

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        """Keep every field of ``settings`` (its languages too)."""
        params = (settings.guild_id, R.dumps(settings.choices()), settings.guild_locale)
        await self._sql.change(SET_GUILD, params, what="server settings")

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        await self._sql.change(SET_GUILD_LOCALE, (guild_id, locale), what="a server's language")

    # --- the slash commands' registration -------------------------------------------------------

    async def claim_command_sync(self, scope: str, digest: str, now: float) -> bool:
        claimed = await self._sql.change(
            CLAIM_COMMAND_SYNC,
            (scope, digest, now),
            what="claiming the command sync",
            repeatable=False,
        )
        return claimed > 0

    async def forget_command_sync(self, scope: str, digest: str) -> None:
        await self._sql.change(
            FORGET_COMMAND_SYNC, (scope, digest), what="forgetting the command sync"
        )


def _prefs(user_id: int, row: Sequence[Any] | None) -> PlayerPrefs:
    """A player's preferences from their ``player_prefs`` row (hand mode, DM on turn,
    reminders, language), or the defaults without one."""
    if row is None:
        return PlayerPrefs(user_id)
    hand_mode, dm_on_turn, reminders, language = row
    if hand_mode not in ("dm", "channel"):
        hand_mode = "dm"
    return PlayerPrefs(user_id, hand_mode, bool(dm_on_turn), bool(reminders), str(language))

"""Who speaks which language: each player's and each server's, as Discord tells them with every
interaction, kept in the store when they change, and the language a new table's posts take.

Discord sends a user's language (``interaction.locale``) and their server's (``guild_locale``)
with each click and command, as locale tags (``"fr"``, ``"en-GB"``); the adapter passes them
here as plain strings. A player's is kept as the language the bot has a catalog for
(:func:`i18n.language_for`: what their direct messages will be written in); a server's as the
tag itself, mapped only when a table opens, so a language added later serves the servers seen
before it. A click costs no database write unless a language changed: the process remembers
what the store holds for the players and servers it saw lately (the first time one is seen, its
record is read once), and every read of a player's preferences or a server's settings refreshes
that memory, so a change another bot process wrote is noticed too.
"""

from __future__ import annotations

import logging
from typing import Final, TypeVar

import i18n
from data.store import GuildSettings, PlayerPrefs, ServiceStore

log = logging.getLogger(__name__)

SERVER_LANGUAGE: Final = "server"
"""``/fp-settings language``: the server's tables follow the server's own language (Discord's)."""
MAX_KNOWN: Final = 100_000
"""How many players (and, apart, servers) a process remembers the stored language of; the
oldest seen is forgotten first (seen again, it costs one read)."""

K = TypeVar("K")
V = TypeVar("V")


def remember(known: dict[K, V], key: K, value: V) -> None:
    """``known[key] = value``, as the newest entry, forgetting the oldest beyond
    :data:`MAX_KNOWN`."""
    known.pop(key, None)
    known[key] = value
    while len(known) > MAX_KNOWN:
        del known[next(iter(known))]


def new_table_language(settings: GuildSettings) -> str:
    """The language of a new table's posts in the server of ``settings``: the one
    ``/fp-settings`` chose (if the bot still has its catalog), else the server's own as Discord
    last told it, else English.

    >>> new_table_language(GuildSettings(1, guild_locale="fr"))
    'fr'
    >>> new_table_language(GuildSettings(1, language="en", guild_locale="fr"))
    'en'
    >>> new_table_language(GuildSettings(1))
    'en'
    """
    if settings.language is not None and settings.language in i18n.catalogs.languages:
        return settings.language
    return i18n.catalogs.language_for(settings.guild_locale)


def language_choices() -> list[str]:
    """What ``/fp-settings language`` accepts: :data:`SERVER_LANGUAGE`, then every language
    the bot has a catalog for (English first)."""
    others = sorted(i18n.catalogs.languages - {i18n.SOURCE_LANGUAGE})
    return [SERVER_LANGUAGE, i18n.SOURCE_LANGUAGE, *others]


class KnownLanguages:
    """The languages the store holds for the players and servers this process saw lately, and
    noting the ones interactions come with (the service's :meth:`note_languages
    <bot.service.TableService.note_languages>`)."""

    def __init__(self, store: ServiceStore) -> None:
        self.store = store
        self.players: dict[int, str] = {}
        """User id -> the language the store holds for them."""
        self.guilds: dict[int, str | None] = {}
        """Guild id -> the Discord language tag the store holds for it."""

    async def note(
        self,
        user_id: int,
        locale: str | None,
        guild_id: int | None = None,
        guild_locale: str | None = None,
    ) -> None:
        """Note the languages an interaction came with: the user's client's ``locale`` (kept
        as the best language the bot has for it, :attr:`data.store.PlayerPrefs.language`) and,
        in a server, its ``guild_locale`` (kept as Discord's tag,
        :attr:`data.store.GuildSettings.guild_locale`). Each is written only if it differs from
        what the store holds; what was written is remembered."""
        language = i18n.catalogs.language_for(locale)
        known = self.players.get(user_id)
        if known != language:
            if known is None:
                known = (await self.store.get_prefs(user_id)).language
            if known != language:
                await self.store.set_player_language(user_id, language)
                log.debug("user %s: language %s (was %s)", user_id, language, known)
            remember(self.players, user_id, language)
        if guild_id is None or guild_locale is None:
            return
        if guild_id in self.guilds:
            stored = self.guilds[guild_id]
            if stored == guild_locale:
                return
        else:
            stored = (await self.store.get_guild_settings(guild_id)).guild_locale
        if stored != guild_locale:
            await self.store.set_guild_locale(guild_id, guild_locale)
            log.debug("guild %s: language %s (was %s)", guild_id, guild_locale, stored)
        remember(self.guilds, guild_id, guild_locale)

    def of_player(self, prefs: PlayerPrefs) -> str:
        """The language of ``prefs`` (just read from the store), remembered as what the store
        holds for that player."""
        remember(self.players, prefs.user_id, prefs.language)
        return prefs.language

    def of_server(self, settings: GuildSettings) -> str:
        """The language a new table takes in the server of ``settings`` (just read from the
        store: :func:`new_table_language`), their Discord language remembered as what the store
        holds."""
        remember(self.guilds, settings.guild_id, settings.guild_locale)
        return new_table_language(settings)

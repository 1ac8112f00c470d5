"""The records desk: the one way from a records command or button to its answer.

As the table desk (:mod:`bot.desk`) does for a move, it asks the records service
(:mod:`bot.records.service`) and hands the typed result to the show side
(:mod:`bot.show.records`), once each: cog -> desk -> service -> desk -> show. Records change no
table, so there is no lock to take. A refusal of the service (a :class:`~bot.errors.TableError`)
goes up to the cog's :func:`bot.replies.guarded`, which answers it privately.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Final

import discord

from bot.records.analysis import Analyser
from bot.records.service import RecordsService
from bot.show import records as show
from data.store import Store

Interaction = discord.Interaction[Any]

ANSWER_WITHIN: Final = 1.0
"""Seconds ``/fp leaderboard`` waits for its page before acknowledging (Discord allows 3, and the
answer must still travel there; ``/fp status`` waits as long): an empty leaderboard is then
answered privately, which a deferred public answer cannot be."""


class RecordsDesk:
    """Asks the records service of one store, and shows what it answered."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        analyser: Analyser | None = None,
    ) -> None:
        self.service = RecordsService(store, clock=clock)
        self.analyser = analyser
        """Works out the turning points of finished matches (None: not in this process)."""

    async def catch_up(self) -> None:
        """Rate the matches that finished but are not rated yet (the cog's loop)."""
        await self.service.catch_up()

    async def analyse(self) -> None:
        """Work out the turning points of the matches waiting for them (the cog's loop)."""
        if self.analyser is not None:
            await self.analyser.run()

    async def close(self) -> None:
        """Stop the turning points' work under way, its claim released for the next process."""
        if self.analyser is not None:
            await self.analyser.close()

    async def stats(
        self, ix: Interaction, guild_id: int, key: str, name: str | None, level: str | None
    ) -> None:
        await show.stats(ix, await self.service.stats(guild_id, key), key, name, level)

    async def share(self, ix: Interaction, guild_id: int, key: str) -> None:
        await show.shared(ix, await self.service.stats(guild_id, key), key)

    async def leaderboard(self, ix: Interaction, guild_id: int, page: int, *, edit: bool) -> None:
        await show.leaderboard(ix, await self.service.leaderboard(guild_id, page), edit=edit)

    async def leaderboard_asked(self, ix: Interaction, guild_id: int) -> None:
        """``/fp leaderboard``: its first page in the channel, or privately when nobody is
        ranked yet. The page is asked before acknowledging, since whether the answer is public
        is decided then; a page that takes long (many matches to rate first) is waited for
        after a public acknowledgement, as before."""
        asked = asyncio.ensure_future(self.service.leaderboard(guild_id, 0))
        done, _ = await asyncio.wait({asked}, timeout=ANSWER_WITHIN)
        if not done:
            await show.thinking_publicly(ix)
        await show.leaderboard_asked(ix, await asked)

    async def history(
        self, ix: Interaction, guild_id: int, user_id: int | None, whose: str | None
    ) -> None:
        await show.history(ix, await self.service.history(guild_id, user_id), whose)

    async def replay_numbered(self, ix: Interaction, guild_id: int, number: int) -> None:
        """``/fp replay``: the first step of the server's match numbered ``number``."""
        table_id = await self.service.table_numbered(guild_id, number)
        await self.replay_step(ix, guild_id, table_id, 0, new=True)

    async def replay_step(
        self, ix: Interaction, guild_id: int, table_id: int, step: int, *, new: bool
    ) -> None:
        await show.replay_step(ix, await self.service.step(guild_id, table_id, step), new=new)

    async def summary(self, ix: Interaction, guild_id: int, table_id: int) -> None:
        await show.summary(ix, await self.service.moments(guild_id, table_id))

    async def turning_points(self, ix: Interaction, guild_id: int, table_id: int) -> None:
        shown = await self.service.turning_points(guild_id, table_id, ix.user.id)
        await show.turning_points(ix, shown)

    async def export(self, ix: Interaction, guild_id: int, table_id: int) -> None:
        await show.export(ix, await self.service.export(guild_id, table_id, ix.user.id))

"""Everything the show side sends to Discord goes out here: posts, edits and direct messages,
paced under the token's global budget (:mod:`bot.budget`), most urgent first, and the background
tasks that deliver what nobody waits for.

A background task is kept until it ends and its failure is logged with its table's id; at
shutdown they are cancelled (:meth:`Outbox.close`). The direct-message channel of a user and the
names of servers this process does not run are asked of Discord once, then remembered (a bounded
number of them).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Coroutine
from typing import Any, Final

import aiohttp
import discord

from bot import budget
from bot.background import Background
from bot.kept import Kept
from bot.show import pictures
from bot.show.ledger import Ledger
from bot.show.message import Message

log = logging.getLogger(__name__)

DM_CLOSED: Final = 50007
"""Discord's error code for "Cannot send messages to this user"."""
NO_MUTUAL_GUILDS: Final = 50278
"""Discord's answer to a DM to someone who left every server the bot is in."""
CACHE_SIZE: Final = 10_000
"""At most this many DM channels and server names are remembered."""
POST_ERRORS: Final = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""What posting a message can fail with: Discord's refusals, and the network's."""


class Outbox:
    """Sends, edits and background delivery for one bot process."""

    def __init__(self, bot: discord.Client, ledger: Ledger, rest_budget: budget.Budget) -> None:
        self.bot = bot
        self.ledger = ledger
        self.budget = rest_budget
        self.renderer = pictures.Renderer(workers=2)
        self._background = Background(bot.is_closed)
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._dm_opening: dict[int, asyncio.Future[int]] = {}
        self._guild_names: OrderedDict[int, str | None] = OrderedDict()

    def is_closed(self) -> bool:
        """Whether the bot is shutting down (failures then are expected)."""
        return self.bot.is_closed()

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    def message(
        self, channel_id: int, message_id: int, guild_id: int | None = None
    ) -> discord.PartialMessage:
        return self.channel(channel_id, guild_id).get_partial_message(message_id)

    async def send(
        self,
        channel_id: int,
        message: Message,
        guild_id: int | None = None,
        *,
        priority: int = budget.NOTICE,
    ) -> discord.Message:
        """Post a message in a channel (or a DM channel), paced under the global budget."""
        with budget.priority(priority):
            return await self.channel(channel_id, guild_id).send(**message.to_send())

    async def edit(
        self,
        target: discord.PartialMessage,
        message: Message,
        *,
        priority: int = budget.NOTICE,
    ) -> None:
        """Turn one of the bot's messages into ``message``, paced under the global budget."""
        with budget.priority(priority):
            await target.edit(**message.to_edit())

    async def edit_kept(
        self,
        table_id: int,
        kept: Kept,
        version: int,
        target: discord.PartialMessage,
        message: Message,
        *,
        priority: int = budget.NOTICE,
    ) -> bool:
        """Edit the table's kept message to show the table at ``version``, unless it already
        shows a newer one (another process, or a later move, edited it first): then nothing is
        sent, and False returned (:class:`bot.show.ledger.Ledger`)."""
        # The budget is waited for before the message's lock, which a player's click on that
        # message may be waiting for (a spot step in their direct messages).
        async with (
            budget.paid(self.budget, priority),
            self.ledger.edit(table_id, kept, version) as go,
        ):
            if go:
                await target.edit(**message.to_edit())
        if not go:
            log.debug("table %s: %s already shows a newer version than %s", table_id, kept, version)
        return go

    async def edit_kept_unversioned(
        self,
        table_id: int,
        kept: Kept,
        version: int,
        target: discord.PartialMessage,
        message: Message,
    ) -> bool:
        """Edit the table's kept message to show a change that did not move the table's version
        (a pause, a player away): as :meth:`edit_kept`, and also when the message shows
        ``version`` already, as long as the table is still at it (a later move's edit, waiting
        for the same message, lands after this one)."""
        async with (
            budget.paid(self.budget, budget.NOTICE),
            self.ledger.edit(table_id, kept, version) as go,
        ):
            if go or await self.ledger.still_at(table_id, version):
                await target.edit(**message.to_edit())
                return True
        log.debug("table %s: %s not edited, the table moved on from %s", table_id, kept, version)
        return False

    async def dm_channel_id(self, user_id: int) -> int:
        """The id of the DM channel with a user (created once, then remembered)."""
        cid = self._dm_channels.get(user_id)
        if cid is not None:
            self._dm_channels.move_to_end(user_id)
            return cid
        opening = self._dm_opening.get(user_id)
        if opening is None:  # several deliveries to one user at once open the channel once
            opening = self._dm_opening[user_id] = asyncio.ensure_future(self._open_dm(user_id))
            opening.add_done_callback(lambda _: self._dm_opening.pop(user_id, None))
        return await asyncio.shield(opening)

    async def _open_dm(self, user_id: int) -> int:
        with budget.priority(budget.HAND):
            data = await self.bot.http.start_private_message(user_id)
        cid = int(data["id"])
        self._dm_channels[user_id] = cid
        if len(self._dm_channels) > CACHE_SIZE:
            self._dm_channels.popitem(last=False)
        return cid

    async def guild_name(self, guild_id: int) -> str | None:
        """The name of a server: from this process's shards if one of them has it, else asked
        once from Discord and remembered (a hand clicked in a direct message may be shown by a
        process that does not run its server's shard). None if Discord does not say."""
        guild = self.bot.get_guild(guild_id)
        if guild is not None:
            return guild.name
        if guild_id in self._guild_names:
            self._guild_names.move_to_end(guild_id)
            return self._guild_names[guild_id]
        try:
            with budget.priority(budget.HAND):
                name: str | None = (await self.bot.fetch_guild(guild_id, with_counts=False)).name
        except discord.HTTPException as err:
            log.debug("could not read the name of server %s: %s", guild_id, err)
            name = None
        self._guild_names[guild_id] = name
        if len(self._guild_names) > CACHE_SIZE:
            self._guild_names.popitem(last=False)
        return name

    def spawn(self, coro: Coroutine[Any, Any, Any], table_id: int) -> asyncio.Task[Any]:
        """Run a coroutine for a table in the background (:class:`bot.background.Background`)."""
        return self._background.spawn(coro, table_id)

    async def close(self) -> None:
        """Cancel background work (at shutdown)."""
        await self._background.cancel_all()
        await self.renderer.close()

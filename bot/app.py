"""The bot: a thin ``commands.Bot`` that opens the store, builds the table service and loads the
features (extensions) in ``setup_hook``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.components import FpButton
from bot.config import Config, offset_clock
from bot.presenter import Presenter
from bot.service import Dealer, TableService, default_ai
from data import open_store
from data.store import Store, TableOptions
from engine import Game

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.tables", "bot.cogs.timers")


def intents() -> discord.Intents:
    """Only the guilds intent: slash commands and buttons need no privileged intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def state_file_dealer(path: str) -> Dealer:
    """Test-only: deal every new match from the engine state stored in ``path``."""

    def deal(players: int, seed: int, options: TableOptions) -> Game:
        state = json.loads(Path(path).read_text())
        game = Game.from_dict(state)
        if game.players != players:
            raise ValueError(f"{path} has {game.players} players, the table {players}")
        return game

    return deal


class Bot(commands.Bot):
    """Flaming Pyramids on Discord."""

    def __init__(
        self,
        config: Config,
        *,
        store: Store | None = None,
        clock: Callable[[], float] | None = None,
        ai_pause_s: float | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.config = config
        self.store: Store = store if store is not None else open_store(config.database_url)
        if clock is None and config.test_mode and config.clock_file:
            clock = offset_clock(config.clock_file)
        seed = config.seed
        self.service = TableService(
            self.store,
            clock=clock or __import__("time").time,
            ai=default_ai(time_budget_s=config.ai_time_budget_s, node_limit=config.ai_node_limit),
            seed_source=(lambda: seed) if seed is not None else None,
            deal=state_file_dealer(config.test_state_file)
            if config.test_mode and config.test_state_file
            else None,
        )
        pause = ai_pause_s if ai_pause_s is not None else (0.0 if config.test_mode else 1.0)
        self.presenter = Presenter(self, self.service, ai_pause_s=pause)
        self._shutdown: asyncio.Future[None] | None = None

    async def setup_hook(self) -> None:
        await self.store.open()
        self.add_dynamic_items(FpButton)
        for ext in EXTENSIONS:
            try:
                await self.load_extension(ext)
            except Exception:
                log.exception("could not load extension %s", ext)
        self.tree.error(self.on_app_command_error)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Register the slash commands: instantly in the development server if one is set,
        else globally (Discord may take a while to show new global commands)."""
        try:
            if self.config.dev_guild_id:
                guild = discord.Object(self.config.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("synced %d commands", len(synced))
        except discord.HTTPException:
            log.exception("could not sync the slash commands")

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
    ) -> None:
        """Last resort for command errors outside :func:`bot.replies.guarded`."""
        from bot.replies import SAFE, reply_private

        log.error("command %s failed", interaction.command, exc_info=error)
        await reply_private(interaction, SAFE)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the background work, the connection and the store, once: a second call (the
        ``async with`` exit after a SIGTERM, say) waits for the first to finish."""
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close_all())
        await asyncio.shield(self._shutdown)

    async def _close_all(self) -> None:
        await self.presenter.close()
        await super().close()
        try:
            await self.store.close()
        except Exception:
            log.exception("could not close the store")

    async def __aexit__(self, *exc: object) -> None:
        # discord.py's own exit waits only for its part of the closing; the store's connections
        # must be closed too before the event loop ends, or their threads keep the process up.
        await self.close()

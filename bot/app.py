"""The bot: a thin ``commands.AutoShardedBot`` that opens the store, builds the table service and
loads the features (extensions) in ``setup_hook``.

It runs the shards ``SHARD_COUNT`` / ``SHARD_IDS`` name (else the count Discord recommends), and
opens each gateway session only while holding the store's identify slot of its rate-limit bucket
(``shard_id % max_concurrency``), kept for Discord's 5 seconds after: several processes starting
together open their sessions one bucket-slot at a time, as Discord requires."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot import budget
from bot.config import Config, offset_clock
from bot.desk import Desk
from bot.followups import RETRY_FIRST_S, RETRY_MAX_S
from bot.locks import Locks
from bot.service import Dealer, TableService, default_ai, default_coach
from bot.show import Show, hands
from bot.show.ledger import Ledger
from bot.show.outbox import Outbox
from bot.startup import ExtensionsFailed
from bot.tablebuttons import BUTTONS, TableDesk
from bot.translator import CommandTranslator
from bot.unclaimed import ItemKind, answer_unclaimed
from data import open_store
from data.store import Store, StoreError, TableOptions
from engine import Game

log = logging.getLogger(__name__)

BUTTONS_DESK: Final[type[TableDesk]] = Desk
"""The desk is what the table's buttons ask of it (checked by the type checker)."""

#: Seconds a bucket's identify slot is held after its IDENTIFY: Discord allows one per bucket
#: every 5 seconds; the half second covers the IDENTIFY's own way to Discord.
IDENTIFY_SPACING_S = 5.5
LANGUAGE_WAIT_S: Final = 1.0
"""How long an interaction waits for the store to note the languages it came with (a read the
first time a player or server is seen, a write when one changed; nothing otherwise). A slower
store finishes in the background: a command, which notes them before its answer, keeps
Discord's 3 seconds."""


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


class CommandTree(app_commands.CommandTree["Bot"]):
    """The slash commands' tree: every command (and autocomplete) first notes the languages it
    came with (:meth:`Bot.note_languages`), so that what it does knows them."""

    async def interaction_check(self, interaction: discord.Interaction[Bot], /) -> bool:
        await interaction.client.note_languages(interaction)
        return True


class Bot(commands.AutoShardedBot):
    """Flaming Pyramids on Discord."""

    def __init__(
        self,
        config: Config,
        *,
        store: Store | None = None,
        clock: Callable[[], float] | None = None,
        ai_pause_s: float | None = None,
    ) -> None:
        shards: dict[str, Any] = {}
        if config.shard_count is not None:
            shards["shard_count"] = config.shard_count
        if config.shard_ids is not None:
            shards["shard_ids"] = list(config.shard_ids)
        # The bot has no voice: discord.py's warnings about voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CommandTree,
            **shards,
        )
        self.config = config
        # Every REST call that counts against Discord's global limit waits for this process's
        # share of the token's budget (see bot.budget).
        self.budget = budget.for_process(config.shard_ids, config.shard_count)
        budget.pace(self.http, self.budget)
        self._max_concurrency: int | None = None
        self._identify_holds: set[asyncio.Task[None]] = set()
        self._noting: set[asyncio.Task[None]] = set()
        self.store: Store = store if store is not None else open_store(config.database_url)
        if clock is None and config.test_mode and config.clock_file:
            clock = offset_clock(config.clock_file)
        seed = config.seed
        self.service = TableService(
            self.store,
            clock=clock or time.time,
            ai=default_ai(time_budget_s=config.ai_time_budget_s, node_limit=config.ai_node_limit),
            coach=default_coach(node_limit=config.ai_node_limit),
            seed_source=(lambda: seed) if seed is not None else None,
            deal=state_file_dealer(config.test_state_file)
            if config.test_mode and config.test_state_file
            else None,
        )
        pause = ai_pause_s if ai_pause_s is not None else (0.0 if config.test_mode else 1.0)
        retry = (0.1, 1.0) if config.test_mode else (RETRY_FIRST_S, RETRY_MAX_S)
        locks = Locks()
        show = Show(
            Outbox(self, Ledger(self.store, self.service.clock), self.budget),
            locks,
            self.service.clock,
            retry=(0.1, 1.0) if config.test_mode else (hands.RETRY_FIRST_S, hands.RETRY_MAX_S),
        )
        self.desk = Desk(
            self.service,
            show,
            locks,
            ai_pause_s=pause,
            retry_first_s=retry[0],
            retry_max_s=retry[1],
        )
        self._shutdown: asyncio.Future[None] | None = None
        self._item_kinds: list[ItemKind] = []
        """The ``DynamicItem`` classes registered (see :mod:`bot.unclaimed`)."""
        self.started_at = self.service.clock()
        """When this process started (the service's clock): moves made before it that the
        channel never saw are shown again (see Timers.recover)."""

    async def setup_hook(self) -> None:
        self.started_at = self.service.clock()
        await self.store.open()
        self.add_dynamic_items(*BUTTONS)
        # Every extension or none: a command list synced without one would remove its
        # commands from every server while the process looks healthy.
        for ext in self.config.extensions:
            try:
                await self.load_extension(ext)
            except Exception as e:
                log.debug("could not load extension %s", ext, exc_info=True)
                raise ExtensionsFailed(ext, e) from e
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Register the slash commands: instantly in the development server if one is set,
        else globally (Discord may take a while to show new global commands).

        Only when they changed since the last registration, and by one process only: the hash
        of what would be sent is claimed in the store (compare-and-set), since Discord limits
        how often commands may be created. A failed registration gives the claim back."""
        guild = discord.Object(self.config.dev_guild_id) if self.config.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = f"guild:{guild.id}" if guild is not None else "global"
        digest = await self.commands_digest(guild)
        claimed: str | None = digest
        try:
            if not await self.store.claim_command_sync(scope, digest, time.time()):
                log.info("slash commands unchanged since they were last registered (%s)", scope)
                return
        except StoreError:
            log.exception("could not claim the command registration; registering anyway")
            claimed = None
        try:
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands (%s)", len(synced), scope)
        except discord.HTTPException:
            log.exception("could not sync the slash commands")
            if claimed is not None:
                try:
                    await self.store.forget_command_sync(scope, claimed)
                except StoreError:
                    log.exception("could not give the command registration claim back")

    async def commands_digest(self, guild: discord.abc.Snowflake | None) -> str:
        """A hash of the commands payload ``tree.sync(guild=guild)`` would send."""
        commands = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is not None:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands]
        else:
            payload = [c.to_dict(self.tree) for c in commands]
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's identify slot; the IDENTIFY follows at once, and the slot is
        kept :data:`IDENTIFY_SPACING_S` seconds in the background."""
        if self._max_concurrency is None:
            limits = await self.fetch_session_start_limits()
            self._max_concurrency = max(1, limits.max_concurrency)
        bucket = (shard_id or 0) % self._max_concurrency
        holding = asyncio.Event()
        hold = asyncio.create_task(self._hold_identify_slot(bucket, holding))
        self._identify_holds.add(hold)
        hold.add_done_callback(self._identify_holds.discard)
        waiting = asyncio.create_task(holding.wait())
        await asyncio.wait({hold, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if holding.is_set():
            return
        waiting.cancel()
        if not hold.cancelled() and hold.exception() is not None:
            log.error("no identify slot for shard %s: %s", shard_id, hold.exception())
        await asyncio.sleep(IDENTIFY_SPACING_S)  # discord.py's own spacing, without the store

    async def _hold_identify_slot(self, bucket: int, holding: asyncio.Event) -> None:
        async with self.store.identify_slot(bucket):
            holding.set()
            await asyncio.sleep(IDENTIFY_SPACING_S)

    async def note_languages(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the service the languages ``interaction`` came with: its user's client's and,
        in a server, the server's (Discord's locale tags). Never raises: a failure is logged,
        and the interaction goes on in the language last kept. Waits at most
        :data:`LANGUAGE_WAIT_S`."""
        guild_locale = interaction.guild_locale if interaction.guild_id is not None else None
        noting = asyncio.ensure_future(
            self._note_languages(
                interaction.user.id,
                interaction.locale.value,
                interaction.guild_id,
                guild_locale.value if guild_locale is not None else None,
            )
        )
        self._noting.add(noting)
        noting.add_done_callback(self._noting.discard)
        try:
            await asyncio.wait_for(asyncio.shield(noting), LANGUAGE_WAIT_S)
        except TimeoutError:
            log.warning(
                "noting the languages of user %s goes on in the background", interaction.user.id
            )

    async def _note_languages(
        self, user_id: int, locale: str, guild_id: int | None, guild_locale: str | None
    ) -> None:
        try:
            await self.service.note_languages(user_id, locale, guild_id, guild_locale)
        except StoreError as err:
            log.warning("could not keep the languages of user %s: %s", user_id, err)
        except Exception:
            log.exception("could not keep the languages of user %s", user_id)

    def add_dynamic_items(self, *items: ItemKind) -> None:
        super().add_dynamic_items(*items)
        self._item_kinds.extend(i for i in items if i not in self._item_kinds)

    def remove_dynamic_items(self, *items: ItemKind) -> None:
        super().remove_dynamic_items(*items)
        self._item_kinds = [i for i in self._item_kinds if i not in items]

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click of ours is answered, also those discord.py drops (see
        :mod:`bot.unclaimed`)."""
        await answer_unclaimed(interaction, list(self._item_kinds))

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
    ) -> None:
        """Last resort for command errors outside :func:`bot.replies.guarded`."""
        from bot.languages import clicker_language
        from bot.replies import SAFE, reply_private

        log.error("command %s failed", interaction.command, exc_info=error)
        await reply_private(interaction, clicker_language(interaction).gettext(SAFE))

    async def on_ready(self) -> None:
        log.info(
            "connected as %s to %d servers on shards %s of %s",
            self.user,
            len(self.guilds),
            ",".join(str(i) for i in sorted(self.shards)),
            self.shard_count,
        )

    async def close(self) -> None:
        """Stop the background work, the connection and the store, once: a second call (the
        ``async with`` exit after a SIGTERM, say) waits for the first to finish."""
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close_all())
        await asyncio.shield(self._shutdown)

    async def _close_all(self) -> None:
        for task in [*self._identify_holds, *self._noting]:
            task.cancel()
        await self.desk.close()
        await super().close()
        try:
            await self.store.close()
        except Exception:
            log.exception("could not close the store")

    async def __aexit__(self, *exc: object) -> None:
        # discord.py's own exit waits only for its part of the closing; the store's connections
        # must be closed too before the event loop ends, or their threads keep the process up.
        await self.close()

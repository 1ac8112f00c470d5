"""``/fp stats``, ``/fp leaderboard``, ``/fp history``, ``/fp replay`` and the records' buttons:
parse, acknowledge, call the records desk.

The commands join the ``/fp`` group of the ``Tables`` cog when this extension loads (it loads
after ``bot.cogs.tables``); the buttons (:mod:`bot.recordbuttons`) are registered with them.
Every handler runs inside :func:`bot.replies.guarded` (refusals and failures become private
replies there), acknowledges first, then calls :class:`bot.recordsdesk.RecordsDesk`, which asks
the records service and hands its answer to the show side (:mod:`bot.show.records`). Nothing here
words, draws or lays out a message.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.cogs.tables import COMPUTERS
from bot.cogs.timers import process_owner
from bot.errors import Stale, Why
from bot.recordbuttons import BUTTONS, unavailable
from bot.records.analysis import Analyser
from bot.records.results import PAGE_SIZE
from bot.recordsdesk import RecordsDesk
from bot.replies import guarded
from data.records import computer_key, person_key

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)

MAX_MATCH: Final = 2**53 - 1
"""The largest table number `/fp replay` takes: an integer option's ``max_value`` is at most
2^53 - 1 in Discord's API (the command would not register with more)."""
MAX_PAGE: Final = 10**6 // PAGE_SIZE
"""The last leaderboard page a button may ask for (a forged page is the last one there is)."""
CATCH_UP_S: Final = 5.0
"""How often the bot looks for matches that finished but are not rated yet (one probe of a
small partial index when there are none): a match is rated within seconds of its end, by
whichever process ended it or another, and before any records command reads the ratings."""
ANALYSE_EVERY_S: Final = 5.0
"""How often the bot looks for matches waiting for their turning points (one probe of an index
when there are none): a match's analysis starts within seconds of its end."""


def server_of(interaction: discord.Interaction[Any]) -> int:
    """The server a records button or command was used in; records belong to a server, so one
    used anywhere else (a direct message) is refused privately, as any misplaced button is."""
    if interaction.guild_id is None:
        log.info("a records button used outside a server by user %s", interaction.user.id)
        raise Stale(Why.MISPLACED_BUTTON)
    return interaction.guild_id


def _cog(interaction: discord.Interaction[Any]) -> Records | None:
    client: Any = interaction.client
    cog = client.get_cog("Records")
    return cog if isinstance(cog, Records) else None


# --- the commands ---------------------------------------------------------------------------


@app_commands.describe(
    player="Whose stats (default: yours)", computer="A computer level's stats instead"
)
@app_commands.choices(computer=COMPUTERS)
async def _stats(
    interaction: discord.Interaction[Any],
    player: discord.Member | None = None,
    computer: app_commands.Choice[str] | None = None,
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await unavailable(interaction)
    await cog.stats(interaction, player, computer.value if computer else None)


async def _leaderboard(interaction: discord.Interaction[Any]) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await unavailable(interaction)
    await cog.leaderboard(interaction)


@app_commands.describe(player="Only the matches this player played")
async def _history(
    interaction: discord.Interaction[Any], player: discord.Member | None = None
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await unavailable(interaction)
    await cog.history(interaction, player)


@app_commands.describe(match="The match's table number, as /fp history shows it (table #12: 12)")
async def _replay(
    interaction: discord.Interaction[Any], match: app_commands.Range[int, 1, MAX_MATCH]
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await unavailable(interaction)
    await cog.replay(interaction, match)


COMMANDS: Final = (
    ("stats", "Your rating and stats in this server (privately; you can share them)", _stats),
    ("leaderboard", "This server's best players by rating", _leaderboard),
    ("history", "Recent finished matches, with replays", _history),
    ("replay", "Step through a finished match privately", _replay),
)


def slash_commands() -> list[app_commands.Command[Any, ..., None]]:
    """New command objects for ``/fp stats``, ``leaderboard``, ``history`` and ``replay`` (a
    group takes its commands as its own, so each bot gets objects of its own)."""
    return [
        app_commands.Command(name=name, description=description, callback=callback)
        for name, description, callback in COMMANDS
    ]


SLASH_COMMANDS: Final = tuple(slash_commands())
"""The commands as the catalog template reads them (:func:`bot.translator.module_commands`)."""


class Records(commands.Cog):
    """Ratings, stats, leaderboard, history, replays and exports of finished matches."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        config = bot.config
        analyser = None
        if config.turning_points:
            clock = bot.service.clock
            analyser = Analyser(bot.store, process_owner(), clock, config.turning_budget)
        self.desk = RecordsDesk(bot.store, bot.service.clock, analyser)
        self.analyse.change_interval(seconds=min(ANALYSE_EVERY_S, config.timer_interval_s))
        self._added: list[app_commands.Command[Any, ..., None]] = []

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("fp")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /fp group is not loaded (load bot.cogs.tables first)")
        for command in slash_commands():
            group.add_command(command, override=True)
            self._added.append(command)
        self.bot.add_dynamic_items(*BUTTONS)
        self.catch_up.start()
        self.analyse.start()

    async def cog_unload(self) -> None:
        self.catch_up.cancel()
        await self.desk.close()
        self.analyse.cancel()
        group = self.bot.tree.get_command("fp")
        if isinstance(group, app_commands.Group):
            for command in self._added:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(*BUTTONS)

    @tasks.loop(seconds=CATCH_UP_S)
    async def catch_up(self) -> None:
        """Rate matches that finished but were not rated: at start, then every
        :data:`CATCH_UP_S` (a match that ends is rated by the next read of records, or by this
        loop at the latest). A failure is logged, and the loop goes on."""
        try:
            await self.desk.catch_up()
        except Exception:
            log.exception("could not rate the finished matches")

    @tasks.loop(seconds=ANALYSE_EVERY_S)
    async def analyse(self) -> None:
        """Work out the turning points of the matches that ended and have none yet, the last
        ended first (:mod:`bot.records.analysis`: in a process of their own): at start, then
        every :data:`ANALYSE_EVERY_S` at most. A failure is logged, and the loop goes on."""
        try:
            await self.desk.analyse()
        except Exception:
            log.exception("could not work out the turning points of the finished matches")

    # --- the commands ---------------------------------------------------------------------------

    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member | None,
        level: str | None,
    ) -> None:
        async with guarded(interaction, None, "/fp stats"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            if level is not None:
                key, name = computer_key(level), None
            else:
                who = player or interaction.user
                key, name = person_key(who.id), who.display_name
            await self.desk.stats(interaction, interaction.guild_id, key, name, level)

    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        async with guarded(interaction, None, "/fp leaderboard"):
            assert interaction.guild_id is not None
            # The desk acknowledges: whether the answer is private depends on the page.
            await self.desk.leaderboard_asked(interaction, interaction.guild_id)

    async def history(
        self, interaction: discord.Interaction[Any], player: discord.Member | None
    ) -> None:
        async with guarded(interaction, None, "/fp history"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            await self.desk.history(
                interaction,
                interaction.guild_id,
                player.id if player else None,
                player.display_name if player else None,
            )

    async def replay(self, interaction: discord.Interaction[Any], number: int) -> None:
        """``/fp replay``: the server's match numbered ``number`` (as players name it),
        acknowledged (privately, as the replay is) before the database is read."""
        async with guarded(interaction, None, "/fp replay"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.replay_numbered(interaction, guild_id, number)

    # --- the buttons ----------------------------------------------------------------------------

    async def share(self, interaction: discord.Interaction[Any], key: str) -> None:
        async with guarded(interaction, None, "sharing stats"):
            guild_id = server_of(interaction)
            await interaction.response.defer(thinking=True)
            await self.desk.share(interaction, guild_id, key)

    async def board_page(self, interaction: discord.Interaction[Any], page: int) -> None:
        async with guarded(interaction, None, "a leaderboard page"):
            guild_id = server_of(interaction)
            await interaction.response.defer()
            await self.desk.leaderboard(interaction, guild_id, min(page, MAX_PAGE), edit=True)

    async def replay_step(
        self, interaction: discord.Interaction[Any], table_id: int, step: int, *, new: bool
    ) -> None:
        """A step of a replay: ``new``, a history's Replay button (a new private message);
        else a step button of the replay message clicked, which it edits."""
        async with guarded(interaction, table_id, "a replay step"):
            guild_id = server_of(interaction)
            if new:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
            await self.desk.replay_step(interaction, guild_id, table_id, step, new=new)

    async def summary(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        async with guarded(interaction, table_id, "a match summary"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.summary(interaction, guild_id, table_id)

    async def turning_points(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        async with guarded(interaction, table_id, "a match's turning points"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.turning_points(interaction, guild_id, table_id)

    async def export(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        async with guarded(interaction, table_id, "a match export"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.export(interaction, guild_id, table_id)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Records(bot))

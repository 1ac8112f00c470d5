"""``/fp away``, ``/fp pause``, ``/fp resume`` and the "I'm back" button: parse, acknowledge,
call the table desk.

The commands join the ``/fp`` group of the ``Tables`` cog when this extension loads (after
``bot.cogs.tables``); the "I'm back" button (:mod:`bot.awaybutton`) is registered with them.
Every handler runs inside :func:`bot.replies.guarded` (refusals and failures become private
replies there), acknowledges first, then calls the desk (:mod:`bot.desk`), which asks the table
service and shows what changed. The answers' words are in :mod:`bot.show.breaktexts`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.awaybutton import BUTTONS, back_view
from bot.components import RESTARTING
from bot.languages import clicker_language
from bot.replies import guarded
from bot.service import AWAY_MAX_S
from bot.service.core import MAX_REASON
from bot.show import breaktexts
from bot.tablebuttons import display_name

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)

DAY: Final = 24 * 3600
MAX_DAYS: Final = AWAY_MAX_S // DAY
PAUSE_LENGTHS: Final = [
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=6 * 3600),
    app_commands.Choice(name="12 hours", value=12 * 3600),
    app_commands.Choice(name="24 hours", value=DAY),
    app_commands.Choice(name="3 days", value=3 * DAY),
    app_commands.Choice(name="7 days", value=7 * DAY),
]
DEFAULT_PAUSE_S: Final = DAY


def _cog(interaction: discord.Interaction[Any]) -> Breaks | None:
    client: Any = interaction.client
    cog = client.get_cog("Breaks")
    return cog if isinstance(cog, Breaks) else None


async def _restarting(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        clicker_language(interaction).gettext(RESTARTING), ephemeral=True
    )


# --- the commands ---------------------------------------------------------------------------


@app_commands.describe(
    days="How many days you are away (1 to 14; default 14)",
    off="True: you are back, your decisions are yours again",
)
async def _away(
    interaction: discord.Interaction[Any],
    days: app_commands.Range[int, 1, MAX_DAYS] | None = None,
    off: bool | None = None,
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _restarting(interaction)
    await cog.away(interaction, days, bool(off))


@app_commands.describe(
    reason="Why the game is paused (everyone at the table reads it)",
    length="How long the pause lasts at most (default 24 hours)",
)
@app_commands.choices(length=PAUSE_LENGTHS)
async def _pause(
    interaction: discord.Interaction[Any],
    reason: app_commands.Range[str, 1, MAX_REASON],
    length: app_commands.Choice[int] | None = None,
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _restarting(interaction)
    await cog.pause(interaction, reason, length.value if length else DEFAULT_PAUSE_S)


async def _resume(interaction: discord.Interaction[Any]) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _restarting(interaction)
    await cog.resume(interaction)


COMMANDS: Final = (
    ("away", "Step away: a computer plays your turns in this server at once", _away),
    ("pause", "Pause this channel's game: no clock runs (host or channel managers)", _pause),
    ("resume", "Go on with this channel's paused game (host or channel managers)", _resume),
)


def slash_commands() -> list[app_commands.Command[Any, ..., None]]:
    """New command objects for ``/fp away``, ``pause`` and ``resume`` (a group takes its
    commands as its own, so each bot gets objects of its own)."""
    return [
        app_commands.Command(name=name, description=description, callback=callback)
        for name, description, callback in COMMANDS
    ]


SLASH_COMMANDS: Final = tuple(slash_commands())
"""The commands as the catalog template reads them (:func:`bot.translator.module_commands`)."""


def _may_manage(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_channels or perms.administrator)


class Breaks(commands.Cog):
    """Players away and paused games."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.desk = bot.desk
        self._added: list[app_commands.Command[Any, ..., None]] = []

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("fp")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /fp group is not loaded (load bot.cogs.tables first)")
        for command in slash_commands():
            group.add_command(command, override=True)
            self._added.append(command)
        self.bot.add_dynamic_items(*BUTTONS)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("fp")
        if isinstance(group, app_commands.Group):
            for command in self._added:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(*BUTTONS)

    async def away(
        self, interaction: discord.Interaction[Any], days: int | None, off: bool
    ) -> None:
        """``/fp away [days]``, ``/fp away off:True``: privately answered, with "I'm back" while
        away."""
        async with guarded(interaction, None, "/fp away"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            lang = clicker_language(interaction)
            user_id = interaction.user.id
            if off:
                change = await self.desk.come_back(interaction.guild_id, user_id)
                await interaction.followup.send(breaktexts.away_ended(change, lang), ephemeral=True)
                return
            seconds = (days or MAX_DAYS) * DAY
            change = await self.desk.away(interaction.guild_id, user_id, seconds)
            await interaction.followup.send(
                breaktexts.away_set(change, lang),
                view=back_view(interaction.guild_id, lang),
                ephemeral=True,
            )

    async def back_clicked(self, interaction: discord.Interaction[Any], guild_id: int) -> None:
        """ "I'm back": the clicked message says so, without its button (the caller checked
        where it was clicked)."""
        await interaction.response.defer()
        client: Any = interaction.client
        await client.note_languages(interaction)
        change = await self.desk.come_back(guild_id, interaction.user.id)
        await interaction.edit_original_response(
            content=breaktexts.away_ended(change, clicker_language(interaction)), view=None
        )

    async def pause(self, interaction: discord.Interaction[Any], reason: str, seconds: int) -> None:
        """``/fp pause reason [length]``: the channel is told; the answer is private."""
        async with guarded(interaction, None, "/fp pause"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            board = await self.desk.pause(
                interaction.channel_id,
                interaction.user.id,
                display_name(interaction.user),
                reason,
                seconds,
                manage=_may_manage(interaction),
            )
            await interaction.followup.send(
                breaktexts.pause_done(board, clicker_language(interaction)), ephemeral=True
            )

    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp resume``: the channel is told; the answer is private."""
        async with guarded(interaction, None, "/fp resume"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            board = await self.desk.resume(
                interaction.channel_id,
                interaction.user.id,
                display_name(interaction.user),
                manage=_may_manage(interaction),
            )
            await interaction.followup.send(
                breaktexts.resume_done(board, clicker_language(interaction)), ephemeral=True
            )


async def setup(bot: Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Breaks(bot))


__all__ = ["Breaks", "setup"]

"""``/fp help``: every command in one screen.

The list is read from the command tree the bot registers, so it names every ``/fp`` command
there is (the tables', the records', this one) with the description Discord shows under it,
and cannot fall behind the commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.replies import guarded

if TYPE_CHECKING:
    from bot.app import Bot

COLOUR: Final = 0xE8590C
HOW_TO_PLAY: Final = (
    "**How to play:** `/fp new` opens a table here, friends press **Join**, the host presses "
    "**Start**. On your turn, press a tile of your hand, then a spot of the pyramid; when a tile "
    "falls, press **Fall left** or **Fall right**. `/fp rules` has the rules in short."
)


def command_line(command: app_commands.Command[Any, ..., Any]) -> str:
    """``/fp new [curse] [fire_die] …: description``: a command, its options (in brackets when
    optional), and what it does."""
    options = " ".join(
        p.display_name if p.required else f"[{p.display_name}]" for p in command.parameters
    )
    usage = f"/{command.qualified_name}" + (f" {options}" if options else "")
    return f"`{usage}`: {command.description}"


def help_text(commands_: Sequence[app_commands.Command[Any, ..., Any]]) -> str:
    """The screen: one line per command, in the order they are registered, then how to play."""
    return "\n".join([*(command_line(c) for c in commands_), "", HOW_TO_PLAY])


async def _help(interaction: discord.Interaction[Any]) -> None:
    async with guarded(interaction, None, "/fp help"):
        client: Any = interaction.client
        group = client.tree.get_command("fp")
        listed = (
            [c for c in group.commands if isinstance(c, app_commands.Command)]
            if isinstance(group, app_commands.Group)
            else []
        )
        embed = discord.Embed(
            title="Flaming Pyramids: every command", description=help_text(listed), colour=COLOUR
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


def slash_commands() -> list[app_commands.Command[Any, ..., None]]:
    """A new ``/fp help`` command object (a group takes its commands as its own, so each bot
    gets one of its own)."""
    return [
        app_commands.Command(
            name="help", description="Every command of the bot in one screen", callback=_help
        )
    ]


SLASH_COMMANDS: Final = tuple(slash_commands())
"""The commands as the catalog template reads them (:func:`bot.translator.module_commands`)."""


class Help(commands.Cog):
    """``/fp help``, added to the ``/fp`` group of the tables' cog."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("fp")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /fp group is not loaded (load bot.cogs.tables first)")
        for command in slash_commands():
            group.add_command(command, override=True)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("fp")
        if isinstance(group, app_commands.Group):
            group.remove_command("help")


async def setup(bot: Bot) -> None:
    await bot.add_cog(Help(bot))

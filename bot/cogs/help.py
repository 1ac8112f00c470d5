"""``/fp help``: every command in one screen, in the reader's language.

The list is read from the command tree the bot registers, so it names every ``/fp`` command
there is (the tables', the records', this one) with the description Discord shows under it,
and cannot fall behind the commands. A reader whose client is in French reads the commands'
French names, options and descriptions: the same catalog entries that
:class:`bot.translator.CommandTranslator` gives Discord, so the help names each command as the
reader's client shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot import emoji as em
from bot.languages import clicker_language
from bot.replies import guarded
from i18n import Language

if TYPE_CHECKING:
    from bot.app import Bot

COLOUR: Final = 0xE8590C


def button_labels(lang: Language) -> dict[str, str]:
    """The buttons' labels the help names, as the buttons show them to the same reader
    (``bot/show/buttons.py``, ``bot/show/lobbycard.py``)."""
    return {
        "join": lang.pgettext("button", "Join"),
        "start": lang.pgettext("button", "Start"),
        "fall_left": lang.pgettext("button", "Fall left"),
        "fall_right": lang.pgettext("button", "Fall right"),
        "undo": lang.pgettext("button", "Undo"),
        "done": lang.pgettext("button", "Done"),
    }


def command_name(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group, lang: Language
) -> str:
    """``fp new`` as the reader's client shows it (``fp nouvelle`` in French)."""
    parts: list[str] = []
    node: Any = command
    while node is not None:
        parts.insert(0, lang.pgettext("command name", node.name))
        node = node.parent
    return " ".join(parts)


def how_to_play(lang: Language, new: str = "fp new", rules: str = "fp rules") -> str:
    """How a game goes, in a few lines, with the commands as the reader's client names them."""
    return lang.gettext(
        "**How to play:** `/{new}` opens a table here, friends press **{join}**, the host "
        "presses **{start}**. Everyone gets a pile of tiles and draws a hand of 5 from it. On "
        "your turn, press a tile of your hand, then a spot of the pyramid. A tile that does not "
        "fit collapses: the tiles under it go under your pile (you draw them again later), and "
        "you press **{fall_left}** or **{fall_right}**. The first with no tile left in hand and "
        "pile wins the round; the others score the tiles left in their hand and pile (lowest "
        "total wins). Until the others see your turn (a few seconds, as the table chose), "
        "**{undo}** takes it back and **{done}** hands it on at once. `/{rules}` has the rules "
        "in short."
    ).format(new=new, rules=rules, **button_labels(lang))


def practice(lang: Language, new: str = "fp new") -> str:
    """What a practice table is, with ``/fp new``'s option as the reader's client names it."""
    return lang.gettext(
        "**Practice:** `/{new} {hints}:True` opens a practice table: on your turn and when a "
        "tile of yours falls, **{hint}** shows you privately the move the expert would play, "
        "and why. A practice match is not rated."
    ).format(
        new=new,
        hints=lang.pgettext("option name", "hints"),
        hint=f"{em.HINT} {lang.pgettext('button', 'Hint')}",
    )


def command_line(command: app_commands.Command[Any, ..., Any], lang: Language) -> str:
    """``/fp new [curse] [fire_die] …: description``: a command, its options (in brackets when
    optional), and what it does, in the reader's language."""
    names = [lang.pgettext("option name", p.display_name) for p in command.parameters]
    options = " ".join(
        name if p.required else f"[{name}]"
        for name, p in zip(names, command.parameters, strict=True)
    )
    usage = f"/{command_name(command, lang)}" + (f" {options}" if options else "")
    description = lang.pgettext("command description", command.description)
    return lang.gettext("`{usage}`: {description}").format(usage=usage, description=description)


def help_text(commands_: Sequence[app_commands.Command[Any, ..., Any]], lang: Language) -> str:
    """The screen: one line per command, in the order they are registered, then how to play."""
    by_name = {c.name: c for c in commands_}
    new = command_name(by_name["new"], lang) if "new" in by_name else "fp new"
    rules = command_name(by_name["rules"], lang) if "rules" in by_name else "fp rules"
    lines = [command_line(c, lang) for c in commands_]
    return "\n".join([*lines, "", how_to_play(lang, new, rules), practice(lang, new)])


async def _help(interaction: discord.Interaction[Any]) -> None:
    async with guarded(interaction, None, "/fp help"):
        client: Any = interaction.client
        group = client.tree.get_command("fp")
        listed = (
            [c for c in group.commands if isinstance(c, app_commands.Command)]
            if isinstance(group, app_commands.Group)
            else []
        )
        lang = clicker_language(interaction)
        embed = discord.Embed(
            title=lang.gettext("Flaming Pyramids: every command"),
            description=help_text(listed, lang),
            colour=COLOUR,
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

"""The ``/fp`` commands (the table's buttons are in :mod:`bot.tablebuttons`).

Each handler reads its options, acknowledges the interaction first (Discord allows 3 seconds),
then calls the table desk (:mod:`bot.desk`), which asks the table service and shows the result.
Refusals and failures become private replies in :func:`bot.replies.guarded`. No game rule lives
here, and no word of the game's messages (:mod:`bot.show.texts`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from babel import Locale
from discord import app_commands
from discord.ext import commands

from bot import rules
from bot.errors import TableError, TableExists
from bot.languages import clicker_language
from bot.replies import guarded
from bot.service import COMPUTER_LEVELS, SERVER_LANGUAGE, SettingsChange, language_choices
from bot.service.core import MAX_AWAY_AFTER
from bot.show import answertexts, texts, words
from bot.show.outbox import POST_ERRORS
from bot.tablebuttons import display_name
from data.store import TableDefaults

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)

TIME_LIMITS = [
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=6 * 3600),
    app_commands.Choice(name="12 hours", value=12 * 3600),
    app_commands.Choice(name="24 hours", value=24 * 3600),
    app_commands.Choice(name="3 days", value=3 * 24 * 3600),
    app_commands.Choice(name="7 days", value=7 * 24 * 3600),
]
REMINDERS = [
    app_commands.Choice(name="no reminder", value=0),
    app_commands.Choice(name="1 hour before", value=3600),
    app_commands.Choice(name="3 hours before", value=3 * 3600),
    app_commands.Choice(name="6 hours before", value=6 * 3600),
    app_commands.Choice(name="12 hours before", value=12 * 3600),
]
UNDO_WINDOWS = [
    app_commands.Choice(name="no undo", value=0),
    app_commands.Choice(name="10 seconds", value=10),
    app_commands.Choice(name="30 seconds", value=30),
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="5 minutes (one person with computers)", value=300),
    app_commands.Choice(name="10 minutes (one person with computers)", value=600),
]
"""How long a turn played may be taken back (``undo``): at a table of several people, at
most :data:`bot.service.MAX_UNDO_S` of it is used."""
COMPUTERS = [
    app_commands.Choice(name=f"Computer ({level})", value=level) for level in COMPUTER_LEVELS
]
"""The computer levels, as the choices of ``/fp stats computer`` and ``/fp-settings stand_in``
name them (:func:`bot.show.recordtexts.computer_name` names their records alike)."""
HAND_MODES = [
    app_commands.Choice(name="by direct message", value="dm"),
    app_commands.Choice(name="only here, privately (no DMs)", value="channel"),
]


def autonym(language: str) -> str:
    """A language's name in itself, as a menu of languages shows it: "English", "Français"."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


LANGUAGES = [
    app_commands.Choice(name="The server's language (Discord's)", value=SERVER_LANGUAGE),
    *(
        app_commands.Choice(name=autonym(code), value=code)
        for code in language_choices()
        if code != SERVER_LANGUAGE
    ),
]
"""``/fp-settings language``: the server's own language, or one the bot speaks (each named in
itself, so that whoever reads it finds theirs)."""
NEEDED = ("view_channel", "send_messages", "attach_files", "embed_links")


def missing_permissions(perms: discord.Permissions) -> list[str]:
    """The permissions the bot needs in a channel and lacks there, by their names in Discord."""
    return [name.replace("_", " ").title() for name in NEEDED if not getattr(perms, name)]


class Tables(commands.Cog):
    """Lobbies, turns and hands: the ``/fp`` commands. While it is loaded the table's buttons
    act (:meth:`bot.tablebuttons.TableButton.clicked`)."""

    fp = app_commands.Group(
        name="fp", description="Play Flaming Pyramids in this channel", guild_only=True
    )

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.desk = bot.desk

    def _here(self, interaction: discord.Interaction[Any]) -> Callable[[], Awaitable[int | None]]:
        """Finds the id of the table in the interaction's channel (for the logs)."""

        async def find() -> int | None:
            if interaction.channel_id is None:
                return None
            return await self.desk.table_here(interaction.channel_id)

        return find

    # --- /fp new -------------------------------------------------------------------------------

    @fp.command(name="new", description="Open a Flaming Pyramids table in this channel")
    @app_commands.describe(
        curse="Three tiles of equal weight as a mini-pyramid go to the previous player",
        fire_die="Fires are decided by the fire die",
        rounds="How many rounds the match has (lowest total wins)",
        time_limit="How long each player has for a decision (default: the server's)",
        max_seats="At most this many players (2 to 6)",
        preview="Before a play, show what each spot would do (on unless you turn it off)",
        undo="How long a turn played may be taken back before the others see it",
        hints="Practice table: a Hint button shows the move the expert would play (not rated)",
    )
    @app_commands.choices(time_limit=TIME_LIMITS, undo=UNDO_WINDOWS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        curse: bool | None = None,
        fire_die: bool | None = None,
        rounds: app_commands.Range[int, 1, 10] | None = None,
        time_limit: app_commands.Choice[int] | None = None,
        max_seats: app_commands.Range[int, 2, 6] | None = None,
        preview: bool | None = None,
        undo: app_commands.Choice[int] | None = None,
        hints: bool | None = None,
    ) -> None:
        """``/fp new``: a lobby message with Join / Leave / Start / Cancel."""
        async with guarded(interaction, None, "/fp new"):
            missing = missing_permissions(interaction.app_permissions)
            if missing:
                await interaction.response.send_message(
                    answertexts.cannot_host(missing, clicker_language(interaction)), ephemeral=True
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None and interaction.channel_id is not None
            options = TableDefaults(
                curse=curse,
                fire_die=fire_die,
                rounds=rounds,
                turn_limit_s=time_limit.value if time_limit else None,
                max_seats=max_seats,
                preview=preview,
                undo_s=undo.value if undo else None,
                hints=hints,
            )
            try:
                number, message = await self.desk.new_table(
                    interaction.guild_id,
                    interaction.channel_id,
                    interaction.user.id,
                    display_name(interaction.user),
                    options,
                )
            except TableExists as busy:
                link = texts.jump_url(interaction.guild_id, interaction.channel_id, busy.message_id)
                await interaction.followup.send(
                    answertexts.channel_busy(link, clicker_language(interaction)), ephemeral=True
                )
                return
            except POST_ERRORS as err:
                await interaction.followup.send(
                    answertexts.lobby_not_posted(err, clicker_language(interaction)), ephemeral=True
                )
                return
            await interaction.followup.send(
                answertexts.table_open(number, message.jump_url, clicker_language(interaction)),
                ephemeral=True,
            )

    # --- /fp hand, status, leave, abort, rules, settings -------------------------------------

    @fp.command(name="notify", description="Choose which direct messages you get")
    @app_commands.describe(
        turn="A direct message when your turn begins", reminders="Reminders before your time ends"
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        turn: bool | None = None,
        reminders: bool | None = None,
    ) -> None:
        """``/fp notify``: DM on my turn (yes/no), reminders (yes/no); without options, says
        what the choices are now."""
        async with guarded(interaction, None, "/fp notify"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            prefs = await self.desk.set_notify(
                interaction.user.id, on_turn=turn, reminders=reminders
            )
            await interaction.followup.send(
                answertexts.notify_choices(prefs, clicker_language(interaction)), ephemeral=True
            )

    @fp.command(name="hand", description="See your hand at this channel's table (privately)")
    @app_commands.describe(mode="How you get your hands from now on")
    @app_commands.choices(mode=HAND_MODES)
    async def hand(
        self,
        interaction: discord.Interaction[Any],
        mode: app_commands.Choice[str] | None = None,
    ) -> None:
        """``/fp hand``: the hand with its tile buttons, ephemerally."""
        async with guarded(interaction, None, "/fp hand", find_table=self._here(interaction)):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            if mode is None:
                await self.desk.open_hand_here(interaction, interaction.channel_id)
                return
            chosen: Literal["dm", "channel"] = "dm" if mode.value == "dm" else "channel"
            await self.desk.set_hand_mode(interaction.user.id, chosen)
            try:
                await self.desk.open_hand_here(interaction, interaction.channel_id)
            except TableError as err:
                # The choice is made for good, game or not: say so, then why there is no hand.
                await interaction.followup.send(
                    f"{clicker_language(interaction).gettext(answertexts.MODE_CHOSEN[chosen])}\n"
                    f"{words.refusal(err, texts.esc, clicker_language(interaction))}",
                    ephemeral=True,
                )

    @fp.command(name="status", description="Post the table's current picture again")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp status``: the current picture at the bottom of the channel."""
        async with guarded(interaction, None, "/fp status", find_table=self._here(interaction)):
            assert interaction.channel_id is not None
            await self.desk.status(interaction, interaction.channel_id)

    @fp.command(name="leave", description="Leave this channel's table (a computer takes your seat)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp leave``: a lobby is left at once; a running game asks to confirm first (its
        button, :class:`bot.tablebuttons.LeaveMatchButton`, leaves)."""
        async with guarded(interaction, None, "/fp leave", find_table=self._here(interaction)):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            if not await self.desk.leave_lobby_or_ask(interaction, interaction.channel_id):
                return  # a running game: only the confirmation's button leaves it
            await interaction.followup.send(
                answertexts.you_left(False, clicker_language(interaction)), ephemeral=True
            )

    @fp.command(name="abort", description="Close this channel's table (host or channel managers)")
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp abort``."""
        async with guarded(interaction, None, "/fp abort", find_table=self._here(interaction)):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            perms = interaction.permissions
            await self.desk.abort(
                interaction.channel_id,
                interaction.user.id,
                display_name(interaction.user),
                may_manage=perms.manage_channels or perms.administrator,
            )
            await interaction.followup.send(
                clicker_language(interaction).gettext(answertexts.ABORT_DONE), ephemeral=True
            )

    @fp.command(name="rules", description="The rules of Flaming Pyramids in short, with pictures")
    async def rules_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp rules``."""
        async with guarded(interaction, None, "/fp rules"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            embeds, files = await rules.rules_message(clicker_language(interaction))
            await interaction.followup.send(embeds=embeds, files=files, ephemeral=True)

    # A command of its own, not a subcommand of /fp: Discord hides a command from members who
    # lack its default permissions only for a whole command (default_member_permissions).
    @app_commands.command(
        name="fp-settings", description="Server defaults for new tables (server admins)"
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        time_limit="Default time per decision",
        reminder="When to remind a player before their time runs out",
        curse="Curse on by default",
        fire_die="Fire die on by default",
        language="The language of new tables' posts and pictures (default: the server's)",
        undo="How long a turn played may be taken back, by default",
        away_after="Time-outs in a row after which a player is set away (0: never; default 2)",
        stand_in="The computer that plays for a player out of time, away or gone (default: normal)",
        hints="New tables are practice tables by default: a Hint button, not rated",
    )
    @app_commands.choices(time_limit=TIME_LIMITS, reminder=REMINDERS, undo=UNDO_WINDOWS)
    @app_commands.choices(language=LANGUAGES, stand_in=COMPUTERS)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        time_limit: app_commands.Choice[int] | None = None,
        reminder: app_commands.Choice[int] | None = None,
        curse: bool | None = None,
        fire_die: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        undo: app_commands.Choice[int] | None = None,
        away_after: app_commands.Range[int, 0, MAX_AWAY_AFTER] | None = None,
        stand_in: app_commands.Choice[str] | None = None,
        hints: bool | None = None,
    ) -> None:
        """``/fp-settings``: only members who can manage the server (Discord shows it to
        nobody else unless the server's admins allow them in its Integrations settings; the
        bot still checks)."""
        async with guarded(interaction, None, "/fp-settings"):
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                await interaction.response.send_message(
                    clicker_language(interaction).gettext(answertexts.SETTINGS_ADMINS_ONLY),
                    ephemeral=True,
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            change = SettingsChange.of(
                turn_limit_s=time_limit.value if time_limit else None,
                reminder_s=reminder.value if reminder else None,
                defaults=TableDefaults(
                    curse=curse,
                    fire_die=fire_die,
                    undo_s=undo.value if undo else None,
                    hints=hints,
                ),
                language=language.value if language else None,
                away_after=away_after,
                stand_in=stand_in.value if stand_in else None,
            )
            current = await self.desk.settings(interaction.guild_id, change)
            await interaction.followup.send(
                answertexts.settings_now(current, clicker_language(interaction)), ephemeral=True
            )


async def setup(bot: Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Tables(bot))


__all__ = ["Tables", "setup"]

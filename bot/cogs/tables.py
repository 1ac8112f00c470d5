"""The ``/fp`` commands and every Flaming Pyramids button.

Each handler acknowledges the interaction first (Discord allows 3 seconds), then asks the table
service, then shows the result through the presenter. Refusals and failures become private
replies in :func:`bot.replies.guarded`. No game rule lives here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Literal

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import emoji as em
from bot import rules, views
from bot.components import ButtonId
from bot.errors import BadRequest, NotShown, Stale, TableError, TableExists, Why
from bot.replies import guarded
from bot.service import Board, LeftGame, SpotChoice, Step
from bot.show import words
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
HAND_MODES = [
    app_commands.Choice(name="by direct message", value="dm"),
    app_commands.Choice(name="only here, privately (no DMs)", value="channel"),
]
MODE_CHOSEN = {
    "dm": "From now on your hands come by direct message.",
    "channel": "From now on I will not DM your hands: use **My hand** or `/fp hand`.",
}
NEEDED = ("view_channel", "send_messages", "attach_files", "embed_links")
THREAD_ARCHIVE_MINUTES: Final = 10080
"""A game's thread leaves the channel list after a week without messages, the longest of
Discord's four choices (60, 1440, 4320, 10080 minutes), open to every server. The bot's next
post in it reopens it."""
LOBBY_ACTIONS = frozenset({"join", "leave", "ai", "rmai", "cancel"})


def missing_permissions(perms: discord.Permissions) -> list[str]:
    """The permissions the bot needs in a channel and lacks there, by their names in Discord."""
    return [name.replace("_", " ").title() for name in NEEDED if not getattr(perms, name)]


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class Tables(commands.Cog):
    """Lobbies, turns and hands: the ``/fp`` commands and the game's buttons."""

    fp = app_commands.Group(
        name="fp", description="Play Flaming Pyramids in this channel", guild_only=True
    )

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        self.presenter = bot.presenter

    def _here(self, interaction: discord.Interaction[Any]) -> Callable[[], Awaitable[int | None]]:
        """Finds the id of the table in the interaction's channel (for the logs)."""

        async def find() -> int | None:
            if interaction.channel_id is None:
                return None
            try:
                return (await self.service.table_in_channel(interaction.channel_id)).id
            except TableError as err:
                return err.table_id

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
    )
    @app_commands.choices(time_limit=TIME_LIMITS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        curse: bool | None = None,
        fire_die: bool | None = None,
        rounds: app_commands.Range[int, 1, 10] | None = None,
        time_limit: app_commands.Choice[int] | None = None,
        max_seats: app_commands.Range[int, 2, 6] | None = None,
        preview: bool | None = None,
    ) -> None:
        """``/fp new``: a lobby message with Join / Leave / Start / Cancel."""
        async with guarded(interaction, None, "/fp new"):
            missing = missing_permissions(interaction.app_permissions)
            if missing:
                await interaction.response.send_message(
                    "I cannot host a game here: I am missing these permissions in this channel: "
                    + ", ".join(missing)
                    + ". Ask a server admin to grant them, then try again.",
                    ephemeral=True,
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
            )
            try:
                board = await self.service.new_table(
                    interaction.guild_id,
                    interaction.channel_id,
                    interaction.user.id,
                    display_name(interaction.user),
                    options,
                )
            except TableExists as busy:
                link = views.jump_url(interaction.guild_id, interaction.channel_id, busy.message_id)
                await interaction.followup.send(
                    f"This channel already has a table: {link}. Join it there, or open a new "
                    "table in another channel.",
                    ephemeral=True,
                )
                return
            try:
                message = await self.presenter.send(
                    interaction.channel_id,
                    interaction.guild_id,
                    embed=views.lobby_embed(board),
                    view=views.lobby_view(board) or discord.utils.MISSING,
                )
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as err:
                # Nobody could see or join a lobby without its message, and it would keep the
                # channel busy: close it again. (If the network failed after Discord posted it
                # after all, its buttons answer that the table is closed.)
                await self.service.cancel(board.table_id, None, interaction.user.id)
                if isinstance(err, discord.Forbidden):
                    text = (
                        "I cannot post in this channel ("
                        + (err.text or "missing permissions")
                        + "). Ask a server admin to let me send messages, attach files and "
                        "embed links here."
                    )
                else:
                    log.warning("table %s: could not post the lobby: %s", board.table_id, err)
                    text = (
                        "Discord did not take the table's message just now, so no table was "
                        "opened. Please try /fp new again in a moment."
                    )
                await interaction.followup.send(text, ephemeral=True)
                return
            await self.service.remember_message(board.table_id, "lobby", message.id)
            await interaction.followup.send(
                f"Table {board.table_id} is open: {message.jump_url}\n"
                "Friends join with the **Join** button; you press **Start** when everyone is "
                "seated.",
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
            prefs = await self.service.set_notify(
                interaction.user.id, on_turn=turn, reminders=reminders
            )
            await interaction.followup.send(views.notify_choices(prefs), ephemeral=True)

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
                hand = await self.service.hand_in_channel(
                    interaction.channel_id, interaction.user.id
                )
                await self.presenter.screens.open_hand(interaction, hand)
                return
            chosen: Literal["dm", "channel"] = "dm" if mode.value == "dm" else "channel"
            await self.service.set_hand_mode(interaction.user.id, chosen)
            try:
                hand = await self.service.hand_in_channel(
                    interaction.channel_id, interaction.user.id
                )
            except TableError as err:
                # The choice is made for good, game or not: say so, then why there is no hand.
                await interaction.followup.send(
                    f"{MODE_CHOSEN[chosen]}\n{words.refusal(err, views.esc)}", ephemeral=True
                )
                return
            await self.presenter.screens.open_hand(interaction, hand)

    @fp.command(name="status", description="Post the table's current picture again")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp status``: the current picture at the bottom of the channel."""
        async with guarded(interaction, None, "/fp status", find_table=self._here(interaction)):
            assert interaction.channel_id is not None
            # One quick read first, so that "no table here" is answered privately; the picture
            # is drawn after the acknowledgement.
            board = await self.service.board_in_channel(interaction.channel_id)
            await interaction.response.defer(thinking=True)
            if board.view is None:
                await interaction.followup.send(
                    embed=views.lobby_embed(board),
                    view=views.lobby_view(board) or discord.utils.MISSING,
                )
                return
            files = await self.presenter.board_files(board)
            message = await interaction.followup.send(
                views.board_content(board),
                files=files,
                view=views.board_view(board) or discord.utils.MISSING,
                allowed_mentions=views.ping([]),
                wait=True,
            )
            await self.service.remember_message(board.table_id, "status", message.id)
            self.presenter.shown(board)  # a move Discord refused before is shown now

    @fp.command(name="leave", description="Leave this channel's table (a computer takes your seat)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp leave``."""
        async with guarded(interaction, None, "/fp leave", find_table=self._here(interaction)):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            table = await self.service.table_in_channel(interaction.channel_id)
            async with self.presenter.table_lock(table.id):
                result = await self.service.leave(interaction.channel_id, interaction.user.id)
                if isinstance(result, LeftGame):
                    await self.presenter.show_left(result, display_name(interaction.user))
                    await interaction.followup.send(
                        "You left the game; a computer player took your seat.", ephemeral=True
                    )
                else:
                    await self._edit_lobby(result)
                    await interaction.followup.send("You left the table.", ephemeral=True)

    @fp.command(name="abort", description="Close this channel's table (host or channel managers)")
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp abort``."""
        async with guarded(interaction, None, "/fp abort", find_table=self._here(interaction)):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.channel_id is not None
            perms = interaction.permissions
            try:
                table_id = (await self.service.table_in_channel(interaction.channel_id)).id
            except TableError as err:
                if err.table_id is None:
                    raise
                table_id = err.table_id  # unreadable: the service can still close it
            async with self.presenter.table_lock(table_id):
                board = await self.service.abort(
                    interaction.channel_id,
                    interaction.user.id,
                    may_manage=perms.manage_channels or perms.administrator,
                )
                if board.view is None:
                    await self._edit_lobby(board)
                await self.presenter.send(
                    board.channel_id,
                    board.guild_id,
                    content=f"{em.ABORTED} Table {board.table_id} was aborted by "
                    f"{views.esc(display_name(interaction.user))}.",
                )
            await interaction.followup.send("The table is closed.", ephemeral=True)

    @fp.command(name="rules", description="The rules of Flaming Pyramids in short, with pictures")
    async def rules_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/fp rules``."""
        async with guarded(interaction, None, "/fp rules"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            embeds, files = await rules.rules_message()
            await interaction.followup.send(embeds=embeds, files=files, ephemeral=True)

    @fp.command(name="settings", description="Server defaults for new tables (server admins)")
    @app_commands.describe(
        time_limit="Default time per decision",
        reminder="When to remind a player before their time runs out",
        curse="Curse on by default",
        fire_die="Fire die on by default",
    )
    @app_commands.choices(time_limit=TIME_LIMITS, reminder=REMINDERS)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        time_limit: app_commands.Choice[int] | None = None,
        reminder: app_commands.Choice[int] | None = None,
        curse: bool | None = None,
        fire_die: bool | None = None,
    ) -> None:
        """``/fp settings``: only members who can manage the server."""
        async with guarded(interaction, None, "/fp settings"):
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                await interaction.response.send_message(
                    "Only members who can manage this server can change its Flaming Pyramids "
                    "settings.",
                    ephemeral=True,
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            current = await self.service.settings(
                interaction.guild_id,
                turn_limit_s=time_limit.value if time_limit else None,
                reminder_s=reminder.value if reminder else None,
                defaults=TableDefaults(curse=curse, fire_die=fire_die),
            )
            await interaction.followup.send(
                "Settings for new tables on this server: "
                f"{views.duration(current.turn_limit_s)} per decision, reminder "
                + (
                    f"{views.duration(current.reminder_s)} before the end"
                    if current.reminder_s
                    else "off"
                )
                + f", curse {'on' if current.defaults.curse else 'off'}, fire die "
                + f"{'on' if current.defaults.fire_die else 'off'}.",
                ephemeral=True,
            )

    async def _edit_lobby(self, board: Board) -> None:
        message_id = board.table.messages.get("lobby")
        if message_id is None:
            return
        message = self.presenter.channel(
            board.lobby_channel_id, board.guild_id
        ).get_partial_message(message_id)
        try:
            await self.presenter.edit_kept(
                board.table_id,
                "lobby",
                board.version,
                message,
                embed=views.lobby_embed(board),
                view=views.lobby_view(board),
            )
        except discord.HTTPException:
            log.warning("table %s: could not update the lobby message", board.table_id)

    # --- buttons -------------------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        """Every ``fp:`` button lands here (see :class:`bot.components.FpButton`)."""
        started = time.perf_counter()
        async with guarded(interaction, bid.table_id, f"button {bid.action}"):
            handler = getattr(self, f"_button_{bid.action}", None)
            if handler is None:
                raise Stale(Why.OLD_BUTTON)
            await self.service.check_place(
                bid.table_id, interaction.guild_id, interaction.channel_id, interaction.user.id
            )
            await handler(interaction, bid)
        log.debug(
            "table %s: button %s handled in %.0f ms",
            bid.table_id,
            bid.action,
            (time.perf_counter() - started) * 1000,
        )

    async def _lobby(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer()
        user = interaction.user
        t = bid.table_id
        async with self.presenter.table_lock(t):
            if bid.action == "join":
                board = await self.service.join(t, user.id, display_name(user))
            elif bid.action == "leave":
                board = await self.service.leave_lobby(t, user.id)
            elif bid.action == "ai":
                board = await self.service.add_ai(t, bid.version, user.id, bid.arg)
            elif bid.action == "rmai":
                board = await self.service.remove_ai(t, bid.version, user.id)
            else:
                board = await self.service.cancel(t, bid.version, user.id)
            # (Two clicks served by two processes: the card never goes back to the older one.)
            async with self.service.store.message_edit(t, "lobby", board.version) as go:
                if go:
                    await interaction.edit_original_response(
                        embed=views.lobby_embed(board), view=views.lobby_view(board)
                    )

    _button_join = _button_leave = _button_ai = _button_rmai = _button_cancel = _lobby

    async def _button_start(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer()
        async with self.presenter.table_lock(bid.table_id):
            step = await self.service.start(bid.table_id, bid.version, interaction.user.id)
            thread_id = await self._start_thread(interaction, step.board)
            if thread_id is not None:
                step = await self.service.move_to_thread(step, thread_id)
            await self.presenter.show_step(step, clicker=interaction.user.id)
        async with self.service.store.message_edit(
            step.board.table_id, "lobby", step.board.version
        ) as go:
            if go:
                await interaction.edit_original_response(
                    embed=views.lobby_embed(step.board), view=None
                )

    async def _start_thread(
        self, interaction: discord.Interaction[Any], board: Board
    ) -> int | None:
        """Start the game's thread from the lobby message, if the table wants one and the bot
        may create threads and post in them here; the thread's id, or None (the channel)."""
        lobby = interaction.message
        perms = interaction.app_permissions
        if (
            not board.options.thread
            or lobby is None
            or not isinstance(interaction.channel, discord.TextChannel)
            or not (perms.create_public_threads and perms.send_messages_in_threads)
        ):
            return None
        try:
            thread = await lobby.create_thread(
                name=views.thread_name(board.table_id),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as err:
            log.warning("table %s: no thread for the game (%s)", board.table_id, err)
            return None
        return thread.id

    async def _button_rematch(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        """A new lobby with the same seats and options, in the finished match's channel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        # A table already open in the channel is answered by the one place for errors.
        board = await self.service.rematch(
            bid.table_id, interaction.user.id, display_name(interaction.user)
        )
        message = await self.presenter.send(
            board.lobby_channel_id,
            board.guild_id,
            embed=views.lobby_embed(board),
            view=views.lobby_view(board) or discord.utils.MISSING,
        )
        await self.service.remember_message(board.table_id, "lobby", message.id)
        await interaction.followup.send(
            f"{em.FIRE} Rematch: a new table is open, the others join it there: "
            + message.jump_url,
            ephemeral=True,
        )

    async def _button_hand(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            hand = await self.service.hand(bid.table_id, interaction.user.id)
        except Stale:
            # The game is over (or closed): say which, with no buttons.
            text = await self.presenter.screens.over_text(bid.table_id)
            await interaction.followup.send(text, ephemeral=True)
            return
        await self.presenter.screens.open_hand(interaction, hand)

    async def _stale_screen(
        self, interaction: discord.Interaction[Any], table_id: int, err: Stale
    ) -> None:
        """A press on a private screen whose moment has passed: the screen shows the newest
        hand (or the end of the match), saying why."""
        log.debug("table %s: stale press on a private screen (%s)", table_id, err.why.value)
        await self.presenter.screens.show_newest(interaction, table_id, note=views.OUT_OF_DATE_HAND)

    async def _button_play(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        """A tile: the same private message turns into the spot step (or, if this player must
        decide a fall first, the fall choice)."""
        tile, _, digest = bid.arg.partition(".")
        await interaction.response.defer()
        try:
            result = await self.service.play(bid.table_id, interaction.user.id, tile, digest)
        except Stale as err:
            await self._stale_screen(interaction, bid.table_id, err)
            return
        if isinstance(result, SpotChoice):
            await self.presenter.screens.show_spots(interaction, result)
        else:
            await self.presenter.screens.show_hand(interaction, result)

    async def _button_back(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        """From the spot step back to the tiles."""
        await interaction.response.defer()
        await self.presenter.screens.show_newest(interaction, bid.table_id)

    async def _button_spot(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        tile, _, where = bid.arg.partition("@")
        try:
            r, x = (int(n) for n in where.split(","))
        except ValueError:
            raise BadRequest(Why.NO_SUCH_SPOT) from None
        await interaction.response.defer()
        try:
            async with self.presenter.table_lock(bid.table_id):
                result = await self.service.choose_spot(
                    bid.table_id, bid.version, interaction.user.id, tile, (r, x)
                )
                if isinstance(result, Step):
                    await self.presenter.show_step(result, clicker=interaction.user.id)
        except Stale as err:
            await self._stale_screen(interaction, bid.table_id, err)
            return
        except NotShown:
            # The move stands: the screen moves on, and the raised notice says why the
            # channel does not show it yet.
            await self.presenter.screens.show_newest(interaction, bid.table_id)
            raise
        if not isinstance(result, Step):
            await self.presenter.screens.show_hand(interaction, result)
            return
        played = f"{em.PLAYED} You played {views.tile_label(tile)}."
        await self.presenter.screens.show_newest(interaction, bid.table_id, note=played)

    async def _button_more(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        tile, _, page = bid.arg.partition(".")
        await interaction.response.defer()
        try:
            choice = await self.service.spot_choice(
                bid.table_id, bid.version, interaction.user.id, tile
            )
        except Stale as err:
            await self._stale_screen(interaction, bid.table_id, err)
            return
        await interaction.edit_original_response(
            view=views.spot_view(choice, int(page) if page.isdigit() else 0)
        )

    async def _button_fall(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer()
        private = _is_private(interaction)
        try:
            async with self.presenter.table_lock(bid.table_id):
                step = await self.service.fall(
                    bid.table_id, bid.version, interaction.user.id, bid.arg
                )
                on = (
                    None
                    if private
                    else (_clicked_id(interaction), interaction.edit_original_response)
                )
                await self.presenter.show_step(step, clicker=interaction.user.id, clicked=on)
        except Stale as err:
            if not private:
                raise
            await self._stale_screen(interaction, bid.table_id, err)
            return
        if private:
            fell = f"{em.PLAYED} The tile falls {bid.arg}."
            await self.presenter.screens.show_newest(interaction, bid.table_id, note=fell)
        elif not self.presenter.is_turn_message(bid.table_id, _clicked_id(interaction)):
            await self._retire(interaction, None)  # the fall went into a message of its own

    async def _button_next(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer()
        async with self.presenter.table_lock(bid.table_id):
            step = await self.service.next_round(bid.table_id, bid.version, interaction.user.id)
            await self.presenter.show_step(step, clicker=interaction.user.id)
        await self._retire(interaction, None)

    async def _button_mode(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        mode: Literal["dm", "channel"] = "dm" if bid.arg == "dm" else "channel"
        await self.service.set_hand_mode(interaction.user.id, mode)
        await interaction.followup.send(MODE_CHOSEN[mode], ephemeral=True)

    async def _retire(
        self, interaction: discord.Interaction[Any], note: str | None, *, keep: bool = True
    ) -> None:
        """Take the buttons off the message that was clicked (its moment has passed)."""
        try:
            if note is None:
                await interaction.edit_original_response(view=None)
                return
            message = interaction.message
            old = message.content if message is not None and keep else ""
            content = f"{old}\n{note}" if old else note
            if keep:
                await interaction.edit_original_response(content=views.clip(content), view=None)
            else:
                await interaction.edit_original_response(
                    content=views.clip(content), view=None, attachments=[]
                )
        except discord.HTTPException:
            log.debug("could not retire the buttons of interaction %s", interaction.id)


def _clicked_id(interaction: discord.Interaction[Any]) -> int:
    """The id of the message whose button was pressed (0 if unknown)."""
    return interaction.message.id if interaction.message is not None else 0


def _is_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the clicked message is a private screen (ephemeral, or in a direct message)."""
    message = interaction.message
    ephemeral = message is not None and message.flags.ephemeral
    return interaction.guild_id is None or ephemeral


async def setup(bot: Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Tables(bot))


__all__ = ["Tables", "setup"]

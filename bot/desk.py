"""The table desk: the one way from a click (or a timer) to the messages it causes.

For every request about a table the desk takes the table's lock (:class:`bot.locks.Locks`), asks
the table service, hands the result to the show side (:class:`bot.show.Show`) and runs what
follows: the computer players' turns and the fire die, a move the channel still owes, the other
players' private screens. The cogs parse and acknowledge, then call the desk; the timer loop
claims due tables and calls the desk. Nothing else takes a table's lock, and the show side never
asks the service anything: the desk reads what it needs and passes it on.

Data flows one way: cog -> desk -> service -> desk -> show. What follows a change (showing it,
the computer players, retries, timers) is :mod:`bot.followups`.

Over 400 lines, as one job: one short method per request a cog makes (each lock -> service ->
show), kept side by side so that the way of every request reads the same.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any, Final, Literal

import discord

from bot.components import LobbyAction
from bot.errors import Stale, TableError, Why
from bot.followups import RETRY_FIRST_S, RETRY_MAX_S, FollowUps
from bot.languages import clicker_language
from bot.locks import Locks
from bot.service import (
    AwayChange,
    Board,
    Hand,
    LeftGame,
    Place,
    SettingsChange,
    SpotChoice,
    TableService,
)
from bot.show import Own, Show, answertexts, buttons, handtexts
from bot.show.channel import Clicked
from bot.show.outbox import POST_ERRORS
from data.store import GuildSettings, PlayerPrefs, StoreError, TableDefaults
from engine import Fall, NextRound, Play

log = logging.getLogger(__name__)

STATUS_READ_S: Final = 1.0
"""How long ``/fp status`` waits for its table before it answers that the records are out of
reach: Discord allows 3 seconds to acknowledge a command, and noting the languages it came with
may already have taken one (``bot.app.LANGUAGE_WAIT_S``)."""


DOUBLE_TAP_S: Final = 2.0
"""Two taps of one person on one lobby button this close together (by when each was made) are a
double tap."""
KEEP_TAPS_S: Final = 60.0
"""How long an applied lobby tap is remembered."""
SECOND_TAPS: Final = ("join", "leave", "cancel")
"""The lobby buttons (besides Start) whose second tap is acknowledged quietly: each asks for
an outcome (seated, not seated, closed) that the first tap made and nothing but the same person
undoes. The host's buttons for computer players are not among them (their second tap is refused
as out of date, and a tap on the button at the same place acts again: a change of its own)."""


class LobbyTaps:
    """The lobby taps this process applied lately, to know the second tap of a double tap: the
    same person's same button, made within :data:`DOUBLE_TAP_S` after a tap that was applied
    (by Discord's clock, when each tap was made). Both taps of one person at one table come to
    the process that serves its server (its shard), so this one remembers them."""

    def __init__(self) -> None:
        self._applied: dict[tuple[int, int, str], datetime] = {}

    def applied(self, table_id: int, interaction: discord.Interaction[Any], action: str) -> None:
        """``interaction``'s ``action`` was applied (taps older than :data:`KEEP_TAPS_S` are
        forgotten)."""
        made = interaction.created_at
        self._applied = {
            key: at
            for key, at in self._applied.items()
            if made - at < timedelta(seconds=KEEP_TAPS_S)
        }
        self._applied[(table_id, interaction.user.id, action)] = made

    def second(self, table_id: int, interaction: discord.Interaction[Any], action: str) -> bool:
        """Whether ``interaction`` is the second tap of a double tap whose first was applied."""
        first = self._applied.get((table_id, interaction.user.id, action))
        if first is None:
            return False
        return timedelta(0) <= interaction.created_at - first <= timedelta(seconds=DOUBLE_TAP_S)


class HintTaps:
    """The hints this process was asked for lately, to answer a double tap of Hint once: a
    second tap of the same person on the Hint of the same decision (the table's version) made
    within :data:`DOUBLE_TAP_S` of the first (by Discord's clock) is acknowledged, and nothing
    more. Both taps come to the process that serves the table's server, as a lobby's do."""

    def __init__(self) -> None:
        self._asked: dict[tuple[int, int, int], datetime] = {}

    def first(self, table_id: int, version: int, interaction: discord.Interaction[Any]) -> bool:
        """Whether ``interaction`` asks for a hint anew (else it is the second tap of a double
        tap); taps older than :data:`KEEP_TAPS_S` are forgotten."""
        made = interaction.created_at
        self._asked = {
            key: at for key, at in self._asked.items() if made - at < timedelta(seconds=KEEP_TAPS_S)
        }
        key = (table_id, interaction.user.id, version)
        before = self._asked.get(key)
        if before is not None and timedelta(0) <= made - before <= timedelta(seconds=DOUBLE_TAP_S):
            return False
        self._asked[key] = made
        return True


class Desk:
    """Takes each table's requests one at a time, and shows what they did."""

    def __init__(
        self,
        service: TableService,
        show: Show,
        locks: Locks,
        *,
        ai_pause_s: float = 1.0,
        retry_first_s: float = RETRY_FIRST_S,
        retry_max_s: float = RETRY_MAX_S,
    ) -> None:
        self.service = service
        self.show = show
        self.locks = locks
        self.lobby_taps = LobbyTaps()
        self.hint_taps = HintTaps()
        self.follow = FollowUps(
            service,
            show,
            locks,
            ai_pause_s=ai_pause_s,
            retry_first_s=retry_first_s,
            retry_max_s=retry_max_s,
        )

    # --- the lobby --------------------------------------------------------------------------------

    async def new_table(
        self, guild_id: int, channel_id: int, user_id: int, name: str, options: TableDefaults
    ) -> tuple[int, discord.Message]:
        """Open a lobby and post its card; the table's number and the card. If Discord does not take
        the card, the lobby is closed again (nobody could see or join it, and it would keep the
        channel busy) and the posting error raised."""
        board = await self.service.new_table(guild_id, channel_id, user_id, name, options)
        try:
            return board.table.number, await self.show.channel.post_lobby(board)
        except POST_ERRORS as err:
            # (If the network failed after Discord posted it after all, its buttons answer
            # that the table is closed.)
            await self.service.cancel(board.table_id, None, user_id)
            if not isinstance(err, discord.Forbidden):
                log.warning("table %s: could not post the lobby: %s", board.table_id, err)
            raise

    async def lobby(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        action: LobbyAction,
        name: str,
        level: str = "",
    ) -> None:
        """A lobby button: a seat taken or given up, a computer player added or removed, the
        lobby cancelled; the clicked card shows the lobby after it. A second tap of a join, a
        leave or a cancel that the first tap made is acknowledged quietly (the first tap's
        answer stands)."""
        user_id = interaction.user.id
        async with self.locks.table(table_id):
            try:
                if action == "join":
                    board = await self.service.join(table_id, user_id, name)
                elif action == "leave":
                    board = await self.service.leave_lobby(table_id, user_id)
                elif action == "ai":
                    board = await self.service.add_ai(table_id, version, user_id, level)
                elif action == "rmai":
                    board = await self.service.remove_ai(table_id, version, user_id)
                else:
                    board = await self.service.cancel(table_id, version, user_id)
            except TableError:
                if action not in SECOND_TAPS or not self.lobby_taps.second(
                    table_id, interaction, action
                ):
                    raise
                log.debug("table %s: a second tap of %s in the lobby", table_id, action)
                return
            self.lobby_taps.applied(table_id, interaction, action)
            await self.show.channel.lobby_clicked(board, interaction.edit_original_response)
            if board.prompt.kind == "closed":
                self.show.forget(table_id)  # cancelled, or its last person left: it ends

    async def start(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None:
        """The host's Start: the game's first message (in a thread of its own if the table
        wants one), the hands, and the lobby card without buttons. A second tap of the Start
        that started it is acknowledged quietly."""
        user_id = interaction.user.id
        async with self.locks.table(table_id):
            try:
                step = await self.service.start(table_id, version, user_id)
            except TableError:
                if not self.lobby_taps.second(table_id, interaction, "start"):
                    raise
                log.debug("table %s: a second tap of Start", table_id)
                return
            self.lobby_taps.applied(table_id, interaction, "start")
            thread_id = await self.show.channel.start_thread(interaction, step.board)
            if thread_id is not None:
                step = await self.service.move_to_thread(step, thread_id)
            await self.follow.show(step, clicker=user_id)
        await self.show.channel.lobby_clicked(
            step.board, interaction.edit_original_response, started=True
        )

    async def rematch(self, table_id: int, user_id: int, name: str) -> discord.Message:
        """A new lobby with the same seats and options, in the finished match's channel."""
        board = await self.service.rematch(table_id, user_id, name)
        return await self.show.channel.post_lobby(board)

    async def leave_lobby_or_ask(
        self, interaction: discord.Interaction[Any], channel_id: int
    ) -> bool:
        """``/fp leave``: a lobby is left at once (True); in a running game the user plays in,
        a private confirmation whose button (:class:`bot.tablebuttons.LeaveMatchButton`)
        leaves (False). Only a lobby is ever left here, under the table's lock, by the
        lobby's own leave, which reads the table again: a lobby that started since it was
        read (here, or in another process) is asked about like any running game."""
        user_id = interaction.user.id
        table = await self.service.table_in_channel(channel_id)
        async with self.locks.table(table.id):
            if table.status == "lobby":
                try:
                    board = await self.service.leave_lobby(table.id, user_id)
                except Stale as err:
                    if err.why is not Why.ALREADY_STARTED:
                        raise
                    log.info("table %s: started before /fp leave; asking", table.id)
                else:
                    await self.show.channel.edit_lobby(board)
                    if board.prompt.kind == "closed":
                        self.show.forget(board.table_id)  # its last person left: it ends
                    return True
            await self.service.seated_game(table.id, user_id)
        lang = clicker_language(interaction)
        await interaction.followup.send(
            lang.gettext(answertexts.LEAVE_CONFIRM),
            view=buttons.leave_view(table.id, table.version, lang),
            ephemeral=True,
        )
        return False

    async def leave(self, channel_id: int, user_id: int, name: str, table_id: int) -> None:
        """The confirmation's button of ``/fp leave`` in the running game ``table_id``: a
        computer player takes the seat (the table closes if nobody is left)."""
        async with self.locks.table(table_id):
            result = await self.service.leave(channel_id, user_id, table_id)
            if isinstance(result, LeftGame):
                await self.show.channel.left(result, name)
            else:
                await self.show.channel.edit_lobby(result)
                if result.prompt.kind == "closed":
                    self.show.forget(result.table_id)  # its last person left: it ends
        if isinstance(result, LeftGame):
            self.follow.then(result.board, owes=False)
            if result.closed:
                await self.show.closed(result.board)

    async def abort(self, channel_id: int, user_id: int, name: str, *, may_manage: bool) -> None:
        """``/fp abort``: the table closes; the channel is told who closed it."""
        try:
            table_id = (await self.service.table_in_channel(channel_id)).id
        except TableError as err:
            if err.table_id is None:
                raise
            table_id = err.table_id  # unreadable: the service can still close it
        async with self.locks.table(table_id):
            board = await self.service.abort(channel_id, user_id, may_manage=may_manage)
            await self.show.channel.aborted(board, name, user_id)
            await self.show.closed(board)

    # --- a player's decisions ---------------------------------------------------------------------

    async def play(
        self, interaction: discord.Interaction[Any], table_id: int, tile: str, digest: str
    ) -> None:
        """A tile on a private screen: the screen turns into the spot step (or, if this player
        must decide a fall first, the fall choice)."""
        try:
            result = await self.service.play(table_id, interaction.user.id, tile, digest)
        except Stale as err:
            await self._stale_screen(interaction, table_id, err)
            return
        if isinstance(result, SpotChoice):
            await self.show.screens.show_spots(interaction, result)
        else:
            await self.show.screens.show_hand(interaction, result)

    async def spot(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        tile: str,
        at: tuple[int, int],
    ) -> None:
        """A spot: the tile is played; the channel shows the move, the clicker's screen their
        hand after it."""
        user_id = interaction.user.id
        place = Place(interaction.guild_id, interaction.channel_id)
        try:
            async with self.locks.table(table_id):
                result = await self.service.choose_spot(
                    table_id, version, user_id, tile, at, place=place
                )
                if isinstance(result, Hand):
                    # A fall to decide first, or the turn held back: the same screen shows it.
                    await self.show.own_hand(interaction, result, played=tile)
                    self.follow.came_back(result)
                    return
                # If Discord refused the move's message, the move stands all the same: the
                # screen moves on, and the raised notice says why the channel does not show it.
                await self.follow.show(result, clicker=user_id, own=Own(interaction, played=tile))
        except Stale as err:
            if err.why is Why.MISPLACED_BUTTON:
                raise
            if await self.service.repeated(table_id, version, user_id, Play(tile, at)):
                log.debug("table %s: a second tap of a spot already played", table_id)
                return  # the first tap's answer stands
            await self._stale_screen(interaction, table_id, err)

    async def more_spots(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        tile: str,
        page: int,
    ) -> None:
        """Another page of the spots for a tile; if the moment passed, the screen shows the
        newest hand instead."""
        try:
            choice = await self.service.spot_choice(table_id, version, interaction.user.id, tile)
        except Stale as err:
            await self._stale_screen(interaction, table_id, err)
            return
        await self.show.screens.show_spot_page(interaction, choice, page)

    async def fall(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, direction: str
    ) -> None:
        """A fall choice, on the channel's message or on a private screen."""
        message = interaction.message
        private = interaction.guild_id is None or (message is not None and message.flags.ephemeral)
        clicked_id = message.id if message is not None else 0
        clicked: Clicked | None = (
            None
            if private or message is None
            else Clicked(message.id, interaction.edit_original_response, message.content)
        )
        own = Own(interaction, fell=direction) if private else None
        try:
            async with self.locks.table(table_id):
                step = await self.service.fall(table_id, version, interaction.user.id, direction)
                if isinstance(step, Hand):  # a fall of a turn held back: on its own screen
                    if private:
                        await self.show.own_hand(interaction, step, fell=direction)
                    else:
                        await self.show.screens.open_hand(interaction, step)
                    self.follow.came_back(step)
                    return
                await self.follow.show(step, clicker=interaction.user.id, clicked=clicked, own=own)
        except Stale as err:
            if await self.service.repeated(table_id, version, interaction.user.id, Fall(direction)):
                log.debug("table %s: a second tap of a fall already chosen", table_id)
                return  # the first tap's answer stands
            if not private:
                raise
            await self._stale_screen(interaction, table_id, err)
            return
        if not private and not self.show.channel.is_turn_message(table_id, clicked_id):
            await self.show.channel.retire(interaction)  # the fall went into its own message

    async def next_round(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None:
        """The "Next round" button."""
        user_id = interaction.user.id
        message = interaction.message
        # The clicked message (the end of the round, as a rule) is brought up to date through
        # the click's own answer.
        clicked: Clicked | None = (
            Clicked(message.id, interaction.edit_original_response, message.content)
            if message is not None
            else None
        )
        try:
            async with self.locks.table(table_id):
                step = await self.service.next_round(table_id, version, user_id)
                await self.follow.show(step, clicker=user_id, clicked=clicked)
        except Stale:
            if await self.service.repeated(table_id, version, user_id, NextRound()):
                log.debug("table %s: a second tap of the next round already started", table_id)
                return  # the first tap's answer stands
            raise

    async def undo(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, token: str
    ) -> None:
        """Undo on a player's screen: the turn they held back is forgotten (nobody saw it),
        and the same screen shows their turn again. A second tap of it is answered quietly
        (the first one's answer stands)."""
        try:
            async with self.locks.table(table_id):
                hand = await self.service.undo(table_id, version, interaction.user.id, token)
                await self.show.own_hand(interaction, hand, undone=True)
        except Stale as err:
            if err.why is not Why.TURN_UNDONE:
                raise
            log.debug("table %s: a second tap of Undo", table_id)

    async def done(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, token: str
    ) -> None:
        """Done on a player's screen: the turn they held back is handed on now (the channel,
        the next player's screen), and their screen shows the turn done. A second tap of it
        is answered quietly."""
        user_id = interaction.user.id
        try:
            async with self.locks.table(table_id):
                step = await self.service.done(table_id, version, user_id, token)
                played = next((e.tile for e in step.events if e.kind == "placed"), None)
                await self.follow.show(step, clicker=user_id, own=Own(interaction, played=played))
        except Stale as err:
            if err.why is not Why.TURN_HANDED_ON:
                raise
            log.debug("table %s: a second tap of Done, or Done after the window", table_id)

    async def hint(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None:
        """A practice table's Hint on a player's screen of a decision: what the expert would
        decide, and why, in a private answer of its own (the screen stays as it is). It changes
        nothing, so it takes no lock. A second tap of a double tap does nothing more; a Hint
        whose moment has passed turns the screen into the newest hand, as any stale press on a
        private screen does."""
        if not self.hint_taps.first(table_id, version, interaction):
            log.debug("table %s: a second tap of Hint", table_id)
            return
        try:
            hint = await self.service.hint(table_id, version, interaction.user.id)
        except Stale as err:
            await self._stale_screen(interaction, table_id, err)
            return
        await self.show.screens.show_hint(interaction, hint)

    # --- private screens --------------------------------------------------------------------------

    async def open_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """ "My hand": a new private message with the clicker's hand, or the end of the match."""
        try:
            hand = await self.service.hand(table_id, interaction.user.id)
        except Stale:
            # The game is over (or closed): say which, with no buttons.
            await interaction.followup.send(await self.follow.over_text(table_id), ephemeral=True)
            return
        await self.show.screens.open_hand(interaction, hand)

    async def open_hand_here(
        self, interaction: discord.Interaction[Any], channel_id: int, *, mode: str | None = None
    ) -> None:
        """``/fp hand``: the hand at the channel's table, privately."""
        hand = await self.service.hand_in_channel(channel_id, interaction.user.id)
        await self.show.screens.open_hand(interaction, hand)

    async def newest_screen(
        self, interaction: discord.Interaction[Any], table_id: int, note: str | None = None
    ) -> None:
        """Turn the clicked private message into the clicker's newest hand, or into the end of
        the match (no buttons) when the table is over."""
        try:
            hand = await self.service.hand(table_id, interaction.user.id)
        except TableError:
            await self.show.screens.show_over(
                interaction, table_id, await self.follow.over_text(table_id)
            )
            return
        await self.show.screens.show_hand(interaction, hand, note=note)

    async def _stale_screen(
        self, interaction: discord.Interaction[Any], table_id: int, err: Stale
    ) -> None:
        """A press on a private screen whose moment has passed: the screen shows the newest
        hand (or the end of the match), saying why."""
        log.debug("table %s: stale press on a private screen (%s)", table_id, err.why.value)
        note = clicker_language(interaction).gettext(handtexts.OUT_OF_DATE_HAND)
        await self.newest_screen(interaction, table_id, note=note)

    # --- a player's choices, a server's settings ----------------------------------------------

    async def status(self, interaction: discord.Interaction[Any], channel_id: int) -> None:
        """``/fp status``: one quick read first, so that "no table here" is answered privately
        (and a running game's picture too, to someone not playing in it);
        the picture is drawn after the acknowledgement. A read slower than
        :data:`STATUS_READ_S` is answered at once as a database out of reach (a
        :class:`~data.store.StoreError`), within Discord's time to acknowledge."""
        try:
            board = await asyncio.wait_for(self.service.board_in_channel(channel_id), STATUS_READ_S)
        except TimeoutError:
            raise StoreError(f"the table was not read within {STATUS_READ_S:g} s") from None
        # A running game's picture is posted for its players; anyone else sees it privately.
        private = board.view is not None and not board.seats(interaction.user.id)
        await interaction.response.defer(thinking=True, ephemeral=private)
        await self.show.channel.status(interaction, board, private=private)

    async def set_hand_mode(self, user_id: int, mode: Literal["dm", "channel"]) -> None:
        await self.service.set_hand_mode(user_id, mode)

    async def set_notify(
        self, user_id: int, *, on_turn: bool | None, reminders: bool | None
    ) -> PlayerPrefs:
        return await self.service.set_notify(user_id, on_turn=on_turn, reminders=reminders)

    async def settings(self, guild_id: int, change: SettingsChange) -> GuildSettings:
        """``/fp-settings``: the server's settings changed as ``change`` says, as they now
        stand."""
        return await self.service.settings(guild_id, change)

    async def check_place(
        self, table_id: int, guild_id: int | None, channel_id: int | None, user_id: int
    ) -> None:
        """Refuse a button of ``table_id`` used out of its place (see
        :meth:`bot.service.TableService.check_place`)."""
        await self.service.check_place(table_id, guild_id, channel_id, user_id)

    async def table_here(self, channel_id: int) -> int | None:
        """The id of the table in a channel, if there is one (for the logs)."""
        try:
            return (await self.service.table_in_channel(channel_id)).id
        except TableError as err:
            return err.table_id

    # --- breaks: a player away, a game paused ----------------------------------------------------

    async def away(self, guild_id: int, user_id: int, seconds: int) -> AwayChange:
        """``/fp away``: the player is away in the server; their cards show it, and a decision
        of theirs pending is the computer's at once."""
        change = await self.service.go_away(guild_id, user_id, seconds)
        self.follow.refresh_cards(change.boards)
        return change

    async def come_back(self, guild_id: int, user_id: int) -> AwayChange:
        """``/fp away off:True`` or the "I'm back" button: the player's decisions are theirs
        again."""
        change = await self.service.come_back(guild_id, user_id)
        self.follow.refresh_cards(change.boards)
        return change

    async def pause(
        self, channel_id: int, user_id: int, name: str, reason: str, seconds: int, *, manage: bool
    ) -> Board:
        """``/fp pause``: the channel's game is paused; the channel and its card say so."""
        table_id = (await self.service.table_in_channel(channel_id)).id
        async with self.locks.table(table_id):
            done = await self.service.pause(
                channel_id, user_id, name, reason, seconds, may_manage=manage
            )
            await self.show.channel.paused(done.board)
        self.follow.refresh_cards((done.board,))
        return done.board

    async def resume(self, channel_id: int, user_id: int, name: str, *, manage: bool) -> Board:
        """``/fp resume``: the channel's paused game goes on."""
        table_id = (await self.service.table_in_channel(channel_id)).id
        async with self.locks.table(table_id):
            done = await self.service.resume(channel_id, user_id, name, may_manage=manage)
            await self.follow.resumed(done)
        return done.board

    # --- timers, and the end ----------------------------------------------------------------------

    async def run_timers(self, table_id: int) -> None:
        """A table the timer loop claimed: its due timers handled and shown."""
        await self.follow.run_timers(table_id)

    async def recover(self, *, resume: bool, started_at: float) -> None:
        """After a start: see :meth:`bot.followups.FollowUps.recover`."""
        await self.follow.recover(resume=resume, started_at=started_at)

    async def close(self) -> None:
        """Stop the background work and the show side's (at shutdown)."""
        await self.follow.close()

"""Showing the table service's results on Discord: channel pictures, private hands, reminders.

The presenter is the only place that posts game messages. For each table it keeps an
``asyncio.Lock`` around "ask the service, then show the result", so that the messages of one
table always appear in the order the moves were made (a computer player's move never overtakes
the human move before it). Pictures are drawn off the event loop; direct messages that fail
because a player closed them are reported once in the channel, without revealing anything.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

import aiohttp
import discord

from bot import budget, names, pictures, screens, views
from bot import emoji as em
from bot.errors import NotShown, TableError, Why
from bot.narrate import narrate
from bot.service import (
    Board,
    Hand,
    LeftGame,
    Reminder,
    Step,
    TableService,
    TimerOutcome,
)

log = logging.getLogger(__name__)

DM_CLOSED = 50007
NO_MUTUAL_GUILDS = 50278
"""Discord's answer to a DM to someone who left every server the bot is in."""
"""Discord's error code for "Cannot send messages to this user"."""
DM_CACHE_SIZE = 10_000
HAND_CLOSED: Final = 2**31 - 1
"""The version a hand message shows once the match is over: no later edit replaces it."""
RETRY_FIRST_S: Final = 5.0
"""A message Discord refused is posted again after this long, then twice as long each time..."""
RETRY_MAX_S: Final = 600.0
"""...up to this long between tries, until it is shown."""
POST_ERRORS: Final = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""What posting a message can fail with: Discord's refusals, and the network's."""

Clicked = tuple[int, Callable[..., Awaitable[Any]]]
"""The message a player's click was on, and how to edit it through that click's token."""


def drawn(players: Sequence[str]) -> list[str]:
    """Names as pictures show them: cleaned like names in text (:func:`bot.names.clean`)."""
    return [names.clean(n) for n in players]


class Presenter:
    """Posts what the service says happened. One per bot."""

    def __init__(
        self,
        bot: discord.Client,
        service: TableService,
        *,
        ai_pause_s: float = 1.0,
        retry_first_s: float = RETRY_FIRST_S,
        retry_max_s: float = RETRY_MAX_S,
        rest_budget: budget.Budget | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.ai_pause_s = ai_pause_s
        self.retry_first_s = retry_first_s
        self.retry_max_s = retry_max_s
        self._owed: dict[int, tuple[Board, str]] = {}
        """Per table: the newest board the channel has not seen, and the text to post with it."""
        self._told: dict[int, set[int]] = {}
        """Per table: who was told that its latest message is not in the channel yet."""
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._dm_opening: dict[int, asyncio.Future[int]] = {}
        self._guild_names: OrderedDict[int, str | None] = OrderedDict()
        """The names of servers this process does not run the shard of, once asked."""
        self._advancing: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self.renderer = pictures.Renderer(workers=2)
        self.budget = rest_budget or budget.Budget()
        self._hands: dict[tuple[int, int], Hand] = {}
        self._hand_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.screens = screens.Screens(self)
        self._newest: dict[int, int] = {}
        """Per table: the id of its newest game message (the DM links lead there)."""
        self._turn_message: dict[int, tuple[int, tuple[int, int]]] = {}
        """Per table: its newest game message and the ``(round, turn)`` it shows, which the
        falls of that turn are folded into."""

    def table_lock(self, table_id: int) -> asyncio.Lock:
        """Held around "change the table, then show it" so one table's messages stay in order
        (the table's ``show`` lock from the service's one registry of per-table locks)."""
        return self.service.locks.show(table_id)

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def send(
        self,
        channel_id: int,
        guild_id: int | None = None,
        *,
        priority: int = budget.NOTICE,
        **kwargs: Any,
    ) -> discord.Message:
        """Post a message in a channel (or a DM channel), paced under the global budget."""
        with budget.priority(priority):
            return await self.channel(channel_id, guild_id).send(**kwargs)

    async def edit(
        self,
        message: discord.Message | discord.PartialMessage,
        *,
        priority: int = budget.NOTICE,
        **kwargs: Any,
    ) -> None:
        """Edit one of the bot's channel messages, paced under the global budget."""
        with budget.priority(priority):
            await message.edit(**kwargs)

    async def edit_kept(
        self,
        table_id: int,
        key: str,
        version: int,
        message: discord.Message | discord.PartialMessage,
        *,
        priority: int = budget.NOTICE,
        **kwargs: Any,
    ) -> bool:
        """Edit the table's kept message ``key`` (``"lobby"``, ``"hand:<user id>"``) to show
        the table at ``version``, unless it already shows a newer one (another process, or a
        later move, edited it first): then nothing is sent, and False returned. Edits of one
        message go one at a time, across every process (:meth:`data.store.Store.message_edit`)."""
        # The budget is waited for before the message's lock, which a player's click on that
        # message may be waiting for (a spot step in their direct messages).
        async with (
            budget.paid(self.budget, priority),
            self.service.store.message_edit(table_id, key, version) as go,
        ):
            if go:
                await message.edit(**kwargs)
        if not go:
            log.debug("table %s: %s already shows a newer version than %s", table_id, key, version)
        return go

    # --- the channel ------------------------------------------------------------------------------

    async def board_files(self, board: Board) -> list[discord.File]:
        """The picture of a board."""
        if board.view is None:
            return []
        png = await pictures.table_png(
            board.view, drawn(board.names), title=views.picture_title(board), renderer=self.renderer
        )
        return [discord.File(io.BytesIO(png), filename="pyramid.png", description="The pyramid")]

    async def step_files(self, step: Step) -> list[discord.File]:
        """The one picture of a move's message: the animation of what happened, ending on the
        board, or the board alone when nothing happened beyond the placement."""
        board = step.board
        if board.view is None or step.before is None or not pictures.has_mayhem(step.events):
            return await self.board_files(board)
        pic = await pictures.turn_picture(
            step.before,
            step.events,
            board.view,
            drawn(board.names),
            title=views.picture_title(board),
            renderer=self.renderer,
        )
        return [
            discord.File(
                io.BytesIO(pic.data),
                filename=f"pyramid.{pic.extension}",
                description="What happened, ending on the pyramid",
            )
        ]

    async def show_step(
        self,
        step: Step,
        *,
        schedule: bool = True,
        clicker: int | None = None,
        clicked: Clicked | None = None,
    ) -> discord.Message | None:
        """One new channel message for a move (one picture: the animation of what happened
        ending on the board, or the board alone; the account; the next player) and the hands
        that changed. Schedules the computer players' decisions that follow (unless ``schedule``
        is false: the caller goes on with them itself).

        If Discord refuses the message, the table owes it to the channel: it is posted again
        with backoff until it is shown (:meth:`owe`). ``clicker`` (the person whose click made
        the move, if any) is told by the :class:`NotShown` raised here; the person who must
        decide next, if someone else, once by direct message. Without a clicker nothing is
        raised."""
        board = step.board
        started = time.perf_counter()
        files = await self.step_files(step)
        drawn = time.perf_counter()
        content = views.step_content(step)
        message: discord.Message | None = None
        failure: BaseException | None = None
        if await self._fold_into_turn(step, content, files, clicked):
            self.shown(board)
        else:
            try:
                message = await self.send(
                    board.channel_id,
                    board.guild_id,
                    priority=budget.PICTURE,
                    content=content,
                    files=files,
                    view=views.board_view(board) or discord.utils.MISSING,
                    allowed_mentions=views.ping(views.step_pings(step)),
                )
            except POST_ERRORS as err:
                failure = err
                self._post_failed(board.table_id, err)
                self.owe(board, content, told=clicker)
        if message is not None:
            self.shown(board)
            self._newest[board.table_id] = message.id
            if step.turn is not None and step.kind == "move":
                self._turn_message[board.table_id] = (message.id, step.turn)
            else:
                self._turn_message.pop(board.table_id, None)
            self.spawn(
                self.service.remember_message(board.table_id, "board", message.id), board.table_id
            )
        self.screens.refresh(board.table_id, skip=clicker)
        if step.results is not None:
            self.spawn(self._show_result_on_lobby(board, step.results), board.table_id)
            self.spawn(self._close_hands(board, step.results), board.table_id)
            # What this process remembered of the table's messages is no longer needed.
            self._turn_message.pop(board.table_id, None)
            self._newest.pop(board.table_id, None)
        for hand in step.hands:
            self.queue_hand(hand)
        log.debug(
            "table %s: picture drawn in %.0f ms, posted in %.0f ms",
            board.table_id,
            (drawn - started) * 1000,
            (time.perf_counter() - drawn) * 1000,
        )
        if schedule and board.prompt.kind in ("play", "fall", "die") and not board.prompt.user_id:
            self.schedule_advance(board.table_id)
        if failure is not None and clicker is not None:
            if isinstance(failure, discord.Forbidden):
                what = failure.text or "missing permissions"
                raise NotShown(
                    Why.NOT_SHOWN_FORBIDDEN, table_id=board.table_id, detail={"what": what}
                )
            raise NotShown(Why.NOT_SHOWN, table_id=board.table_id)
        return message

    def is_turn_message(self, table_id: int, message_id: int) -> bool:
        """Whether ``message_id`` is the table's newest game message, which the rest of its
        turn is folded into (so its buttons are the table's current ones)."""
        known = self._turn_message.get(table_id)
        return known is not None and known[0] == message_id

    async def _fold_into_turn(
        self, step: Step, content: str, files: list[discord.File], clicked: Clicked | None
    ) -> bool:
        """Show a step that resolves a turn already in the channel (a fall, the fire die) by
        editing that turn's message: the whole turn's account, the picture of this step
        ending on the board, the buttons of what is pending now. Returns False when the step
        needs a message of its own: the turn's message is not known here (the bot restarted,
        or another process showed it), Discord refused the edit, or the turn ends with
        someone else to act who gets no direct message on their turn, so only a new message
        can ping them (an edit never notifies anyone)."""
        board = step.board
        known = self._turn_message.get(board.table_id)
        if not step.continues_turn or known is None or known[1] != step.turn:
            return False
        pinged = set(views.step_pings(step))
        told = {
            h.user_id
            for h in step.hands
            if h.your_turn and h.dm and h.dm_on_turn and not h.dm_failed_before
        }
        if pinged - told:
            return False
        fields: dict[str, Any] = {
            "content": content,
            "attachments": files,
            "view": views.board_view(board),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        try:
            if clicked is not None and clicked[0] == known[0]:
                # Pressed on that very message: the click's own answer edits it (interaction
                # responses do not count against the global limit).
                await clicked[1](**fields)
            else:
                message = self.channel(board.channel_id, board.guild_id).get_partial_message(
                    known[0]
                )
                await self.edit(message, priority=budget.PICTURE, **fields)
        except POST_ERRORS as err:
            log.info(
                "table %s: could not add a step to its turn's message: %s", step.board.table_id, err
            )
            for file in files:
                file.reset()
            return False
        return True

    async def _show_result_on_lobby(self, board: Board, results: dict[str, Any]) -> None:
        """The lobby card tells how the match ended: the winner and the final standings."""
        message_id = board.table.messages.get("lobby")
        if message_id is None:
            return
        lobby = self.channel(board.lobby_channel_id, board.guild_id).get_partial_message(message_id)
        try:
            await self.edit_kept(
                board.table_id,
                "lobby",
                board.version,
                lobby,
                embed=views.lobby_embed(board, results),
                view=views.rematch_view(board),
            )
        except discord.HTTPException as err:
            log.warning("table %s: could not show the result on the lobby: %s", board.table_id, err)

    async def _close_hands(self, board: Board, results: dict[str, Any]) -> None:
        """At the end of a match every DM hand of it loses its buttons and tells the result."""
        text = f"{em.MATCH_OVER} The match at table {board.table_id} is over. " + (
            views.match_result(views.names_of(board), results)
        )
        for seat in board.table.seats:
            uid = seat.user_id
            message_id = board.table.messages.get(f"hand:{uid}") if uid is not None else None
            if uid is None or message_id is None:
                continue
            try:
                cid = await self.dm_channel_id(uid)
                message = self.channel(cid).get_partial_message(message_id)
                await self.screens.edit_dm(
                    board.table_id,
                    uid,
                    message_id,
                    board.version,
                    functools.partial(
                        self.edit_kept,
                        board.table_id,
                        f"hand:{uid}",
                        HAND_CLOSED,
                        message,
                        priority=budget.HAND,
                        content=views.clip(text),
                        attachments=[],
                        view=None,
                    ),
                    kind="over",
                )
            except discord.HTTPException as err:
                log.info("table %s: could not close a hand message: %s", board.table_id, err)

    # --- what a table still owes the channel ------------------------------------------------

    def shown(self, board: Board) -> None:
        """The channel has seen ``board``: nothing older is owed any more."""
        owed = self._owed.get(board.table_id)
        if owed is not None and owed[0].version <= board.version:
            del self._owed[board.table_id]
            self._told.pop(board.table_id, None)
        self.spawn(self.service.mark_shown(board.table_id, board.version), board.table_id)

    def owe(self, board: Board, content: str, *, told: int | None = None) -> None:
        """Remember that the channel has not seen ``board`` (with ``content``) and post it again
        in the background, after ``retry_first_s``, then twice as long each time up to
        ``retry_max_s``, until Discord takes it or the table has moved on. The person who must
        decide is told once by direct message, unless they are ``told`` already."""
        t = board.table_id
        self._owed[t] = (board, content)
        told_here = self._told.setdefault(t, set())
        if told is not None:
            told_here.add(told)
        decider = board.prompt.user_id
        if decider is not None and decider not in told_here:
            told_here.add(decider)
            self.spawn(self._tell_decider(board), t)
        task = self._retries.get(t)
        if task is None or task.done():
            self._retries[t] = self.spawn(self._retry(t), t)

    async def post_or_owe(self, board: Board, content: str) -> None:
        """Post a board now if Discord takes it, else owe it (see :meth:`owe`)."""
        async with self.table_lock(board.table_id):
            try:
                await self.post_board(board, content)
            except POST_ERRORS as err:
                self._post_failed(board.table_id, err)
                self.owe(board, content)
                return
            self.shown(board)

    async def _retry(self, table_id: int) -> None:
        delay = self.retry_first_s
        try:
            while table_id in self._owed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)
                async with self.table_lock(table_id):
                    owed = self._owed.get(table_id)
                    if owed is None:
                        return
                    board, content = owed
                    try:
                        now = await self.service.board_of(table_id)
                    except TableError as err:
                        log.info("table %s: nothing more to show (%s)", table_id, err.why.value)
                        self._owed.pop(table_id, None)
                        return
                    except Exception:
                        log.exception("table %s: could not read it to show it again", table_id)
                        continue
                    if now.prompt.kind == "closed":
                        self._owed.pop(table_id, None)
                        return
                    if now.version != board.version:  # moved on, and that was not shown either
                        board, content = now, views.board_content(now)
                    try:
                        await self.post_board(board, content)
                    except POST_ERRORS as err:
                        log.warning(
                            "table %s: its latest move is still not shown (%s); next try in %.0f s",
                            table_id,
                            err,
                            delay,
                        )
                        continue
                    log.info("table %s: its latest move is shown after all", table_id)
                    self.shown(board)
        finally:
            self._retries.pop(table_id, None)

    async def _tell_decider(self, board: Board) -> None:
        """Tell the person who must decide, by direct message, that the table's message is not
        in the channel yet, with the decision's buttons (they work here too)."""
        user_id = board.prompt.user_id
        assert user_id is not None
        view = views.board_view(board) or discord.ui.View(timeout=None)
        view.add_item(_link_button(board, row=1))
        try:
            cid = await self.dm_channel_id(user_id)
            await self.send(
                cid,
                priority=budget.HAND,
                content=views.not_shown_notice(board),
                view=view,
            )
        except discord.Forbidden:
            log.info("table %s: could not tell user %s by DM", board.table_id, user_id)
        except POST_ERRORS as err:
            log.warning("table %s: could not tell user %s by DM: %s", board.table_id, user_id, err)

    def _post_failed(self, table_id: int, err: BaseException) -> None:
        if isinstance(err, discord.Forbidden):
            log.warning("table %s: missing permission to post in its channel: %s", table_id, err)
        else:
            log.error("table %s: could not post the move", table_id, exc_info=err)

    async def post_board(self, board: Board, content: str | None = None) -> discord.Message:
        """Post a board's picture (``/fp status`` without an interaction, notices...)."""
        files = await self.board_files(board)
        return await self.send(
            board.channel_id,
            board.guild_id,
            content=content or views.board_content(board),
            files=files,
            view=views.board_view(board) or discord.utils.MISSING,
            allowed_mentions=views.ping(views.mentioned_users(board)),
        )

    async def show_left(self, left: LeftGame, name: str) -> None:
        """A player left a running game."""
        board = left.board
        if left.closed:
            text = (
                f"{em.LEFT} {views.esc(name)} left; nobody is left at table {board.table_id}, "
                "so it is closed."
            )
        else:
            text = (
                f"{em.LEFT} {views.esc(name)} left the game; a computer player takes the seat.\n"
            ) + (views.prompt_line(board))
        await self.send(
            board.channel_id,
            board.guild_id,
            content=text,
            allowed_mentions=views.ping(views.mentioned_users(board)),
        )
        if not left.closed and board.prompt.user_id is None:
            self.schedule_advance(board.table_id)

    # --- hands ------------------------------------------------------------------------------------

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
        if len(self._dm_channels) > DM_CACHE_SIZE:
            self._dm_channels.popitem(last=False)
        return cid

    def newest_message(self, hand: Hand) -> int | None:
        """The id of the table's newest game message: the one this process posted last, or the
        one the database knows when another process posted a newer one (ids grow with time)."""
        known = [i for i in (self._newest.get(hand.table_id), hand.board_message_id) if i]
        return max(known, default=None)

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
        if len(self._guild_names) > DM_CACHE_SIZE:
            self._guild_names.popitem(last=False)
        return name

    async def hand_message(self, hand: Hand, *, mode_button: str | None = None) -> dict[str, Any]:
        """The keyword arguments of a message showing a hand (picture and tile buttons, and a
        link to the table's newest message)."""
        png = await pictures.hand_png(
            hand.view, names.clean(hand.names[hand.seat]), renderer=self.renderer
        )
        content = views.hand_content(hand, guild_name=await self.guild_name(hand.guild_id))
        return {
            "content": content,
            "file": discord.File(io.BytesIO(png), filename="hand.png", description="Your hand"),
            "view": views.hand_view(
                hand, with_mode=mode_button, message_id=self.newest_message(hand)
            ),
        }

    async def _since(self, hand: Hand) -> list[str]:
        """One line per turn of the others since the player's last move, for their turn DM."""
        try:
            turns = await self.service.turns_since(hand.table_id, hand.seat)
        except TableError:
            return []
        names = [views.esc(n) for n in hand.names]  # as every message shows them
        return [line for line in (narrate(t, names) for t in turns) if line]

    def queue_hand(self, hand: Hand) -> None:
        """Deliver a hand in the background, without holding up the table; if a newer hand of
        the same player at the same table comes before the older one went out, only the newer
        one is sent (hands of one player always arrive in order)."""
        if not hand.dm:
            return
        key = (hand.table_id, hand.user_id)
        self._hands[key] = hand
        if key not in self._hand_tasks:
            self._hand_tasks[key] = self.spawn(self._deliver_hands(key), hand.table_id)

    async def _deliver_hands(self, key: tuple[int, int]) -> None:
        try:
            while (hand := self._hands.pop(key, None)) is not None:
                try:
                    await self.deliver_hand(hand)
                except Exception:
                    if not self.bot.is_closed():
                        log.exception("table %s: could not deliver a hand", key[0])
        finally:
            self._hand_tasks.pop(key, None)

    async def deliver_hand(self, hand: Hand) -> None:
        """Show a changed hand to its owner by DM (unless they chose ephemeral hands): one hand
        message per player per game, edited in place after each move. When it becomes their
        turn (and they want a DM then), a short new DM says so, with what happened since their
        last move and links to the table's newest message and to the hand (earlier ones stay:
        removing them would cost a request of the token's global budget every turn). If their
        DMs are closed, say so in the channel once, without revealing anything."""
        if not hand.dm:
            return
        key = (hand.table_id, hand.user_id)
        kept = await self.service.store.get_messages(hand.table_id)
        old = kept.get(f"hand:{hand.user_id}")
        kwargs = await self.hand_message(hand)
        try:
            cid = await self.dm_channel_id(hand.user_id)
            hand_id = old
            if old is not None:
                message = self.channel(cid).get_partial_message(old)
                try:
                    if not await self.screens.edit_dm(
                        hand.table_id,
                        hand.user_id,
                        old,
                        hand.version,
                        functools.partial(
                            self.edit_kept,
                            hand.table_id,
                            f"hand:{hand.user_id}",
                            hand.version,
                            message,
                            priority=budget.HAND,
                            content=kwargs["content"],
                            attachments=[kwargs["file"]],
                            view=kwargs["view"],
                        ),
                    ):
                        return  # it shows this hand or a newer one already (its turn told)
                except discord.NotFound:
                    log.info("table %s: hand message of user %s gone", *key)
                    hand_id = None
            if hand_id is None:
                sent = await self.send(cid, priority=budget.HAND, **kwargs)
                hand_id = sent.id
                self.screens.sent_dm(hand.table_id, hand.user_id, sent.id, hand.version)
                await self.service.remember_message(hand.table_id, f"hand:{hand.user_id}", sent.id)
            if old is not None and hand.your_turn and hand.dm_on_turn:
                since = await self._since(hand)
                await self._tell_turn(hand, cid, hand_id, since)
        except discord.Forbidden as err:
            if err.code not in (DM_CLOSED, NO_MUTUAL_GUILDS):
                raise
            log.info("table %s: DMs closed for user %s", hand.table_id, hand.user_id)
            if hand.dm_failed_before or not await self.service.note_dm_failed(
                hand.table_id, hand.user_id
            ):
                return
            await self.send(
                hand.channel_id,
                hand.guild_id,
                content=f"<@{hand.user_id}>, I cannot send you direct messages, so your hand "
                "stays hidden here: use the **My hand** button on the table's latest message, "
                "or `/fp hand`.",
                allowed_mentions=views.ping([hand.user_id]),
            )

    async def _tell_turn(self, hand: Hand, dm_id: int, hand_id: int, since: list[str]) -> None:
        """The one new DM of a player's turn: what happened since their last move, and links
        to the table's newest message and to their hand."""
        view = discord.ui.View(timeout=None)
        newest = self.newest_message(hand)
        view.add_item(views.table_link(hand.guild_id, hand.channel_id, newest))
        view.add_item(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.link,
                url=f"https://discord.com/channels/@me/{dm_id}/{hand_id}",
            )
        )
        await self.send(
            dm_id,
            priority=budget.HAND,
            content=views.turn_notice(hand, since),
            view=view,
        )

    # --- timers and computer players ----------------------------------------------------------

    async def show_timer(self, outcome: TimerOutcome) -> None:
        if isinstance(outcome, Step):
            await self.show_step(outcome)
        elif isinstance(outcome, Reminder):
            await self.show_reminder(outcome)

    async def show_reminder(self, rem: Reminder) -> None:
        """Remind the owner of the pending decision: a DM (if wanted) and a channel mention."""
        board = rem.board
        deadline = board.prompt.deadline
        when = f"<t:{int(deadline)}:R>" if deadline else "soon"
        text = (
            f"{em.REMINDER} <@{rem.user_id}>, your decision at table {board.table_id} is waiting; "
            f"a computer player will make it for you {when}."
        )
        await self.send(
            board.channel_id,
            board.guild_id,
            content=text,
            allowed_mentions=views.ping([rem.user_id]),
        )
        prefs = await self.service.store.get_prefs(rem.user_id)
        if not prefs.reminders or prefs.hand_mode != "dm" or rem.user_id in board.table.dm_failed:
            return
        try:
            cid = await self.dm_channel_id(rem.user_id)
            await self.send(
                cid,
                priority=budget.HAND,
                content=f"{em.REMINDER} Your turn at table {board.table_id} "
                f"in <#{board.channel_id}> "
                f"ends {when}.",
                view=_link_view(board),
            )
        except discord.Forbidden:
            log.info("table %s: reminder DM refused by user %s", board.table_id, rem.user_id)

    def schedule_advance(self, table_id: int) -> None:
        """Let the computer players (and the fire die) make their decisions, in the background."""
        task = self._advancing.get(table_id)
        if task is not None and not task.done():
            return
        self._advancing[table_id] = self.spawn(self._advance(table_id), table_id)

    async def _advance(self, table_id: int) -> None:
        try:
            while True:
                async with self.table_lock(table_id):
                    step = await self.service.advance(table_id)
                    if step is None:
                        return
                    await self.show_step(step, schedule=False)
                p = step.board.prompt
                if p.kind not in ("play", "fall", "die") or p.user_id is not None:
                    return
                if self.ai_pause_s > 0:
                    await asyncio.sleep(self.ai_pause_s)  # pacing: one computer move at a time
        except Exception:
            log.exception("table %s: a computer player's move failed", table_id)
        finally:
            self._advancing.pop(table_id, None)

    def spawn(self, coro: Any, table_id: int) -> asyncio.Task[Any]:
        """Run a coroutine for a table in the background, keeping a reference and logging its
        failure with the table's id."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        task.set_name(f"table {table_id}")
        self._background.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        if self.bot.is_closed():
            log.debug("background task failed during shutdown: %r", task.exception())
        else:
            log.error("%s: background task failed", task.get_name(), exc_info=task.exception())

    async def close(self) -> None:
        """Cancel background work (at shutdown)."""
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await self.renderer.close()


def _link_button(board: Board, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Go to the table",
        style=discord.ButtonStyle.link,
        url=views.jump_url(board.guild_id, board.channel_id, board.table.messages.get("board")),
        row=row,
    )


def _link_view(board: Board) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(_link_button(board))
    return view

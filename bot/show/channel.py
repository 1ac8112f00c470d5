"""What the table's channel (or its game's thread) shows: the lobby card, one message per move
(its picture, its account, who decides next, the decision's buttons), the rest of a turn folded
into that message, and notices (a player left, the table was aborted, a reminder).

If Discord refuses a move's message, the table owes it to the channel: the desk posts it again
with backoff (:meth:`TableChannel.post_owed`) until it is shown, and the person who must decide
is told once by direct message. This process remembers, per table, its newest game message and
the turn it shows, which the falls of that turn are folded into (in the table's
:class:`~bot.show.table.TableShow`).

Over 400 lines, as one job: everything the table's channel shows goes through here, so that
its order and its owed post are decided in one place; the words, buttons, pictures and the
lobby card's layout are in their own modules already.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final, NamedTuple

import discord

from bot import budget, names
from bot.errors import NotShown, Why
from bot.kept import Kept
from bot.languages import table_language
from bot.service import Board, LeftGame, MatchResult, Reminder, Resumed, Step, WentAway
from bot.show import breaktexts, buttons, lobbycard, pictures, texts, turntexts
from bot.show.handcard import HandCard
from bot.show.hands import Hands
from bot.show.message import Message, attachment, ping
from bot.show.outbox import POST_ERRORS, Outbox
from bot.show.table import Tables, Waiting
from render import alttext

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080
"""A game's thread leaves the channel list after a week without messages, the longest of
Discord's four choices (60, 1440, 4320, 10080 minutes), open to every server. The bot's next
post in it reopens it."""


class Clicked(NamedTuple):
    """The message a player's click was on, as the click brought it."""

    message_id: int
    edit: Callable[..., Awaitable[Any]]
    """Edits the message through the click's token."""
    content: str


def drawn(players: tuple[str, ...]) -> list[str]:
    """Names as pictures show them: cleaned like names in text (:func:`bot.names.clean`)."""
    return [names.clean(n) for n in players]


def chips_of(board: Board) -> pictures.Chips:
    """What the picture's chips show of the table beyond its game: who is away, its pause (on
    the chip of a person whose clock it stopped), and a practice table."""
    paused = board.pause is not None and board.prompt.user_id is not None
    return pictures.Chips(
        dict(board.away),
        paused,
        practice=board.options.hints,
        computer_chose=board.computer_chose,
    )


def lobby_message(
    board: Board,
    results: MatchResult | None = None,
    *,
    expired: bool = False,
    game_link: str | None = None,
) -> Message:
    """The lobby card (:mod:`bot.show.lobbycard`): it never pings, keeps no pictures."""
    card = lobbycard.lobby_card(
        board, results, expired=expired, game_link=game_link, lang=table_language(board)
    )
    return Message(view=card, keep_files=True)


class TableChannel:
    """The channels and threads of every table."""

    def __init__(self, outbox: Outbox, card: HandCard, hands: Hands, tables: Tables) -> None:
        self.outbox = outbox
        self.card = card
        self.hands = hands
        self.tables = tables
        """What is kept of each table: its owed move, its turn's message, a turn that waits."""

    # --- pictures ---------------------------------------------------------------------------------

    async def board_files(self, board: Board) -> list[discord.File]:
        """The picture of a board."""
        if board.view is None:
            return []
        lang = table_language(board)
        names, title = drawn(board.names), turntexts.picture_title(board, lang)
        chips = chips_of(board)
        png = await pictures.table_png(
            board.view,
            names,
            title=title,
            renderer=self.outbox.renderer,
            lang=lang,
            chips=chips,
        )
        said = alttext.table_text(board.view, names, title=title, lang=lang, chips=chips)
        return [attachment(png, "pyramid.png", said)]

    async def step_files(self, step: Step) -> list[discord.File]:
        """The one picture of a move's message: the animation of what happened, ending on the
        board, or the board alone when nothing happened beyond the placement. A turn whose
        message waited for its end (:meth:`defer`) is animated whole, from its placement."""
        board = step.board
        before, events = step.before, step.events
        kept = self.tables.get(board.table_id)
        waited = kept.waiting if kept is not None else None
        if kept is not None and waited is not None:
            kept.waiting = None
            self.tables.tidy(board.table_id)
        if waited is not None and waited.turn == step.turn and waited.before is not None:
            before, events = waited.before, (*waited.events, *step.events)
        if board.view is None or before is None or not pictures.has_mayhem(events):
            return await self.board_files(board)
        lang = table_language(board)
        names, title = drawn(board.names), turntexts.picture_title(board, lang)
        chips = chips_of(board)
        pic = await pictures.turn_picture(
            before,
            events,
            board.view,
            names,
            title=title,
            renderer=self.outbox.renderer,
            lang=lang,
            chips=chips,
        )
        if pic.animated:
            said = alttext.turn_text(events, board.view, names, title=title, lang=lang, chips=chips)
        else:
            said = alttext.table_text(board.view, names, title=title, lang=lang, chips=chips)
        return [attachment(pic.data, f"pyramid.{pic.extension}", said)]

    async def board_message(self, board: Board, content: str | None = None) -> Message:
        """A board's picture with its words and buttons."""
        return Message(
            content or turntexts.board_content(board, table_language(board), spectator=False),
            files=await self.board_files(board),
            view=buttons.board_view(board, table_language(board)),
            pings=tuple(turntexts.mentioned_users(board)),
        )

    # --- a move ---------------------------------------------------------------------------------

    async def step(
        self, step: Step, *, clicker: int | None = None, clicked: Clicked | None = None
    ) -> None:
        """One new channel message for a move (one picture: the animation of what happened
        ending on the board, or the board alone; the account; the next player), or the
        turn's message edited when the step resolves a turn already shown (a fall, the fire
        die).

        If Discord refuses the message, the table owes it to the channel (:meth:`owe`).
        ``clicker`` (the person whose click made the move, if any) is told by the
        :class:`NotShown` raised here; the person who must decide next, if someone else, once
        by direct message. Without a clicker nothing is raised."""
        board = step.board
        started = time.perf_counter()
        message = Message(
            turntexts.step_content(step, table_language(board)),
            files=await self.step_files(step),
            view=buttons.board_view(board, table_language(board)),
            pings=tuple(turntexts.step_pings(step)),
        )
        drawn_at = time.perf_counter()
        posted: discord.Message | None = None
        failure: BaseException | None = None
        kept = self.tables.get(board.table_id)
        earlier = kept.turn_message if kept is not None else None
        asked = kept.asking if kept is not None else None
        if kept is not None:
            kept.asking = None  # known again once this step is shown
        if await self._fold_into_turn(step, message, clicked):
            self.shown(board)
            self._asks(board, earlier[0] if earlier is not None else None, message)
        else:
            try:
                posted = await self.outbox.send(
                    board.channel_id, message, board.guild_id, priority=budget.PICTURE
                )
            except POST_ERRORS as err:
                failure = err
                self._post_failed(board.table_id, err)
                told = {h.user_id for h in step.hands if h.told_by_dm}
                if clicker is not None:
                    told.add(clicker)
                self.owe(board, message.content or "", told=told)
        if posted is not None:
            self.shown(board)
            self._asks(board, posted.id, message)
            kept = self.tables.of(board.table_id)
            kept.newest = posted.id
            if step.turn is not None and step.kind == "move":
                kept.turn_message = (posted.id, step.turn)
            else:
                kept.turn_message = None
            self.outbox.spawn(
                self.outbox.ledger.remember(board.table_id, Kept.BOARD, posted.id), board.table_id
            )
            if step.continues_turn and earlier is not None and earlier[1] == step.turn:
                # The turn's message asked what this step answered: its buttons go.
                self.outbox.spawn(self._close_question(board, earlier[0]), board.table_id)
        if step.kind == "next_round":
            await self._round_started(
                board, asked, clicked, posted.id if posted is not None else None
            )
        if step.results is not None:
            self.outbox.spawn(self._show_result_on_lobby(board, step.results), board.table_id)
            # What this process remembered of the table's messages is no longer needed.
            kept = self.tables.get(board.table_id)
            if kept is not None:
                kept.turn_message = kept.newest = kept.asking = None
                self.tables.tidy(board.table_id)
        log.debug(
            "table %s: picture drawn in %.0f ms, posted in %.0f ms",
            board.table_id,
            (drawn_at - started) * 1000,
            (time.perf_counter() - drawn_at) * 1000,
        )
        if failure is not None and clicker is not None:
            if isinstance(failure, discord.Forbidden):
                what = failure.text or "missing permissions"
                raise NotShown(
                    Why.NOT_SHOWN_FORBIDDEN, table_id=board.table_id, detail={"what": what}
                )
            raise NotShown(Why.NOT_SHOWN, table_id=board.table_id)

    async def _close_question(
        self, board: Board, message_id: int, words: str | None = None, *, read_back: bool = False
    ) -> None:
        """Take the buttons off a message whose question was answered elsewhere (and, given its
        ``words`` without the question, the question too). With ``read_back`` and no words (a
        message this process did not post), its words are read from Discord first, and every
        line asking someone to decide is left out."""
        target = self.outbox.message(board.channel_id, message_id, board.guild_id)
        if not words and read_back:
            try:
                with budget.priority(budget.NOTICE):
                    content = (await target.fetch()).content
            except POST_ERRORS as err:  # no Read Message History: its buttons go all the same
                log.info("table %s: could not read back a message: %s", board.table_id, err)
            else:
                left = turntexts.without_questions(content, table_language(board))
                words = left if left and left != content else None
        try:
            with budget.priority(budget.NOTICE):
                if words:
                    await target.edit(content=words, view=None)
                else:
                    await target.edit(view=None)
        except POST_ERRORS as err:
            log.info("table %s: could not close an answered question: %s", board.table_id, err)

    def _asks(self, board: Board, message_id: int | None, message: Message) -> None:
        """Remember that the table's newest game message, ``message_id`` showing ``message``,
        asks someone something (if its board does), with its words without that question."""
        if message_id is None or not message.content:
            return
        lang = table_language(board)
        if not turntexts.prompt_line(board, lang, spectator=False):
            return
        words = turntexts.without_prompt(message.content, board, lang)
        self.tables.of(board.table_id).asking = (message_id, words)

    async def _round_started(
        self,
        board: Board,
        asked: tuple[int, str] | None,
        clicked: Clicked | None,
        posted: int | None,
    ) -> None:
        """The next round started: the message that said when it would (the end of the round
        before) keeps what happened and loses that line and its buttons, through the click's
        own answer when it was the one pressed; another clicked message loses its buttons.
        When this process did not post that message (a restart, another process), its words
        are read from the click, or from Discord."""
        earlier: tuple[int, str | None] | None = asked
        if earlier is None:
            kept_id = Kept.BOARD.of(board.table.messages)
            earlier = (kept_id, None) if kept_id not in (None, posted) else None
        here = clicked is not None and earlier is not None and clicked.message_id == earlier[0]
        if clicked is not None:
            words = None
            if here and earlier is not None:
                words = earlier[1]
                if words is None:
                    words = turntexts.without_questions(clicked.content, table_language(board))
            try:
                if words and words != clicked.content:
                    await clicked.edit(content=words, view=None)
                else:
                    await clicked.edit(view=None)
            except discord.HTTPException as err:
                log.info("table %s: could not retire the clicked message: %s", board.table_id, err)
        if earlier is not None and not here:
            message_id, known = earlier
            self.outbox.spawn(
                self._close_question(board, message_id, known, read_back=known is None),
                board.table_id,
            )

    def defer(self, step: Step) -> None:
        """Show nothing of ``step`` yet: its player goes on deciding its turn's falls on their
        own screen, and the turn is posted once, whole, when it is done (one post per turn, no
        edit for each fall). Remembered here: the view before the turn, for its animation."""
        kept = self.tables.of(step.board.table_id)
        if kept.waiting is None or kept.waiting.turn != step.turn:
            kept.waiting = Waiting(step.before, step.turn, list(step.events))
        else:
            kept.waiting.events.extend(step.events)

    async def close_board(self, board: Board) -> None:
        """The table closed: its newest game message keeps no button (My hand, a fall), nor,
        when this process knows its words, the line asking someone to decide."""
        message_id = Kept.BOARD.of(board.table.messages)
        if message_id is not None:
            kept = self.tables.get(board.table_id)
            asked = kept.asking if kept is not None else None
            words = asked[1] if asked is not None and asked[0] == message_id else None
            await self._close_question(board, message_id, words, read_back=words is None)

    def is_turn_message(self, table_id: int, message_id: int) -> bool:
        """Whether ``message_id`` is the table's newest game message, which the rest of its
        turn is folded into (so its buttons are the table's current ones)."""
        kept = self.tables.get(table_id)
        known = kept.turn_message if kept is not None else None
        return known is not None and known[0] == message_id

    async def _fold_into_turn(self, step: Step, message: Message, clicked: Clicked | None) -> bool:
        """Show a step that resolves a turn already in the channel (a fall, the fire die) by
        editing that turn's message: the whole turn's account, the picture of this step
        ending on the board, the buttons of what is pending now. Returns False when the step
        needs a message of its own: the turn's message is not known here (the bot restarted,
        or another process showed it), Discord refused the edit, or the turn ends with
        someone else to act who gets no direct message on their turn, so only a new message
        can ping them (an edit never notifies anyone)."""
        board = step.board
        kept = self.tables.get(board.table_id)
        known = kept.turn_message if kept is not None else None
        if not step.continues_turn or known is None or known[1] != step.turn:
            return False
        if message.pings:  # someone must be notified: only a new message can (see step_pings)
            return False
        try:
            if clicked is not None and clicked.message_id == known[0]:
                # Pressed on that very message: the click's own answer edits it (interaction
                # responses do not count against the global limit).
                await clicked.edit(**message.to_edit())
            else:
                target = self.outbox.message(board.channel_id, known[0], board.guild_id)
                await self.outbox.edit(target, message, priority=budget.PICTURE)
        except POST_ERRORS as err:
            log.info(
                "table %s: could not add a step to its turn's message: %s", board.table_id, err
            )
            message.reset()
            return False
        return True

    # --- what a table still owes the channel ------------------------------------------------

    def shown(self, board: Board) -> None:
        """The channel has seen ``board``: nothing older is owed any more."""
        kept = self.tables.get(board.table_id)
        if kept is not None and kept.owed is not None and kept.owed[0].version <= board.version:
            self.tables.forgive(board.table_id)
        self.outbox.spawn(
            self.outbox.ledger.shown(board.table_id, board.shown_version), board.table_id
        )

    def owe(self, board: Board, content: str, *, told: Collection[int] = ()) -> None:
        """Remember that the channel has not seen ``board`` (with ``content``); the desk posts
        it again (:meth:`post_owed`). The person who must decide is told once by direct
        message, unless they are ``told`` already (the clicker, or whoever a new screen in
        their direct messages tells)."""
        t = board.table_id
        kept = self.tables.of(t)
        kept.owed = (board, content)
        kept.told.update(told)
        decider = board.prompt.user_id
        if decider is not None and decider not in kept.told:
            kept.told.add(decider)
            self.outbox.spawn(self.hands.tell_decider(board), t)

    def owes(self, table_id: int) -> bool:
        """Whether the channel has not seen the table's latest move."""
        kept = self.tables.get(table_id)
        return kept is not None and kept.owed is not None

    def forgive(self, table_id: int) -> None:
        """Nothing more is to be shown of the table (it is gone)."""
        self.tables.forgive(table_id)

    async def post_owed(self, now: Board) -> bool:
        """Post what the table owes the channel, as the table is ``now`` (its latest move, if
        it moved on meanwhile). Returns whether nothing is owed any more."""
        kept = self.tables.get(now.table_id)
        owed = kept.owed if kept is not None else None
        if owed is None:
            return True
        if now.prompt.kind == "closed":
            self.forgive(now.table_id)
            return True
        board, content = owed
        if now.version != board.version:  # moved on, and that was not shown either
            board, content = now, turntexts.board_content(now, table_language(now), spectator=False)
        try:
            await self.outbox.send(
                board.channel_id, await self.board_message(board, content), board.guild_id
            )
        except POST_ERRORS as err:
            log.warning("table %s: its latest move is still not shown (%s)", board.table_id, err)
            return False
        log.info("table %s: its latest move is shown after all", board.table_id)
        self.shown(board)
        return True

    async def post_or_owe(self, board: Board, content: str) -> None:
        """Post a board now if Discord takes it, else owe it (see :meth:`owe`)."""
        try:
            await self.outbox.send(
                board.channel_id, await self.board_message(board, content), board.guild_id
            )
        except POST_ERRORS as err:
            self._post_failed(board.table_id, err)
            self.owe(board, content)
            return
        self.shown(board)

    def _post_failed(self, table_id: int, err: BaseException) -> None:
        if isinstance(err, discord.Forbidden):
            log.warning("table %s: missing permission to post in its channel: %s", table_id, err)
        else:
            log.error("table %s: could not post the move", table_id, exc_info=err)

    # --- the lobby card ---------------------------------------------------------------------------

    async def post_lobby(self, board: Board) -> discord.Message:
        """Post a table's lobby card and keep it as the table's lobby."""
        message = await self.outbox.send(
            board.lobby_channel_id, lobby_message(board), board.guild_id
        )
        await self.outbox.ledger.remember(board.table_id, Kept.LOBBY, message.id)
        return message

    async def edit_lobby(
        self, board: Board, results: MatchResult | None = None, *, expired: bool = False
    ) -> None:
        """Bring the lobby card up to date with ``board`` (never back to an older one);
        ``expired``: nobody started the lobby in time."""
        message_id = Kept.LOBBY.of(board.table.messages)
        if message_id is None:
            return
        target = self.outbox.message(board.lobby_channel_id, message_id, board.guild_id)
        try:
            await self.outbox.edit_kept(
                board.table_id,
                Kept.LOBBY,
                board.version,
                target,
                lobby_message(board, results, expired=expired),
            )
        except discord.HTTPException as err:
            log.warning("table %s: could not update the lobby message: %s", board.table_id, err)

    async def show_on_lobby(self, board: Board) -> None:
        """An open table's lobby card brought up to date with what changed without a move (a
        pause, a player away or back)."""
        message_id = Kept.LOBBY.of(board.table.messages)
        status = board.table.status
        if message_id is None or status not in ("lobby", "playing"):
            return
        target = self.outbox.message(board.lobby_channel_id, message_id, board.guild_id)
        link = self.game_link(board) if status == "playing" else None
        card = lobby_message(board, game_link=link)
        try:
            await self.outbox.edit_kept_unversioned(
                board.table_id, Kept.LOBBY, board.version, target, card
            )
        except discord.HTTPException as err:
            log.warning("table %s: could not update the lobby message: %s", board.table_id, err)

    async def lobby_clicked(
        self, board: Board, edit: Callable[..., Awaitable[Any]], *, started: bool = False
    ) -> None:
        """The lobby card a click was on, brought up to date through the click's own answer
        (once the game ``started``, with the way to it). Two clicks served by two processes:
        the card never goes back to the older one."""
        message = lobby_message(board, game_link=self.game_link(board) if started else None)
        async with self.outbox.ledger.edit(board.table_id, Kept.LOBBY, board.version) as go:
            if go:
                await edit(**message.to_edit())

    def game_link(self, board: Board) -> str:
        """Where a started game is followed: its thread, else its first message (or the
        channel, if this process did not post it)."""
        if board.table.thread_id is not None:
            return texts.jump_url(board.guild_id, board.table.thread_id)
        kept = self.tables.get(board.table_id)
        newest = kept.newest if kept is not None else None
        return texts.jump_url(board.guild_id, board.channel_id, newest)

    async def _show_result_on_lobby(self, board: Board, results: MatchResult) -> None:
        """The lobby card tells how the match ended: the winner and the final standings."""
        await self.edit_lobby(board, results)

    async def start_thread(self, interaction: discord.Interaction[Any], board: Board) -> int | None:
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
                name=texts.thread_name(board.number, table_language(board)),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as err:
            log.warning("table %s: no thread for the game (%s)", board.table_id, err)
            return None
        return thread.id

    # --- notices ------------------------------------------------------------------------------

    async def left(self, left: LeftGame, name: str) -> None:
        """A player left a running game."""
        board = left.board
        await self.outbox.send(
            board.channel_id,
            # Nobody is pinged: whoever must decide now was told when their decision began.
            Message(
                turntexts.left_game(board, left.seat, name, left.closed, table_language(board))
            ),
            board.guild_id,
        )

    async def aborted(self, board: Board, name: str, by: int | None) -> None:
        """``/fp abort`` by the user ``by``: the channel is told who closed the table, and every
        other person seated there is pinged by it, once."""
        await self.outbox.send(
            board.channel_id,
            Message(
                turntexts.aborted(board, name, table_language(board), by=by),
                pings=tuple(turntexts.aborted_pings(board, by)),
            ),
            board.guild_id,
        )

    async def paused(self, board: Board) -> None:
        """``/fp pause``: the channel is told who paused the game, until when, and why."""
        await self.outbox.send(
            board.channel_id,
            Message(breaktexts.paused(board, table_language(board))),
            board.guild_id,
        )

    async def resumed(self, done: Resumed) -> None:
        """A paused game goes on (``/fp resume``, or the pause's end): the channel is told, with
        who decides now and by when. Nobody is pinged: whoever decides was told when their
        decision began."""
        board = done.board
        lang = table_language(board)
        await self.outbox.send(
            board.channel_id,
            Message(
                breaktexts.resumed(done, turntexts.prompt_line(board, lang, spectator=False), lang)
            ),
            board.guild_id,
        )

    async def went_away(self, went: WentAway) -> None:
        """The clock set a player away: the table where it happened is told once (the player is
        mentioned when no direct message tells them how to come back)."""
        board = went.board
        await self.outbox.send(
            board.channel_id,
            Message(
                breaktexts.went_away(went, table_language(board)),
                pings=() if went.dm else (went.user_id,),
            ),
            board.guild_id,
        )

    async def remind(self, rem: Reminder) -> None:
        """Remind the owner of the pending decision in the channel."""
        board = rem.board
        await self.outbox.send(
            board.channel_id,
            Message(
                turntexts.reminder_channel(board, rem.user_id, table_language(board)),
                pings=(rem.user_id,),
            ),
            board.guild_id,
        )

    async def status(
        self, interaction: discord.Interaction[Any], board: Board, *, private: bool
    ) -> None:
        """``/fp status``: the table now, as the answer to the command (its picture at the
        bottom of the channel); a move Discord refused before is shown by it. ``private``: for
        someone not playing, who sees it alone and without the players' buttons."""
        if board.view is None:
            await interaction.followup.send(
                view=lobbycard.lobby_card(board, lang=table_language(board)),
                allowed_mentions=ping(()),
            )
            return
        files = await self.board_files(board)
        if private:
            await interaction.followup.send(
                turntexts.board_content(board, table_language(board), spectator=True),
                files=files,
                allowed_mentions=ping(()),
                ephemeral=True,
            )
            return
        message = await interaction.followup.send(
            turntexts.board_content(board, table_language(board), spectator=False),
            files=files,
            view=buttons.board_view(board, table_language(board)) or discord.utils.MISSING,
            allowed_mentions=ping(()),
            wait=True,
        )
        await self.outbox.ledger.remember(board.table_id, Kept.STATUS, message.id)
        self.shown(board)

    async def retire(self, interaction: discord.Interaction[Any]) -> None:
        """Take the buttons off the message that was clicked (its moment has passed)."""
        try:
            await interaction.edit_original_response(view=None)
        except discord.HTTPException:
            log.debug("could not retire the buttons of interaction %s", interaction.id)

"""What the bot shows on Discord: a sink for the table service's results, split by audience.

- :mod:`~bot.show.texts`, :mod:`~bot.show.buttons`, :mod:`~bot.show.words`: the words and the
  buttons of every message, built from results (pure functions);
  :mod:`~bot.show.message` the record of one message;
- :mod:`~bot.show.outbox`: sending and editing, paced, and background delivery;
- :mod:`~bot.show.ledger`: which Discord message shows which table version (the show side's
  one door to the store);
- :mod:`~bot.show.channel`: the table's channel or thread;
- :mod:`~bot.show.hands`: each player's direct messages (hands, turn notices, reminders);
- :mod:`~bot.show.screens`: each player's private screen;
- :mod:`~bot.show.table`: what is kept of each open table, in one object per table, with one
  way to close it.

The show side imports only the table service's result types: it never asks the service
anything. What it needs arrives in the results, handed over by the desk (:mod:`bot.desk`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.errors import NotShown
from bot.kept import Kept
from bot.languages import clicker_language, player_language, table_language
from bot.locks import Locks
from bot.service import Board, Hand, MatchResult, Reminder, Step, WentAway
from bot.show import endtexts, handtexts, turntexts
from bot.show.channel import Clicked, TableChannel
from bot.show.handcard import HandCard
from bot.show.hands import Hands
from bot.show.outbox import Outbox
from bot.show.screens import Screens, clicked_id
from bot.show.table import Tables


@dataclass(frozen=True)
class Own:
    """The private screen of the person whose click made a move, to show their hand after it:
    the clicked message (through the click's ``interaction``), with a note saying what they
    did (the tile they ``played``, or where the tile ``fell``)."""

    interaction: discord.Interaction[Any]
    played: str | None = None
    fell: str | None = None


@dataclass
class Shown:
    """What showing a move left to do, for the desk."""

    refused: NotShown | None = None
    """Discord refused the move's message: the clicker is told by this."""
    owes: bool = False
    """The channel has not seen the table's latest move: it is to be posted again."""
    screens: list[int] = field(default_factory=list)
    """Other players whose live private screen the move made obsolete (to bring up to date)."""


class Show:
    """The show side of one bot process."""

    def __init__(
        self,
        outbox: Outbox,
        locks: Locks,
        clock: Callable[[], float],
        *,
        retry: tuple[float, float],
    ) -> None:
        """Everything goes out through ``outbox`` (:class:`bot.show.outbox.Outbox`, or in
        tests a recording one); ``retry``: how long a screen the database held up waits before
        each new try, at first and at most (see :mod:`bot.show.hands`)."""
        self.outbox = outbox
        self.tables = Tables()
        """What is kept of each open table (:mod:`bot.show.table`)."""
        self.card = HandCard(self.outbox, self.tables)
        self.screens = Screens(
            self.card, self.outbox.ledger, locks, clock, self.outbox.channel, self.tables
        )
        self.hands = Hands(self.outbox, self.card, self.tables, retry=retry)
        self.channel = TableChannel(self.outbox, self.card, self.hands, self.tables)

    async def step(
        self,
        step: Step,
        *,
        clicker: int | None = None,
        clicked: Clicked | None = None,
        own: Own | None = None,
    ) -> Shown:
        """Show a move: its channel message, the hands it changed, the ``own`` screen of the
        person who made it, and at the end of a match the result on the lobby card. Returns
        what is left to do (see :class:`Shown`; at the end of a match, :meth:`finish`)."""
        refused = None
        if own is not None and step.mine is not None and step.mine.decision == "fall":
            # The clicker goes on deciding on their own screen (a fall after their own
            # placement): the channel gets the turn once, whole, when it is done.
            self.channel.defer(step)
        else:
            try:
                await self.channel.step(step, clicker=clicker, clicked=clicked)
            except NotShown as err:
                refused = err
        for hand in step.hands:
            if not self._goes_on_own_screen(hand, own):
                self.hands.queue(hand)
        if own is not None:
            await self._own_screen(step, own, noted=refused is None)
        self._close_answered(step, own)
        table_id = step.board.table_id
        return Shown(
            refused, self.channel.owes(table_id), self.screens.live(table_id, skip=clicker)
        )

    async def own_hand(
        self,
        interaction: discord.Interaction[Any],
        hand: Hand,
        *,
        played: str | None = None,
        fell: str | None = None,
        undone: bool = False,
    ) -> None:
        """The clicked private screen answering its player's click with ``hand``: a fall they
        must decide first, the next fall of a turn they hold back (with a note of what they
        did: the tile ``played``, where the tile ``fell``), that turn done (Undo or Done), or
        their turn again after an Undo (``undone``)."""
        lang = clicker_language(interaction)
        note = None
        if undone:
            note = handtexts.undone(lang)
        elif hand.held is not None and hand.decision == "fall" and fell is not None:
            fallen = next((e.tile for e in reversed(hand.held.events) if e.kind == "fell"), None)
            note = handtexts.fell(fell, lang, fallen)
        elif hand.held is not None and hand.decision == "fall" and played is not None:
            note = handtexts.played(played, lang)
        await self.screens.show_hand(interaction, hand, note=note)

    @staticmethod
    def _goes_on_own_screen(hand: Hand, own: Own | None) -> bool:
        """Whether ``hand``, a decision of the person whose click on their screen in direct
        messages made the move (a turn after the fall a curse gave them, with two players), is
        shown on that very screen by the click's answer: no second screen, no second push."""
        return (
            own is not None
            and own.interaction.guild_id is None
            and own.interaction.user.id == hand.user_id
            and hand.decision != "wait"
        )

    def _close_answered(self, step: Step, own: Own | None) -> None:
        """A decision answered elsewhere than on its screen in direct messages (on the
        channel's message, on a private screen, or by the clock) closes that screen too, in
        the background: no live button is left for a decision already taken."""
        board = step.board
        if step.actor is None or step.actor >= len(board.table.seats):
            return
        user_id = board.table.seats[step.actor].user_id
        if user_id is None or board.prompt.user_id == user_id:
            return  # a computer, or the decision goes on (a fall after their own placement)
        if own is not None and own.interaction.guild_id is None:
            return  # their own click there closes it
        if Kept.hand(user_id).of(board.table.messages) is None:
            return
        # Their screen in direct messages: in their language where a hand of theirs says it,
        # the turn told to them.
        known = [h for h in step.hands if h.user_id == user_id]
        lang = player_language(known[0]) if known else table_language(board)
        account = turntexts.turn_account(step, lang, viewer=step.actor)
        if step.timed_out:
            text = handtexts.timed_out(account, lang)
        else:
            text = handtexts.turn_done(account, lang)
        self.outbox.spawn(self._close_screen(board, user_id, text), board.table_id)

    async def _close_screen(self, board: Board, user_id: int, text: str) -> None:
        """Close the player's screen in direct messages with ``text``: the turn they held back
        through the token of its click, if this process showed it; else by an edit."""

        def noted(message_id: int, close: Callable[[bool], Awaitable[Any]]) -> Awaitable[None]:
            return self.hands.closed_by_click(board, user_id, message_id, close)

        if not await self.screens.close_held(board.table_id, user_id, text, noted):
            await self.hands.close_screen(board.table_id, user_id, text)

    async def _own_screen(self, step: Step, own: Own, *, noted: bool) -> None:
        """The clicker's screen after their move. In direct messages, their last click of the
        decision closes the screen with the turn's account (a fall still theirs to choose
        shows on it instead); a private screen in the channel shows their hand after the move
        (with a note saying what they did, unless the channel could not show the move), or the
        end of the match."""
        ix = own.interaction
        mine = step.mine
        lang = clicker_language(ix)
        over = endtexts.MATCH_OVER if step.results is not None else handtexts.CLOSED
        # At a table with an undo window, why this turn has none (the fire die, the curse).
        why_not = handtexts.no_undo(step.no_undo, step.passed_to, lang) if step.no_undo else None
        if ix.guild_id is None and (mine is None or mine.decision == "wait"):
            # Their own screen: the turn told to them ("You played ...", "your pile").
            seat = step.board.seat_of(ix.user.id)
            text = handtexts.turn_done(turntexts.turn_account(step, lang, viewer=seat), lang)
            if why_not is not None:
                text += "\n" + why_not
            if mine is None:
                text += "\n" + handtexts.translated(over, lang)
            await self.screens.close_clicked(
                ix,
                step.board.table_id,
                text,
                lambda close: self.hands.closed_by_click(
                    step.board, ix.user.id, clicked_id(ix), close
                ),
            )
            return
        note = None
        if noted and own.played is not None:
            note = handtexts.played(own.played, lang)
        elif noted and own.fell is not None:
            fallen = next((e.tile for e in step.events if e.kind == "fell"), None)
            note = handtexts.fell(own.fell, lang, fallen)
        if why_not is not None:
            note = why_not if note is None else f"{note}\n{why_not}"
        if mine is not None:
            await self.screens.show_hand(ix, mine, note=note)
        else:
            await self.screens.show_over(ix, step.board.table_id, over)

    async def finish(self, board: Board, results: MatchResult) -> None:
        """The match is over and its screens show it: every DM hand tells the result, then the
        table is closed here (once the channel has its last move, if it still owes it:
        :meth:`bot.show.table.Tables.end`)."""
        await self.hands.close(board, results)
        self.tables.end(board.table_id)

    async def closed(self, board: Board) -> None:
        """The table closed before the end of its match (aborted, or emptied): everything a
        finished match closes says so (the lobby card, every screen in direct messages, every
        live private screen), then the table is closed here (:meth:`forget`)."""
        await self.channel.edit_lobby(board)
        await self.channel.close_board(board)
        await self.hands.close_all(board, table_language(board).gettext(handtexts.CLOSED))
        for user_id in self.screens.live(board.table_id):
            await self.screens.refresh(board.table_id, user_id, handtexts.CLOSED)
        self.forget(board.table_id)

    def forget(self, table_id: int) -> None:
        """The table ended (closed, its lobby cancelled or expired): its loops are cancelled
        and nothing of it is kept here any more (:meth:`bot.show.table.Tables.close`)."""
        self.tables.close(table_id)

    async def remind(self, rem: Reminder) -> None:
        """A decision's owner is running out of time: one reminder, by the way they were told
        of the decision (a direct message, or a mention in the channel)."""
        if rem.dm:
            await self.hands.remind(rem)
        else:
            await self.channel.remind(rem)

    async def went_away(self, went: WentAway) -> None:
        """The clock set a player away: the table where it happened is told once, the player
        once by direct message (when they get them), and the lobby card shows it."""
        await self.channel.went_away(went)
        if went.dm:
            self.outbox.spawn(self.hands.tell_went_away(went), went.board.table_id)
        self.outbox.spawn(self.channel.show_on_lobby(went.board), went.board.table_id)

    async def post_again(self, board: Board) -> bool:
        """Show a move the last run committed but never showed (after a restart); True if the
        channel still owes it (Discord refused it again)."""
        await self.channel.post_or_owe(board, turntexts.restarted(board, table_language(board)))
        return self.channel.owes(board.table_id)

    async def close(self) -> None:
        """Close every table and cancel background work (at shutdown)."""
        self.tables.close_all()
        await self.outbox.close()

"""What reaches one player privately by direct message: their hand message (one per player per
game, edited in place after each move), the short "your turn" message, reminders, the end of the
match on their hand, and the decision's buttons when the channel's message is not shown yet.

Hands are delivered in the background, one player at a time and in order: if a newer hand of a
player comes before the older one went out, only the newer one is sent. If a player's direct
messages are closed (Discord refuses with 50007), that is remembered for the player across every
table (:meth:`~bot.show.ledger.Ledger.dm_refused`): the service then shows them as a player on
private hands until they ask for DMs again or a day has passed, and each table's channel is told
once, without revealing anything.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

import discord

from bot import budget
from bot.kept import Kept
from bot.narrate import narrate
from bot.service import Board, Hand, MatchResult, Reminder
from bot.show import buttons, texts
from bot.show.handcard import HandCard
from bot.show.message import Message
from bot.show.outbox import DM_CLOSED, NO_MUTUAL_GUILDS, POST_ERRORS, Outbox
from bot.show.screens import Screens

log = logging.getLogger(__name__)

HAND_CLOSED: Final = 2**31 - 1
"""The version a hand message shows once the match is over: no later edit replaces it."""


def link_button(board: Board, row: int | None = None) -> discord.ui.Button[Any]:
    """ "Go to the table": to the table's newest board message, as the table knows it."""
    return buttons.table_link(
        board.guild_id, board.channel_id, Kept.BOARD.of(board.table.messages), row=row
    )


class Hands:
    """Every player's direct messages."""

    def __init__(self, outbox: Outbox, card: HandCard, screens: Screens) -> None:
        self.outbox = outbox
        self.card = card
        self.screens = screens
        self._hands: dict[tuple[int, int], Hand] = {}
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}

    def queue(self, hand: Hand) -> None:
        """Deliver a hand in the background, without holding up the table (see the module).
        A player whose DMs are closed gets none: the table is told so once."""
        if not hand.dm:
            if hand.dms_closed and not hand.dm_failed_before:
                self.outbox.spawn(self._tell_closed(hand), hand.table_id)
            return
        key = (hand.table_id, hand.user_id)
        self._hands[key] = hand
        if key not in self._tasks:
            self._tasks[key] = self.outbox.spawn(self._deliver_all(key), hand.table_id)

    async def _deliver_all(self, key: tuple[int, int]) -> None:
        try:
            while (hand := self._hands.pop(key, None)) is not None:
                try:
                    await self.deliver(hand)
                except Exception:
                    if not self.outbox.bot.is_closed():
                        log.exception("table %s: could not deliver a hand", key[0])
        finally:
            self._tasks.pop(key, None)

    async def deliver(self, hand: Hand) -> None:
        """Show a changed hand to its owner by DM (unless they chose ephemeral hands): one hand
        message per player per game, edited in place after each move. When it becomes their
        turn (and they want a DM then), a short new DM says so, with what happened since their
        last move and links to the table's newest message and to the hand (earlier ones stay:
        removing them would cost a request of the token's global budget every turn). If their
        DMs are closed, say so in the channel once, without revealing anything."""
        if not hand.dm:
            return
        kept = Kept.hand(hand.user_id)
        old = await self.outbox.ledger.find(hand.table_id, kept)
        message = await self.card.message(hand)
        try:
            cid = await self.outbox.dm_channel_id(hand.user_id)
            hand_id = old
            if old is not None:
                target = self.outbox.message(cid, old)

                async def edit() -> bool:
                    return await self.outbox.edit_kept(
                        hand.table_id, kept, hand.version, target, message, priority=budget.HAND
                    )

                try:
                    if not await self.screens.edit_dm(
                        hand.table_id, hand.user_id, old, hand.version, edit
                    ):
                        return  # it shows this hand or a newer one already (its turn told)
                except discord.NotFound:
                    log.info("table %s: hand message of user %s gone", hand.table_id, hand.user_id)
                    hand_id = None
            if hand_id is None:
                message.reset()
                sent = await self.outbox.send(cid, message, priority=budget.HAND)
                hand_id = sent.id
                self.screens.sent_dm(hand.table_id, hand.user_id, sent.id, hand.version)
                await self.outbox.ledger.remember(hand.table_id, kept, sent.id)
            if old is not None and hand.your_turn and hand.dm_on_turn:
                await self._tell_turn(hand, cid, hand_id)
        except discord.Forbidden as err:
            if err.code not in (DM_CLOSED, NO_MUTUAL_GUILDS):
                raise
            log.info("table %s: DMs closed for user %s", hand.table_id, hand.user_id)
            await self.outbox.ledger.dm_refused(hand.user_id)
            if not hand.dm_failed_before:
                await self._tell_closed(hand)
            return
        if hand.dm_refused_at is not None:
            log.info("table %s: DMs open again for user %s", hand.table_id, hand.user_id)
            await self.outbox.ledger.dm_opened(hand.user_id)

    async def _tell_closed(self, hand: Hand) -> None:
        """Tell the table's channel, once, that the player's DMs are closed and how to open
        them."""
        if await self.outbox.ledger.dm_failed(hand.table_id, hand.user_id):
            await self.outbox.send(
                hand.channel_id,
                Message(texts.dms_closed(hand.user_id), pings=(hand.user_id,)),
                hand.guild_id,
            )

    async def _tell_turn(self, hand: Hand, dm_id: int, hand_id: int) -> None:
        """The one new DM of a player's turn: what happened since their last move, and links
        to the table's newest message and to their hand."""
        shown = [texts.esc(n) for n in hand.names]  # as every message shows them
        since = [line for line in (narrate(t, shown) for t in hand.since) if line]
        view = discord.ui.View(timeout=None)
        view.add_item(
            buttons.table_link(hand.guild_id, hand.channel_id, self.card.newest_message(hand))
        )
        view.add_item(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.link,
                url=f"https://discord.com/channels/@me/{dm_id}/{hand_id}",
            )
        )
        await self.outbox.send(
            dm_id, Message(texts.turn_notice(hand, since), view=view), priority=budget.HAND
        )

    async def close(self, board: Board, results: MatchResult) -> None:
        """At the end of a match every DM hand of it loses its buttons and tells the result."""
        text = texts.clip(texts.hand_closed(board, results))
        for seat in board.table.seats:
            uid = seat.user_id
            message_id = Kept.hand(uid).of(board.table.messages) if uid is not None else None
            if uid is None or message_id is None:
                continue
            try:
                cid = await self.outbox.dm_channel_id(uid)
                target = self.outbox.message(cid, message_id)

                async def edit(uid: int = uid, target: discord.PartialMessage = target) -> bool:
                    return await self.outbox.edit_kept(
                        board.table_id,
                        Kept.hand(uid),
                        HAND_CLOSED,
                        target,
                        Message(text),
                        priority=budget.HAND,
                    )

                await self.screens.edit_dm(
                    board.table_id, uid, message_id, board.version, edit, kind="over"
                )
            except discord.HTTPException as err:
                log.info("table %s: could not close a hand message: %s", board.table_id, err)

    async def remind(self, rem: Reminder) -> None:
        """The reminder by direct message, if the owner wants reminders that way."""
        board = rem.board
        if not rem.dm:
            return
        view = discord.ui.View(timeout=None)
        view.add_item(link_button(board))
        try:
            cid = await self.outbox.dm_channel_id(rem.user_id)
            await self.outbox.send(
                cid, Message(texts.reminder_dm(board), view=view), priority=budget.HAND
            )
        except discord.Forbidden as err:
            log.info("table %s: reminder DM refused by user %s", board.table_id, rem.user_id)
            if err.code in (DM_CLOSED, NO_MUTUAL_GUILDS):
                await self.outbox.ledger.dm_refused(rem.user_id)

    async def tell_decider(self, board: Board) -> None:
        """Tell the person who must decide, by direct message, that the table's message is not
        in the channel yet, with the decision's buttons (they work here too)."""
        user_id = board.prompt.user_id
        assert user_id is not None
        view = buttons.board_view(board) or discord.ui.View(timeout=None)
        view.add_item(link_button(board, row=1))
        try:
            if await self.outbox.ledger.dm_refused_ever(user_id):
                log.info("table %s: DMs closed for user %s, not told", board.table_id, user_id)
                return
            cid = await self.outbox.dm_channel_id(user_id)
            await self.outbox.send(
                cid, Message(texts.not_shown_notice(board), view=view), priority=budget.HAND
            )
        except discord.Forbidden as err:
            log.info("table %s: could not tell user %s by DM", board.table_id, user_id)
            if err.code in (DM_CLOSED, NO_MUTUAL_GUILDS):
                await self.outbox.ledger.dm_refused(user_id)
        except POST_ERRORS as err:
            log.warning("table %s: could not tell user %s by DM: %s", board.table_id, user_id, err)

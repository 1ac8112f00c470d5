"""What reaches one player privately by direct message: the screen of each decision that
becomes theirs (one new message: the board with their hand, what the others did since their last
move, the deadline, the tile or fall buttons), reminders, the end of the match on a screen still
open, and the decision's buttons when the channel's message is not shown yet.

A player's decision comes as a new screen, and that is their one notification of it: the tile,
spot and fall steps happen on it through the clicks' own answers, and their last click closes it
("done", with the turn's account). A screen that no click closed (the clock played for them) is
closed when the next one comes. Between their decisions nothing is sent: a waiting hand needs no
message (**My hand** shows it on demand).

Screens are delivered in the background, one player at a time and in order: if a newer screen of a
player comes before the older one went out, only the newer one is sent. A screen the database held
up (it was away while the screen was on its way) is tried again, more and more slowly, until the
database answers: it is sent then if the decision is still the player's (nothing was played since),
and never twice (once Discord took it, only noting it in the database is tried again). If a
player's direct
messages are closed (Discord refuses with 50007), that is remembered for the player across every
table (:meth:`~bot.show.ledger.Ledger.dm_refused`): the service then shows them as a player on
private hands until they ask for DMs again or a day has passed, and each table's channel is told
once, without revealing anything.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from bot import (
    awaybutton,  # the module, as it imports bot.show back
    budget,
)
from bot.kept import Kept
from bot.languages import player_language, table_language
from bot.service import Board, Hand, MatchResult, Reminder, WentAway
from bot.show import breaktexts, buttons, endtexts, handtexts, texts, turntexts
from bot.show.handcard import HandCard
from bot.show.message import Message
from bot.show.outbox import DM_CLOSED, NO_MUTUAL_GUILDS, POST_ERRORS, Outbox
from bot.show.table import Tables
from data.store import (
    ChannelBusy,
    CorruptRecord,
    DatabaseDamaged,
    NotFound,
    SchemaTooNew,
    StoreError,
    VersionConflict,
)
from i18n import Language

log = logging.getLogger(__name__)

SCREEN_CLOSED: Final = 2**31 - 1
"""The version a closed screen shows: no later edit replaces it."""
RETRY_FIRST_S: Final = 2.0
"""A screen the database held up is tried again after this long, then twice as long each
time..."""
RETRY_MAX_S: Final = 60.0
"""...up to this long between tries, until the database answers."""


def database_away(err: StoreError) -> bool:
    """Whether ``err`` says the database could not be used for now (unreachable, locked, its
    disk full), so that trying again later may work; not one about the table itself (gone,
    damaged, moved on)."""
    return not isinstance(
        err,
        NotFound | CorruptRecord | VersionConflict | ChannelBusy | DatabaseDamaged | SchemaTooNew,
    )


def link_button(board: Board, row: int | None = None, *, lang: Language) -> discord.ui.Button[Any]:
    """ "Go to the table": to the table's newest board message, as the table knows it."""
    return buttons.table_link(
        board.guild_id, board.channel_id, Kept.BOARD.of(board.table.messages), row=row, lang=lang
    )


class Hands:
    """Every player's direct messages."""

    def __init__(
        self, outbox: Outbox, card: HandCard, tables: Tables, *, retry: tuple[float, float]
    ) -> None:
        """``retry``: the first and the longest wait for the database, when it held up a
        screen (:data:`RETRY_FIRST_S`, :data:`RETRY_MAX_S`). The screens waiting to be
        delivered, and their deliveries, are kept with their table (``tables``)."""
        self.outbox = outbox
        self.card = card
        self.tables = tables
        self.retry_first_s, self.retry_max_s = retry

    def queue(self, hand: Hand) -> None:
        """Deliver a hand in the background, without holding up the table (see the module).
        A player whose DMs are closed gets none: the table is told so once."""
        if not hand.dm:
            if hand.dms_closed and not hand.dm_failed_before:
                self.outbox.spawn(self._tell_closed(hand), hand.table_id)
            return
        kept = self.tables.of(hand.table_id)
        kept.hands[hand.user_id] = hand
        if hand.user_id not in kept.delivering:
            kept.delivering[hand.user_id] = self.outbox.spawn(
                self._deliver_all(hand.table_id, hand.user_id), hand.table_id
            )

    def _next(self, table_id: int, user_id: int) -> Hand | None:
        """The player's newest screen at the table waiting to be delivered, taken."""
        kept = self.tables.get(table_id)
        return kept.hands.pop(user_id, None) if kept is not None else None

    async def _deliver_all(self, table_id: int, user_id: int) -> None:
        """Deliver the player's newest hand at the table until none is left; one the database
        held up waits for it (see the module)."""
        delay = self.retry_first_s
        held: Hand | None = None
        try:
            while (hand := self._next(table_id, user_id) or held) is not None:
                try:
                    if hand is held and not await self.outbox.ledger.still_at(
                        hand.table_id, hand.version
                    ):
                        log.info(
                            "table %s: the screen of user %s that the database held up is out "
                            "of date (something was played since): not sent",
                            hand.table_id,
                            hand.user_id,
                        )
                        held = None
                        continue
                    await self.deliver(hand)
                    held, delay = None, self.retry_first_s
                except Exception as err:
                    if isinstance(err, StoreError) and database_away(err):
                        if held is None:
                            log.warning(
                                "table %s: the screen of user %s waits for the database (%s)",
                                hand.table_id,
                                hand.user_id,
                                err,
                            )
                        held = hand
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, self.retry_max_s)
                        continue
                    held = None
                    if not self.outbox.is_closed():
                        log.exception("table %s: could not deliver a hand", table_id)
        finally:
            kept = self.tables.get(table_id)
            if kept is not None and kept.delivering.get(user_id) is asyncio.current_task():
                del kept.delivering[user_id]
                self.tables.tidy(table_id)

    async def deliver(self, hand: Hand) -> None:
        """Send the screen of a decision that becomes the player's (see the module): a new
        direct message, silent if they want no notification on their turn, and the screen it
        replaces closed if their own click did not close it. Nothing for a hand that begins no
        decision. If their DMs are closed, say so in the channel once, without revealing
        anything."""
        if not hand.dm or not hand.begins:
            return
        kept = Kept.hand(hand.user_id)
        message = await self.card.message(
            hand, fall_row=buttons.fall_row_after(None), lang=player_language(hand)
        )
        message.silent = not hand.dm_on_turn
        try:
            cid = await self.outbox.dm_channel_id(hand.user_id)
            await self.retire(
                hand.table_id,
                hand.user_id,
                cid,
                handtexts.screen_retired(player_language(hand)),
            )
            sent = await self.outbox.send(cid, message, priority=budget.HAND)
        except discord.Forbidden as err:
            if err.code not in (DM_CLOSED, NO_MUTUAL_GUILDS):
                raise
            log.info("table %s: DMs closed for user %s", hand.table_id, hand.user_id)
            await self.outbox.ledger.dm_refused(hand.user_id)
            if not hand.dm_failed_before:
                await self._tell_closed(hand)
            return
        # Sent: from now on only the database is waited for, never a second screen.
        ledger = self.outbox.ledger
        await self._noting(
            hand, lambda: ledger.remember(hand.table_id, kept, sent.id, hand.version)
        )
        if hand.dm_refused_at is not None:
            log.info("table %s: DMs open again for user %s", hand.table_id, hand.user_id)
            await self._noting(hand, lambda: ledger.dm_opened(hand.user_id))

    async def _noting(self, hand: Hand, note: Callable[[], Awaitable[Any]]) -> None:
        """``note()``, a write to the database about a screen already sent: tried again until
        the database takes it (the next screen closes this one by what it notes)."""
        delay = self.retry_first_s
        while True:
            try:
                await note()
                return
            except StoreError as err:
                if not database_away(err):
                    log.warning(
                        "table %s: the screen of user %s was sent but not noted (%s)",
                        hand.table_id,
                        hand.user_id,
                        err,
                    )
                    return
                log.warning(
                    "table %s: the screen of user %s was sent; noting it waits for the "
                    "database (%s)",
                    hand.table_id,
                    hand.user_id,
                    err,
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)

    async def retire(self, table_id: int, user_id: int, dm_id: int, text: str) -> None:
        """Close the player's screen in their direct messages (its buttons gone, ``text`` in
        its place), unless it is closed already: by their own last click on it
        (:meth:`closed_by_click`), or by an earlier call."""
        kept = Kept.hand(user_id)
        old = await self.outbox.ledger.find(table_id, kept)
        if old is None:
            return
        target = self.outbox.message(dm_id, old)
        try:
            await self.outbox.edit_kept(
                table_id, kept, SCREEN_CLOSED, target, Message(text), priority=budget.HAND
            )
        except discord.NotFound:
            log.info("table %s: a screen of user %s is gone", table_id, user_id)

    async def closed_by_click(
        self,
        board: Board,
        user_id: int,
        message_id: int,
        close: Callable[[bool], Awaitable[Any]],
    ) -> None:
        """The player's last click of a decision on their screen closes it (``close`` edits it
        through the click's own answer, which costs nothing of the global budget); if it is
        their kept screen (as the table read for the move says), that is noted, so that
        nothing edits it again.

        The move was saved before: if the database went away since, the screen closes all
        the same, saying that what is not shown yet will be once the database is back
        (``close(True)``), and nothing is noted (the next screen may then retire it, saying
        that the turn is over)."""
        kept = Kept.hand(user_id)
        table_id = board.table_id
        if kept.of(board.table.messages) != message_id:
            await close(False)
            return
        try:
            async with self.outbox.ledger.edit(table_id, kept, SCREEN_CLOSED) as go:
                if go:
                    await close(False)
        except StoreError as err:
            if not database_away(err):
                raise
            log.warning(
                "table %s: the screen of user %s closes unnoted: the database went away (%s)",
                table_id,
                user_id,
                err,
            )
            await close(True)

    async def _tell_closed(self, hand: Hand) -> None:
        """Tell the table's channel, once, that the player's DMs are closed and how to open
        them."""
        if await self.outbox.ledger.dm_failed(hand.table_id, hand.user_id):
            await self.outbox.send(
                hand.channel_id,
                # The table's channel: the words of its posts are the table's, which a hand does
                # not carry; the player's own language is the nearest known.
                Message(
                    handtexts.dms_closed(hand.user_id, player_language(hand)),
                    pings=(hand.user_id,),
                ),
                hand.guild_id,
            )

    async def close(self, board: Board, results: MatchResult) -> None:
        """At the end of a match, a screen still open in someone's direct messages (its
        player's own click did not close it) loses its buttons and tells the result."""
        text = texts.clip(endtexts.hand_closed(board, results, table_language(board)))
        await self.close_all(board, text)

    async def close_all(self, board: Board, text: str) -> None:
        """Every screen of the table still open in direct messages says ``text``, without
        buttons (the end of the match, or the table closed)."""
        for seat in board.table.seats:
            uid = seat.user_id
            if uid is not None and Kept.hand(uid).of(board.table.messages) is not None:
                await self.close_screen(board.table_id, uid, text)

    async def close_screen(self, table_id: int, user_id: int, text: str) -> None:
        """Close the player's screen in their direct messages with ``text`` (see
        :meth:`retire`); Discord refusing it is logged."""
        try:
            cid = await self.outbox.dm_channel_id(user_id)
            await self.retire(table_id, user_id, cid, text)
        except discord.HTTPException as err:
            log.info("table %s: could not close a screen: %s", table_id, err)

    async def remind(self, rem: Reminder) -> None:
        """The reminder by direct message, where the player is told of their decisions, with
        a link to the screen they play on."""
        board = rem.board
        if not rem.dm or rem.quiet:
            return
        lang = player_language(rem)
        view = discord.ui.View(timeout=None)
        try:
            cid = await self.outbox.dm_channel_id(rem.user_id)
            screen = await self.outbox.ledger.find(board.table_id, Kept.hand(rem.user_id))
            if screen is not None:
                view.add_item(
                    discord.ui.Button(
                        label=lang.pgettext("button", "My screen"),
                        style=discord.ButtonStyle.link,
                        url=f"https://discord.com/channels/@me/{cid}/{screen}",
                    )
                )
            view.add_item(link_button(board, lang=lang))
            await self.outbox.send(
                cid, Message(handtexts.reminder_dm(board, lang), view=view), priority=budget.HAND
            )
        except discord.Forbidden as err:
            log.info("table %s: reminder DM refused by user %s", board.table_id, rem.user_id)
            if err.code in (DM_CLOSED, NO_MUTUAL_GUILDS):
                await self.outbox.ledger.dm_refused(rem.user_id)

    async def tell_went_away(self, went: WentAway) -> None:
        """Tell a player, once, by direct message, that the clock set them away, and how to come
        back (the "I'm back" button, and a link to the table)."""
        board = went.board
        lang = player_language(went)
        view = awaybutton.back_view(board.guild_id, lang)
        view.add_item(link_button(board, lang=lang))
        server = await self.outbox.guild_name(board.guild_id) or ""
        try:
            cid = await self.outbox.dm_channel_id(went.user_id)
            await self.outbox.send(
                cid,
                Message(breaktexts.went_away_dm(went, server, lang), view=view),
                priority=budget.HAND,
            )
        except discord.Forbidden as err:
            log.info("table %s: away DM refused by user %s", board.table_id, went.user_id)
            if err.code in (DM_CLOSED, NO_MUTUAL_GUILDS):
                await self.outbox.ledger.dm_refused(went.user_id)

    async def tell_decider(self, board: Board) -> None:
        """Tell the person who must decide, by direct message, that the table's message is not
        in the channel yet, with the decision's buttons (they work here too)."""
        user_id = board.prompt.user_id
        assert user_id is not None
        lang = table_language(board)
        view = buttons.board_view(board, lang) or discord.ui.View(timeout=None)
        view.add_item(link_button(board, row=1, lang=lang))
        try:
            if await self.outbox.ledger.dm_refused_ever(user_id):
                log.info("table %s: DMs closed for user %s, not told", board.table_id, user_id)
                return
            cid = await self.outbox.dm_channel_id(user_id)
            await self.outbox.send(
                cid,
                Message(turntexts.not_shown_notice(board, lang), view=view),
                priority=budget.HAND,
            )
        except discord.Forbidden as err:
            log.info("table %s: could not tell user %s by DM", board.table_id, user_id)
            if err.code in (DM_CLOSED, NO_MUTUAL_GUILDS):
                await self.outbox.ledger.dm_refused(user_id)
        except POST_ERRORS as err:
            log.warning("table %s: could not tell user %s by DM: %s", board.table_id, user_id, err)

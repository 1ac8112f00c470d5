"""What follows a change of a table: showing it, then the computer players' decisions and the
fire die, a move the channel still owes (posted again with backoff), the other players' private
screens, the timers' outcomes, and after a restart what the last run left unfinished.

The desk (:mod:`bot.desk`) hands every change here under the table's lock; the work that
follows runs in background tasks that take the lock again, one decision at a time. A table's
loops (its computer players' turns, its owed post's retries) are kept with the rest of what the
show side keeps of it (:class:`bot.show.table.TableShow`), and cancelled when it closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Literal

from bot.background import Background
from bot.errors import TableError
from bot.locks import Locks
from bot.service import (
    Board,
    Hand,
    LobbyExpired,
    Reminder,
    Resumed,
    Step,
    TableService,
    WentAway,
)
from bot.show import Own, Show, Shown, endtexts, handtexts
from bot.show.channel import Clicked

log = logging.getLogger(__name__)

RETRY_FIRST_S = 5.0
"""A message Discord refused is posted again after this long, then twice as long each time..."""
RETRY_MAX_S = 600.0
"""...up to this long between tries, until it is shown."""
THINKING = ("play", "fall", "die")
"""The prompts a computer player (or the fire die) may own."""


class FollowUps:
    """Shows changes and runs what follows them, per table."""

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
        self.show_side = show
        self.locks = locks
        self.ai_pause_s = ai_pause_s
        self.retry_first_s = retry_first_s
        self.retry_max_s = retry_max_s
        self.tables = show.tables
        self._background = Background(show.outbox.is_closed)

    async def show(
        self,
        step: Step,
        *,
        clicker: int | None = None,
        clicked: Clicked | None = None,
        own: Own | None = None,
    ) -> None:
        """Show a step (the caller holds the table's lock), then start what follows; raise
        :class:`NotShown` to the clicker if Discord refused the move's message."""
        shown = await self.show_side.step(step, clicker=clicker, clicked=clicked, own=own)
        self._follow(step, shown)
        if shown.refused is not None and clicker is not None:
            raise shown.refused

    def _follow(self, step: Step, shown: Shown) -> None:
        """What follows a step: the other players' private screens, the computer players'
        decisions, the move the channel still owes."""
        table_id = step.board.table_id
        if shown.screens or step.results is not None:
            self._background.spawn(self._refresh(step, shown.screens), table_id)
        if step.back and step.actor is not None:
            user_id = step.board.table.seats[step.actor].user_id
            if user_id is not None:  # their own decision brought them back: cards show it
                self._background.spawn(self._back(step.board.guild_id, user_id), table_id)
        self.then(step.board, owes=shown.owes)

    def refresh_cards(self, boards: Sequence[Board]) -> None:
        """A player went away or came back (``boards``: their open tables, as they now
        stand): each lobby card shows it, and a decision of theirs pending there is the
        computer's now (or theirs again)."""
        for board in boards:
            self._background.spawn(self.show_side.channel.show_on_lobby(board), board.table_id)
            self.then(board, owes=False)

    def came_back(self, hand: Hand) -> None:
        """A decision of the player's own, held back for its undo window, brought them back
        from away (:attr:`Hand.back`): their tables' cards show it."""
        if hand.back:
            self._background.spawn(self._back(hand.guild_id, hand.user_id), hand.table_id)

    async def _back(self, guild_id: int, user_id: int) -> None:
        """A player's own decision brought them back: their other games' cards show it."""
        try:
            boards = await self.service.away_boards(guild_id, user_id)
        except Exception:
            log.exception("guild %s: could not list the games of a player back", guild_id)
            return
        self.refresh_cards(boards)

    def then(self, board: Board, *, owes: bool) -> None:
        """The computer players' decisions after ``board``, and the channel's owed move."""
        if board.prompt.kind in THINKING and board.prompt.user_id is None:
            self.schedule_advance(board.table_id)
        if owes:
            kept = self.tables.of(board.table_id)
            if kept.retrying is None or kept.retrying.done():
                kept.retrying = self._background.spawn(self._retry(board.table_id), board.table_id)

    async def _refresh(self, step: Step, users: list[int]) -> None:
        """Bring other players' live private screens up to date (in the background); at the
        end of the match, then close the hands."""
        table_id = step.board.table_id
        try:
            for user_id in users:
                now: Hand | str
                try:
                    now = await self.service.hand(table_id, user_id)
                except TableError:
                    now = await self.over_text(table_id)
                try:
                    await self.show_side.screens.refresh(table_id, user_id, now)
                except Exception:
                    log.exception("table %s: could not bring a private screen up to date", table_id)
        finally:
            if step.results is not None:
                await self.show_side.finish(step.board, step.results)

    def schedule_advance(self, table_id: int) -> None:
        """Let the computer players (and the fire die) make their decisions, in the background."""
        kept = self.tables.of(table_id)
        if kept.advancing is not None and not kept.advancing.done():
            return
        kept.advancing = self._background.spawn(self._advance(table_id), table_id)

    def _ended(self, table_id: int, loop: Literal["advancing", "retrying"]) -> None:
        """The table's ``loop`` (the current task) ends: it is no longer kept."""
        kept = self.tables.get(table_id)
        if kept is None:
            return  # the table closed
        current = asyncio.current_task()
        if loop == "advancing" and kept.advancing is current:
            kept.advancing = None
        elif loop == "retrying" and kept.retrying is current:
            kept.retrying = None
        self.tables.tidy(table_id)

    async def _advance(self, table_id: int) -> None:
        """The computer players' decisions (and the fire die's), one at a time, each shown at
        least ``ai_pause_s`` after the one before (pacing: a reader follows them). A computer
        thinks without the table's lock, during that pause (the expert for up to a second):
        the table takes clicks meanwhile, and a computer move follows the one before after
        the pause or its thinking, whichever is longer, not after both."""
        loop = asyncio.get_running_loop()
        try:
            shown_at: float | None = None
            while True:
                thought = await self.service.think(table_id)
                if shown_at is not None and self.ai_pause_s > 0:
                    await asyncio.sleep(max(0.0, shown_at + self.ai_pause_s - loop.time()))
                async with self.locks.table(table_id):
                    step = await self.service.advance(table_id, thought)
                    if step is None:
                        return
                    # (This loop goes on with the computers' decisions itself.)
                    await self.show(step)
                shown_at = loop.time()
                p = step.board.prompt
                if p.kind not in THINKING or p.user_id is not None:
                    return
        except Exception:
            log.exception("table %s: a computer player's move failed", table_id)
        finally:
            self._ended(table_id, "advancing")

    async def _retry(self, table_id: int) -> None:
        """Post what the channel owes again, after ``retry_first_s``, then twice as long each
        time up to ``retry_max_s``, until Discord takes it or the table has moved on."""
        delay = self.retry_first_s
        try:
            while self.show_side.channel.owes(table_id):
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)
                async with self.locks.table(table_id):
                    if not self.show_side.channel.owes(table_id):
                        return
                    try:
                        now = await self.service.board_of(table_id)
                    except TableError as err:
                        log.info("table %s: nothing more to show (%s)", table_id, err.why.value)
                        self.show_side.channel.forgive(table_id)
                        return
                    except Exception:
                        log.exception("table %s: could not read it to show it again", table_id)
                        continue
                    if not await self.show_side.channel.post_owed(now):
                        log.info("table %s: next try in %.0f s", table_id, delay)
        finally:
            self._ended(table_id, "retrying")

    # --- timers -----------------------------------------------------------------------------------

    async def run_timers(self, table_id: int) -> None:
        """A table the timer loop claimed: its due reminder, absent player's turn, next round
        or unfinished computer decision, shown."""
        async with self.locks.table(table_id):
            for outcome in await self.service.run_timers(table_id):
                if isinstance(outcome, Step):
                    await self.show(outcome)
                elif isinstance(outcome, Reminder):
                    await self.show_side.remind(outcome)
                elif isinstance(outcome, LobbyExpired):
                    await self.show_side.channel.edit_lobby(outcome.board, expired=True)
                    self.show_side.forget(table_id)  # the table ends: closed here
                elif isinstance(outcome, WentAway):
                    await self.show_side.went_away(outcome)
                    self.refresh_cards(outcome.boards)
                elif isinstance(outcome, Resumed):
                    await self.resumed(outcome)

    async def resumed(self, done: Resumed) -> None:
        """A paused game goes on: the channel and the lobby card say so, and a computer's
        decision pending goes ahead. The caller holds the table's lock."""
        await self.show_side.channel.resumed(done)
        self._background.spawn(
            self.show_side.channel.show_on_lobby(done.board), done.board.table_id
        )
        self.then(done.board, owes=False)

    async def recover(self, *, resume: bool, started_at: float) -> None:
        """After a start: let computer players finish decisions a restart interrupted (when
        ``resume``), and show the moves the last run committed but never showed."""
        try:
            tables = await self.service.open_tables()
        except Exception:
            log.exception("could not list the open tables")
            return
        try:
            # Lobbies an older version opened never expired: from now on they do.
            for table_id in await self.service.give_lobbies_deadlines():
                log.info("table %s: the lobby now expires a day after it opened", table_id)
        except Exception:
            log.exception("could not give the open lobbies their expiry")
        for table in tables if resume else []:
            if table.status == "playing" and await self.service.needs_advance(table.id):
                log.info("table %s: resuming a computer player's decision", table.id)
                self.schedule_advance(table.id)
        try:
            boards = await self.service.unshown(before=started_at)
        except Exception:
            log.exception("could not look for moves that were never shown")
            return
        for board in boards:
            log.info("table %s: showing a move the last run could not post", board.table_id)
            try:
                async with self.locks.table(board.table_id):
                    owes = await self.show_side.post_again(board)
                self.then(board, owes=owes)
            except Exception:
                log.exception("table %s: could not show its latest move", board.table_id)
                continue
            # The move the last run never showed may have begun someone's turn: bring their
            # hand up to date (and tell them, if they want a DM on their turn).
            decider = board.prompt.user_id
            if decider is not None:
                try:
                    hand = await self.service.hand(board.table_id, decider, begins=True)
                    self.show_side.hands.queue(hand)
                except Exception:
                    log.exception("table %s: could not show the decider's hand", board.table_id)

    # --- background work --------------------------------------------------------------------------

    async def close(self) -> None:
        """Stop the background work, and the show side's (at shutdown)."""
        await self._background.cancel_all()
        await self.show_side.close()

    async def over_text(self, table_id: int) -> str:
        """What a private screen says once its table is over or closed."""
        try:
            board = await self.service.board_of(table_id)
        except TableError:
            return endtexts.MATCH_OVER
        return endtexts.MATCH_OVER if board.prompt.kind == "over" else handtexts.CLOSED

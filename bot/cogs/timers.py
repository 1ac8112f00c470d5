"""The timer loop: reminders, turns of absent players, the next round, and crash recovery.

Every few seconds the loop asks the store which tables have a timer due (deadlines and reminders
are in the database, so they survive restarts) and lets the table service handle each one. Time
comes from the service's clock, which tests replace.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot import emoji as em
from bot import views

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)


class Timers(commands.Cog):
    """Polls due timers and shows what they did."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        self.presenter = bot.presenter
        self.poll.change_interval(seconds=bot.config.timer_interval_s)

    async def cog_load(self) -> None:
        self.poll.start()

    async def cog_unload(self) -> None:
        self.poll.cancel()

    @tasks.loop(seconds=5.0)
    async def poll(self) -> None:
        """One look at the due timers."""
        try:
            due = await self.service.due_tables()
        except Exception:
            log.exception("could not read the due timers")
            return
        for table_id in due:
            try:
                async with self.presenter.table_lock(table_id):
                    outcomes = await self.service.run_timers(table_id)
                    for outcome in outcomes:
                        await self.presenter.show_timer(outcome)
            except Exception:
                log.exception("table %s: timer failed", table_id)

    @poll.before_loop
    async def before_poll(self) -> None:
        await self.bot.wait_until_ready()
        await self.recover()

    async def recover(self) -> None:
        """After a start: let computer players finish decisions a restart interrupted."""
        try:
            tables = await self.service.open_tables()
        except Exception:
            log.exception("could not list the open tables")
            return
        for table in tables:
            if table.status == "playing" and await self.service.needs_advance(table.id):
                log.info("table %s: resuming a computer player's decision", table.id)
                self.presenter.schedule_advance(table.id)
        try:
            boards = await self.service.unshown()
        except Exception:
            log.exception("could not look for moves that were never shown")
            return
        for board in boards:
            log.info("table %s: showing a move the last run could not post", board.table_id)
            try:
                await self.presenter.post_or_owe(
                    board,
                    f"{em.RESTARTED} I was restarted; here is where the game stands.\n"
                    + views.board_content(board),
                )
            except Exception:
                log.exception("table %s: could not show its latest move", board.table_id)
                continue
            # The move the last run never showed may have begun someone's turn: bring their
            # hand up to date (and tell them, if they want a DM on their turn).
            decider = board.prompt.user_id
            if decider is not None:
                try:
                    self.presenter.queue_hand(await self.service.hand(board.table_id, decider))
                except Exception:
                    log.exception("table %s: could not show the decider's hand", board.table_id)


async def setup(bot: Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Timers(bot))

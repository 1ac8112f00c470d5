"""The timer loop: reminders, turns of absent players, the next round, and crash recovery.

Every few seconds the loop claims the tables that have a timer due (deadlines and reminders are
in the database, so they survive restarts) and lets the table service handle each one. Every
bot process runs this loop over the same database: a claim gives a due table to exactly one
process for a lease (``timer_lease_s``), released once handled. A process that dies holding
claims leaves them to run out: the others take those tables over within the lease plus one
poll interval. Time comes from the service's clock, which tests replace.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Final

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)

CLAIM_BATCH: Final = 20
"""Due tables claimed at a time; a full batch is followed at once by the next."""


def process_owner() -> str:
    """This process's name on its timer claims: unique across machines and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Timers(commands.Cog):
    """Polls due timers and shows what they did."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        self.desk = bot.desk
        self.owner = process_owner()
        self.lease_s = bot.config.timer_lease_s
        self.poll.change_interval(seconds=bot.config.timer_interval_s)

    async def cog_load(self) -> None:
        self.poll.start()

    async def cog_unload(self) -> None:
        self.poll.cancel()

    @tasks.loop(seconds=5.0)
    async def poll(self) -> None:
        """One look at the due timers: claim them a batch at a time and handle each. The
        claims are released when the look is over, not before: a table whose timer is still
        due after it was handled (one that keeps failing) is not claimed again in the same
        look, ahead of the tables after it."""
        held: list[int] = []
        try:
            while True:
                try:
                    due = await self.service.claim_due(self.owner, self.lease_s, CLAIM_BATCH)
                except Exception:
                    log.exception("could not claim the due timers")
                    return
                held.extend(due)
                claimed = time.monotonic()
                for table_id in due:
                    if time.monotonic() - claimed > self.lease_s / 2:
                        # Slow going: hand the rest back before their claims could run out
                        # while this process still works on them.
                        return
                    try:
                        await self.desk.run_timers(table_id)
                    except Exception:
                        log.exception("table %s: timer failed", table_id)
                if len(due) < CLAIM_BATCH:
                    return
        finally:
            for table_id in held:
                await self._release(table_id)

    async def _release(self, table_id: int) -> None:
        try:
            await self.service.release_due(table_id, self.owner)
        except Exception:
            log.exception("table %s: could not release its timer claim", table_id)

    @poll.before_loop
    async def before_poll(self) -> None:
        await self.bot.wait_until_ready()
        await self.recover()

    async def recover(self) -> None:
        """After a start: let computer players finish decisions a restart interrupted, and show
        the moves the last run never showed. (A process that shares the database with others
        leaves the computers' decisions to the timer loop: their deadline is near, and its
        claims give each to exactly one process, where resuming here could race a process that
        is making them right now.)"""
        await self.desk.recover(
            resume=self.bot.config.runs_every_shard, started_at=self.bot.started_at
        )


async def setup(bot: Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Timers(bot))

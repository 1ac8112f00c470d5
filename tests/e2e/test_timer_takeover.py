"""A due timer claimed by a bot process that then stopped (it never released the claim) is taken
over by another process when the claim's lease runs out, not before, and acted on once."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from bot.cogs.timers import Timers
from data.sqlite import SqliteStore
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, table_of

LEASE = 30.0


def reminders(user: FakeUser) -> list[Message]:
    """The reminders sent to ``user``: by DM, where their turn came."""
    return [m for m in user.dms() if "⏳" in m.content]


async def test_a_stopped_process_claim_is_taken_over_when_its_lease_runs_out(
    world: World, run_bot: MakeBot, table: TableDriver, clock: MovableClock, db_url: str
) -> None:
    bot = await run_bot(timer_lease_s=LEASE)
    await table.open(world.alice, world.bob, time_limit=3600)
    game = await table.start(world.alice)
    first = table.users[TableDriver.decider(game) or 0]
    table_id = table_of(game)
    assert table_id is not None
    stored = await bot.service.store.get_table(table_id)
    assert stored.reminder_at is not None
    due = stored.reminder_at + 1
    # Another process claimed the reminder once due, and stopped before it could send it.
    async with SqliteStore(Path(db_url.removeprefix("sqlite:///"))) as gone:
        [claimed] = await gone.claim_timers(due, "elsewhere:1:gone", LEASE, 10)
    assert claimed.id == table_id
    clock.advance(due - clock())  # the reminder is due here too

    # (discord.py loads each extension as a module of its own: not bot.cogs.timers itself.)
    timers = cast(Timers, bot.get_cog("Timers"))
    assert timers is not None
    polls = timers.poll.current_loop
    await world.fake.wait_for(
        lambda: timers.poll.current_loop >= polls + 5, TIMEOUT, "five looks at the timers"
    )
    assert not reminders(first)  # the claim holds it

    clock.advance(LEASE)  # the claim runs out: this process takes the reminder over
    await world.fake.wait_for(lambda: next(iter(reminders(first)), None), TIMEOUT, "the reminder")
    polls = timers.poll.current_loop
    await world.fake.wait_for(
        lambda: timers.poll.current_loop >= polls + 5, TIMEOUT, "five more looks"
    )
    assert len(reminders(first)) == 1

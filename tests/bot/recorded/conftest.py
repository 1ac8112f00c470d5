"""Fixtures for the desk, the follow-ups and the show side against a recording outbox: the real
service on a real SQLite store (in the test's temporary folder), the real desk and show side,
and an outbox that records what would go to Discord (:mod:`tests.bot.recorded.recording`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.desk import Desk
from bot.locks import Locks
from bot.service import SpotChoice
from data.store import Store
from tests.bot.conftest import CHANNEL, GUILD, ManualClock, lobby, make_service
from tests.bot.recorded.recording import Click, RecordingOutbox, dm_of, make_show, next_id

SETTLE_S = 10.0
"""How long background work may take to end before a test fails."""


@pytest.fixture
async def outbox(store: Store, clock: ManualClock, db_path: Path) -> AsyncIterator[RecordingOutbox]:
    """What the show side sends, recorded (``db_path``: on SQLite)."""
    out = RecordingOutbox(store, clock)
    yield out
    await out.close()


@pytest.fixture
async def desk(store: Store, clock: ManualClock, outbox: RecordingOutbox) -> AsyncIterator[Desk]:
    """The real desk over the real show side; computer players do not pause, an owed post is
    tried again quickly."""
    locks = Locks()
    desk = Desk(
        make_service(store, clock),
        make_show(outbox, clock, locks),
        locks,
        ai_pause_s=0,
        retry_first_s=0.01,
        retry_max_s=0.05,
    )
    yield desk
    await desk.close()


async def settle(desk: Desk) -> None:
    """Wait until the background work of the desk and of the show side has ended (delivered
    screens, the computer players' turns, retries, closing screens)."""
    outbox = desk.show.outbox
    assert isinstance(outbox, RecordingOutbox)

    async def idle() -> None:
        while len(outbox.background) or len(desk.follow._background):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(idle(), SETTLE_S)


async def started(desk: Desk, s: dict[str, object], *users: int) -> int:
    """A game at a lobby of ``users`` (the first hosts), started from the scenario ``s`` and
    shown, its first screens delivered; the table's id."""
    t = await lobby(desk.service, *users)
    step = await desk.service.start_from_state(t, users[0], dict(s))
    async with desk.locks.table(t):
        await desk.follow.show(step, clicker=users[0])
    await settle(desk)
    return t


async def spot(
    desk: Desk, t: int, user_id: int, tile: str, *, guild_id: int | None = GUILD
) -> Click:
    """``user_id`` presses ``tile`` then its first spot on a private screen (in the channel, or
    in direct messages when ``guild_id`` is None); the spot's click."""
    hand = await desk.service.hand(t, user_id)
    choice = await desk.service.play(t, user_id, tile, hand.digest)
    assert isinstance(choice, SpotChoice), choice
    channel = CHANNEL if guild_id is not None else dm_of(user_id)
    click = Click(user_id, guild_id=guild_id, channel_id=channel, message_id=next_id())
    await desk.spot(click, t, choice.version, tile, choice.spots[0][1])
    return click

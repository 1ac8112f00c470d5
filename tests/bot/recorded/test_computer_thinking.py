"""A computer thinking at a table, against a recording outbox (issue 32: the expert may think for
up to a second): its search runs without the table's lock, so the table takes clicks
meanwhile; and the next computer thinks during the pause that paces computer moves, so a move
follows the one before after the pause or the thinking, whichever is longer, not after both."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest

from bot.desk import Desk
from bot.locks import Locks
from bot.service import first_legal
from data.store import Store
from engine import Action, View
from tests.bot.conftest import ALICE, ManualClock, lobby, make_service, state
from tests.bot.recorded.conftest import SETTLE_S
from tests.bot.recorded.recording import RecordingOutbox, make_show


class Thinker:
    """A computer player that plays the first legal action once it is let go (``go``); each
    decision it is asked for is noted."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked: list[str] = []
        self.thinking = threading.Event()

    def __call__(self, level: str, view: View, seed: int) -> Action:
        self.asked.append(level)
        self.thinking.set()
        if not self.go.wait(2 * SETTLE_S):
            raise AssertionError("the test never let the computer decide")
        return first_legal(view)


@pytest.fixture
def thinker() -> Thinker:
    return Thinker()


def desk_for(
    store: Store, clock: ManualClock, outbox: RecordingOutbox, thinker: Thinker, pause_s: float
) -> Desk:
    locks = Locks()
    return Desk(
        make_service(store, clock, ai=thinker),
        make_show(outbox, clock, locks),
        locks,
        ai_pause_s=pause_s,
        retry_first_s=0.01,
        retry_max_s=0.05,
    )


@pytest.fixture
async def closing() -> AsyncIterator[list[Desk]]:
    desks: list[Desk] = []
    yield desks
    for desk in desks:
        await desk.close()


async def computers_first(desk: Desk, computers: int) -> int:
    """Alice and ``computers`` hard computers, the first computer to play; started and shown
    (its computers set off); the table's id."""
    t = await lobby(desk.service, ALICE)
    for _ in range(computers):
        version = (await desk.service.board_of(t)).version
        await desk.service.add_ai(t, version, ALICE, "hard")
    step = await desk.service.start_from_state(t, ALICE, state(active=1))
    async with desk.locks.table(t):
        await desk.follow.show(step, clicker=ALICE)
    return t


async def test_the_table_takes_clicks_while_a_computer_thinks(
    store: Store,
    clock: ManualClock,
    outbox: RecordingOutbox,
    thinker: Thinker,
    closing: list[Desk],
) -> None:
    desk = desk_for(store, clock, outbox, thinker, pause_s=0)
    closing.append(desk)
    t = await computers_first(desk, 2)
    assert await asyncio.to_thread(thinker.thinking.wait, SETTLE_S), "the computer never thought"
    # While it thinks, a click takes the table's lock at once and reads the table.
    async with asyncio.timeout(SETTLE_S), desk.locks.table(t):
        board = await desk.service.board_of(t)
    assert board.prompt.seat == 1 and await desk.service.store.action_log(t) == []
    thinker.go.set()
    async with asyncio.timeout(SETTLE_S):
        while (await desk.service.board_of(t)).prompt.user_id != ALICE:
            await asyncio.sleep(0.01)
    assert [a.seat for a in await desk.service.store.action_log(t)] == [1, 2]


async def test_the_next_computer_thinks_during_the_pause_between_computer_moves(
    store: Store,
    clock: ManualClock,
    outbox: RecordingOutbox,
    thinker: Thinker,
    closing: list[Desk],
) -> None:
    thinker.go.set()
    desk = desk_for(store, clock, outbox, thinker, pause_s=60)
    closing.append(desk)
    t = await computers_first(desk, 2)
    # The first computer plays at once; the second is asked while the minute's pause runs,
    # and its move waits for the pause's end.
    async with asyncio.timeout(SETTLE_S):
        while len(thinker.asked) < 2:
            await asyncio.sleep(0.01)
    assert [a.seat for a in await desk.service.store.action_log(t)] == [1]

"""Computer players think one at a time in a bot process: their searches are pure Python, so
two at once would share one core, each searching half as far in its time while the event loop
that answers clicks waits behind both (``THINKING_AT_ONCE``; measured by
``bench/thinking.py``)."""

from __future__ import annotations

import asyncio
import threading

from bot.service import TableService, first_legal
from bot.service.players import THINKING_AT_ONCE
from data.store import Store, TableDefaults
from engine import Action, View

from .conftest import ALICE, GUILD, ManualClock, make_service, state

TWO = state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]], piles=[["R20"], ["G20"]], active=1)
"""Alice and a computer, the computer to play first."""


class Crowd:
    """A computer player that takes a while to think (sleeping, which lets other threads run:
    50 ms, or until ``company`` of it think at once, at most 5 s) and counts how many of it
    think at once."""

    def __init__(self, company: int | None = None) -> None:
        self.company = company
        self.lock = threading.Condition()
        self.now = 0
        self.most = 0
        self.asked = 0

    def __call__(self, level: str, view: View, seed: int) -> Action:
        with self.lock:
            self.now += 1
            self.asked += 1
            self.most = max(self.most, self.now)
            self.lock.notify_all()
            if self.company is None:
                self.lock.wait(0.05)
            else:
                self.lock.wait_for(lambda: self.most >= (self.company or 0), 5.0)
            self.now -= 1
        return first_legal(view)


async def computer_first(service: TableService, channel: int) -> int:
    """A table in ``channel``: Alice and an expert, the expert to play first."""
    board = await service.new_table(GUILD, channel, ALICE, "alice", TableDefaults(undo_s=0))
    t = board.table_id
    await service.add_ai(t, (await service.board_of(t)).version, ALICE, "expert")
    await service.start_from_state(t, ALICE, TWO)
    return t


async def test_computers_at_many_tables_think_one_after_the_other(
    store: Store, clock: ManualClock
) -> None:
    assert THINKING_AT_ONCE == 1
    crowd = Crowd()
    service = make_service(store, clock, ai=crowd)
    tables = [await computer_first(service, 500 + i) for i in range(4)]
    thoughts = await asyncio.gather(*(service.think(t) for t in tables))
    assert [t is not None and t.seat for t in thoughts] == [1, 1, 1, 1]
    assert (crowd.asked, crowd.most) == (4, 1)
    # Every thought is played as it was thought: none waited so long it went stale.
    for t, thought in zip(tables, thoughts, strict=True):
        step = await service.advance(t, thought)
        assert step is not None and step.actor == 1
    assert crowd.asked == 4


async def test_a_process_may_let_several_think_at_once(store: Store, clock: ManualClock) -> None:
    crowd = Crowd(company=4)
    service = make_service(store, clock, ai=crowd, thinking_at_once=4)
    tables = [await computer_first(service, 600 + i) for i in range(4)]
    await asyncio.gather(*(service.think(t) for t in tables))
    assert (crowd.asked, crowd.most) == (4, 4)

"""The one registry of per-table locks."""

from __future__ import annotations

import gc

from bot.service import TableLocks


async def test_a_table_has_one_change_lock_and_one_show_lock_shared_by_every_caller() -> None:
    locks = TableLocks()
    change, show = locks.change(7), locks.show(7)
    assert change is locks.change(7)
    assert show is locks.show(7)
    assert change is not show
    assert locks.change(8) is not change


async def test_an_unused_lock_is_forgotten_and_a_held_one_kept() -> None:
    locks = TableLocks()
    held = locks.show(1)
    async with held:
        locks.change(2)  # made and dropped at once
        gc.collect()
        assert len(locks) == 1
        assert locks.show(1) is held
    del held
    gc.collect()
    assert len(locks) == 0

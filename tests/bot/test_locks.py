"""The one registry of locks."""

from __future__ import annotations

import gc

from bot.locks import Locks


async def test_a_table_has_one_lock_shared_by_every_caller_and_each_screen_its_own() -> None:
    locks = Locks()
    table, screen = locks.table(7), locks.screen(7, 1)
    assert table is locks.table(7)
    assert screen is locks.screen(7, 1)
    assert table is not screen
    assert locks.table(8) is not table
    assert locks.screen(7, 2) is not screen


async def test_an_unused_lock_is_forgotten_and_a_held_one_kept() -> None:
    locks = Locks()
    held = locks.table(1)
    async with held:
        locks.screen(2, 3)  # made and dropped at once
        gc.collect()
        assert len(locks) == 1
        assert locks.table(1) is held
    del held
    gc.collect()
    assert len(locks) == 0

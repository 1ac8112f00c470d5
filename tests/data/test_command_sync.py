"""``claim_command_sync``: slash commands are registered only when they changed, by exactly one
of the processes starting together (a compare-and-set on the stored hash), on both backends."""

from __future__ import annotations

import asyncio

from data.store import Store
from tests.conftest import Backend

NOW = 1_700_000_000.0


async def test_a_claim_is_granted_only_for_a_hash_not_stored_yet(backend_store: Store) -> None:
    assert await backend_store.claim_command_sync("global", "aaa", NOW)
    assert not await backend_store.claim_command_sync("global", "aaa", NOW + 1)
    assert await backend_store.claim_command_sync("guild:42", "aaa", NOW)  # another scope
    assert await backend_store.claim_command_sync("global", "bbb", NOW + 2)  # changed commands
    assert not await backend_store.claim_command_sync("global", "bbb", NOW + 3)


async def test_a_forgotten_claim_is_granted_again(backend_store: Store) -> None:
    assert await backend_store.claim_command_sync("global", "aaa", NOW)
    await backend_store.forget_command_sync("global", "other")  # not the stored one: kept
    assert not await backend_store.claim_command_sync("global", "aaa", NOW)
    await backend_store.forget_command_sync("global", "aaa")
    assert await backend_store.claim_command_sync("global", "aaa", NOW)


async def test_of_several_stores_claiming_at_once_exactly_one_wins(backend_db: Backend) -> None:
    stores = [backend_db.new_store() for _ in range(4)]
    for store in stores:
        await store.open()
    try:
        for digest in ("first", "second"):
            granted = await asyncio.gather(
                *(s.claim_command_sync("global", digest, NOW) for s in stores for _ in range(3))
            )
            assert granted.count(True) == 1
    finally:
        for store in stores:
            await store.close()

"""``Store.identify_slot``: one holder at a time per gateway rate-limit bucket, so that bot
processes starting together never open two sessions of one bucket at once (on SQLite within the
process, on PostgreSQL across every process on the database)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from data.postgres import PostgresStore
from data.store import Store


async def until(predicate: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(10):
            while not predicate():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def hold(
    store: Store, bucket: int, name: str, order: list[str], release: asyncio.Event
) -> None:
    async with store.identify_slot(bucket):
        order.append(f"{name} in")
        await release.wait()
        order.append(f"{name} out")


async def check_one_holder_per_bucket(first: Store, second: Store) -> None:
    order: list[str] = []
    go = {name: asyncio.Event() for name in "abc"}
    a = asyncio.create_task(hold(first, 0, "a", order, go["a"]))
    await until(lambda: "a in" in order, "a to hold bucket 0")
    b = asyncio.create_task(hold(second, 0, "b", order, go["b"]))
    c = asyncio.create_task(hold(second, 1, "c", order, go["c"]))
    await until(lambda: "c in" in order, "c to hold bucket 1 beside a")
    await asyncio.sleep(0.3)  # time enough for b to get in, were bucket 0 free
    assert "b in" not in order
    go["a"].set()
    await until(lambda: "b in" in order, "b to hold bucket 0 after a")
    assert order.index("a out") < order.index("b in")
    go["b"].set()
    go["c"].set()
    await asyncio.gather(a, b, c)


async def test_a_bucket_has_one_holder_at_a_time(backend_store: Store) -> None:
    await check_one_holder_per_bucket(backend_store, backend_store)


async def test_postgres_slots_hold_across_store_objects_as_across_processes(pg_url: str) -> None:
    async with (
        PostgresStore(pg_url, pool_min=0, pool_max=2) as first,
        PostgresStore(pg_url, pool_min=0, pool_max=2) as second,
    ):
        await check_one_holder_per_bucket(first, second)


async def test_a_holder_that_fails_lets_the_next_in(backend_store: Store) -> None:
    class Boom(Exception):
        pass

    try:
        async with backend_store.identify_slot(3):
            raise Boom
    except Boom:
        pass
    async with asyncio.timeout(10), backend_store.identify_slot(3):
        pass

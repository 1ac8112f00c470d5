"""``Store.message_edit``: a kept message (a player's hand, the lobby card) is edited only to
show a newer table version than it shows, one editor at a time, whichever process edits it; so
an edit made from an older version never lands over one made from a newer version. On SQLite
and PostgreSQL alike (on PostgreSQL two store objects stand for two processes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg
import pytest

from data.postgres import PostgresStore
from data.store import Store, StoreError
from tests.data.helpers import start_table

KEY = "hand:1001"


async def kept_table(store: Store) -> int:
    table, _ = await start_table(store, 900)
    await store.set_message(table.id, KEY, 555)
    return table.id


async def edit(store: Store, table_id: int, version: int, key: str = KEY) -> bool:
    async with store.message_edit(table_id, key, version) as go:
        return go


async def until(predicate: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(10):
            while not predicate():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_only_a_newer_version_than_the_message_shows_is_edited_in(store: Store) -> None:
    t = await kept_table(store)
    assert await edit(store, t, 5)
    assert not await edit(store, t, 4)  # older: skipped
    assert not await edit(store, t, 5)  # the same: nothing to change
    assert await edit(store, t, 6)
    assert not await edit(store, t, 5)


async def test_the_version_shown_is_seen_by_every_process(store: Store, other: Store) -> None:
    t = await kept_table(store)
    assert await edit(store, t, 7)
    assert not await edit(other, t, 6)
    assert await edit(other, t, 8)
    assert not await edit(store, t, 7)


async def test_an_edit_that_failed_records_nothing(store: Store) -> None:
    t = await kept_table(store)

    class Refused(Exception):
        pass

    with pytest.raises(Refused):
        async with store.message_edit(t, KEY, 5) as go:
            assert go
            raise Refused
    assert await edit(store, t, 5)


async def test_each_message_keeps_its_own_version(store: Store) -> None:
    t = await kept_table(store)
    await store.set_message(t, "lobby", 556)
    assert await edit(store, t, 9)
    assert await edit(store, t, 3, "lobby")
    assert not await edit(store, t, 2, "lobby")


async def test_a_message_sent_within_the_block_records_the_version(store: Store) -> None:
    table, _ = await start_table(store, 901)
    async with store.message_edit(table.id, KEY, 4) as go:
        assert go  # nothing kept yet: a new message is sent and kept
        await store.set_message(table.id, KEY, 777)
    assert not await edit(store, table.id, 3)
    assert await store.get_messages(table.id) == {KEY: 777}


async def check_older_editor_waiting_behind_a_newer_one_is_skipped(
    first: Store, second: Store
) -> None:
    t = await kept_table(first)
    order: list[str] = []
    done = asyncio.Event()

    async def newer() -> None:
        async with first.message_edit(t, KEY, 6) as go:
            order.append(f"6 in {go}")
            await done.wait()  # the edit of the message, taking its time
            order.append("6 out")

    async def older() -> None:
        async with second.message_edit(t, KEY, 5) as go:
            order.append(f"5 in {go}")

    a = asyncio.create_task(newer())
    await until(lambda: "6 in True" in order, "the newer editor to hold the message")
    b = asyncio.create_task(older())
    other_key = await edit(second, t, 1, "lobby")  # another message is not held up
    assert other_key
    await asyncio.sleep(0.3)  # time enough for the older editor to get in, were it free
    assert order == ["6 in True"]
    done.set()
    await asyncio.gather(a, b)
    assert order == ["6 in True", "6 out", "5 in False"]


async def test_an_older_edit_waits_for_the_newer_one_in_progress_and_is_skipped(
    store: Store,
) -> None:
    await check_older_editor_waiting_behind_a_newer_one_is_skipped(store, store)


async def test_postgres_holds_a_message_across_store_objects_as_across_processes(
    pg_url: str,
) -> None:
    async with (
        PostgresStore(pg_url, pool_min=0, pool_max=2) as first,
        PostgresStore(pg_url, pool_min=0, pool_max=2) as second,
    ):
        await check_older_editor_waiting_behind_a_newer_one_is_skipped(first, second)


async def test_postgres_a_holder_whose_connection_dies_leaves_the_message_to_the_next(
    pg_url: str,
) -> None:
    async with (
        PostgresStore(pg_url, pool_min=0, pool_max=2, retry_s=0.5) as first,
        PostgresStore(pg_url, pool_min=0, pool_max=2) as second,
    ):
        t = await kept_table(first)
        held = asyncio.Event()
        gone = asyncio.Event()

        async def dying() -> None:
            async with first.message_edit(t, KEY, 6):
                held.set()
                await gone.wait()

        holder = asyncio.create_task(dying())
        await asyncio.wait_for(held.wait(), 10)
        # The holder's process dies: the server ends its session (and so its transaction).
        conn = await asyncpg.connect(pg_url)
        try:
            ended = await conn.fetchval(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND state = 'idle in transaction') AS k"
            )
        finally:
            await conn.close()
        assert ended == 1
        async with asyncio.timeout(10):
            assert await edit(second, t, 5)  # let in, and 6 was never recorded
        gone.set()
        with pytest.raises(StoreError, match="went away"):
            await holder


async def test_postgres_an_editor_cancelled_while_waiting_gives_back_a_clean_connection(
    pg_url: str,
) -> None:
    # A process shutting down cancels an edit that waits for the message (held by another
    # editor): its transaction ends there, and its connection goes back to the pool without
    # asyncpg having to roll back behind its back (which it reports as an error).
    reported: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: reported.append(str(context.get("message"))))
    try:
        async with (
            PostgresStore(pg_url, pool_min=0, pool_max=2) as first,
            PostgresStore(pg_url, pool_min=0, pool_max=2) as second,
        ):
            t = await kept_table(first)
            held = asyncio.Event()
            done = asyncio.Event()

            async def holder() -> None:
                async with first.message_edit(t, KEY, 6):
                    held.set()
                    await done.wait()

            a = asyncio.create_task(holder())
            await asyncio.wait_for(held.wait(), 10)
            waiting = asyncio.create_task(edit(second, t, 7))
            await asyncio.sleep(0.3)  # the second editor now waits for the message's lock
            assert not waiting.done()
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            done.set()
            await a
            assert await edit(second, t, 8)  # its connection serves the next edit
    finally:
        loop.set_exception_handler(None)
    assert reported == []

"""The bot as several ``python -m bot`` processes, each running some of the shards, over one
PostgreSQL database, against a fake Discord that refuses identifies faster than Discord allows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import BotProcess, FakeDiscord, Sharding


@pytest.fixture
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    """A fake with one server on each of 4 shards, two identify buckets (``max_concurrency`` 2)
    and the identify rate enforced."""
    fake = FakeDiscord(sharding=Sharding(max_concurrency=2, identify_limit=True))
    await fake.start()
    try:
        for shard in range(4):
            guild = fake.create_guild(f"Club {shard}", shard=(shard, 4))
            fake.create_text_channel(guild, "games")
        yield fake
        fake.assert_healthy()
        fake.assert_no_refusals()
    finally:
        await fake.stop()


def shard_env(db_url: str, ids: str) -> dict[str, str]:
    return {
        "DATABASE_URL": db_url,
        "SHARD_COUNT": "4",
        "SHARD_IDS": ids,
        "FP_TEST_MODE": "1",
        "LOG_LEVEL": "INFO",
    }


async def test_two_processes_start_together_and_never_break_the_identify_rate(
    sharded_fake: FakeDiscord, pg_url: str
) -> None:
    fake = sharded_fake
    first = BotProcess(fake, "bot", env=shard_env(pg_url, "0-1"))
    second = BotProcess(fake, "bot", env=shard_env(pg_url, "2-3"))
    try:
        await asyncio.gather(first.start(wait_ready=False), second.start(wait_ready=False))

        def all_connected() -> bool:
            if not (first.running and second.running):
                return True
            shards = {s.shard_key for s in fake.gateway.connected_sessions}
            return shards == {(i, 4) for i in range(4)}

        await fake.wait_for(all_connected, 60.0, "4 shards connected")
        assert first.running and second.running, first.output + second.output
        # shards 0 and 2 share bucket 0, shards 1 and 3 bucket 1: each pair was spaced
        assert fake.gateway.identify_rate_refusals == 0
        assert sorted(fake.gateway.identified_shards) == [(i, 4) for i in range(4)]

        async with asyncio.timeout(30):  # each process says which shards it runs when ready
            while not (
                "on shards 0,1 of 4" in first.output and "on shards 2,3 of 4" in second.output
            ):
                await asyncio.sleep(0.05)
    finally:
        await first.kill()
        await second.kill()

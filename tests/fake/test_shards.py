"""The fake speaks shards as Discord does (gateway.mdx: "Sharding", "Get Gateway Bot",
"Session Start Limit Object", "Rate Limiting"; opcodes-and-status-codes.mdx: close codes 4010 and
4011, op 9), shown with the real discord.py ``AutoShardedClient`` / ``AutoShardedBot`` where a
bot is involved, and with raw requests where the rule is about what a client sends.

The rows of the rules table in ``tests/fakediscord/README.md`` point here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    Channel,
    FakeDiscord,
    FakeUser,
    Guild,
    InProcessBot,
    RateLimitConfig,
    Sharding,
    shard_of,
)
from tests.fakediscord.fixtures import running_world

OP_INVALID_SESSION = 9


async def identify(fake: FakeDiscord, shard: Any) -> tuple[str, int | None]:
    """One raw connection that IDENTIFYs with ``shard``: ``("ready", None)``, ``("op9", None)``
    or ``("closed", code)``."""
    d: dict[str, Any] = {
        "token": fake.token,
        "intents": 1,
        "properties": {"os": "linux", "browser": "test", "device": "test"},
    }
    if shard is not None:
        d["shard"] = shard
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws,
    ):
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": d})
        msg = await ws.receive()
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return "closed", ws.close_code
        payload = msg.json()
        if payload["op"] == OP_INVALID_SESSION:
            assert payload["d"] is False
            return "op9", None
        assert payload["t"] == "READY"
        return "ready", None


def sharded_client(**options: Any) -> discord.AutoShardedClient:
    return discord.AutoShardedClient(intents=discord.Intents.default(), **options)


class Responder(commands.AutoShardedBot):
    """A sharded bot whose ``/where`` answers with its own name (who received the command)."""

    def __init__(self, name: str, *, sync: bool, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options
        )
        self.name = name
        self.sync = sync

    async def setup_hook(self) -> None:
        @app_commands.command(name="where", description="Say which bot received this")
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"answered by {self.name}")

        self.tree.add_command(where)
        if self.sync:
            await self.tree.sync()


@dataclass
class TwoShards:
    """A fake with a guild on each shard of 2, each with a #games, and alice in both."""

    fake: FakeDiscord
    near: Guild
    far: Guild
    near_games: Channel
    far_games: Channel
    alice: FakeUser


@pytest.fixture
async def two_shards() -> AsyncIterator[TwoShards]:
    fake = FakeDiscord()
    await fake.start()
    try:
        near = fake.create_guild("Near Club", shard=(0, 2))
        far = fake.create_guild("Far Club", shard=(1, 2))
        world = TwoShards(
            fake=fake,
            near=near,
            far=far,
            near_games=fake.create_text_channel(near, "games"),
            far_games=fake.create_text_channel(far, "games"),
            alice=fake.create_user("alice", guilds=[near, far]),
        )
        yield world
        fake.assert_healthy()
        fake.assert_no_refusals()
    finally:
        await fake.stop()


async def eventually(predicate: Any, what: str, timeout: float = 5.0) -> None:
    """Wait until ``predicate()`` holds (for what only a bot's own state shows)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


# --- GET /gateway/bot ------------------------------------------------------------------------


async def test_gateway_bot_announces_shards_and_session_start_limit() -> None:
    sharding = Sharding(recommended_shards=3, max_concurrency=2, session_start_total=50)
    async with running_world(sharding=sharding) as world:
        client = sharded_client()
        async with InProcessBot(world.fake, client):
            limits = await client.fetch_session_start_limits()
            assert client.shard_count == 3
            assert sorted(world.fake.gateway.identified_shards) == [(0, 3), (1, 3), (2, 3)]
            assert (limits.total, limits.max_concurrency) == (50, 2)
            assert limits.remaining == 47
            assert limits.reset_after == sharding.session_reset_after_ms


# --- routing -----------------------------------------------------------------------------------


async def test_a_guild_belongs_to_the_shard_of_its_id_and_only_that_shard_gets_it(
    two_shards: TwoShards,
) -> None:
    fake, near, far = two_shards.fake, two_shards.near.id, two_shards.far.id
    assert (shard_of(near, 2), shard_of(far, 2)) == (0, 1)
    first = sharded_client(shard_ids=[0], shard_count=2)
    second = sharded_client(shard_ids=[1], shard_count=2)
    async with InProcessBot(fake, first), InProcessBot(fake, second):
        assert [g.id for g in first.guilds] == [near]
        assert [g.id for g in second.guilds] == [far]
        later = fake.create_guild("Later Club", shard=(1, 2))
        await eventually(lambda: second.get_guild(later.id) is not None, "GUILD_CREATE")
        assert first.get_guild(later.id) is None


async def test_guild_interactions_go_to_their_shard_and_dms_to_shard_0(
    two_shards: TwoShards,
) -> None:
    fake, alice = two_shards.fake, two_shards.alice
    first = Responder("first", sync=True, shard_ids=[0], shard_count=2)
    second = Responder("second", sync=False, shard_ids=[1], shard_count=2)
    async with InProcessBot(fake, first), InProcessBot(fake, second):
        await fake.wait_for_commands("where")
        for channel, name in ((two_shards.far_games, "second"), (two_shards.near_games, "first")):
            reply = await (await alice.slash("where", channel)).wait_response()
            assert reply.content == f"answered by {name}"
        reply = await (await alice.slash("where", None)).wait_response()
        assert reply.content == "answered by first"


# --- what IDENTIFY may ask for -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shard", "answer"),
    [
        (None, ("ready", None)),
        ([0, 1], ("ready", None)),
        ([1, 2], ("ready", None)),
        ([2, 2], ("closed", 4010)),
        ([-1, 2], ("closed", 4010)),
        ([0, 0], ("closed", 4010)),
        ([0], ("closed", 4010)),
        (["0", "2"], ("closed", 4010)),
    ],
    ids=["none", "0of1", "1of2", "id-too-big", "negative", "no-shards", "one-number", "strings"],
)
async def test_an_invalid_shard_is_closed_with_4010(shard: Any, answer: tuple[str, Any]) -> None:
    async with running_world() as world:
        assert await identify(world.fake, shard) == answer


async def test_discord_py_stops_on_an_invalid_shard() -> None:
    async with running_world() as world:
        client = sharded_client(shard_ids=[3], shard_count=2)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await InProcessBot(world.fake, client).start()
        assert closed.value.code == 4010


async def test_a_shard_with_too_many_guilds_is_closed_with_4011() -> None:
    fake = FakeDiscord(sharding=Sharding(max_guilds_per_shard=1))
    await fake.start()
    try:
        fake.create_guild("Near Club", shard=(0, 2))
        fake.create_guild("Far Club", shard=(1, 2))
        assert await identify(fake, [0, 1]) == ("closed", 4011)
        assert await identify(fake, [1, 2]) == ("ready", None)
        client = sharded_client(shard_count=1)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await InProcessBot(fake, client).start()
        assert closed.value.code == 4011
        sharded = sharded_client(shard_count=2)
        async with InProcessBot(fake, sharded):
            assert len(sharded.guilds) == 2
    finally:
        await fake.stop()


# --- the identify rate ---------------------------------------------------------------------------


async def test_a_second_identify_in_one_rate_limit_key_within_5_seconds_gets_op_9() -> None:
    fake = FakeDiscord(sharding=Sharding(max_concurrency=2, identify_limit=True))
    await fake.start()
    try:
        assert await identify(fake, [0, 4]) == ("ready", None)
        assert await identify(fake, [1, 4]) == ("ready", None)  # key 1: its own bucket
        assert await identify(fake, [2, 4]) == ("op9", None)  # key 0 again, at once
        assert await identify(fake, [3, 4]) == ("op9", None)  # key 1 again, at once
        assert fake.gateway.identify_rate_refusals == 2
        assert fake.gateway.identified_shards == [(0, 4), (1, 4)]
    finally:
        await fake.stop()


async def test_discord_py_spacing_its_identifies_is_never_refused() -> None:
    """discord.py's own ``before_identify_hook`` waits 5 s before every IDENTIFY after the first:
    within Discord's rate with ``max_concurrency`` 1."""
    async with running_world(sharding=Sharding(recommended_shards=2, identify_limit=True)) as world:
        client = sharded_client()
        async with InProcessBot(world.fake, client, fast_reidentify=False):
            assert client.shard_count == 2
            assert len(world.fake.gateway.connected_sessions) == 2
        assert world.fake.gateway.identify_rate_refusals == 0


async def test_a_burst_of_identifies_is_refused_and_discord_py_identifies_again() -> None:
    sharding = Sharding(recommended_shards=2, identify_limit=True, identify_window_s=0.5)
    async with running_world(sharding=sharding) as world:
        client = sharded_client()  # identifies without waiting (fast_reidentify)
        async with InProcessBot(world.fake, client):
            await eventually(lambda: len(world.fake.gateway.connected_sessions) == 2, "2 shards")
        assert world.fake.gateway.identify_rate_refusals >= 1
        assert sorted(set(world.fake.gateway.identified_shards)) == [(0, 2), (1, 2)]


# --- one global REST budget for the token ---------------------------------------------------------


async def test_the_global_rest_limit_counts_every_connection_of_the_token() -> None:
    limits = RateLimitConfig(global_limit=4, global_per=60.0, default=None, routes={})
    async with running_world(rate_limits=limits) as world:
        url = world.fake.base_url + "/users/@me"
        headers = {"Authorization": f"Bot {world.fake.token}"}
        async with aiohttp.ClientSession() as one, aiohttp.ClientSession() as two:
            for session in (one, two, one, two):
                async with session.get(url, headers=headers) as resp:
                    assert resp.status == 200
            async with two.get(url, headers=headers) as resp:
                assert resp.status == 429
                assert resp.headers["X-RateLimit-Global"] == "true"

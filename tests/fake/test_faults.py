"""Fault injection of the fake Discord: 429, 5xx, gateway reconnects, zombie connections,
bot process restarts and the rate-limit emulation, all against a real discord.py bot."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fake.test_discordpy import MiniBot
from tests.fakediscord import BotNotConnected, BucketRule, RateLimitConfig
from tests.fakediscord.fixtures import *  # noqa: F403 - the pytest fixtures
from tests.fakediscord.fixtures import StartBot, StartBotProcess, World

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
SEND = "POST /channels/{channel_id}/messages"


async def started(world: World, start_bot: StartBot, **options: object) -> MiniBot:
    bot = MiniBot(world.guild.id)
    await start_bot(bot, **options)
    return bot


async def ping_and_join(world: World) -> None:
    """A full round trip: a slash command, then a click on its reply."""
    reply = await (await world.alice.slash("fp ping", world.games)).wait_response()
    click = await world.bob.click(reply, "Join")
    await click
    assert reply.content.endswith("bob joined")


# --------------------------------------------------------------------------- REST faults


async def test_route_429_is_retried(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    fault = world.fake.faults.rate_limit(CALLBACK, retry_after=0.1)
    ix = await world.alice.slash("fp ping", world.games)
    await ix
    assert fault.hits == 1
    assert [r.status for r in world.fake.requests_to(CALLBACK)] == [429, 200]
    world.fake.assert_no_failed_interactions()


async def test_global_429_is_retried(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    fault = world.fake.faults.rate_limit(
        SEND, is_global=True, retry_after=0.1, channel_id=world.games
    )
    answer = await (await world.alice.slash("fp announce", world.games)).wait_response()
    assert answer.content == "done"
    assert fault.hits == 1
    assert [r.status for r in world.fake.requests_to(SEND)] == [429, 200]


async def test_5xx_is_retried(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    fault = world.fake.faults.server_error(SEND, status=502)
    answer = await (await world.alice.slash("fp announce", world.games)).wait_response()
    assert answer.content == "done"
    assert fault.hits == 1
    assert [r.status for r in world.fake.requests_to(SEND)] == [502, 200]


async def test_injected_error_code_reaches_the_bot(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    bot = await started(world, start_bot)
    world.fake.faults.error(SEND, status=403, code=50001, message="Missing Access")
    answer = await (await world.alice.slash("fp announce", world.games)).wait_response()
    assert answer.content == "failed: 50001"
    assert isinstance(bot.caught[0], discord.Forbidden)


async def test_a_held_request_is_answered_once_released(
    fake_world: World, start_bot: StartBot
) -> None:
    world = fake_world
    await started(world, start_bot)
    held = world.fake.faults.hold(SEND, channel_id=world.games)
    ix = await world.alice.slash("fp announce", world.games)
    await world.fake.wait_for(lambda: world.fake.requests_to(SEND), 5, "the post")
    await asyncio.sleep(0.3)
    assert [r.finished for r in world.fake.requests_to(SEND)] == [None]  # held, unanswered
    assert not ix.followups
    held.release()
    answer = await ix.wait_response()
    assert answer.content == "done"
    assert held.hits == 1 and [r.status for r in world.fake.requests_to(SEND)] == [200]


def test_fault_on_unknown_route_is_refused() -> None:
    from tests.fakediscord import FakeDiscord

    with pytest.raises(ValueError, match="unknown route"):
        FakeDiscord().faults.rate_limit("POST /channel/{channel_id}/messages")


# --------------------------------------------------------------------------- gateway faults


async def test_op7_reconnect_resumes(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    bot = await started(world, start_bot)
    assert await world.fake.gateway_reconnect() == 1
    await world.fake.wait_for_resume()
    await world.fake.wait_for(lambda: bot.resumed == 1, 5, "on_resumed")
    assert world.fake.gateway.identifies == 1
    assert world.fake.gateway.urls[-1].startswith("/resume-gateway?v=10")
    await ping_and_join(world)


async def test_op9_not_resumable_identifies_again(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    await world.fake.gateway_invalidate_session(resumable=False)
    await world.fake.wait_for_identify(2)
    assert world.fake.gateway.resumes == 0
    await ping_and_join(world)


async def test_op9_resumable_resumes(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    await world.fake.gateway_invalidate_session(resumable=True)
    await world.fake.wait_for_resume()
    assert world.fake.gateway.identifies == 1
    await ping_and_join(world)


async def test_abrupt_close_reconnects(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    await world.fake.gateway_drop()
    gw = world.fake.gateway
    await world.fake.wait_for(lambda: gw.resumes + gw.identifies >= 2 and gw.is_connected(), 10)
    await ping_and_join(world)


async def test_close_code_4000_resumes(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    await started(world, start_bot)
    await world.fake.gateway_close(4000)
    await world.fake.wait_for_resume()
    await ping_and_join(world)


async def test_zombie_gateway_is_detected_and_missed_events_replayed(
    fake_world: World, start_bot: StartBot
) -> None:
    world = fake_world
    world.fake.gateway.heartbeat_interval = 0.2
    await started(world, start_bot, heartbeat_timeout=1.0)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    world.fake.gateway_zombie()
    # sent into the silence: kept by the fake and replayed when discord.py RESUMEs
    ix = await world.alice.slash("fp ping", world.games, wait_connected=False)
    await ix
    assert world.fake.gateway.resumes == 1
    assert loop.time() - t0 < 3
    reply = await ix.wait_response()
    assert reply.content == "pong"


# --------------------------------------------------------------------------- bot restarts


async def test_bot_subprocess_restart_keeps_state(
    fake_world: World, start_bot_process: StartBotProcess
) -> None:
    world = fake_world
    proc = await start_bot_process(
        "tests.fakediscord.echo_bot", env={"FAKEDISCORD_GUILD_ID": str(world.guild.id)}
    )
    first_pid = proc.pid
    reply = await (await world.alice.slash("fp ping", world.games)).wait_response()
    assert reply.content == f"pong pid={first_pid}"
    await proc.kill()
    await world.fake.wait_for(lambda: not world.fake.gateway.is_connected(), 5)
    with pytest.raises(BotNotConnected):
        await world.bob.click(reply, "Count 0", wait_connected=0.2)
    await proc.start()
    assert proc.pid != first_pid
    click = await world.bob.click(reply, "Count 0")
    await click
    assert reply.content == f"count=1 pid={proc.pid}"
    assert reply.labels() == ["Count 1"]
    assert world.fake.gateway.identifies == 2
    world.fake.assert_no_failed_interactions()


# --------------------------------------------------------------------------- rate limits


async def test_rate_limit_buckets_are_respected(fake_world: World, start_bot: StartBot) -> None:
    world = fake_world
    limiter = world.fake.enable_rate_limits(
        RateLimitConfig(routes={SEND: BucketRule(2, 0.4)}, default=None)
    )
    bot = await started(world, start_bot)
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await asyncio.gather(*(channel.send(f"m{i}") for i in range(5)))
    elapsed = loop.time() - t0
    assert sorted(m.content for m in world.fake.messages(world.games)) == [
        f"m{i}" for i in range(5)
    ]
    assert elapsed >= 0.75  # three windows of 0.4 s were needed
    assert all(h.route == SEND for h in limiter.hits)


async def test_global_limit_spares_interaction_callbacks(
    fake_world: World, start_bot: StartBot
) -> None:
    world = fake_world
    limiter = world.fake.enable_rate_limits(
        RateLimitConfig(global_limit=4, global_per=0.5, routes={}, default=None)
    )
    bot = await started(world, start_bot)
    results = await asyncio.gather(*(bot.http.get_channel(world.games.id) for _ in range(6)))
    assert len(results) == 6
    assert any(h.is_global for h in limiter.hits)
    limiter._global.count = limiter.config.global_limit  # the budget is spent right now
    ix = await world.alice.slash("fp ping", world.games)
    await ix
    assert all(r.status == 200 for r in world.fake.requests_to(CALLBACK))


async def test_realistic_rate_limits_do_not_disturb_a_normal_flow(
    fake_world: World, start_bot: StartBot
) -> None:
    world = fake_world
    limiter = world.fake.enable_rate_limits()
    await started(world, start_bot)
    await ping_and_join(world)
    secret = await (await world.alice.slash("fp secret", world.games)).wait_response()
    assert secret.ephemeral
    dm = await (await world.bob.slash("fp dm", world.games)).wait_response()
    assert dm.content == "check your DMs"
    assert limiter.hits == [] and limiter.requests_counted >= 8
    world.fake.assert_no_failed_interactions()

"""Pytest fixtures and context managers: a started fake Discord with a small world.

The world: one guild "Pyramid Club" with channels ``#general`` and ``#games`` and four
people, alice, bob, carol and dave (dave has his DMs closed).

Use in a test module (no ``pytest_plugins`` needed)::

    from tests.fakediscord.fixtures import *  # noqa: F403  (fake_world, start_bot, ...)

    async def test_ping(fake_world, start_bot):
        await start_bot(MyBot())
        ix = await fake_world.alice.slash("fp ping", fake_world.games)
        ...

Or without pytest fixtures: ``async with running_world() as world: ...``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest_asyncio

from .models import Channel, Guild
from .runner import BotProcess, InProcessBot
from .server import FakeDiscord
from .users import FakeUser

if TYPE_CHECKING:
    import discord

#: What ``from tests.fakediscord.fixtures import *`` brings in: the pytest fixtures.
__all__ = ["fake_world", "start_bot", "start_bot_process"]


@dataclass
class World:
    """A fake Discord with one guild, two channels and four users."""

    fake: FakeDiscord
    guild: Guild
    general: Channel
    games: Channel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser

    @property
    def users(self) -> list[FakeUser]:
        return [self.alice, self.bob, self.carol, self.dave]


def build_world(fake: FakeDiscord, guild_name: str = "Pyramid Club") -> World:
    """Populate ``fake`` with the standard test world and return it."""
    guild = fake.create_guild(guild_name)
    general = fake.create_text_channel(guild, "general")
    games = fake.create_text_channel(guild, "games")
    return World(
        fake=fake,
        guild=guild,
        general=general,
        games=games,
        alice=fake.create_user("alice", guilds=[guild]),
        bob=fake.create_user("bob", guilds=[guild]),
        carol=fake.create_user("carol", guilds=[guild]),
        dave=fake.create_user("dave", guilds=[guild], dms_open=False),
    )


@asynccontextmanager
async def running_world(**fake_options: Any) -> AsyncIterator[World]:
    """Start a :class:`FakeDiscord` (options as its constructor) with the standard world."""
    fake = FakeDiscord(**fake_options)
    await fake.start()
    try:
        yield build_world(fake)
    finally:
        await fake.stop()


StartBot = Callable[..., Awaitable[InProcessBot]]
StartBotProcess = Callable[..., Awaitable[BotProcess]]


@pytest_asyncio.fixture
async def fake_world() -> AsyncIterator[World]:
    """A started fake Discord with the standard world. Fails the test at teardown if the
    fake had an internal error, the bot called a route the fake does not implement, or the fake
    refused a request of the bot as Discord would (unless the test expected it with
    ``fake.expect_refusal``); the failure lists each refusal with the fake's reason."""
    async with running_world() as world:
        yield world
        world.fake.assert_healthy()
        world.fake.assert_no_refusals()


@pytest_asyncio.fixture
async def start_bot(fake_world: World) -> AsyncIterator[StartBot]:
    """``await start_bot(bot, **options)`` runs a bot object in this event loop against the
    fake and waits until it is ready; every bot is closed at teardown. Options are those of
    :class:`InProcessBot` (``guild_ready_timeout``, ``heartbeat_timeout``, ``fast_reidentify``)."""
    running: list[InProcessBot] = []

    async def start(bot: discord.Client, **options: Any) -> InProcessBot:
        runner = InProcessBot(fake_world.fake, bot, **options)
        running.append(runner)
        return await runner.start()

    yield start
    for runner in reversed(running):
        await runner.stop()


@pytest_asyncio.fixture
async def start_bot_process(fake_world: World) -> AsyncIterator[StartBotProcess]:
    """``await start_bot_process("bot", env={...})`` runs ``python -m bot`` against the fake
    (see :class:`BotProcess`); processes are killed at teardown."""
    running: list[BotProcess] = []

    async def start(module: str, **options: Any) -> BotProcess:
        proc = BotProcess(fake_world.fake, module, **options)
        running.append(proc)
        return await proc.start()

    yield start
    for proc in reversed(running):
        await proc.kill()

"""Fixtures for the end-to-end tests: the standard fake world and the real bot, either in this
event loop (fast, with a clock the test moves) or as ``python -m bot`` subprocesses (for kills
and restarts)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from bot.app import Bot
from bot.config import Config
from engine.ai.review import Budget
from tests.fakediscord import DEFAULT_TOKEN
from tests.fakediscord.fixtures import *  # noqa: F403 - fake_world, start_bot, start_bot_process
from tests.fakediscord.fixtures import StartBot, World
from tests.pgserver import PgServer

from .driver import TableDriver

E2E_DIR = Path(__file__).resolve().parent
TEST_REVIEW = Budget(node_limit=60, deals=3)
"""What the turning points' review spends on each decision in these tests."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is an end-to-end test (``-m "not e2e"`` skips them)."""
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


class MovableClock:
    """Real time plus an offset the test moves forward (never sleeps). It is the bot's clock
    only: the fake Discord's own clock, which ends interaction tokens after 15 minutes, moves
    with ``world.fake.advance_time(seconds)``."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
def world(fake_world: World) -> Iterator[World]:
    """The standard world; every test also checks that no interaction failed."""
    yield fake_world
    fake_world.fake.assert_no_failed_interactions()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'e2e.db'}"


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock()


def bot_config(db_url: str, **overrides: Any) -> Config:
    values: dict[str, Any] = {
        "token": DEFAULT_TOKEN,
        "database_url": db_url,
        "test_mode": True,
        "timer_interval_s": 0.05,
        "ai_time_budget_s": 0.05,
        "ai_node_limit": 2000,
        # The turning points of every match that ends, worked out reproducibly and quickly.
        "turning_budget": TEST_REVIEW,
    }
    values.update(overrides)
    return Config(**values)


MakeBot = Callable[..., Awaitable[Bot]]


@pytest.fixture
def run_bot(start_bot: StartBot, db_url: str, clock: MovableClock) -> MakeBot:
    """``await run_bot(**config_overrides)``: the real bot in this event loop, ready."""

    async def run(**overrides: Any) -> Bot:
        bot = Bot(bot_config(db_url, **overrides), clock=clock)
        await start_bot(bot)
        return bot

    return run


class OwnPg(Protocol):
    def __call__(self, *, retry_s: float, timeout_s: float) -> PgServer: ...


@pytest.fixture
def own_pg(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[OwnPg]:
    """``own_pg(retry_s=..., timeout_s=...)``: a PostgreSQL server of this test's own, that it
    may stop (``halt``) and start again (``launch``); a bot started after it waits ``retry_s``
    seconds for an unreachable database (``DATABASE_RETRY``) and ``timeout_s`` for a statement
    (``DATABASE_TIMEOUT``)."""
    servers: list[PgServer] = []

    def start(*, retry_s: float, timeout_s: float) -> PgServer:
        monkeypatch.setenv("DATABASE_RETRY", f"{retry_s:g}")
        monkeypatch.setenv("DATABASE_TIMEOUT", f"{timeout_s:g}")
        server = PgServer.start(pg_server.bindir)
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def table(world: World) -> TableDriver:
    """A driver for a table in #games with alice, bob, carol and dave."""
    return TableDriver(world.fake, world.games, {u.id: u for u in world.users})

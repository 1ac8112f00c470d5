"""Slash commands are registered with Discord only when they changed, and by one process of
several starting together (Discord limits how often commands may be created)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.app import Bot
from tests.fakediscord import BotProcess
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MovableClock, bot_config

PUT_GLOBAL = "PUT /applications/{application_id}/commands"


class Reworded(Bot):
    """The bot with another description on its ``/fp`` group (a changed command)."""

    async def sync_commands(self) -> None:
        group = self.tree.get_command("fp")
        assert group is not None
        group.description = "Flaming Pyramids, reworded"
        await super().sync_commands()


async def test_a_second_start_registers_nothing_until_a_command_changes(
    world: World, start_bot: StartBot, db_url: str, clock: MovableClock
) -> None:
    fake = world.fake
    first = await start_bot(Bot(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 1
    await first.stop()

    again = await start_bot(Bot(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 1  # the same commands: not sent again
    await again.stop()

    reworded = await start_bot(Reworded(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 2
    assert {c.data["description"] for c in fake.commands(None) if c.name == "fp"} == {
        "Flaming Pyramids, reworded"
    }
    await reworded.stop()

    await start_bot(Reworded(bot_config(db_url), clock=clock))
    assert len(fake.requests_to(PUT_GLOBAL)) == 2


async def test_of_two_processes_starting_together_exactly_one_registers(
    world: World, pg_url: str, tmp_path: Path
) -> None:
    fake = world.fake
    env = {"DATABASE_URL": pg_url, "FP_TEST_MODE": "1", "LOG_LEVEL": "INFO"}
    procs = [BotProcess(fake, "bot", env=env, cwd=tmp_path) for _ in range(2)]
    try:
        await asyncio.gather(*(p.start(wait_ready=False) for p in procs))

        def decided(proc: BotProcess) -> bool:
            return "commands (global)" in proc.output or "commands unchanged" in proc.output

        async with asyncio.timeout(60):
            while not all(decided(p) or not p.running for p in procs):
                await asyncio.sleep(0.05)
        assert all(p.running for p in procs), "".join(p.output for p in procs)
        assert len(fake.requests_to(PUT_GLOBAL)) == 1
        assert sum("commands unchanged" in p.output for p in procs) == 1
    finally:
        for proc in procs:
            await proc.kill()

"""The bot as ``python -m bot`` processes: killed in the middle of a fall choice and restarted
(the same buttons still work, nothing is lost), and turn deadlines and reminders passing while
the test moves the bot's clock (``FP_CLOCK_FILE``, honoured only with ``FP_TEST_MODE=1``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import Bot
from bot.service import TableService
from data import open_store
from tests.fakediscord import BotProcess
from tests.fakediscord.fixtures import StartBot, StartBotProcess, World

from .conftest import MakeBot, MovableClock, bot_config
from .driver import TIMEOUT, TableDriver, button_actions, stored_log, stored_table
from .test_decisions import COLLAPSE, write_state


def process_env(tmp_path: Path, db_url: str, **extra: str) -> dict[str, str]:
    env = {
        "DATABASE_URL": db_url,
        "FP_TEST_MODE": "1",
        "FP_TIMER_INTERVAL": "0.1",
        "FP_CLOCK_FILE": str(tmp_path / "clock"),
        "FP_AI_TIME_BUDGET": "0.05",
        "LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


def set_clock(tmp_path: Path, offset: float) -> None:
    """Move the bot process's clock ``offset`` seconds ahead of real time."""
    tmp = tmp_path / "clock.tmp"
    tmp.write_text(str(offset))
    tmp.replace(tmp_path / "clock")


async def test_killed_during_a_fall_choice_then_restarted(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
) -> None:
    env = process_env(tmp_path, db_url, FP_TEST_STATE_FILE=write_state(tmp_path, COLLAPSE))
    proc: BotProcess = await start_bot_process("bot", env=env)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # her fall, asked on her own screen
    assert button_actions(falling)[:2] == [("fall", "left"), ("fall", "right")]

    await proc.kill()  # like a crash, in the middle of the fall choice
    await proc.start()

    # After the restart the thread shows where the game stands (the last run had not posted
    # the turn, which waited for its fall), and the same button on her screen still works.
    restarted = await table.settled_game(game.id)
    assert TableDriver.decider(restarted) == world.alice.id
    after = await table.fall(world.alice, falling, "right")
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].user_id, log[-1].action) == (0, world.alice.id, {"fall": "right"})
    assert TableDriver.decider(after) == world.bob.id
    after = await table.step(after)  # and the game goes on
    assert TableDriver.decider(after) == world.carol.id
    assert "Traceback" not in proc.output


async def test_deadline_and_reminder_survive_a_restart(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
) -> None:
    env = process_env(tmp_path, db_url, FP_TEST_STATE_FILE=write_state(tmp_path, COLLAPSE))
    set_clock(tmp_path, 0)
    proc = await start_bot_process("bot", env=env)
    await table.open(world.alice, world.bob, world.carol, time_limit=300)
    game = await table.start(world.alice)
    assert TableDriver.decider(game) == world.alice.id

    # 150 s before the end (half of a 5-minute limit), Alice is reminded where her turn came:
    # by DM.
    set_clock(tmp_path, 160)
    await world.fake.wait_for(
        lambda: next((m for m in world.alice.dms() if "⏳" in m.content), None),
        TIMEOUT,
        "the reminder",
    )
    assert not [m for m in table.bot_messages() if "⏳" in m.content]
    await world.alice.wait_for_dm(lambda m: "⏳" in m.content, timeout=TIMEOUT)

    # The bot is down when the deadline passes; once back, a computer plays Alice's turn.
    await proc.kill()
    set_clock(tmp_path, 400)
    await proc.start()
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    # Her turn was played by the game for Alice's seat, not by her.
    log = await stored_log(db_url, table.table_id())
    assert log and {(a.seat, a.user_id) for a in log} == {(0, None)}, log
    assert "Traceback" not in proc.output


async def test_deadline_in_process(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    state: dict[str, Any] = dict(COLLAPSE, active=1)
    await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.bob, world.carol, time_limit=3600)
    game = await table.start(world.alice)
    assert TableDriver.decider(game) == world.bob.id
    clock.advance(3601)
    timed_out = await table.settled_game(game.id)
    log = await stored_log(db_url, table.table_id())
    assert [(a.seat, a.user_id) for a in log] == [(1, None)]  # played for Bob by the game
    assert TableDriver.decider(timed_out) == world.carol.id
    # Bob takes over again by acting: on his next turn he plays himself.
    after = await table.step(timed_out)  # Carol
    after = await table.step(after)  # Alice (may need a fall choice)
    while TableDriver.decider(after) != world.bob.id:
        after = await table.step(after)
    after = await table.step(after)
    bobs = [a.user_id for a in await stored_log(db_url, table.table_id()) if a.seat == 1]
    assert bobs[0] is None and bobs[-1] == world.bob.id  # this time he played himself


async def test_a_move_committed_but_never_shown_is_shown_after_a_restart(
    world: World, start_bot: StartBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    config = bot_config(db_url, test_state_file=write_state(tmp_path, COLLAPSE))
    runner = await start_bot(Bot(config))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    await runner.stop()
    # The bot stopped right after writing Alice's fall choice, before posting it: replay that
    # with a second service on the same database.
    store = open_store(db_url)
    await store.open()
    try:
        service = TableService(store)
        table_id = (await service.board_in_channel(table.place().id)).table_id
        version = (await service.board_of(table_id)).version
        await service.fall(table_id, version, world.alice.id, "left")
    finally:
        await store.close()
    await runner.restart(Bot(config))
    shown = await table.settled_game(falling.id)
    assert TableDriver.decider(shown) == world.bob.id
    record = await stored_table(db_url, table_id)
    assert record.shown_version == record.version == version + 1  # the fall is shown now
    after = await table.step(shown)  # and play goes on from that message
    assert TableDriver.decider(after) == world.carol.id


async def test_sigterm_stops_the_bot_cleanly_and_the_game_goes_on(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
) -> None:
    env = process_env(tmp_path, db_url, FP_TEST_STATE_FILE=write_state(tmp_path, COLLAPSE))
    proc = await start_bot_process("bot", env=env)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)

    await proc.stop(timeout=10)  # SIGTERM, as a service manager stops it
    assert proc.proc is not None and proc.proc.returncode == 0, proc.output
    assert "Traceback" not in proc.output

    await proc.start()
    after = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(after) == world.bob.id

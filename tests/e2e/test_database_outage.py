"""What a PostgreSQL outage interrupts is finished once the database is back: the screen of a
player's new decision, which could not be sent while the database was away, is sent then (once),
not left for the player to find with **My hand**."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import Bot
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MovableClock, OwnPg, bot_config
from .driver import TIMEOUT, TableDriver, is_players_turn
from .test_decisions import COLLAPSE, write_state

OPEN_DM = "POST /users/@me/channels"


WAITS_S = 1.0
"""How long the bot waits for an unreachable database: a second."""


async def test_a_turn_screen_the_outage_held_up_is_sent_once_the_database_is_back(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = world.fake
    pg = own_pg(retry_s=WAITS_S, timeout_s=2 * WAITS_S)
    bot = Bot(
        bot_config(pg.create_database("outage"), test_state_file=write_state(tmp_path, COLLAPSE)),
        clock=clock,
    )
    await start_bot(bot)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # her fall to choose, then Bob's turn
    caplog.set_level(logging.INFO)
    # Bob's screen goes out in the background after the fall: the database goes away while it
    # is on its way (Discord is slow to open his direct messages).
    fake.faults.delay(OPEN_DM, 1.5)
    after = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(after) == world.bob.id
    await fake.wait_for(lambda: fake.requests_to(OPEN_DM), TIMEOUT, "Bob's DMs being opened")
    pg.halt()
    await fake.wait_for(
        lambda: [r for r in caplog.records if r.name == "bot.show.hands"],
        TIMEOUT,
        "the screen held up by the outage",
    )
    assert table.hand_message(world.bob) is None

    pg.launch()  # back: the screen comes without Bob asking for it
    screen = await fake.wait_for(
        lambda: (m := table.hand_message(world.bob)) is not None and m.settled and m,
        TIMEOUT,
        "Bob's screen",
    )
    assert is_players_turn(screen)
    assert len([m for m in world.bob.dms() if m.images()]) == 1  # once
    fake.assert_no_failed_interactions()

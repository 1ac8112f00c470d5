"""What a PostgreSQL outage interrupts is finished once the database is back: the screen of a
player's new decision, which could not be sent while the database was away, is sent then (once),
not left for the player to find with **My hand**; a move saved just before the database went
away is not answered as if nothing was changed."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import Bot
from bot.show import texts
from engine import Fall, Play
from i18n import catalogs
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MovableClock, OwnPg, bot_config
from .driver import TIMEOUT, TableDriver, actions, is_players_turn, stored_log
from .test_decisions import COLLAPSE, write_state

OPEN_DM = "POST /users/@me/channels"
POST = "POST /channels/{channel_id}/messages"


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


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_fall_saved_as_the_database_goes_away_closes_its_screen_and_says_so(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    locale: str,
) -> None:
    fake = world.fake
    alice = world.alice
    pg = own_pg(retry_s=WAITS_S, timeout_s=2 * WAITS_S)
    url = pg.create_database("saved")
    await start_bot(
        Bot(bot_config(url, test_state_file=write_state(tmp_path, COLLAPSE)), clock=clock)
    )
    await table.open(alice, world.bob, world.carol)
    alice.locale = locale  # her client's language, from her first click on
    game = await table.start(alice)
    falling = await table.play(alice, game)  # her fall, asked on her screen in direct messages
    assert falling.channel.is_dm and "fall" in actions(falling)
    # The fall is saved; the turn's message is slow to post, and the database goes away
    # meanwhile, before her screen is closed.
    fake.faults.delay(POST, 1.5, channel_id=table.place())
    posts = len(fake.requests_to(POST))
    ix = await table.click_action(alice, falling, "fall", "left")
    await fake.wait_for(lambda: len(fake.requests_to(POST)) > posts, TIMEOUT, "the turn's post")
    pg.halt()
    await fake.wait_for(lambda: not falling.buttons() and falling.settled, TIMEOUT, "her screen")

    # Her screen is closed with the turn's account, and says that the move is recorded and
    # that what is not shown yet comes once the records are back; no "nothing was changed".
    lang = catalogs.for_locale(locale)
    said = texts.translated(texts.SAVED_RECORDS_AWAY, lang)
    assert falling.content.startswith(said)
    assert ix.followups == []
    turn = table.latest_game()
    assert turn.id != game.id and not turn.ephemeral  # the table shows the turn
    assert table.hand_message(world.bob) is None  # Bob's screen waits for the database

    pg.launch()  # back: what was not shown comes
    screen = await fake.wait_for(
        lambda: (m := table.hand_message(world.bob)) is not None and m.settled and m,
        TIMEOUT,
        "Bob's screen",
    )
    assert is_players_turn(screen)
    log = await stored_log(url, table.table_id())
    assert [e.action for e in log] == [Play("Y40", (1, 1)).to_dict(), Fall("left").to_dict()]
    fake.assert_no_failed_interactions()

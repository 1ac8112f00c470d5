"""What a PostgreSQL outage interrupts is finished once the database is back: the screen of a
player's new decision, which could not be sent while the database was away, is sent then (once),
not left for the player to find with **My hand**; a move saved just before the database went
away is not answered as if nothing was changed."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import Bot
from bot.show import handtexts
from engine import Fall, Play
from i18n import catalogs
from tests.fakediscord import Message
from tests.fakediscord.fixtures import StartBot, World
from tests.pgserver import PgServer

from .conftest import MovableClock, OwnPg, bot_config
from .driver import TIMEOUT, TableDriver, actions, is_players_turn, stored_log
from .test_decisions import COLLAPSE, write_state

OPEN_DM = "POST /users/@me/channels"
POST = "POST /channels/{channel_id}/messages"


WAITS_S = 1.0
"""How long the bot waits for an unreachable database: a second."""


async def started(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    database: str,
    *,
    retry_s: float = WAITS_S,
    timeout_s: float = 2 * WAITS_S,
) -> tuple[PgServer, str, Message]:
    """A PostgreSQL server of the test's own (the bot waits ``retry_s`` between tries, at most
    ``timeout_s`` a query), the bot on its database ``database`` dealing :data:`COLLAPSE`, a
    table of Alice, Bob and Carol open (not started): the server, the database's URL and the
    lobby card."""
    pg = own_pg(retry_s=retry_s, timeout_s=timeout_s)
    url = pg.create_database(database)
    await start_bot(
        Bot(bot_config(url, test_state_file=write_state(tmp_path, COLLAPSE)), clock=clock)
    )
    return pg, url, await table.open(world.alice, world.bob, world.carol)


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
    pg, _, _ = await started(own_pg, world, start_bot, clock, table, tmp_path, "outage")
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
    pg, url, _ = await started(own_pg, world, start_bot, clock, table, tmp_path, "saved")
    alice.locale = locale  # her client's language, from her first click on
    game = await table.start(alice)
    falling = await table.play(alice, game)  # her fall, asked on her screen in direct messages
    assert falling.channel.is_dm and "fall" in actions(falling)
    # The fall is saved; the turn's message is on its way (Discord holds it), and the
    # database goes away meanwhile, before her screen is closed.
    posting = fake.faults.hold(POST, channel_id=table.place())
    posts = len(fake.requests_to(POST))
    ix = await table.click_action(alice, falling, "fall", "left")
    await fake.wait_for(lambda: len(fake.requests_to(POST)) > posts, TIMEOUT, "the turn's post")
    pg.halt()
    posting.release()
    await fake.wait_for(lambda: not falling.buttons() and falling.settled, TIMEOUT, "her screen")

    # Her screen is closed with the turn's account, and says that the move is recorded and
    # that what is not shown yet comes once the records are back; no "nothing was changed".
    lang = catalogs.for_locale(locale)
    said = handtexts.translated(handtexts.SAVED_RECORDS_AWAY, lang)
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


async def test_a_screen_the_outage_held_up_is_dropped_if_the_table_moved_on_meanwhile(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = world.fake
    bob = world.bob
    pg, _, _ = await started(own_pg, world, start_bot, clock, table, tmp_path, "moved")
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # her fall to choose, then Bob's turn
    caplog.set_level(logging.INFO)
    # Bob's screen is on its way (Discord holds the opening of his direct messages) when he
    # leaves the table: a computer takes his seat and plays his turn. Then the database goes
    # away before his screen is noted, and holds it up.
    opening = fake.faults.hold(OPEN_DM)
    after = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(after) == bob.id
    await fake.wait_for(lambda: fake.requests_to(OPEN_DM), TIMEOUT, "Bob's DMs being opened")
    await table.leave_match(bob)
    await fake.wait_for(
        lambda: TableDriver.decider(table.latest_game()) == world.carol.id,
        TIMEOUT,
        "the computer's move in Bob's seat",
    )
    pg.halt()
    opening.release()
    held = f"the screen of user {bob.id} waits for the database"
    await fake.wait_for(
        lambda: [r for r in caplog.records if held in r.getMessage()],
        TIMEOUT,
        "Bob's screen held up by the outage",
    )

    pg.launch()  # back: the screen is out of date, and is not sent
    await fake.wait_for(
        lambda: [r for r in caplog.records if "is out of date" in r.getMessage()],
        TIMEOUT,
        "the held screen dropped",
    )
    assert [r.name for r in caplog.records if "is out of date" in r.getMessage()] == [
        "bot.show.hands"
    ]
    assert table.hand_message(bob) is None
    assert not [m for m in bob.dms() if m.images()]  # no screen ever reached him

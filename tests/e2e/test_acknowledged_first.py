"""A click is acknowledged before anything is read: while the database is out of reach the
player is told so privately (not "This interaction failed"), and nothing changes; Discord's
expected refusals (an interaction another process acknowledged) are information for the log,
not a traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import Bot
from bot.show.words import UNREACHABLE
from tests.fakediscord import Message
from tests.fakediscord.fixtures import StartBot, World
from tests.pgserver import PgServer

from .conftest import MakeBot, MovableClock, OwnPg, bot_config
from .driver import TableDriver, actions, answer, card_text, is_spot_step, lobby_controls
from .test_database_outage import started
from .test_decisions import COLLAPSE, private_answer, write_state

ANSWERING = ("bot.replies", "bot.components", "bot.tablebuttons", "bot.cogs.tables")
"""The loggers of the way a click is answered."""


WAITS_S = 5.0
"""How long the bot waits for an unreachable database: longer than the 3 s Discord gives to
acknowledge."""


async def started_on_own_pg(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    database: str,
) -> tuple[PgServer, Message]:
    """A PostgreSQL server of the test's own (the bot waits :data:`WAITS_S` for it), the bot on
    its database ``database`` dealing :data:`COLLAPSE`, a table of Alice, Bob and Carol started:
    the server and the game's first message."""
    pg, _, _ = await started(
        own_pg, world, start_bot, clock, table, tmp_path, database,
        retry_s=WAITS_S, timeout_s=WAITS_S,
    )  # fmt: skip
    return pg, await table.start(world.alice)


async def test_a_click_while_the_database_is_out_of_reach_is_answered_privately_and_changes_nothing(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pg, game = await started_on_own_pg(own_pg, world, start_bot, clock, table, tmp_path, "outage")
    hand = await table.hand_for(world.alice, game)
    tile = table.tile_labels(hand)[0]
    shown = table.bot_messages() + world.alice.dms()
    revisions = [len(m.revisions) for m in shown]
    caplog.set_level(logging.INFO)

    pg.halt()  # PostgreSQL goes away
    # A new private answer (My hand on the board), and an edit of the clicked message (a tile
    # on her hand by DM): each is acknowledged in time (the world checks that no interaction
    # failed) and answered privately.
    for message, label in ((game, "My hand"), (hand, tile)):
        ix = await table.click(world.alice, message, label)
        assert await private_answer(ix) == UNREACHABLE
        assert ix.acknowledged and not ix.failed
    assert [len(m.revisions) for m in shown] == revisions  # no message changed...
    assert [m for m in table.bot_messages() if not m.ephemeral] == [
        m for m in shown if not m.ephemeral and not m.channel.is_dm
    ]  # ...and none was posted
    answering = [r for r in caplog.records if r.name in ANSWERING]
    assert not [r for r in answering if r.exc_info], "a traceback in the log"

    pg.launch()  # back: the same tile button works, the move was not lost nor half-made
    before = len(hand.revisions)
    await table.click(world.alice, hand, tile)
    await table.screen_after(hand, before, "the spot step")
    assert is_spot_step(hand)


async def test_one_click_delivered_to_two_processes_is_handled_once_and_logged_as_information(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = write_state(tmp_path, COLLAPSE)
    await run_bot(test_state_file=state)
    await run_bot(test_state_file=state)  # a second process on the same shard and database
    with world.fake.expect_refusal(40060) as refused:
        lobby = await table.open(world.alice)
        seen = len(lobby.revisions)
        caplog.clear()
        caplog.set_level(logging.INFO)

        ix = await table.click(world.bob, lobby, "Join")

        await ix.wait_acknowledged(10)
        await world.fake.wait_for(lambda: len(lobby.revisions) > seen and lobby.settled, 10, "join")
        await world.fake.wait_for(lambda: len(refused) == 2, 10, "the other process's answer")
    assert card_text(lobby).count("Bob") == 1
    assert ix.followups == []  # nobody told Bob that something went wrong
    answering = [r for r in caplog.records if r.name in ANSWERING]
    elsewhere = [r for r in answering if "button join" in r.getMessage()]
    assert "(40060)" in elsewhere[0].getMessage()
    assert len(elsewhere) == 1 and elsewhere[0].levelno == logging.INFO
    assert not [r for r in answering if r.exc_info or r.levelno >= logging.WARNING]


async def test_fp_status_while_the_database_is_out_of_reach_is_answered_privately_in_time(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pg, game = await started_on_own_pg(own_pg, world, start_bot, clock, table, tmp_path, "status")
    lobby = table.lobby()
    await table.hand_for(world.alice, game, turn=True)  # the start is shown, all of it
    await world.fake.wait_for(lambda: not lobby_controls(lobby) and lobby.settled, 10, "lobby")
    posted = len(table.bot_messages())
    caplog.set_level(logging.INFO)

    pg.halt()
    ix = await world.bob.slash("fp status", table.place())
    await ix.wait_acknowledged()  # within Discord's 3 seconds (else InteractionFailed)

    assert await private_answer(ix) == UNREACHABLE
    assert len(table.bot_messages()) == posted  # no picture, nothing public
    answering = [r for r in caplog.records if r.name in ANSWERING]
    assert not [r for r in answering if r.exc_info], "a traceback in the log"

    pg.launch()  # back: the same command shows the table
    ix = await world.bob.slash("fp status", table.place())
    shown = await answer(ix)
    assert not shown.ephemeral and shown.images()


async def test_a_fall_on_a_private_screen_while_the_database_is_out_of_reach_says_it_was_not_saved(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pg, game = await started_on_own_pg(own_pg, world, start_bot, clock, table, tmp_path, "fall")
    falling = await table.play(world.alice, game)  # her fall, asked on her screen
    assert falling.channel.is_dm and "fall" in actions(falling)
    revisions = len(falling.revisions)
    caplog.set_level(logging.INFO)

    pg.halt()
    ix = await table.click_action(world.alice, falling, "fall", "left")

    assert await private_answer(ix) == UNREACHABLE
    assert len(falling.revisions) == revisions  # her screen still asks the fall
    answering = [r for r in caplog.records if r.name in ANSWERING]
    assert not [r for r in answering if r.exc_info], "a traceback in the log"

    pg.launch()  # back: the same button chooses the fall
    after = await table.fall(world.alice, falling, "left")
    assert table.decider(after) == world.bob.id


async def test_fp_replay_while_the_database_is_out_of_reach_is_acknowledged_in_time(
    own_pg: OwnPg,
    world: World,
    start_bot: StartBot,
    clock: MovableClock,
    table: TableDriver,
) -> None:
    pg = own_pg(retry_s=WAITS_S, timeout_s=WAITS_S)
    await start_bot(Bot(bot_config(pg.create_database("replay")), clock=clock))
    pg.halt()
    ix = await world.alice.slash("fp replay", world.games, match=1)
    await ix.wait_acknowledged()  # within Discord's 3 seconds (else InteractionFailed)
    assert await private_answer(ix) == UNREACHABLE

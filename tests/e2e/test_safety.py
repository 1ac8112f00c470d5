"""What players never see and what never breaks: hands stay out of the logs, a failure is logged
with its table and answered politely, a lobby Discord refused does not block its channel, and a
table whose record is damaged answers clearly while the other tables play on."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import sqlite3
from pathlib import Path

import pytest

from bot.alerts import WebhookReporter
from bot.errors import Why
from bot.show import answertexts, words
from engine.tiles import ALL_TILES
from i18n import ENGLISH
from tests.alerts import AlertChannel
from tests.fakediscord import Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    card_text,
    refusal_text,
    stored_channel_table,
    stored_log,
    table_of,
    tile_codes,
)
from .test_decisions import COLLAPSE, private_answer, write_state

SECRET_TILES = {"B4": "blue 4", "Y4": "yellow 4", "B10": "blue 10", "G20": "green 20"}
"""Tiles of COLLAPSE that nobody but their owner sees while Alice's and Bob's turns are played:
Carol's hand (B4, Y4) and pile (B10), and the tile Bob draws (G20)."""


def db_file(db_url: str) -> Path:
    return Path(db_url.removeprefix("sqlite:///"))


async def test_hands_never_reach_the_channel_or_the_logs(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling)
    after = await table.play(world.bob, after)  # Bob plays red 2 and draws green 20
    assert TableDriver.decider(after) == world.carol.id
    # Carol does see her own hand.
    hand = await table.hand_for(world.carol, after)
    assert {"blue 4", "yellow 4"} <= set(table.tiles(hand))

    secret = re.compile(
        r"\b(" + "|".join([*SECRET_TILES, *SECRET_TILES.values()]) + r")\b", re.IGNORECASE
    )
    for m in table.bot_messages():
        assert not secret.search(m.content + m.embed_text() + card_text(m)), m.content
    logged = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert logged, "nothing was logged at INFO: the check would prove nothing"
    for record in logged:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        assert not secret.search(text), f"a hidden tile in the log: {text}"


async def test_an_unexpected_failure_is_logged_with_its_table_and_answered(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    table_id = table_of(game)
    # Discord refuses the answer to Bob's /fp hand once, with an error the bot does not expect.
    world.fake.faults.error(
        "POST /webhooks/{application_id}/{token}",
        status=400,
        code=50035,
        message="Invalid Form Body",
    )
    with caplog.at_level(logging.ERROR, logger="bot"):
        ix = await table.slash(world.bob, "fp hand")
        reply = await private_answer(ix)
    assert reply == words.SAFE and "Traceback" not in reply
    failures = [r.getMessage() for r in caplog.records if "/fp hand" in r.getMessage()]
    assert failures, "the failure was not logged"
    assert failures[0].startswith(f"table {table_id}:"), failures
    # Nothing was lost: Bob asks again and gets his hand.
    hand = await answer(await table.slash(world.bob, "fp hand"))
    assert hand.ephemeral and "R2" in tile_codes(hand)


async def test_a_lobby_discord_refused_does_not_block_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    world.fake.faults.error(
        "POST /channels/{channel_id}/messages",
        status=503,
        code=0,
        message="Service Unavailable",
        channel_id=world.games.id,
    )
    ix = await table.slash(world.alice, "fp new")
    refused = await private_answer(ix)
    assert refused == answertexts.lobby_not_posted(
        ConnectionResetError(), lang=ENGLISH
    )  # any failure but Forbidden
    assert await stored_channel_table(db_url, world.games.id) is None  # no table was opened
    lobby = await table.open(world.bob, world.alice)  # the channel is free
    assert ("join", "") in button_actions(lobby)


async def test_a_lobby_lost_on_the_network_does_not_block_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    # The connection drops while the lobby is posted (discord.py retries a reset connection
    # a few times: every try fails).
    world.fake.faults.disconnect(
        "POST /channels/{channel_id}/messages", times=None, channel_id=world.games.id
    )
    ix = await table.slash(world.alice, "fp new")
    refused = await private_answer(ix)
    assert refused == answertexts.lobby_not_posted(ConnectionResetError(), lang=ENGLISH)
    world.fake.faults.clear()
    assert not table.bot_messages()  # nothing was posted
    assert await stored_channel_table(db_url, world.games.id) is None  # no table was opened
    lobby = await table.open(world.bob, world.alice)  # the channel is free
    assert ("join", "") in button_actions(lobby)


async def test_a_damaged_table_answers_clearly_and_the_others_play_on(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    first = await table.open(world.alice, world.bob, world.carol, time_limit=3600)
    damaged = await table.start(world.alice)
    other = TableDriver(world.fake, world.general, table.users)
    await other.open(world.alice, world.bob, world.carol, time_limit=3600)
    game = await other.start(world.alice)

    with sqlite3.connect(db_file(db_url)) as conn:
        conn.execute(
            "UPDATE tables SET state = '{not json' WHERE channel_id = ?", (world.games.id,)
        )
    ix = await table.click(world.bob, damaged, "My hand")
    assert await private_answer(ix) == refusal_text(Why.UNREADABLE_TABLE)
    ix = await table.slash(world.carol, "fp status")
    assert await private_answer(ix) == refusal_text(Why.UNREADABLE_CHANNEL_TABLE)
    ix = await table.slash(world.alice, "fp new")
    reply = await private_answer(ix)
    # The damaged table still holds its channel: no second table is opened over it.
    game_thread = first.id  # the game's thread, started from its lobby message, has its id
    link = f"https://discord.com/channels/{world.guild.id}/{game_thread}/{game_thread}"
    assert reply == answertexts.channel_busy(link, lang=ENGLISH)

    # The other table plays on, by clicks and by its timer.
    falling = await other.play(world.alice, game)
    assert TableDriver.decider(falling) == world.alice.id
    clock.advance(3601)
    other_id = other.table_id()

    for _ in range(int(TIMEOUT / 0.1)):  # the fall logged for Alice's seat, by no person
        log = await stored_log(db_url, other_id)
        if any("fall" in a.action and a.seat == 0 and a.user_id is None for a in log):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the game did not choose Alice's fall when her time ran out")

    # The damaged table's host cannot vouch for it; a member who manages the channel closes it,
    # and the channel is free again.
    ix = await table.slash(world.alice, "fp abort")
    assert await private_answer(ix) == refusal_text(Why.UNREADABLE_ABORT)
    moderators = world.fake.create_role(world.guild, "moderators", Perm.MANAGE_CHANNELS)
    world.fake.state.add_member(world.guild, world.dave.account, [moderators])
    ix = await table.slash(world.dave, "fp abort")
    assert await private_answer(ix) == answertexts.ABORT_DONE
    lobby = await table.open(world.bob, world.carol)
    assert ("join", "") in button_actions(lobby)


async def test_a_damaged_database_is_not_called_safe(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database file is overwritten under the running bot: a click is answered with what
    happened (the database is damaged, nothing was saved), never "the game is safe", and the
    owner finds it in the log."""
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    path = db_file(db_url)
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the file, read afresh
    conn.close()
    size = path.stat().st_size
    with path.open("r+b") as f:  # every page but the first (the header) turned to garbage
        f.seek(4096)
        f.write(bytes(random.Random(7).randrange(256) for _ in range(size - 4096)))
    with caplog.at_level(logging.ERROR, logger="bot"):
        ix = await table.click(world.bob, game, "My hand")
        reply = await private_answer(ix)
    assert reply == words.DAMAGED and reply != words.SAFE
    assert any("damaged" in r.getMessage() for r in caplog.records)


async def test_a_damaged_game_is_reported_without_its_tiles_in_the_log_and_to_the_operator(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A stored state holding a tile twice (the engine's words name the tile and the hands)."""
    alerts = AlertChannel.of(world)
    reporter = WebhookReporter(alerts.url, interval_s=3600)
    logging.getLogger().addHandler(reporter)
    reporter.start()
    try:
        await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
        await table.open(world.alice, world.bob, world.carol)
        game = await table.start(world.alice)
        with sqlite3.connect(db_file(db_url)) as conn:
            (text,) = conn.execute(
                "SELECT state FROM tables WHERE id = ?", (table_of(game),)
            ).fetchone()
            state = json.loads(text)
            state["hands"][1].append(state["hands"][0][0])  # Alice's yellow 40, in Bob's too
            conn.execute(
                "UPDATE tables SET state = ? WHERE id = ?", (json.dumps(state), table_of(game))
            )
        caplog.set_level(logging.INFO)
        ix = await table.click(world.bob, game, "My hand")
        assert await private_answer(ix) == refusal_text(Why.UNREADABLE_TABLE)
        await world.fake.wait_for(lambda: alerts.contents, TIMEOUT, "the operator's alert")
    finally:
        await reporter.stop()
        logging.getLogger().removeHandler(reporter)
    (alert,) = alerts.contents
    assert f"table {table_of(game)}: unreadable record" in alert
    tiles = re.compile(r"\b(" + "|".join(ALL_TILES) + r")\b|hands\[")
    assert not tiles.search(alert), alert
    logged = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert any("unreadable record" in r.getMessage() for r in logged)
    for record in logged:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        assert not tiles.search(text), f"a tile in the log: {text}"

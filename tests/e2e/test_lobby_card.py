"""The lobby card as players meet it: one Components V2 message (no content, no embed, never a
ping) with the seats, the options, Join / Leave for everyone, the host's own row and menu, and
"How to play"; after Start, where the game is; a lobby nobody starts closes after a day, also
across a restart; a card an older version posted as an embed still works and becomes the
layout."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.app import Bot
from bot.components import OUT_OF_DATE
from bot.errors import Why
from bot.kept import Kept
from bot.service import LOBBY_TTL_S
from bot.show import lobbytexts, texts
from bot.tablebuttons import JoinButton
from tests.fakediscord import Message, Perm
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MakeBot, MovableClock, bot_config
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    card_text,
    lobby_controls,
    refusal_text,
    stored_channel_table,
    stored_log,
    stored_table,
    table_of,
)
from .test_decisions import private_answer

V2 = 1 << 15


def later(world: World, clock: MovableClock, seconds: float) -> None:
    """Time passes for everyone: the bot's clock and the fake Discord's."""
    clock.advance(seconds)
    world.fake.advance_time(seconds)


async def settled_after(world: World, card: Message, revisions: int, what: str) -> None:
    await world.fake.wait_for(
        lambda: len(card.revisions) > revisions and card.settled, TIMEOUT, what
    )


async def test_a_stranger_joins_but_the_host_controls_refuse_them(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None
    # One V2 message: no content, no embed, nobody notified; the host's controls apart.
    assert lobby.flags & V2 and lobby.content == "" and lobby.embeds == []
    assert lobby.notified == []
    text = card_text(lobby)
    assert f"Host: <@{world.alice.id}>" in text and "**Host**" in text
    assert "curse off" in text and "1. Alice" in text and "(1/6)" in text
    assert [a for a, _ in button_actions(lobby)] == [
        "howto",
        "join",
        "leave",
        "start",
        "cancel",
    ]
    assert lobby_controls(lobby)[-1] == "ai"  # the menu, last: in the host's part

    await table.click(world.bob, lobby, "Join")
    await world.fake.wait_for(lambda: "2. Bob" in card_text(lobby), TIMEOUT, "Bob seated")
    record = await stored_table(db_url, table_id)
    shown, revisions = card_text(lobby), len(lobby.revisions)

    for label, why in (("Start", Why.HOST_ONLY_START), ("Cancel", Why.HOST_ONLY_CANCEL)):
        ix = await table.click(world.bob, lobby, label)
        assert await private_answer(ix) == refusal_text(why)
    ix = await world.bob.select(lobby, "hard")
    assert await private_answer(ix) == refusal_text(Why.HOST_ONLY_ADD_AI)
    # Nothing changed: the table as stored, the card as shown.
    assert await stored_table(db_url, table_id) == record
    assert len(lobby.revisions) == revisions and card_text(lobby) == shown


async def test_the_host_adds_a_hard_computer_with_the_menu(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    (menu,) = lobby.selects()
    assert menu["placeholder"] == lobbytexts.ADD_COMPUTER
    assert [o["label"] for o in menu["options"]] == [
        "Easy computer",
        "Normal computer",
        "Hard computer",
        "Expert computer",
    ]
    await table.add_computer(world.alice, "hard")
    table_id = table_of(lobby)
    assert table_id is not None
    seats = (await stored_table(db_url, table_id)).seats
    assert [s.ai for s in seats] == [None, None, "hard"]
    # The seat reads the computer's stored name, with its level.
    assert f"3. {texts.esc(seats[2].name)} · 🤖 computer, hard" in card_text(lobby)
    assert "(3/6)" in card_text(lobby)
    assert "rmai" in lobby_controls(lobby)


async def test_how_to_play_answers_privately_and_changes_nothing(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    revisions = len(lobby.revisions)
    shown = await answer(await table.click(world.dave, lobby, "How to play"))
    assert shown.ephemeral and shown.content.startswith("**How to play Flaming Pyramids here**")
    assert "Flaming Pyramids in short" in shown.embed_text()  # the rules of /fp rules
    assert {a.filename for a in shown.attachments} == {"fits.png", "collapse.png"}
    assert len(lobby.revisions) == revisions
    assert world.dave.ephemerals(world.games) == [shown]


async def test_a_lobby_nobody_starts_expires_after_a_day(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str, clock: MovableClock
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    table_id = table_of(lobby)
    assert table_id is not None
    opened = await stored_table(db_url, table_id)
    assert opened.deadline == opened.created_at + LOBBY_TTL_S
    assert f"It closes <t:{int(opened.deadline)}:R>" in card_text(lobby)

    later(world, clock, LOBBY_TTL_S - 60)  # not yet: a few looks of the timer loop
    await asyncio.sleep(0.3)
    assert (await stored_table(db_url, table_id)).status == "lobby"

    later(world, clock, 61)
    await world.fake.wait_for(
        lambda: "This lobby expired" in card_text(lobby) and lobby.settled, TIMEOUT, "expiry"
    )
    assert lobby.buttons() == [] and lobby.selects() == []
    assert (await stored_table(db_url, table_id)).status == "cancelled"
    assert await stored_channel_table(db_url, world.games.id) is None
    # The channel is free: a new table opens there.
    again = await table.open(world.bob)
    assert again is not lobby and table_of(again) != table_id


async def test_a_lobby_expires_after_a_restart_and_an_older_lobby_gets_a_day(
    world: World, start_bot: StartBot, table: TableDriver, db_url: str, clock: MovableClock
) -> None:
    runner = await start_bot(Bot(bot_config(db_url), clock=clock))
    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None
    await runner.stop()
    later(world, clock, LOBBY_TTL_S + 5)  # the day passes while the bot is down
    await runner.restart(Bot(bot_config(db_url), clock=clock))
    await world.fake.wait_for(
        lambda: "This lobby expired" in card_text(lobby) and lobby.settled, TIMEOUT, "expiry"
    )
    assert (await stored_table(db_url, table_id)).status == "cancelled"


@pytest.mark.parametrize("thread", [True, False], ids=["in-a-thread", "in-the-channel"])
async def test_a_game_started_from_the_card_runs_to_its_first_move(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str, thread: bool
) -> None:
    if not thread:
        world.fake.set_permissions(world.games, "bot", deny=Perm.CREATE_PUBLIC_THREADS)
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    await world.fake.wait_for(
        lambda: not lobby_controls(lobby) and lobby.settled, TIMEOUT, "the card after Start"
    )
    guild = world.guild.id
    if thread:
        assert game.channel is table.thread() is not None
        url, where = f"https://discord.com/channels/{guild}/{game.channel.id}", "in its thread"
    else:
        assert game.channel is world.games
        url = f"https://discord.com/channels/{guild}/{world.games.id}/{game.id}"
        where = "in the channel"
    assert f"**The game has started:** follow it [{where}]({url})." in card_text(lobby)
    (link,) = [b for b in lobby.buttons() if b.get("style") == 5]
    assert (link["label"], link["url"]) == ("Go to the game", url)
    assert [a for a, _ in button_actions(lobby)] == ["howto"]
    # The game goes on: the first player's move is played, kept and shown.
    first = TableDriver.decider(game)
    assert first in (world.alice.id, world.bob.id)
    after = await table.play(table.users[first], game)
    assert after.id != game.id or len(after.revisions) > 1
    log = await stored_log(db_url, table.table_id())
    assert log and (log[0].user_id, "play" in log[0].action) == (first, True)


async def test_a_card_an_older_version_posted_as_an_embed_becomes_the_layout(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    bot = await run_bot()
    board = await bot.service.new_table(world.guild.id, world.games.id, world.alice.id, "Alice")
    # As the older version posted it: an embed, and buttons in a classic action row.
    old = discord.ui.View(timeout=None)
    old.add_item(JoinButton(board.table_id, board.version, label="Join"))
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    posted = await channel.send(
        embed=discord.Embed(title=f"Flaming Pyramids — table {board.table_id}"), view=old
    )
    await bot.desk.show.outbox.ledger.remember(board.table_id, Kept.LOBBY, posted.id)
    card = world.fake.latest_message(world.games)
    assert not card.flags & V2 and card.embeds

    revisions = len(card.revisions)
    await table.click(world.bob, card, "Join")
    await settled_after(world, card, revisions, "the old card edited")
    assert card.flags & V2 and card.embeds == [] and card.content == ""
    assert "2. Bob" in card_text(card) and "start" in lobby_controls(card)
    game = await table.start(world.alice)
    assert game.channel is not None


def forged_menu(world: World, custom_id: str, value: str) -> Message:
    """A message of the bot's that it never sent, with one menu of the given custom id whose
    one option is ``value`` (as a modified client could send any id and any value)."""
    state = world.fake.state
    menu = {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": value, "value": value}],
    }
    body = {"content": "Pick", "components": [{"type": 1, "components": [menu]}]}
    msg = state.create_message(world.games, state.bot, body, [])
    msg.settled_at = asyncio.get_running_loop().time()
    return msg


async def test_a_menu_pick_or_id_out_of_range_is_refused_privately(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None
    (menu,) = lobby.selects()
    record = await stored_table(db_url, table_id)
    for cid, value in (
        (menu["custom_id"], "master"),  # no such level
        (menu["custom_id"].replace(":ai", ":start"), "hard"),  # no such menu
        (f"fps:{table_id}:99999999999999999999:ai", "hard"),  # a version out of range
    ):
        ix = await world.alice.select(forged_menu(world, cid, value), value)
        assert await private_answer(ix) == OUT_OF_DATE
    assert await stored_table(db_url, table_id) == record
    assert len(lobby.revisions) == 1


async def test_fp_status_in_a_lobby_shows_the_card_whose_join_works(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    copy = await answer(await table.slash(world.bob, "fp status"))
    assert copy is not lobby and copy.flags & V2 and copy.notified == []
    assert card_text(copy) == card_text(lobby)
    revisions = len(copy.revisions)
    await table.click(world.bob, copy, "Join")
    await settled_after(world, copy, revisions, "the copy edited")
    assert "2. Bob" in card_text(copy)
    t = table_of(lobby)
    assert t is not None
    assert [s.user_id for s in (await stored_table(db_url, t)).seats] == [
        world.alice.id,
        world.bob.id,
    ]

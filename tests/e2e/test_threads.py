"""A game in a thread of its own: started from the lobby message at Start, the game's messages
go there, its channel takes the next lobby, and a game that waits for days is still reached."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import Why
from bot.show import texts
from data import PlayerPrefs
from tests.fakediscord import ThreadArchived
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import ChannelType, Perm

from .conftest import MakeBot
from .driver import (
    TableDriver,
    answer,
    button_actions,
    is_players_turn,
    lobby_controls,
    refusal_text,
    stored_channel_table,
    stored_prefs,
    table_of,
    turn_notices,
)
from .test_decisions import COLLAPSE, begin, private_answer

WEEK_S = 7 * 24 * 3600


async def test_a_started_game_lives_in_a_thread_of_the_lobby_and_the_channel_takes_a_new_lobby(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    lobby = table.lobby()
    game = await table.start(world.alice)
    thread = table.thread()
    assert thread is not None and lobby.thread is thread  # started from the lobby message
    assert thread.type == ChannelType.PUBLIC_THREAD and thread.parent is world.games
    assert thread.name == f"Flaming Pyramids · table {table_of(game)}"
    assert thread.auto_archive_duration == 10080  # the longest Discord offers
    assert game.channel is thread
    # The channel holds the lobby card only: every game message is in the thread.
    in_channel = [m for m in world.fake.messages(world.games) if m.author.id == world.fake.bot.id]
    assert in_channel == [lobby]
    after = await table.play(world.alice, game)
    assert after.channel is thread
    # Commands typed in the thread act on its table.
    status = await answer(await table.slash(world.bob, "fp status"))
    assert status.channel is thread and table_of(status) == table_of(game)
    # Typed in the channel, a command says where the game is.
    ix = await world.carol.slash("fp status", world.games)
    assert await private_answer(ix) == refusal_text(Why.GAMES_IN_THREADS, threads=(thread.id,))
    # The channel is free: dave opens the next table there while the game goes on.
    ix = await world.dave.slash("fp new", world.games)
    await ix.wait_response()
    lobbies = [m for m in world.fake.messages(world.games) if ("join", "") in button_actions(m)]
    assert len(lobbies) == 1 and lobbies[0] is not lobby
    nxt = await stored_channel_table(db_url, world.games.id)
    assert nxt is not None and nxt.status == "lobby" and nxt.host_id == world.dave.id
    assert nxt.id == table_of(lobbies[0]) != table_of(game)


async def test_without_the_thread_permissions_the_game_stays_in_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    world.fake.set_permissions(world.games, "bot", deny=Perm.CREATE_PUBLIC_THREADS)
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    assert world.fake.threads(world.games) == []
    assert game.channel is world.games
    after = await table.play(world.alice, game)
    assert after.channel is world.games


async def test_a_game_that_waits_a_week_is_reached_again_through_its_archived_thread(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    lobby = table.lobby()
    game = await table.start(world.alice)
    thread = table.place()
    await world.fake.wait_for(lambda: not lobby_controls(lobby) and lobby.settled, 10, "lobby edit")
    world.fake.advance_time(WEEK_S + 60)  # nobody wrote in the thread for a week
    assert world.fake.thread_archived(thread)
    with pytest.raises(ThreadArchived):  # a command typed there would never reach the bot
        await world.bob.slash("fp status", thread)
    # Alice's hand by direct message still works; the bot's post reopens the thread.
    falling = await table.play(world.alice, game)
    assert falling.channel is thread
    assert not world.fake.thread_archived(thread)
    assert ("fall", "left") in button_actions(falling)
    status = await answer(await table.slash(world.bob, "fp status"))  # in the reopened thread
    assert status.channel is thread and table_of(status) == table_of(game)


async def test_a_players_turn_brings_one_short_dm_and_the_hand_is_one_message_edited(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # Alice's own fall next: no turn for Bob yet
    bob_hand = table.hand_message(world.bob)
    assert bob_hand is not None
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    await world.fake.wait_for(lambda: turn_notices(world.bob), 10, "Bob's turn DM")
    [notice] = turn_notices(world.bob)
    assert "Alice" in notice.content  # what happened since his last move: Alice's turn
    links = [b.get("url") or "" for b in notice.buttons()]
    thread = table.place()
    assert links == [  # to the table's newest message, and to his hand
        f"https://discord.com/channels/{world.guild.id}/{thread.id}/{after.id}",
        f"https://discord.com/channels/@me/{bob_hand.channel.id}/{bob_hand.id}",
    ]
    # Still one hand message, brought up to date in place: now it is his turn.
    await world.fake.wait_for(
        lambda: is_players_turn(bob_hand) and bob_hand.settled, 10, "Bob's hand"
    )
    hands = [m for m in world.bob.dms() if m.images()]
    assert hands == [bob_hand]


async def test_notify_turns_the_turn_dm_off_and_says_the_choices(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    ix = await world.bob.slash("fp notify", world.games, turn=False)
    reply = await answer(ix)
    assert reply.ephemeral
    prefs = await stored_prefs(db_url, world.bob.id)
    assert (prefs.dm_on_turn, prefs.reminders) == (False, True)
    chosen = texts.notify_choices(PlayerPrefs(world.bob.id, dm_on_turn=False, reminders=True))
    assert reply.content == chosen  # the choices as they now stand
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    bob_hand = table.hand_message(world.bob)
    assert bob_hand is not None
    await world.fake.wait_for(
        lambda: is_players_turn(bob_hand) and bob_hand.settled, 10, "Bob's hand"
    )
    assert not turn_notices(world.bob)
    ix = await world.bob.slash("fp notify", world.games)  # no option: the choices as they are
    assert (await answer(ix)).content == chosen

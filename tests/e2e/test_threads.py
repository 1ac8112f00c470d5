"""A game in a thread of its own: started from the lobby message at Start, the game's messages
go there, its channel takes the next lobby, and a game that waits for days is still reached."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import Why
from bot.show import answertexts, texts
from data import PlayerPrefs
from i18n import ENGLISH
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
    silent_screens,
    stored_channel_table,
    stored_prefs,
    stored_table,
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
    game_id = table_of(game)
    assert game_id is not None
    number = (await stored_table(db_url, game_id)).number
    assert number == 1 and thread.name == texts.thread_name(number, lang=ENGLISH)  # not the long id
    assert thread.auto_archive_duration == 10080  # the longest Discord offers
    assert game.channel is thread
    # The channel holds the lobby card only: every game message is in the thread.
    in_channel = [m for m in world.fake.messages(world.games) if m.author.id == world.fake.bot.id]
    assert in_channel == [lobby]
    after = await table.fall(world.alice, await table.play(world.alice, game))  # her turn
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
    assert nxt.number == 2


async def test_without_the_thread_permissions_the_game_stays_in_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    world.fake.set_permissions(world.games, "bot", deny=Perm.CREATE_PUBLIC_THREADS)
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    assert world.fake.threads(world.games) == []
    assert game.channel is world.games
    after = await table.fall(world.alice, await table.play(world.alice, game))  # her turn
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
    after = await table.fall(world.alice, await table.play(world.alice, game))  # her turn
    assert after.channel is thread
    assert not world.fake.thread_archived(thread)
    assert TableDriver.decider(after) == world.bob.id
    status = await answer(await table.slash(world.bob, "fp status"))  # in the reopened thread
    assert status.channel is thread and table_of(status) == table_of(game)


async def test_a_players_turn_comes_as_one_new_screen_with_the_board_and_the_hand(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # Alice's own fall next: no turn for Bob yet
    assert table.hand_message(world.bob) is None  # nothing to decide, nothing sent
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    assert after.notified == []  # told by direct message, not pinged as well
    await world.fake.wait_for(lambda: turn_notices(world.bob), 10, "Bob's turn screen")
    [screen] = turn_notices(world.bob)
    await world.fake.wait_for(lambda: screen.settled, 10, "Bob's screen")
    # The screen he plays on: what happened since his last move (Alice's turn), the board
    # with his hand in one picture, his tiles as buttons, a link to the table.
    assert "Alice" in screen.content
    assert [a.filename for a in screen.images()] == ["turn.png"]
    assert is_players_turn(screen)
    links = [b.get("url") or "" for b in screen.buttons() if b.get("url")]
    thread = table.place()
    assert links == [f"https://discord.com/channels/{world.guild.id}/{thread.id}/{after.id}"]
    # His tile and spot clicks happen on that same message; the last one closes it.
    before = len(screen.revisions)
    await table.click(world.bob, screen, table.tile_labels(screen)[0])
    await table.screen_after(screen, before, "Bob's spot step")
    await table.click_spot(world.bob, screen, "A")
    await world.fake.wait_for(
        lambda: not screen.buttons() and screen.settled, 10, "Bob's screen closed"
    )
    assert [m for m in world.bob.dms() if m.revisions[0].attachments] == [screen]


async def test_notify_turns_the_turn_dm_off_and_says_the_choices(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    ix = await world.bob.slash("fp notify", world.games, turn=False)
    reply = await answer(ix)
    assert reply.ephemeral
    prefs = await stored_prefs(db_url, world.bob.id)
    assert (prefs.dm_on_turn, prefs.reminders) == (False, True)
    chosen = answertexts.notify_choices(
        PlayerPrefs(world.bob.id, dm_on_turn=False, reminders=True), lang=ENGLISH
    )
    assert reply.content == chosen  # the choices as they now stand
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    # No notification by DM: he is pinged in the thread instead, and his screen comes
    # silently (a direct message without a push).
    assert after.notified == [world.bob.id]
    await world.fake.wait_for(lambda: silent_screens(world.bob), 10, "Bob's silent screen")
    [bob_screen] = silent_screens(world.bob)
    assert is_players_turn(bob_screen)
    assert not turn_notices(world.bob)
    ix = await world.bob.slash("fp notify", world.games)  # no option: the choices as they are
    assert (await answer(ix)).content == chosen

"""A player whose direct messages are closed: the bot remembers Discord's refusal (50007) for
the player, stops DMing them, mentions them in the table's thread instead, tells the table once
how to open their DMs, and tries a DM again only when they ask for it or a day later.

Every refused request counts toward Discord's invalid-request limit (10,000 in 10 minutes, then
the bot's address is banned for a while): the whole game below counts them in the fake's log."""

from __future__ import annotations

import asyncio

from bot.app import Bot
from bot.service.core import DM_RETRY_S
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, answer, is_final
from .test_full_game import SHORT_SEED

CLOSED_NOTICE = "cannot send you direct messages"
WEEK = 7 * 24 * 3600
"""The tables below give a week per turn, so moving the clock a day times nobody out."""


def refused(world: World) -> list[str]:
    """Every request of the bot that Discord refused (what counts toward its invalid-request
    limit), as "status code route"."""
    return [
        f"{r.status} {r.error_code} {r.route}"
        for r in world.fake.requests
        if r.status is not None and r.status >= 400
    ]


def refused_dms(world: World) -> int:
    return sum(1 for r in world.fake.requests if r.status == 403 and r.error_code == 50007)


def notices(table: TableDriver) -> list[Message]:
    return [m for m in table.bot_messages() if CLOSED_NOTICE in m.content]


async def until_turn_of(table: TableDriver, user: FakeUser, game: Message) -> Message:
    """Play (as whoever is asked) until ``user`` must place a tile."""
    for _ in range(40):
        if TableDriver.decider(game) == user.id and "Fall left" not in game.labels():
            return game
        game = await table.step(game)
    raise AssertionError(f"{user.name}'s turn never came")


async def test_a_whole_game_with_closed_dms_sends_at_most_three_refused_requests(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    dave = world.dave
    assert not dave.dms_open
    await run_bot(seed=SHORT_SEED)
    await table.open(world.alice, world.bob, dave)
    game = await table.start(world.alice)
    final = await table.play_to_the_end(game)
    assert is_final(final)
    for user in (world.alice, world.bob):  # the game's last DMs went out
        hand = next(m for m in user.dms() if m.revisions[0].attachments)
        await world.fake.wait_for(
            lambda h=hand: not h.buttons() and h.settled, TIMEOUT, "hands closed"
        )
    print(  # the figure for the report
        f"refused requests in a whole game with one player's DMs closed: {len(refused(world))} "
        f"{refused(world)}"
    )
    assert len(refused(world)) <= 3
    assert refused_dms(world) >= 1  # the bot did find out
    assert [m for m in world.fake.dm_messages(dave)] == []
    # He was told once, in the thread, and mentioned there on each of his turns: the first
    # time by that notice itself (the bot had hoped to tell him by DM), then by the move's
    # message.
    (notice,) = notices(table)
    assert dave.id in notice.notified
    assert "Allow direct messages from server members" in notice.content
    assert "/fp notify" in notice.content
    turns = 0
    before = None
    for m in reversed(table.game_messages()):  # oldest first
        asked = TableDriver.decider(m)
        if asked == dave.id and before != dave.id:  # his turn begins here
            if turns == 0:
                assert dave.id in m.notified or m.id < notice.id, m.content
            else:
                assert dave.id in m.notified, m.content
            turns += 1
        before = asked
    assert turns >= 2


async def remembered(bot: Bot, user: FakeUser, *, refused: bool) -> float | None:
    """When the store says ``user``'s DMs were refused, once it says so (``refused``) or
    says nothing is remembered (not ``refused``)."""
    for _ in range(200):
        at = await bot.store.dm_refused_at(user.id)
        if (at is not None) == refused:
            return at
        await asyncio.sleep(0.02)
    raise AssertionError(f"the store never said {user.name}'s DMs were refused={refused}")


async def next_turn_of(table: TableDriver, user: FakeUser, game: Message) -> Message:
    """Play ``user``'s turn (if it is theirs now), then on until their next turn."""
    return await until_turn_of(table, user, await table.step(game))


async def test_closed_dms_are_tried_again_a_day_later_and_an_open_one_is_forgotten(
    world: World, run_bot: MakeBot, table: TableDriver, clock: MovableClock
) -> None:
    dave = world.dave
    bot: Bot = await run_bot()
    await table.open(world.alice, world.bob, dave, time_limit=WEEK)
    game = await until_turn_of(table, dave, await table.start(world.alice))
    refused_at = await remembered(bot, dave, refused=True)
    assert refused_at is not None
    first = refused_dms(world)
    assert 1 <= first <= 2
    game = await next_turn_of(table, dave, game)
    assert refused_dms(world) == first
    # Less than a day later: no DM is tried.
    clock.advance(DM_RETRY_S - 3600)
    game = await next_turn_of(table, dave, game)
    assert refused_dms(world) == first
    # A day after the refusal: one DM is tried, refused again, and remembered from then on.
    clock.advance(3601)
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: refused_dms(world) == first + 1, TIMEOUT, "a new try")
    for _ in range(200):
        later = await bot.store.dm_refused_at(dave.id)
        if later is not None and later > refused_at:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the new refusal was not remembered")
    game = await next_turn_of(table, dave, game)
    game = await next_turn_of(table, dave, game)
    assert refused_dms(world) == first + 1
    assert len(notices(table)) == 1  # the table was told once
    # He opens his DMs; a day later the next try goes through and the refusal is forgotten.
    world.fake.set_dms_open(dave, True)
    clock.advance(DM_RETRY_S + 1)
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: table.hand_message(dave), TIMEOUT, "Dave's hand by DM")
    await remembered(bot, dave, refused=False)
    assert refused_dms(world) == first + 1


async def test_notify_tries_closed_dms_again_at_once_and_an_open_one_is_forgotten(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    dave = world.dave
    bot: Bot = await run_bot()
    await table.open(world.alice, world.bob, dave, time_limit=WEEK)
    game = await until_turn_of(table, dave, await table.start(world.alice))
    await remembered(bot, dave, refused=True)
    first = refused_dms(world)
    game = await next_turn_of(table, dave, game)
    assert refused_dms(world) == first
    # He asks with /fp notify while his DMs are still closed: his next turn tries once more.
    await answer(await table.slash(dave, "fp notify"))
    assert await bot.store.dm_refused_at(dave.id) is None
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: refused_dms(world) == first + 1, TIMEOUT, "a new try")
    await remembered(bot, dave, refused=True)
    game = await next_turn_of(table, dave, game)
    assert refused_dms(world) == first + 1
    # He opens them and asks again: his hand arrives by DM and nothing is remembered.
    world.fake.set_dms_open(dave, True)
    await answer(await table.slash(dave, "fp notify"))
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: table.hand_message(dave), TIMEOUT, "Dave's hand by DM")
    await remembered(bot, dave, refused=False)
    assert len(notices(table)) == 1
    assert refused_dms(world) == first + 1


async def test_the_hand_mode_button_tries_closed_dms_again(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    dave = world.dave
    bot: Bot = await run_bot()
    await table.open(world.alice, world.bob, dave, time_limit=WEEK)
    game = await until_turn_of(table, dave, await table.start(world.alice))
    await remembered(bot, dave, refused=True)
    world.fake.set_dms_open(dave, True)
    # His private hand offers DMs again (he is shown as a player on private hands).
    screen = await answer(await table.click(dave, game, "My hand"))
    assert "Send my hands by DM" in screen.labels()
    chosen = await answer(await table.click(dave, screen, "Send my hands by DM"))
    assert "direct message" in chosen.content
    assert await bot.store.dm_refused_at(dave.id) is None
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: table.hand_message(dave), TIMEOUT, "Dave's hand by DM")
    assert len(notices(table)) == 1


async def test_a_new_table_does_not_dm_a_player_whose_dms_were_refused_but_tells_them_once(
    world: World, run_bot: MakeBot, table: TableDriver, clock: MovableClock
) -> None:
    dave = world.dave
    bot: Bot = await run_bot()
    await bot.store.note_dm_refused(dave.id, clock() - 3600)  # at another table, an hour ago
    await table.open(world.alice, world.bob, dave, time_limit=WEEK)
    game = await until_turn_of(table, dave, await table.start(world.alice))
    game = await next_turn_of(table, dave, game)
    await world.fake.wait_for(lambda: notices(table), TIMEOUT, "the closed-DMs notice")
    (notice,) = notices(table)
    assert dave.id in notice.notified
    assert refused_dms(world) == 0
    assert refused(world) == []

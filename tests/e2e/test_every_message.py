"""Every kind of message the bot sends passes Discord's checks, as the strict fake applies them.

Players here have 32-character names full of markdown and mentions. Each test drives one family
of messages (a whole match with every option and computer players, each decision kind, reminders
and timeouts, every command and every error reply) and checks that the fake refused nothing,
that every move posted its picture, and that no name pinged or formatted anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.errors import Why
from bot.show import answertexts
from i18n import ENGLISH
from tests.fakediscord import CommandNotSynced, FakeUser, Message, Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    card_text,
    is_final,
    is_game_message,
    refusal_text,
    tile_codes,
)
from .test_decisions import COLLAPSE, CURSE, FIRE, private_answer, write_state

NAMES = tuple(
    name.ljust(32, "_")
    for name in (
        "**__x__** @everyone <@123> ~~",
        "`code` ||spoiler|| <#1> @here *",
        "> quote [link](http://a.b) ~~s~",
    )
)
"""Display names of the three players, padded to Discord's longest: 32 characters."""
assert all(len(name) == 32 for name in NAMES)

RAW_MENTIONS = ("@everyone", "@here", "<@123>", "<#1>")


def players(world: World) -> list[FakeUser]:
    """Three members with the long names; the third has closed DMs (hands via My hand)."""
    fake = world.fake
    return [
        fake.create_user(f"p{i}", global_name=name, guilds=[world.guild], dms_open=i != 2)
        for i, name in enumerate(NAMES)
    ]


def driver(world: World, people: list[FakeUser]) -> TableDriver:
    return TableDriver(world.fake, world.games, {u.id: u for u in [*people, *world.users]})


def public_messages(world: World) -> list[Message]:
    """What the bot posted in the channel and in DMs (private replies are left out: their
    wording comes from the table service, which names players as they are)."""
    msgs = list(world.fake.messages(world.games))
    for thread in world.fake.threads(world.games):
        msgs += world.fake.messages(thread)
    for u in world.fake.state.accounts.values():
        msgs += world.fake.dm_messages(u)
    return msgs


def assert_all_accepted(world: World, table: TableDriver) -> None:
    """Nothing refused, a picture on every move, and no name pinged or formatted in public."""
    fake = world.fake
    assert [r.reason for r in fake.refusals] == []
    for record in fake.requests:
        assert record.status is None or record.status < 400 or record.status in (403, 404), record
    for m in table.game_messages():
        assert m.picture().size[0] > 0
    for m in public_messages(world):
        if m.author.id != fake.bot.id:
            continue
        text = m.content + m.embed_text() + card_text(m)
        for raw in RAW_MENTIONS:
            assert raw not in text, f"{raw!r} unescaped in {text!r}"
        assert "**__x__**" not in text  # the name's markdown is escaped


async def test_a_six_seat_match_with_every_option_posts_every_picture(
    world: World, run_bot: MakeBot
) -> None:
    await run_bot(seed=877)
    people = players(world)
    table = driver(world, people)
    lobby = await table.open(
        people[0],
        people[1],
        people[2],
        curse=True,
        fire_die=True,
        rounds=2,
        time_limit=900,
        max_seats=6,
    )
    for level in ("easy", "normal", "hard"):
        await table.add_computer(people[0], level)
    assert "(6/6)" in card_text(lobby)
    (menu,) = lobby.selects()  # full: no computer can be added any more
    assert menu["disabled"] and menu["placeholder"] == "The table is full"
    game = await table.start(people[0])
    final = await table.play_to_the_end(game, max_steps=600)
    assert is_final(final) and "wins round 2" in final.content
    assert len(table.game_messages()) > 10
    assert people[2].ephemerals(table.place())  # the hands of the player with closed DMs
    assert_all_accepted(world, table)


async def begin(
    world: World, run_bot: MakeBot, tmp_path: Path, state: dict[str, Any], **options: Any
) -> tuple[TableDriver, list[FakeUser], Message]:
    await run_bot(test_state_file=write_state(tmp_path, state))
    people = players(world)
    table = driver(world, people)
    await table.open(*people, **options)
    return table, people, await table.start(people[0])


async def test_a_curse_and_the_fall_choice_it_hands_on(
    world: World, run_bot: MakeBot, tmp_path: Path
) -> None:
    table, people, game = await begin(world, run_bot, tmp_path, CURSE)
    cursed = await table.play(people[0], game)  # the three 10s go to the previous player
    assert TableDriver.decider(cursed) == people[2].id and "Fall left" in cursed.labels()
    after = await table.fall(people[2], cursed)
    assert TableDriver.decider(after) == people[1].id
    assert_all_accepted(world, table)


async def test_the_fire_die_is_shown_with_long_names(
    world: World, run_bot: MakeBot, tmp_path: Path
) -> None:
    table, people, game = await begin(world, run_bot, tmp_path, FIRE)
    after = await table.play(people[0], game, spot="A")
    assert "\nThe fire die for blue blowtorch (7) showed" in after.content
    assert_all_accepted(world, table)


async def test_reminders_and_timeouts(
    world: World, run_bot: MakeBot, tmp_path: Path, clock: MovableClock
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, dict(COLLAPSE, active=1)))
    people = players(world)
    table = driver(world, people)
    admins = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, people[0].account, [admins])
    ix = await table.slash(people[0], "fp-settings", time_limit=6 * 3600, reminder=3 * 3600)
    assert "reminder 3 hours before the end" in await private_answer(ix)
    await table.open(*people)
    game = await table.start(people[0])
    assert TableDriver.decider(game) == people[1].id
    screen = await table.hand_for(people[1], game, turn=True)
    clock.advance(3 * 3600 + 1)
    # One reminder, by the way the turn came: a direct message, with a link to the screen.
    reminder = await people[1].wait_for_dm(
        lambda m: (
            "is waiting; a computer player will make it for you <t:" in m.content and not m.images()
        )
    )
    links = [b.get("url") or "" for b in reminder.buttons()]
    assert f"https://discord.com/channels/@me/{screen.channel.id}/{screen.id}" in links
    assert not [m for m in table.bot_messages() if m.id > game.id]  # nothing in the thread
    clock.advance(3 * 3600)
    timed_out = await table.settled_game(game.id)
    assert "time ran out" in timed_out.content
    assert_all_accepted(world, table)


async def test_every_command_and_every_error_reply(
    world: World, run_bot: MakeBot, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    people = players(world)
    table = driver(world, people)
    host, guest, third = people
    outsider = world.dave

    async def private(user: FakeUser, command: str, **options: Any) -> str:
        return await private_answer(await table.slash(user, command, **options))

    # No table yet.
    no_table = refusal_text(Why.NO_TABLE_HERE)
    for command in ("fp status", "fp leave", "fp abort"):
        assert await private(host, command) == no_table
    assert await private(host, "fp hand") == no_table
    with pytest.raises(CommandNotSynced, match="default_member_permissions"):
        await private(guest, "fp-settings", time_limit=3600)  # Discord hides it from him
    rules = await answer(await table.slash(outsider, "fp rules"))
    assert rules.ephemeral and len(rules.images()) == 2
    # The lobby.
    lobby = await table.open(host, guest, third)
    link = f"https://discord.com/channels/{world.guild.id}/{lobby.channel.id}/{lobby.id}"
    assert await private(outsider, "fp new") == answertexts.channel_busy(link, lang=ENGLISH)
    start = await private_answer(await table.click(guest, lobby, "Start"))
    assert start == refusal_text(Why.HOST_ONLY_START)
    leave = await private_answer(await table.click(outsider, lobby, "Leave"))
    assert leave == refusal_text(Why.NO_SEAT)
    # The game.
    game = await table.start(host)
    watched = await answer(await table.slash(outsider, "fp status"))
    assert watched.ephemeral and watched.images()
    status = await answer(await table.slash(third, "fp status"))
    assert is_game_message(status)
    hand = await answer(await table.slash(third, "fp hand"))
    assert hand.ephemeral and tile_codes(hand)
    assert await private(outsider, "fp hand") == refusal_text(Why.NOT_PLAYING)
    assert await private(outsider, "fp leave") == refusal_text(Why.NOT_PLAYING)
    mode = await answer(await table.slash(guest, "fp hand", mode="channel"))
    assert mode.ephemeral and "Your hand" in mode.content
    wrong = await table.click(guest, status, "My hand")
    assert (await answer(wrong)).ephemeral
    falling = await table.play(host, status)  # the host's fall, asked on her own screen
    after = await table.fall(host, falling)
    left = await table.leave_match(third)
    assert left.content == answertexts.you_left(True, lang=ENGLISH) and not left.buttons()
    assert await private(guest, "fp abort") == refusal_text(Why.ABORT_WHO)
    assert await private(host, "fp abort") == answertexts.ABORT_DONE
    await world.fake.wait_for(
        lambda: any("aborted" in m.content for m in table.bot_messages()), TIMEOUT, "abort"
    )
    del game, after
    assert_all_accepted(world, table)


async def test_a_player_who_left_every_server_is_told_in_the_channel(
    world: World, run_bot: MakeBot, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, dict(COLLAPSE, active=2)))
    table = driver(world, [])
    await table.open(world.alice, world.bob, world.carol)
    world.fake.remove_member(world.guild, world.carol)  # no server in common with the bot now
    game = await table.start(world.alice)
    notice = await world.fake.wait_for_message(
        table.place(),
        lambda m: m.content.startswith(f"<@{world.carol.id}>, I cannot send you direct messages"),
        timeout=TIMEOUT,
    )
    assert not notice.attachments  # nothing about her tiles
    assert [r.error_code for r in world.fake.requests if r.status == 403] == [50278]
    assert TableDriver.decider(game) == world.carol.id
    assert world.carol.id in notice.notified  # her turn: told there, since DMs cannot
    assert_all_accepted(world, table)

"""What real use throws at the bot: buttons forged for another server, channel or person, ids
out of range, and names that try to format, ping or turn a line around."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.components import OUT_OF_DATE
from tests.fakediscord import Channel, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TableDriver, table_of
from .test_decisions import COLLAPSE, private_answer, write_state

NOT_HERE = "This button does not belong here; nothing was changed."


def custom_id(message: Message, label: str) -> str:
    for b in message.buttons():
        if b.get("label") == label:
            cid: str = b["custom_id"]
            return cid
    raise AssertionError(f"no button {label!r} on {message!r}")


def forge(world: World, channel: Channel, cid: str, label: str = "Join") -> Message:
    """A message of the bot's that it never sent, with one button of the given custom id (as a
    modified client could send any custom id)."""
    state = world.fake.state
    button = {"type": 2, "style": 1, "label": label, "custom_id": cid}
    body = {"content": "Press me", "components": [{"type": 1, "components": [button]}]}
    msg = state.create_message(channel, state.bot, body, [])
    msg.settled_at = asyncio.get_running_loop().time()
    return msg


async def test_a_join_forged_in_another_server_seats_nobody(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    other = world.fake.create_guild("Elsewhere")
    lounge = world.fake.create_text_channel(other, "lounge")
    eve = world.fake.create_user("eve", guilds=[other])
    await run_bot()
    lobby = await table.open(world.alice)
    join = custom_id(lobby, "Join")
    seen = len(lobby.revisions)
    for user, channel in ((eve, lounge), (world.bob, world.general)):
        ix = await user.click(forge(world, channel, join), custom_id=join)
        assert await private_answer(ix) == NOT_HERE
    # Bob, seated by nothing so far, joins where the lobby is.
    ix = await world.bob.click(lobby, "Join")
    await ix
    await world.fake.wait_for(lambda: len(lobby.revisions) > seen and lobby.settled, 10, "join")
    seats = lobby.embed_text()
    assert "Bob" in seats and "Eve" not in seats


async def test_a_direct_message_button_of_a_table_one_is_not_seated_at_changes_nothing(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    join = custom_id(lobby, "Join")
    ix = await world.bob.click(forge(world, world.bob.dm_channel, join), custom_id=join)
    assert await private_answer(ix) == NOT_HERE
    assert "Bob" not in lobby.embed_text() and len(lobby.revisions) == 1


async def test_ids_and_arguments_out_of_range_are_refused_privately(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    t = table_of(game)
    for cid in (
        "fp:12345678901234567890:1:join:",  # more than the store's integers hold
        f"fp:{t}:0:mode:sms",  # no such hand mode
        f"fp:{t}:{2**60}:hand:",
    ):
        ix = await world.bob.click(forge(world, world.games, cid), custom_id=cid)
        assert await private_answer(ix) == OUT_OF_DATE
    # Bob still gets his hands by direct message (the unknown mode changed nothing).
    hand = await table.hand_for(world.bob, game)
    assert not hand.ephemeral


async def test_names_cannot_format_or_turn_a_private_answer_around(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    weird = world.fake.create_user("weird", global_name="**bold**\u202eevil", guilds=[world.guild])
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    lobby = await table.open(weird, world.alice, world.bob)
    assert "\\*\\*bold\\*\\*evil" in lobby.embed_text()
    game = await table.start(weird)
    falling = await table.play(weird, game)  # too heavy: the weird name decides the fall
    ix = await table.click(world.alice, falling, "Fall left")
    reply = await private_answer(ix)
    assert reply.startswith("It is \\*\\*bold\\*\\*evil's decision where the tile falls")
    for text in (reply, lobby.embed_text(), *(m.content for m in table.bot_messages())):
        assert "\u202e" not in text


# --- messages Discord refused ---------------------------------------------------------------------

NOTICE = "Discord did not take my latest message"
MOVES = "POST /channels/{channel_id}/messages"


async def test_a_move_discord_refused_is_posted_again_until_it_is_shown(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    hand = await table.hand_for(world.alice, game)
    refusal = world.fake.faults.server_error(
        MOVES, status=503, times=3, channel_id=table.place().id
    )
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    ix = await table.click(world.alice, hand, table.spot_button_label(hand, "A"))
    # Alice is told once, privately, that her move stands and will be shown.
    assert "Your move is recorded" in await private_answer(ix)
    # Nobody types /fp status: the fall decision's message comes by itself once Discord takes it.
    falling = await table.settled_game(game.id)
    assert refusal.hits == 3
    assert falling.labels()[:2] == ["Fall left", "Fall right"]
    assert TableDriver.decider(falling) == world.alice.id
    assert not [m for m in world.alice.dms() if NOTICE in m.content]  # told once, not twice
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id


async def test_a_move_refused_for_a_missing_permission_is_retried_and_the_next_player_told_once(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    world.fake.faults.error(  # the fall cannot be added to the turn's message either
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    refusal = world.fake.faults.error(
        MOVES,
        status=403,
        code=50013,
        message="Missing Permissions",
        times=4,
        channel_id=table.place().id,
    )
    ix = await table.click(world.alice, falling, "Fall left")
    reply = await private_answer(ix)
    assert reply.startswith("Your move is recorded, but I may not post in this channel just now")
    # Bob, who must play next, hears of it once by direct message, with a link to the table.
    notice = await world.bob.wait_for_dm(lambda m: NOTICE in m.content)
    assert "Go to the table" in notice.labels()
    after = await table.settled_game(falling.id)
    assert refusal.hits == 4
    assert TableDriver.decider(after) == world.bob.id
    assert len([m for m in world.bob.dms() if NOTICE in m.content]) == 1
    assert not [m for m in world.alice.dms() if NOTICE in m.content]
    after = await table.play(world.bob, after)
    assert TableDriver.decider(after) == world.carol.id


QUIET = {
    # Alice's turn; whatever she plays, nothing falls: then Bob's turn.
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["R6", "G6"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}


async def test_a_timed_out_move_discord_refused_is_shown_later_and_the_next_player_told(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, QUIET))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    clock.advance(13 * 3600)  # the reminder comes and goes
    await world.fake.wait_for_message(table.place(), lambda m: "is waiting" in m.content)
    refusal = world.fake.faults.server_error(
        MOVES, status=503, times=2, channel_id=table.place().id
    )
    clock.advance(12 * 3600)  # Alice's time runs out: a computer player moves for her
    notice = await world.bob.wait_for_dm(lambda m: NOTICE in m.content)
    assert "My hand" in notice.labels()
    shown = await table.settled_game(game.id)
    assert "time ran out" in shown.content
    assert TableDriver.decider(shown) == world.bob.id
    assert refusal.hits == 2
    assert len([m for m in world.bob.dms() if NOTICE in m.content]) == 1
    after = await table.play(world.bob, shown)
    assert TableDriver.decider(after) == world.carol.id

"""What real use throws at the bot: buttons forged for another server, channel or person, ids
out of range, and names that try to format, ping or turn a line around."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.components import OUT_OF_DATE
from bot.errors import Why
from tests.fakediscord import Channel, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TableDriver,
    button_actions,
    card_text,
    decision_copies,
    not_yours_text,
    refusal_text,
    stored_log,
    stored_prefs,
    stored_table,
    table_of,
    turn_notices,
)
from .driver import (
    answer as answer_of,
)
from .test_decisions import COLLAPSE, private_answer, write_state

NOT_HERE = refusal_text(Why.MISPLACED_BUTTON)


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
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
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
    t = table_of(lobby)
    assert t is not None
    seated = [s.user_id for s in (await stored_table(db_url, t)).seats]
    assert seated == [world.alice.id, world.bob.id]  # Bob, and not Eve


async def test_a_direct_message_button_of_a_table_one_is_not_seated_at_changes_nothing(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    join = custom_id(lobby, "Join")
    ix = await world.bob.click(forge(world, world.bob.dm_channel, join), custom_id=join)
    assert await private_answer(ix) == NOT_HERE
    t = table_of(lobby)
    assert t is not None
    record = await stored_table(db_url, t)
    assert [s.user_id for s in record.seats] == [world.alice.id] and record.version == 1
    assert len(lobby.revisions) == 1


async def test_ids_and_arguments_out_of_range_are_refused_privately(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
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
    assert (await stored_prefs(db_url, world.bob.id)).hand_mode == "dm"


async def test_names_cannot_format_or_turn_a_private_answer_around(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    weird = world.fake.create_user("weird", global_name="**bold**\u202eevil", guilds=[world.guild])
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    lobby = await table.open(weird, world.alice, world.bob)
    assert "\\*\\*bold\\*\\*evil" in card_text(lobby)
    game = await table.start(weird)
    falling = await table.play(weird, game)  # too heavy: the weird name decides the fall
    # Asked on weird's own screen; Alice presses a fall button of that version in the channel
    # (as a modified client could): she is told whose decision it is, the name quoted.
    cid = next(b["custom_id"] for b in falling.buttons() if ":fall:left" in b["custom_id"])
    ix = await world.alice.click(forge(world, table.place(), cid, "Fall left"), custom_id=cid)
    reply = await private_answer(ix)
    assert reply == not_yours_text("fall", "**bold**\u202eevil")  # the name quoted
    assert "\\*\\*bold\\*\\*evil" in reply
    for text in (reply, card_text(lobby), *(m.content for m in table.bot_messages())):
        assert "\u202e" not in text


# --- messages Discord refused ---------------------------------------------------------------------

MOVES = "POST /channels/{channel_id}/messages"


async def test_a_move_discord_refused_is_posted_again_until_it_is_shown(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    refusal = world.fake.faults.server_error(
        MOVES, status=503, times=3, channel_id=table.place().id
    )
    falling = await table.play(world.alice, game)  # her fall, asked on her own screen
    ix = await table.click(world.alice, falling, "Fall left")
    # Alice is told once, privately, that her turn stands and will be shown.
    assert await private_answer(ix) == refusal_text(Why.NOT_SHOWN)
    log = await stored_log(db_url, table.table_id())
    assert [a.action.get("play") or a.action.get("fall") for a in log] == ["Y40", "left"]
    # Nobody types /fp status: the turn's message comes by itself once Discord takes it.
    after = await table.settled_game(game.id)
    assert refusal.hits == 3
    assert TableDriver.decider(after) == world.bob.id
    assert not decision_copies(world.alice)  # told once (privately), not twice


async def test_a_move_refused_for_a_missing_permission_is_retried_and_the_next_player_told_once(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # her fall, asked on her own screen
    refusal = world.fake.faults.error(
        MOVES,
        status=403,
        code=50013,
        message="Missing Permissions",
        times=4,
        channel_id=table.place().id,
    )
    ix = await table.click(world.alice, falling, "Fall left")
    reply = await answer_of(ix)
    assert reply.ephemeral
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].action) == (0, {"fall": "left"})  # the move stands
    # Told which permission Discord said was missing (the fake's error text).
    assert reply.content == refusal_text(Why.NOT_SHOWN_FORBIDDEN, what="Missing Permissions")
    # Bob, who must play next, is told once, by the screen of his turn (his tiles on it work
    # without the channel's message), with a link to the table.
    screen = await world.fake.wait_for(
        lambda: next(iter(turn_notices(world.bob)), None), 10, "Bob's screen"
    )
    assert "play" in [a for a, _ in button_actions(screen)]
    assert any(
        (b.get("url") or "").startswith(f"https://discord.com/channels/{world.guild.id}/")
        for b in screen.buttons()
    )
    after = await table.settled_game(falling.id)
    assert refusal.hits == 4
    assert TableDriver.decider(after) == world.bob.id
    assert decision_copies(world.bob) == [] and turn_notices(world.bob) == [screen]
    assert not decision_copies(world.alice)
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
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, QUIET))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    clock.advance(13 * 3600)  # the reminder comes and goes: by DM, where her turn came
    await world.alice.wait_for_dm(lambda m: "⏳" in m.content)
    refusal = world.fake.faults.server_error(
        MOVES, status=503, times=2, channel_id=table.place().id
    )
    clock.advance(12 * 3600)  # Alice's time runs out: a computer player moves for her
    # Bob is told once, by the screen of his turn (his tiles on it work without the
    # channel's message), not by a copy of the decision as well.
    screen = await world.fake.wait_for(
        lambda: next(iter(turn_notices(world.bob)), None), 10, "Bob's screen"
    )
    assert "play" in [a for a, _ in button_actions(screen)]
    shown = await table.settled_game(game.id)
    log = await stored_log(db_url, table.table_id())
    assert [(a.seat, a.user_id) for a in log if "play" in a.action] == [(0, None)]  # not Alice
    assert TableDriver.decider(shown) == world.bob.id
    assert refusal.hits == 2
    assert decision_copies(world.bob) == [] and turn_notices(world.bob) == [screen]
    after = await table.play(world.bob, shown)
    assert TableDriver.decider(after) == world.carol.id

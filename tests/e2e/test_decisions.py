"""Decisions through Discord: fall choices by the right and the wrong player, a curse handing the
choice to the previous player, double clicks and stale buttons, closed DMs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.narrate import DIE_FACES_TEXT
from engine import Fall, Game, Play
from engine.model import Die
from engine.tiles import describe
from tests.fakediscord import FakeUser, Interaction, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, answer

COLLAPSE = {
    # Alice (seat 0) plays yellow 40 on yellow 2 and red 4: too heavy, she chooses its fall.
    "players": 3,
    "pyramid": {"0,0": "Y2", "0,2": "R4"},
    "hands": [["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}

CURSE = {
    # Alice plays green 10 on yellow 10 and red 10: cursed, the three 10s go to Carol (the
    # previous player), who then bears the mayhem: blue 30 collapses and Carol chooses its fall.
    "players": 3,
    "options": {"curse": True, "fire_die": False},
    "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
    "hands": [["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}

FIRE = {
    # With the fire die, Alice's blue blowtorch lands next to yellow 30 (wood): the die is rolled.
    "players": 3,
    "options": {"curse": False, "fire_die": True},
    "pyramid": {"0,0": "Y30"},
    "hands": [["B7", "Y2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}

TWO_SPOTS = {
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "R10", "0,6": "B20"},
    "hands": [["Y40", "R6"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}


def write_state(tmp_path: Path, state: dict[str, Any]) -> str:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    return str(path)


async def private_answer(ix: Interaction) -> str:
    """The ephemeral reply a click got (its first followup)."""
    msg = await answer(ix)
    assert msg.ephemeral, f"the answer to {ix.describe()} should be private: {msg!r}"
    return msg.content


def pinged(world: World, message: Message) -> set[int]:
    """Whom the bot allowed a channel message to notify (its ``allowed_mentions`` users)."""
    first = message.revisions[0].content
    for record in reversed(world.fake.requests_to("POST /channels/{channel_id}/messages")):
        body = record.body if isinstance(record.body, dict) else {}
        if body.get("content") == first:
            allowed = body.get("allowed_mentions") or {}
            assert not allowed.get("parse"), allowed  # never everyone, never roles
            return {int(u) for u in allowed.get("users", [])}
    raise AssertionError(f"no request posted {first!r}")


async def begin(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, state: dict[str, Any]
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.bob, world.carol)


async def test_fall_choice_by_the_right_and_the_wrong_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    assert falling.labels()[:2] == ["Fall left", "Fall right"]
    assert TableDriver.decider(falling) == world.alice.id
    # Alice is asked by name, not pinged: she just played; the turn pings the next player only.
    assert pinged(world, falling) == set() and falling.notified == []
    assert "too heavy" in falling.content
    # Bob and Dave (not seated) press the buttons: privately refused, nothing changes.
    for intruder, expected in ((world.bob, "Alice's decision"), (world.dave, "not playing")):
        ix = await table.click(intruder, falling, "Fall left")
        assert expected in await private_answer(ix)
    assert table.latest_game().id == falling.id
    after = await table.fall(world.alice, falling, "right")
    # The fall is told on the turn's own message, which now asks Bob: one message per turn.
    assert after.id == falling.id
    assert "too heavy" in after.content and "fell right" in after.content
    assert TableDriver.decider(after) == world.bob.id
    assert after.labels()[0] == "My hand" and "Fall left" not in after.labels()
    assert [a.filename for a in after.images()] == ["pyramid.gif"]  # the fall, ending on the board
    # An edit notifies nobody: Bob, who wants a DM on his turn, is told there, once.
    assert after.notified == []
    turn_dm = await world.fake.wait_for(
        lambda: next((m for m in world.bob.dms() if "Your turn at table" in m.content), None),
        TIMEOUT,
        "Bob's turn DM",
    )
    assert "fell right" in turn_dm.content


async def test_a_fall_that_begins_the_turn_of_a_player_without_turn_dms_is_a_post_that_pings(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    ix = await world.bob.slash("fp notify", world.games, turn=False)
    await ix.wait_acknowledged()
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling, "right")
    assert after.id > falling.id and "fell right" in after.content
    assert after.notified == [world.bob.id]
    assert not [m for m in world.bob.dms() if "Your turn at table" in m.content]
    # The turn's earlier message keeps no live fall button.
    await world.fake.wait_for(lambda: not falling.buttons() and falling.settled, TIMEOUT, "retire")


async def test_curse_gives_the_fall_choice_to_the_previous_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, CURSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    assert "curse" in falling.content.lower()
    assert TableDriver.decider(falling) == world.carol.id  # Carol played before Alice
    assert pinged(world, falling) == {world.carol.id}  # someone else's decision: a ping
    ix = await table.click(world.alice, falling, "Fall left")
    assert "Carol's decision" in await private_answer(ix)
    after = await table.fall(world.carol, falling, "left")
    assert TableDriver.decider(after) == world.bob.id


async def test_double_click_and_stale_buttons(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    lobby = table.lobby()
    game = await table.start(world.alice)
    # The lobby's buttons are gone once the game runs.
    await world.fake.wait_for(lambda: not lobby.buttons() and lobby.settled, TIMEOUT, "lobby")
    hand = await table.hand_for(world.alice, game)
    # Alice picks yellow 40: the same message shows spots A and B; she goes back and picks
    # red 6 instead, on the same message again.
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    assert [label.split(" · ")[0] for label in hand.labels()] == ["A", "B", "Back"]
    assert [a.filename for a in hand.images()] == ["spots.png"]
    first_spots = hand.buttons()
    before = len(hand.revisions)
    await table.click(world.alice, hand, "Back")
    await table.screen_after(hand, before, "the tiles again")
    assert table.tiles(hand) == ["yellow 40", "red 6"]
    before = len(hand.revisions)
    await table.click(world.alice, hand, next(x for x in table.tile_labels(hand) if "red 6" in x))
    await table.screen_after(hand, before, "the spot step for red 6")
    assert "red 6" in hand.content
    b = table.spot_button(hand, "B")
    # Double click on B: both clicks are sent before the bot handles either.
    clicks = await asyncio.gather(
        world.alice.click(hand, custom_id=b), world.alice.click(hand, custom_id=b)
    )
    for ix in clicks:
        table.interactions.append(ix)
        await ix.wait_acknowledged()
    moved = await table.settled_game(game.id)
    assert TableDriver.decider(moved) == world.bob.id
    assert len([m for m in table.game_messages() if m.id > game.id]) == 1  # one move only
    await world.fake.wait_for(
        lambda: hand.settled and ":spot:" not in str(hand.buttons()),
        TIMEOUT,
        "the screen after the move",
    )
    assert "yellow 40" in table.tiles(hand)  # her hand as it is now, red 6 played
    assert "red 6" not in table.tiles(hand)
    del first_spots


async def test_closed_dms_use_my_hand(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    state = dict(COLLAPSE, active=1)  # Dave (seat 1) plays first
    await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.dave, world.carol)
    game = await table.start(world.alice)
    notice = await world.fake.wait_for(
        lambda: next(
            (m for m in table.bot_messages() if "cannot send you direct messages" in m.content),
            None,
        ),
        TIMEOUT,
        "the closed-DMs notice",
    )
    assert f"<@{world.dave.id}>" in notice.content
    assert not any(a for a in notice.attachments)  # nothing about the hand in the channel
    assert TableDriver.decider(game) == world.dave.id
    # Dave gets his hand privately with the My hand button, and plays from it.
    ix = await table.click(world.dave, game, "My hand")
    hand = await answer(ix)
    assert hand.ephemeral and hand.images()
    assert "red 2" in table.tiles(hand)
    # Nobody else sees it.
    assert hand not in world.alice.messages(table.place())
    after = await table.play(world.dave, game)
    assert TableDriver.decider(after) == world.carol.id
    # The notice is said once per table only.
    notices = [m for m in table.bot_messages() if "cannot send you direct" in m.content]
    assert len(notices) == 1


async def test_hand_buttons_belong_to_their_owner(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    bob: FakeUser = world.bob
    hand = await table.hand_for(bob, game)  # Bob's DM
    # A picture, one button per tile, and a link to the game's newest message in its thread.
    assert [a.filename for a in hand.images()] == ["hand.png"]
    assert table.tile_labels(hand) == ["red 2", "green 2"]
    links = [b.get("url") for b in hand.buttons() if b.get("url")]
    thread = table.place()
    assert thread.parent is world.games
    newest = table.latest_game().id  # the link leads to the table's newest message
    assert links == [f"https://discord.com/channels/{world.guild.id}/{thread.id}/{newest}"]
    ix = await table.click(bob, hand, "red 2")  # not his turn
    assert "turn" in await private_answer(ix)
    assert table.latest_game().id == game.id


async def test_a_click_on_an_old_hand_answers_with_the_hand_as_it_is_now(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    # Alice keeps a copy of her hand from the My hand button; 16 minutes later (too late for
    # the bot to edit it: Discord lets an interaction's message be edited for 15 minutes) she
    # plays yellow 40 from her DM: it is too heavy, she lets it fall left and takes tiles back.
    ix = await table.click(world.alice, game, "My hand")
    copy = await answer(ix)
    assert table.tiles(copy) == ["yellow 40", "blue 2"]
    clock.advance(16 * 60)
    world.fake.advance_time(16 * 60)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(after) == world.bob.id
    now = Game.from_dict(json.loads(json.dumps(COLLAPSE)))  # the same moves, by the engine
    now.apply(Play("Y40", (1, 1)), 0)
    now.apply(Fall("left"), 0)
    expected = [describe(t) for t in now.hands[0]]
    assert expected != ["yellow 40", "blue 2"]
    # The copy's blue 2 is from the hand she had before: the copy itself turns into her hand
    # as it is now, saying why.
    before = len(copy.revisions)
    await table.click(world.alice, copy, table.tile_labels(copy)[1])
    await table.screen_after(copy, before, "the copy brought up to date")
    assert copy.ephemeral and [a.filename for a in copy.images()] == ["hand.png"]
    assert copy.content.startswith("That hand is out of date: here it is now")
    assert sorted(table.tiles(copy)) == sorted(expected)
    assert "Not your turn yet" in copy.content
    assert table.latest_game().id == after.id  # nothing was played


async def test_a_refused_picture_is_explained_and_nothing_is_lost(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    # Discord refuses both ways to show the fall: the edit of the turn's message through the
    # click's token, then a post.
    world.fake.faults.error(
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    world.fake.faults.error(
        "POST /channels/{channel_id}/messages",
        status=503,
        code=0,
        message="Service Unavailable",
        channel_id=table.place().id,
    )
    ix = await table.click(world.alice, falling, "Fall left")
    assert "Your move is recorded" in await private_answer(ix)
    # The move stands, and its message comes once Discord takes it: Bob's turn, and play goes
    # on from there.
    shown = await table.settled_game(falling.id)
    assert TableDriver.decider(shown) == world.bob.id
    after = await table.step(shown)
    assert TableDriver.decider(after) == world.carol.id


async def test_the_fire_die_is_rolled_by_the_game_and_shown(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    # What the game's own generator rolls for this state, blowtorch on spot A (left of Y30).
    expected = Game.from_dict(FIRE)
    expected.apply(Play("B7", (0, -2)))
    [face] = [e.detail for e in expected.apply(Die(None)) if e.kind == "rolled"]
    await begin(world, run_bot, table, tmp_path, FIRE)
    game = await table.start(world.alice)
    after = await table.play(world.alice, game, spot="A")
    assert f"the fire die for blue blowtorch (7) showed {DIE_FACES_TEXT[face]}" in after.content
    assert TableDriver.decider(after) == world.bob.id


async def test_mayhem_is_the_one_animated_picture_of_the_moves_message_from_the_start(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # yellow 40 collapses
    assert [a.filename for a in falling.attachments] == ["pyramid.gif"]
    assert not falling.edited  # posted whole: no animation added later by an edit
    gif = falling.picture()  # render_turn's GIF (its last frame, the board, is tested in render/)
    assert gif.is_animated and gif.n_frames > 2
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    # Bob's red 2 goes on the base and nothing happens: the picture only.
    quiet = await table.play(world.bob, after)
    assert "Bob played red 2" in quiet.content
    await world.fake.wait_for(lambda: quiet.settled, TIMEOUT, "the quiet move")
    assert [a.filename for a in quiet.attachments] == ["pyramid.png"]

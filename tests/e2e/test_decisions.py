"""Decisions through Discord: fall choices by the right and the wrong player, a curse handing the
choice to the previous player, double clicks and stale buttons, closed DMs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.errors import Why
from bot.show.handtexts import OUT_OF_DATE_HAND
from engine import Fall, Game, Play
from engine.model import Die
from tests.fakediscord import FakeUser, Interaction, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    is_players_turn,
    lobby_controls,
    not_yours_text,
    refusal_text,
    stored_game,
    stored_log,
    stored_table,
    tile_codes,
    turn_notices,
)

COLLAPSE = {
    # Alice (seat 0) plays yellow 40 on yellow 2 and red 4: too heavy, she chooses its fall.
    "players": 3,
    "pyramid": {"0,0": "Y2", "0,2": "R4"},
    "hands": [["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}

TWO_FALLS = {
    # Alice plays yellow 40 on yellow 2 and red 4: too heavy, she chooses its fall; red 10, then
    # on green 20 alone (another colour), falls too, and she chooses again.
    "players": 3,
    "pyramid": {"0,0": "Y2", "0,2": "R4", "0,4": "G20", "1,3": "R10"},
    "hands": [["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G30"], ["B10"]],
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
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    # Her own fall is asked on the screen she played on, in her direct messages, where nobody
    # else can press it; the thread gets the turn once it is done (nothing is posted yet).
    assert falling.channel.is_dm and falling.channel.recipient == world.alice.account
    assert button_actions(falling)[:2] == [("fall", "left"), ("fall", "right")]
    assert TableDriver.decider(falling) == world.alice.id
    assert table.latest_game().id == game.id
    table_id = table.table_id()
    state = await stored_game(db_url, table_id)  # yellow 40 is too heavy: Alice's fall
    assert [e.detail for e in state.turn_events if e.kind == "collapsed"] == ["overweight"]
    assert state.pending is not None and state.pending[:2] == ("fall", 0)
    after = await table.fall(world.alice, falling, "right")
    # The turn is one new message, the placement and its fall together, which asks Bob.
    assert after.id > game.id
    assert [m.id for m in table.game_messages() if m.id > game.id] == [after.id]
    log = await stored_log(db_url, table_id)
    assert (log[-1].seat, log[-1].action) == (0, {"fall": "right"})
    state = await stored_game(db_url, table_id)
    assert [e.detail for e in state.turn_events if e.kind == "fell"] == ["right"]
    assert state.pending is not None and state.pending[:2] == ("play", 1)
    assert TableDriver.decider(after) == world.bob.id
    assert button_actions(after)[0] == ("hand", "")
    assert "fall" not in [a for a, _ in button_actions(after)]
    assert [a.filename for a in after.images()] == ["pyramid.gif"]  # the turn, ending on the board
    # Bob, who wants a DM on his turn, is told there, once, and not pinged as well.
    assert after.notified == []
    await world.fake.wait_for(lambda: turn_notices(world.bob), TIMEOUT, "Bob's turn DM")
    assert len(turn_notices(world.bob)) == 1


async def test_a_fall_that_begins_the_turn_of_a_player_without_turn_dms_is_a_post_that_pings(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    ix = await world.bob.slash("fp notify", world.games, turn=False)
    await ix.wait_acknowledged()
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling, "right")
    assert after.id > falling.id
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].action) == (0, {"fall": "right"})
    assert after.notified == [world.bob.id]
    assert not turn_notices(world.bob)
    # The turn's earlier message keeps no live fall button.
    await world.fake.wait_for(lambda: not falling.buttons() and falling.settled, TIMEOUT, "retire")


async def test_curse_gives_the_fall_choice_to_the_previous_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, CURSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    state = await stored_game(db_url, table.table_id())
    assert [e.player for e in state.turn_events if e.kind == "cursed"] == [2]  # Carol's pile
    assert state.pending is not None and state.pending[:2] == ("fall", 2)
    assert TableDriver.decider(falling) == world.carol.id  # Carol played before Alice
    # Someone else's decision: Carol is told once, by a new screen in her direct messages
    # (the fall ringed on the board, with her hand), not pinged in the thread as well.
    assert pinged(world, falling) == set()
    screen = await table.fall_screen(world.carol, falling)
    assert [a for a, _ in button_actions(screen)] == ["fall", "fall"]
    assert [a.filename for a in screen.images()] == ["turn.png"]
    version = (await stored_table(db_url, table.table_id())).version
    for intruder, expected in (
        (world.alice, not_yours_text("fall", "Carol")),
        (world.dave, refusal_text(Why.NOT_PLAYING)),
    ):
        ix = await table.click(intruder, falling, "Fall left")
        assert await private_answer(ix) == expected
    assert (await stored_table(db_url, table.table_id())).version == version
    after = await table.fall(world.carol, falling, "left")
    assert TableDriver.decider(after) == world.bob.id
    # Her screen is closed by her own click: no button is left, it tells the turn.
    await world.fake.wait_for(
        lambda: screen.settled and not screen.buttons(), TIMEOUT, "her screen closed"
    )
    assert not screen.images()
    # The thread's question is closed too: the turn's message shows the fall, without its
    # fall buttons.
    assert "fall" not in [a for a, _ in button_actions(table.latest_game())]


async def test_double_click_and_stale_buttons(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    lobby = table.lobby()
    game = await table.start(world.alice)
    # The lobby's buttons are gone once the game runs.
    await world.fake.wait_for(lambda: not lobby_controls(lobby) and lobby.settled, TIMEOUT, "lobby")
    hand = await table.hand_for(world.alice, game, turn=True)
    # Alice picks yellow 40: the same message shows spots A and B; she goes back and picks
    # red 6 instead, on the same message again.
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    assert [label.split(" · ")[0] for label in hand.labels()] == [
        "yellow 40",
        "red 6",
        "Back",
        "A",
        "B",
    ]
    steps = button_actions(hand)
    assert [a for a, _ in steps] == ["play", "play", "back", "spot", "spot"]
    assert all(arg.startswith("Y40@") for a, arg in steps if a == "spot")
    assert [a.filename for a in hand.images()] == ["spots.png"]
    first_spots = hand.buttons()
    before = len(hand.revisions)
    await table.click(world.alice, hand, "Back")
    await table.screen_after(hand, before, "the tiles again")
    assert tile_codes(hand) == ["Y40", "R6"]
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[1])
    await table.screen_after(hand, before, "the spot step for red 6")
    spots = [arg for action, arg in button_actions(hand) if action == "spot"]
    assert len(spots) == 2 and all(arg.startswith("R6@") for arg in spots)
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
        lambda: hand.settled and not hand.buttons(), TIMEOUT, "the screen closed by the move"
    )
    # The second tap is the same tap: the screen says what the first did, and nothing says
    # "out of date".
    now = await stored_game(db_url, table.table_id())
    assert "Y40" in now.hands[0] and "R6" not in now.hands[0]
    assert "red 6" in hand.content
    assert all(not ix.followups for ix in clicks)
    assert OUT_OF_DATE_HAND not in str([r.content for r in hand.revisions])
    plays = [a.action for a in await stored_log(db_url, table.table_id()) if "play" in a.action]
    assert [p["play"] for p in plays] == ["R6"]  # played once
    del first_spots


async def test_closed_dms_use_my_hand(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    state = dict(COLLAPSE, active=1)  # Dave (seat 1) plays first
    await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.dave, world.carol)
    game = await table.start(world.alice)

    def dm_notices() -> list[Message]:
        """Channel messages for Dave alone, with no picture and no button: the notice that
        his direct messages are closed."""
        return [
            m
            for m in table.bot_messages()
            if TableDriver.decider(m) == world.dave.id and not m.attachments and not m.buttons()
        ]

    notice = await world.fake.wait_for(lambda: next(iter(dm_notices()), None), TIMEOUT, "notice")
    assert notice.notified == [world.dave.id]
    assert not any(a for a in notice.attachments)  # nothing about the hand in the channel
    assert TableDriver.decider(game) == world.dave.id
    # Dave gets his hand privately with the My hand button, and plays from it.
    ix = await table.click(world.dave, game, "My hand")
    hand = await answer(ix)
    assert hand.ephemeral and hand.images()
    assert "R2" in tile_codes(hand)
    # Nobody else sees it.
    assert hand not in world.alice.messages(table.place())
    after = await table.play(world.dave, game)
    assert TableDriver.decider(after) == world.carol.id
    # The notice is said once per table only.
    assert len(dm_notices()) == 1


async def test_hand_buttons_belong_to_their_owner(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    bob: FakeUser = world.bob
    hand = await table.hand_for(bob, game)  # Bob's DM
    # A picture, one button per tile, and a link to the game's newest message in its thread.
    assert [a.filename for a in hand.images()] == ["turn.png"]
    assert table.tile_labels(hand, grey=True) == ["red 2", "green 2"]
    links = [b.get("url") for b in hand.buttons() if b.get("url")]
    thread = table.place()
    assert thread.parent is world.games
    newest = table.latest_game().id  # the link leads to the table's newest message
    assert links == [f"https://discord.com/channels/{world.guild.id}/{thread.id}/{newest}"]
    # Not his turn: his tiles are shown, but none can be pressed (it could only be refused).
    assert table.tile_labels(hand) == []
    assert table.latest_game().id == game.id


async def test_a_click_on_an_old_hand_answers_with_the_hand_as_it_is_now(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    # Alice keeps a copy of her hand from the My hand button; 16 minutes later (too late for
    # the bot to edit it: Discord lets an interaction's message be edited for 15 minutes) she
    # plays yellow 40 from her DM: it is too heavy, she lets it fall left and takes tiles back.
    ix = await table.click(world.alice, game, "My hand")
    copy = await answer(ix)
    assert tile_codes(copy) == ["Y40", "B2"]
    clock.advance(16 * 60)
    world.fake.advance_time(16 * 60)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(after) == world.bob.id
    now = Game.from_dict(json.loads(json.dumps(COLLAPSE)))  # the same moves, by the engine
    now.apply(Play("Y40", (1, 1)), 0)
    now.apply(Fall("left"), 0)
    expected = list(now.hands[0])
    assert expected != ["Y40", "B2"]
    version = (await stored_table(db_url, table.table_id())).version
    # The copy's blue 2 is from the hand she had before: the copy itself turns into her hand
    # as it is now, saying why.
    before = len(copy.revisions)
    await table.click(world.alice, copy, table.tile_labels(copy)[1])
    await table.screen_after(copy, before, "the copy brought up to date")
    assert copy.ephemeral and [a.filename for a in copy.images()] == ["turn.png"]
    assert sorted(tile_codes(copy)) == sorted(expected)
    assert not is_players_turn(copy)  # grey tiles: not her turn yet
    assert table.latest_game().id == after.id  # nothing was played
    assert (await stored_table(db_url, table.table_id())).version == version


async def test_a_refused_picture_is_explained_and_nothing_is_lost(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    # Discord refuses the post of the turn, once its fall is chosen on Alice's screen.
    world.fake.faults.error(
        "POST /channels/{channel_id}/messages",
        status=503,
        code=0,
        message="Service Unavailable",
        channel_id=table.place().id,
    )
    ix = await table.click(world.alice, falling, "Fall left")
    assert await private_answer(ix) == refusal_text(Why.NOT_SHOWN)
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].action) == (0, {"fall": "left"})  # recorded
    # The move stands, and its message comes once Discord takes it: Bob's turn, and play goes
    # on from there.
    shown = await table.settled_game(falling.id)
    assert TableDriver.decider(shown) == world.bob.id
    after = await table.step(shown)
    assert TableDriver.decider(after) == world.carol.id


async def test_the_fire_die_is_rolled_by_the_game_and_shown(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    # What the game's own generator rolls for this state, blowtorch on spot A (left of Y30).
    expected = Game.from_dict(FIRE)
    expected.apply(Play("B7", (0, -2)))
    [face] = [e.detail for e in expected.apply(Die(None)) if e.kind == "rolled"]
    await begin(world, run_bot, table, tmp_path, FIRE)
    game = await table.start(world.alice)
    after = await table.play(world.alice, game, spot="A")
    state = await stored_game(db_url, table.table_id())
    rolled = [(e.tile, e.detail) for e in state.turn_events if e.kind == "rolled"]
    assert rolled == [("B7", face)]
    assert TableDriver.decider(after) == world.bob.id


async def test_mayhem_is_the_one_animated_picture_of_the_moves_message_from_the_start(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # yellow 40 collapses: her fall to choose
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    # The turn is posted once it is done, whole: the collapse and the fall animated from the
    # placement, in one message posted with its animation (not added later by an edit).
    assert [a.filename for a in after.attachments] == ["pyramid.gif"]
    assert not after.edited
    gif = after.picture()  # render_turn's GIF (its last frame, the board, is tested in render/)
    assert gif.is_animated and gif.n_frames > 2
    # Bob's red 2 goes on the base and nothing happens: the picture only.
    quiet = await table.play(world.bob, after)
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].action.get("play")) == (1, "R2")
    await world.fake.wait_for(lambda: quiet.settled, TIMEOUT, "the quiet move")
    assert [a.filename for a in quiet.attachments] == ["pyramid.png"]

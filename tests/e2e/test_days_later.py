"""Games last days, interaction tokens 15 minutes: every message a player may press days later
(a hand shown privately, a spot prompt, the lobby, a /fp status copy of the table) still works
once the token of the interaction that showed it has expired, with both the bot's clock and the
fake Discord's moved forward. The bot answers each press through the token of that press."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, answer, button_actions, is_players_turn, stored_log
from .test_decisions import COLLAPSE, TWO_SPOTS, begin

LATER = 16 * 60.0
"""Past the 15 minutes an interaction token lives."""


def later(world: World, clock: MovableClock, seconds: float = LATER) -> None:
    """Time passes for everyone: the bot's clock and the fake Discord's."""
    clock.advance(seconds)
    world.fake.advance_time(seconds)


async def retired(world: World, message: Message) -> None:
    await world.fake.wait_for(
        lambda: not message.buttons() and message.settled, TIMEOUT, "the buttons to go"
    )


async def test_a_hand_shown_privately_plays_after_its_token_expired(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    hand = await answer(await table.click(world.alice, game, "My hand"))
    assert hand.ephemeral
    later(world, clock)
    # Edited through the token of each click, not of the hand's: tile, then spot.
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    await table.click_spot(world.alice, hand, "A")
    await world.fake.wait_for(
        lambda: ("fall", "left") in button_actions(hand) and hand.settled,
        TIMEOUT,
        "the fall on the screen",
    )
    later(world, clock, 2 * 3600)  # the fall is decided hours later, from the same message
    before = len(hand.revisions)
    await table.click(world.alice, hand, "Fall left")
    await table.screen_after(hand, before, "the screen after the fall")
    after = await table.settled_game(game.id)  # the turn, posted once done
    assert TableDriver.decider(after) == world.bob.id
    assert not is_players_turn(hand) and ("fall", "left") not in button_actions(hand)


async def test_a_spot_prompt_answered_after_its_token_expired(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    hand = await table.hand_for(world.alice, game)
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    assert [label.split(" · ")[0] for label in hand.labels()][2:] == ["Back", "A", "B"]
    later(world, clock)
    await table.click_spot(world.alice, hand, "A")
    await table.settled_game(game.id)
    log = await stored_log(db_url, table.table_id())
    assert [(a.seat, a.user_id, a.action.get("play")) for a in log] == [(0, world.alice.id, "Y40")]
    assert not any(":spot:" in (b.get("custom_id") or "") for b in hand.buttons())


async def test_a_lobby_and_a_status_copy_work_after_their_tokens_expired(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)  # alice's lobby, bob and carol seated
    lobby = table.lobby()
    later(world, clock)
    await table.click(world.alice, lobby, "Start")
    game = await table.settled_game()
    falling = await table.play(world.alice, game)
    status = await answer(await table.slash(world.carol, "fp status"))  # a followup message
    assert ("fall", "left") in button_actions(status)
    later(world, clock)
    after = await table.fall(world.alice, status, on_screen=False)
    assert TableDriver.decider(after) == world.bob.id
    await retired(world, status)
    assert not falling.ephemeral

"""Games last days, interaction tokens 15 minutes: every message a player may press days later
(a hand shown privately, a spot prompt, the lobby, a /fp status copy of the table) still works
once the token of the interaction that showed it has expired, with both the bot's clock and the
fake Discord's moved forward. The bot answers each press through the token of that press."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, answer
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
    await table.click(world.alice, hand, "yellow 40")
    falling = await table.settled_game(game.id)
    assert falling.labels()[:2] == ["Fall left", "Fall right"]
    await retired(world, hand)  # edited through the token of the click, not of the hand's
    later(world, clock, 2 * 3600)  # the fall is decided hours later, from the same message
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id


async def test_a_spot_prompt_answered_after_its_token_expired(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    hand = await table.hand_for(world.alice, game)
    prompt = await answer(await table.click(world.alice, hand, "yellow 40"))
    assert prompt.ephemeral and prompt.labels() == ["A", "B"]
    later(world, clock)
    await table.click(world.alice, prompt, "A")
    moved = await table.settled_game(game.id)
    assert "Alice played yellow 40" in moved.content
    await retired(world, prompt)


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
    assert "Fall left" in status.labels()
    later(world, clock)
    after = await table.fall(world.alice, status)
    assert TableDriver.decider(after) == world.bob.id
    await retired(world, status)
    assert not falling.ephemeral

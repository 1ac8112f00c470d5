"""A player on private hands meets their turns as a player told by direct message does: every
screen that starts a decision of theirs says what happened since their last move (the screen
**My hand** opens on the message that pinged them, or the private screen still open that a move
brings up to date), and a screen that cannot act now has no live button to be refused. The
screens sent without a notification (``/fp notify turn:no``) carry the same account."""

from __future__ import annotations

from pathlib import Path

from bot.show.handtexts import played
from i18n import ENGLISH
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    is_players_turn,
    silent_screens,
)
from .test_decisions import COLLAPSE, begin, write_state

SINCE = "Since your last move:"


async def on_private_hands(table: TableDriver, user: FakeUser) -> None:
    """``user`` asks for their hands privately in the channel, not by direct message."""
    await (await table.slash(user, "fp hand", mode="channel")).wait_response()
    table.private_only.add(user.id)


def recap(screen: Message) -> list[str]:
    """The lines a screen quotes under "Since your last move:", one per event (empty when it
    has none)."""
    lines = screen.content.splitlines()
    if SINCE not in lines:
        return []
    return [line[2:] for line in lines[lines.index(SINCE) + 1 :] if line.startswith("> ")]


def live(screen: Message, action: str) -> int:
    """How many live buttons of ``screen`` do ``action``."""
    return sum(1 for a, _ in button_actions(screen) if a == action)


def grey(screen: Message, action: str) -> int:
    """How many disabled buttons of ``screen`` do ``action``."""
    return sum(1 for a, _ in button_actions(screen, disabled=True) if a == action)


async def press(table: TableDriver, user: FakeUser, screen: Message, action: str, arg: str) -> None:
    """Press a live button of a private screen and wait for the screen to show its answer."""
    before = len(screen.revisions)
    await table.click_action(user, screen, action, arg)
    await table.screen_after(screen, before, f"{user.name}'s screen after {action}")


def tile_arg(screen: Message, tile: str) -> str:
    """The argument of the tile button of ``tile`` on a hand (``"R2.<digest>"``)."""
    return next(arg for a, arg in button_actions(screen) if a == "play" and arg.startswith(tile))


async def bobs_turn(world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path) -> Message:
    """Bob, on private hands, is pinged for his turn after Alice's (her collapse, fallen left):
    the thread's message that pinged him."""
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await on_private_hands(table, world.bob)
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    turn = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(turn) == world.bob.id and world.bob.id in turn.notified
    return turn


async def test_my_hand_on_the_message_that_pinged_a_private_player_opens_the_turn_and_its_recap(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    turn = await bobs_turn(world, run_bot, table, tmp_path)
    # One click on the message that pinged him opens his turn: the tiles to play, and Alice's
    # turn told as the thread told it.
    bob = await answer(await table.click_action(world.bob, turn, "hand"))
    assert bob.ephemeral and is_players_turn(bob)
    told = recap(bob)
    assert told and told[0].startswith("Alice played yellow 40")
    assert all(line in turn.content for line in told)


async def test_a_private_screen_that_cannot_act_has_no_live_button_until_the_turn_comes_to_it(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    turn = await bobs_turn(world, run_bot, table, tmp_path)
    bob = await answer(await table.click_action(world.bob, turn, "hand"))
    # He plays red 2 at A on that screen; it then shows his hand until his next turn, with no
    # live tile button (a press could only be refused) and no promise that the buttons work.
    await press(table, world.bob, bob, "play", tile_arg(bob, "R2"))
    await press(table, world.bob, bob, "spot", bob_spot(bob))
    assert bob.content.startswith(played("R2", ENGLISH))
    assert live(bob, "play") == 0 and grey(bob, "play") == 2
    assert "these buttons work" not in bob.content
    # Carol and Alice play; his screen, still open, becomes his next turn: live tiles, and
    # both their turns told.
    after = await table.settled_game(turn.id)
    while TableDriver.decider(after) != world.bob.id:
        after = await table.step(after)
    await world.fake.wait_for(
        lambda: bob.settled and live(bob, "play") == 2, TIMEOUT, "Bob's screen at his turn"
    )
    told = recap(bob)
    assert [line.split(" played ")[0] for line in told if " played " in line] == ["Carol", "Alice"]


def bob_spot(screen: Message) -> str:
    """The argument of the spot A button of the spot step (``"R2@0,-2"``)."""
    return next(arg for a, arg in button_actions(screen) if a == "spot")


async def test_a_screen_sent_without_a_notification_tells_what_happened_too(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    await answer(await table.slash(world.bob, "fp notify", turn=False))
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    turn = await table.fall(world.alice, falling, "left")
    assert TableDriver.decider(turn) == world.bob.id
    await world.fake.wait_for(lambda: silent_screens(world.bob), TIMEOUT, "Bob's silent screen")
    [screen] = silent_screens(world.bob)
    told = recap(screen)
    assert told and told[0].startswith("Alice played yellow 40")
    assert all(line in turn.content for line in told)

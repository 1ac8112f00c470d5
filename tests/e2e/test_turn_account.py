"""A cascade as the players read it, end to end: the turn's message in the thread, the closed
screen of the player who played it (told to them) and the next player's recap tell it one short
line per event, with "again" only where it is true; the second fall question of a chain says
that the tile collapsed again."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TIMEOUT, TableDriver, is_players_turn
from .test_decisions import begin

CHAIN = {
    # Alice plays green 40 on yellow 6 and blue 10: too heavy, she chooses its fall. Falling
    # right it lands on red 4 and blue 6, is too heavy again and falls once more.
    "players": 3,
    "pyramid": {"0,2": "Y2", "0,4": "R4", "0,6": "B6", "1,3": "Y6", "1,5": "B10"},
    "hands": [["G40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G20"], ["B20"]],
    "active": 0,
}

ACCOUNT = [
    "Alice played green 40.",
    "Green 40 collapsed (too heavy for the two tiles below): yellow 6 and blue 10 went under "
    "Alice's pile.",
    "Green 40 fell right.",
    "Green 40 collapsed again (too heavy for the two tiles below): red 4 and blue 6 went under "
    "Alice's pile.",
    "Green 40 fell left.",
]
"""The turn, a line per event: the second fall goes the other way, so it is not "again"."""

TOLD_TO_ALICE = [
    "You played green 40.",
    "Green 40 collapsed (too heavy for the two tiles below): yellow 6 and blue 10 went under "
    "your pile.",
    "Green 40 fell right.",
    "Green 40 collapsed again (too heavy for the two tiles below): red 4 and blue 6 went under "
    "your pile.",
    "Green 40 fell left.",
]
"""The same turn on Alice's own screen: told to her."""


async def first_fall(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> tuple[Message, Message]:
    """Alice plays green 40 and lets it fall right: her screen, asking where it falls next."""
    await begin(world, run_bot, table, tmp_path, CHAIN)
    game = await table.start(world.alice)
    screen = await table.play(world.alice, game)  # her fall, asked on her screen
    assert "**Where does green 40 fall?**" in screen.content
    assert "again" not in screen.content
    return game, await table.fall(world.alice, screen, "right")


async def test_the_second_fall_question_of_a_chain_says_the_tile_collapsed_again(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    _, screen = await first_fall(world, run_bot, table, tmp_path)
    assert (
        "**Green 40 collapsed again: where does it fall now?** The arrows show where each "
        "choice lands: **Fall left** or **Fall right**." in screen.content
    )
    assert "**Where does green 40 fall?**" not in screen.content


async def test_a_cascade_is_told_a_line_per_event_wherever_a_player_reads_it(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    _, screen = await first_fall(world, run_bot, table, tmp_path)
    after = await table.fall(world.alice, screen, "left")
    # The thread: the turn's message tells it a line per event, then asks Bob.
    said = after.content.splitlines()
    assert said[: len(ACCOUNT)] == ACCOUNT
    assert "fell left again" not in after.content and "fell right again" not in after.content
    assert all(len(line) <= 120 for line in said)
    # Alice's screen closes with the same lines, told to her.
    await world.fake.wait_for(lambda: not screen.buttons(), TIMEOUT, "her screen closed")
    assert screen.content.splitlines() == [f"✅ {TOLD_TO_ALICE[0]}", *TOLD_TO_ALICE[1:]]
    # Bob's turn: his screen quotes the turn, a line per event.
    bobs = await table.hand_for(world.bob, after, turn=True)
    assert is_players_turn(bobs)
    assert "Since your last move:\n" + "\n".join(f"> {line}" for line in ACCOUNT) in bobs.content

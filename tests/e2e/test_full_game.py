"""Whole matches played through clicks, from the lobby to the winner."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TableDriver, is_final

SHORT_SEED = 877
"""A deal where the driver's way of playing (first tile, spot A, fall left) ends in about 60
decisions, found by playing that policy with the engine over many seeds."""


async def test_full_three_player_game(world: World, run_bot: MakeBot, table: TableDriver) -> None:
    await run_bot(seed=SHORT_SEED)
    lobby = await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    await world.fake.wait_for(
        lambda: "The game has started" in lobby.embed_text() and lobby.settled, 10, "lobby edit"
    )
    assert lobby.buttons() == []  # the lobby's buttons are gone once the game runs
    final = await table.play_to_the_end(game)
    assert is_final(final)
    assert "wins round 1" in final.content
    assert final.buttons() == []
    # Every move posted one new picture; every hand went only to its owner.
    for user in (world.alice, world.bob, world.carol):
        for dm in user.dms():
            assert f"<@{user.id}>" not in dm.content  # hands are never about someone else
    print(f"click-to-picture samples: {len(table.timing.samples)}")


async def test_game_with_a_computer_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    # A short deal: Alice against a computer, a few tiles each.
    state = {
        "players": 2,
        "pyramid": {"0,0": "Y30", "0,2": "R10"},
        "hands": [["Y40", "B2", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
        "piles": [["B10", "G10"], ["Y10", "G20"]],
        "active": 0,
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    await run_bot(test_state_file=str(path))
    lobby = await table.open(world.alice)
    await table.click(world.alice, lobby, "Add computer (normal)")
    await world.fake.wait_for(lambda: "Computer 1" in lobby.embed_text(), 10, "the computer seat")
    game = await table.start(world.alice)
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final)
    computer_moves = [m for m in table.game_messages() if "Computer 1 (normal) played" in m.content]
    assert computer_moves, "the computer player never moved"

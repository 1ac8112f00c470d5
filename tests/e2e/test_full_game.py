"""Whole matches played through clicks, from the lobby to the winner."""

from __future__ import annotations

import json
from pathlib import Path

from bot.service import NEXT_ROUND_PAUSE_S
from engine import Game
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import TIMEOUT, TableDriver, is_final
from .test_decisions import private_answer

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
    assert "wins round" not in final.content  # a one-round match has no rounds to tell
    assert "Tiles left in hand and pile (lower wins):\n1. " in final.content
    assert final.labels() == ["Rematch"]  # the one button left: a new lobby, same options
    # The lobby card in the channel tells the result, not "The game has started".
    await world.fake.wait_for(
        lambda: "Finished. Winner:" in lobby.embed_text() and lobby.settled, 10, "lobby result"
    )
    assert "The game has started" not in lobby.embed_text()
    assert "lower wins" in lobby.embed_text()
    # Every hand message loses its buttons and its picture (which showed a game still going),
    # and tells the result.
    for user in (world.alice, world.bob, world.carol):
        hand = [m for m in user.dms() if m.revisions[0].attachments]
        assert len(hand) == 1  # one hand message per player for the whole game
        await world.fake.wait_for(
            lambda h=hand[0]: "is over" in h.content and h.settled, TIMEOUT, "hands closed"
        )
        assert hand[0].buttons() == [] and hand[0].images() == []
    # Every move posted one new picture; every hand went only to its owner.
    for user in (world.alice, world.bob, world.carol):
        for dm in user.dms():
            assert f"<@{user.id}>" not in dm.content  # hands are never about someone else
    samples = sorted(table.timing.samples)
    print(  # for the report (never asserted: wall-clock time)
        f"click-to-picture over {len(samples)} moves: "
        f"p50 {samples[len(samples) // 2] * 1000:.0f} ms, "
        f"p95 {samples[int(len(samples) * 0.95)] * 1000:.0f} ms"
    )


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
    # Rematch, on the lobby card that now tells the result: a new lobby with the same options,
    # the computer keeping its seat, the clicker hosting; a stranger may not ask for it.
    await world.fake.wait_for(
        lambda: "Rematch" in lobby.labels() and lobby.settled, TIMEOUT, "the Rematch button"
    )
    assert "Finished. Winner:" in lobby.embed_text()
    ix = await table.click(world.bob, lobby, "Rematch")
    assert "Only the match's players" in await private_answer(ix)
    # The game's last message in its thread has the same button: the new lobby opens in the
    # channel (the thread stays the finished game's).
    assert final.channel.is_thread and final.labels() == ["Rematch"]
    ix = await table.click(world.alice, final, "Rematch")
    assert "Rematch: a new table is open" in await private_answer(ix)
    again = table.lobby()
    assert again is not lobby and again.channel is world.games
    assert "Waiting for players" in again.embed_text()
    assert "1. Alice" in again.embed_text() and "2. Computer 1" in again.embed_text()
    assert lobby.embed_text().split("\n")[1] == again.embed_text().split("\n")[1]  # options
    assert "Join" in again.labels()


def last_tile_of_round_one(tmp_path: Path) -> str:
    """A two-round match where Alice is about to play her last tile of round 1."""
    game = Game.from_dict(
        {
            "players": 3,
            "pyramid": {"0,0": "Y30", "0,2": "R10"},
            "hands": [["Y40"], ["R2", "G2"], ["B4", "Y4"]],
            "piles": [[], ["R20"], ["B10"]],
            "active": 0,
        }
    )
    game.rounds = 2
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.to_dict()))
    return str(path)


async def test_rounds_of_a_match(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    # Alice holds her last tile: she wins round 1 of 2; Bob starts round 2 with the button.
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    won = await table.play(world.alice, first)
    assert "Alice wins round 1 of 2." in won.content
    assert "Standings after round 1 of 2 (lower wins):" in won.content
    assert "Next round" in won.labels()
    ix = await table.click(world.bob, won, "Next round")
    dealt = await table.settled_game(won.id)
    assert "Round 2 of 2 is dealt" in dealt.content
    assert not ix.followups  # no refusal
    for user in (world.alice, world.bob, world.carol):
        await world.fake.wait_for(
            lambda u=user: any("round 2/2" in m.content for m in u.dms()), TIMEOUT, "new hands"
        )


async def test_the_next_round_starts_by_itself_after_a_pause(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    won = await table.play(world.alice, first)
    assert "Next round" in won.labels()
    clock.advance(NEXT_ROUND_PAUSE_S + 1)  # nobody presses the button
    dealt = await table.settled_game(won.id)
    assert "Round 2 of 2 is dealt" in dealt.content
    ix = await table.click(world.carol, won, "Next round")  # too late: nothing changes
    assert "already started" in await private_answer(ix)
    assert table.latest_game().id == dealt.id

"""Whole matches played through clicks, from the lobby to the winner."""

from __future__ import annotations

import json
from pathlib import Path

from bot.errors import Why
from bot.service import NEXT_ROUND_PAUSE_S
from engine import Game
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    card_text,
    is_final,
    lobby_controls,
    refusal_text,
    stored_game,
    stored_log,
    stored_table,
    table_of,
    tile_codes,
    turn_notices,
)
from .test_decisions import private_answer

SHORT_SEED = 877
"""A deal where the driver's way of playing (first tile, spot A, fall left) ends in about 60
decisions, found by playing that policy with the engine over many seeds."""


async def test_full_three_player_game(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot(seed=SHORT_SEED)
    lobby = await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    table_id = table_of(game)
    assert table_id is not None
    # The lobby's buttons are gone once the game runs.
    await world.fake.wait_for(
        lambda: len(lobby.revisions) > 1 and not lobby_controls(lobby) and lobby.settled,
        10,
        "lobby edit",
    )
    final = await table.play_to_the_end(game)
    assert is_final(final)
    assert table.decider(final) is None  # nobody has anything left to decide
    assert button_actions(final) == [("rematch", "")]  # the one button: a new lobby
    record = await stored_table(db_url, table_id)
    assert record.status == "finished"
    ended = await stored_game(db_url, table_id)
    assert ended.match_over and ended.rounds == 1 and ended.winners()
    names = [seat.name for seat in record.seats]
    # The lobby card in the channel tells the result: its winners, and the Rematch button.
    await world.fake.wait_for(
        lambda: button_actions(lobby) == [("rematch", "")] and lobby.settled, 10, "lobby result"
    )
    assert all(names[w] in card_text(lobby) for w in ended.winners())
    # The podium: one line a player, lowest total first, the first place with its medal.
    podium = card_text(lobby).split("(lower wins):\n", 1)[1].splitlines()
    totals = [int(line.rsplit(" — ", 1)[1]) for line in podium]
    assert len(podium) == 3 and totals == sorted(totals)
    assert podium[0].startswith("🥇") and names[ended.winners()[0]] in podium[0]
    # The last post pings every player once, so that a game played over days tells everyone
    # how it ended; no earlier post pinged a player who is told by direct message.
    assert sorted(final.notified) == sorted(u.id for u in (world.alice, world.bob, world.carol))
    assert all(m.notified == [] for m in table.game_messages() if m.id != final.id)
    # One screen per decision that became theirs, each a new direct message; every one closed
    # (no button, no picture of a game still going) by their own last click on it.
    for user in (world.alice, world.bob, world.carol):
        screens = [m for m in user.dms() if m.revisions[0].attachments]
        assert screens and screens == turn_notices(user)
        for screen in screens:
            await world.fake.wait_for(
                lambda h=screen: h.buttons() == [] and h.images() == [] and h.settled,
                TIMEOUT,
                "screens closed",
            )
        assert sum(len(m.revisions) > 1 for m in screens) == len(screens)
    # Every move posted one new picture; every hand went only to its owner.
    for user in (world.alice, world.bob, world.carol):
        for dm in user.dms():
            assert f"<@{user.id}>" not in dm.content  # hands are never about someone else
    # Every request the bot made in the whole match, command registration included, was held
    # to Discord's published contract, and none fell outside it.
    fake = world.fake
    assert fake.requests_to("PUT /applications/{application_id}/commands")
    assert len(fake.requests) > 100
    assert fake.unchecked_requests() == [] and fake.outside_contract() == []
    samples = sorted(table.timing.samples)
    print(  # for the report (never asserted: wall-clock time)
        f"click-to-picture over {len(samples)} moves: "
        f"p50 {samples[len(samples) // 2] * 1000:.0f} ms, "
        f"p95 {samples[int(len(samples) * 0.95)] * 1000:.0f} ms"
    )


async def test_game_with_a_computer_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
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
    await table.add_computer(world.alice, "normal")
    await world.fake.wait_for(lambda: "rmai" in [a for a, _ in button_actions(lobby)], 10, "seat")
    game = await table.start(world.alice)
    table_id = table_of(game)
    assert table_id is not None
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final)
    first = await stored_table(db_url, table_id)
    assert [(s.user_id, s.ai) for s in first.seats] == [(world.alice.id, None), (None, "normal")]
    computer_moves = [
        a for a in await stored_log(db_url, table_id) if a.seat == 1 and "play" in a.action
    ]
    assert computer_moves, "the computer player never moved"
    # Rematch, on the lobby card that now tells the result: a new lobby with the same options,
    # the computer keeping its seat, the clicker hosting; a stranger may not ask for it.
    await world.fake.wait_for(
        lambda: button_actions(lobby) == [("rematch", "")] and lobby.settled,
        TIMEOUT,
        "the Rematch button",
    )
    assert first.status == "finished"
    ix = await table.click(world.bob, lobby, "Rematch")
    assert await private_answer(ix) == refusal_text(Why.REMATCH_PLAYERS_ONLY)
    assert table.lobby() is lobby  # no new lobby for a stranger
    # The game's last message in its thread has the same button: the new lobby opens in the
    # channel (the thread stays the finished game's).
    assert final.channel.is_thread and button_actions(final) == [("rematch", "")]
    ix = await table.click(world.alice, final, "Rematch")
    reply = await answer(ix)
    assert reply.ephemeral
    again = table.lobby()
    assert again is not lobby and again.channel is world.games
    assert f"/{again.id}" in reply.content  # the answer links to the new lobby
    new_id = table_of(again)
    assert new_id is not None and new_id != table_id
    second = await stored_table(db_url, new_id)
    assert second.status == "lobby" and second.host_id == world.alice.id
    assert [(s.user_id, s.ai) for s in second.seats] == [(world.alice.id, None), (None, "normal")]
    assert second.options == first.options
    assert ("join", "") in button_actions(again)


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
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    # Alice holds her last tile: she wins round 1 of 2; Bob starts round 2 with the button.
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    table_id = table_of(first)
    assert table_id is not None
    won = await table.play(world.alice, first)
    after_one = await stored_game(db_url, table_id)
    assert after_one.round == 1 and after_one.winner == 0 and after_one.pending is None
    assert not after_one.match_over
    assert after_one.scores[0] == 0 and min(after_one.scores[1:]) > 0  # Alice leads
    assert ("next", "") in button_actions(won)
    ix = await table.click(world.bob, won, "Next round")
    dealt = await table.settled_game(won.id)
    assert not ix.followups  # no refusal
    second = await stored_game(db_url, table_id)
    assert second.round == 2 and second.pending is not None
    assert second.scores == after_one.scores  # the standings carry over
    seats = (await stored_table(db_url, table_id)).seats
    assert table.decider(dealt) == seats[second.active].user_id
    # The player who begins round 2 gets its screen: the tiles of round 2 on its buttons; the
    # others, who have nothing to decide yet, get nothing and see theirs with My hand.
    active = (world.alice, world.bob, world.carol)[second.active]
    dealt_tiles = sorted(second.hands[second.active])
    await world.fake.wait_for(
        lambda: (
            (h := table.hand_message(active)) is not None
            and h.settled
            and sorted(arg.split(".")[0] for a, arg in button_actions(h) if a == "play")
            == dealt_tiles
        ),
        TIMEOUT,
        "the new round's screen",
    )
    for seat, user in enumerate((world.alice, world.bob, world.carol)):
        if seat == second.active:
            continue
        ix = await table.click(user, dealt, "My hand")
        hand = await answer(ix)
        assert sorted(tile_codes(hand)) == sorted(second.hands[seat])


async def test_the_next_round_starts_by_itself_after_a_pause(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    table_id = table_of(first)
    assert table_id is not None
    won = await table.play(world.alice, first)
    assert ("next", "") in button_actions(won)
    clock.advance(NEXT_ROUND_PAUSE_S + 1)  # nobody presses the button
    dealt = await table.settled_game(won.id)
    second = await stored_game(db_url, table_id)
    assert second.round == 2 and second.pending is not None
    version = (await stored_table(db_url, table_id)).version
    # The round's end post no longer offers Next round: nothing is left to press too late.
    await world.fake.wait_for(
        lambda: won.settled and ("next", "") not in button_actions(won), TIMEOUT, "the end post"
    )
    assert table.latest_game().id == dealt.id
    assert (await stored_table(db_url, table_id)).version == version

"""The table service on a real SQLite file: lobbies, turns, fall choices, curses, stale clicks,
deadlines with a hand-moved clock, and a restart (a new service on the same file)."""

from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path

import pytest

from bot.errors import (
    BadRequest,
    HandChanged,
    NoTable,
    NotAllowed,
    NotSeated,
    NotYourDecision,
    Stale,
    TableError,
    TableExists,
    Why,
)
from bot.service import (
    COMPUTER_LEVELS,
    LeftGame,
    Reminder,
    SpotChoice,
    Step,
    TableService,
    hand_digest,
)
from data.sqlite import SqliteStore
from data.store import PlayerReach, TableDefaults
from engine import Game
from engine.ai import LEVELS

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    ManualClock,
    lobby,
    make_service,
    play_tile,
    state,
    with_rounds,
)

# --- lobby ----------------------------------------------------------------------------------------


async def test_new_table_seats_the_host_with_server_defaults(service: TableService) -> None:
    board = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    assert board.prompt.kind == "lobby"
    assert [s.user_id for s in board.table.seats] == [ALICE]
    assert board.options.turn_limit_s == 24 * 3600
    assert board.options.curse is False


async def test_one_table_per_channel_but_many_channels(service: TableService) -> None:
    first = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.store.set_message(first.table_id, "lobby", 555)
    with pytest.raises(TableExists) as busy:
        await service.new_table(GUILD, CHANNEL, BOB, "Bob")
    assert busy.value.table_id == first.table_id
    assert busy.value.message_id == 555
    other = await service.new_table(GUILD, CHANNEL + 1, ALICE, "Alice")  # same host elsewhere
    assert other.table_id != first.table_id


async def test_table_options_reach_the_dealt_game(service: TableService) -> None:
    t = await lobby(
        service, ALICE, BOB, curse=True, fire_die=True, rounds=3, turn_limit_s=900, max_seats=3
    )
    step = await service.start(t, None, ALICE)
    game = Game.from_dict(step.board.table.state or {})
    assert game.to_dict()["options"] == {"curse": True, "fire_die": True}
    assert game.rounds == 3
    assert step.board.table.options.max_seats == 3
    assert step.board.prompt.deadline is not None
    assert step.board.table.deadline == step.board.table.updated_at + 900


async def test_bad_options_are_refused(service: TableService) -> None:
    with pytest.raises(BadRequest):
        await service.new_table(GUILD, CHANNEL, ALICE, "Alice", TableDefaults(rounds=0))
    with pytest.raises(BadRequest):
        await service.new_table(GUILD, CHANNEL, ALICE, "Alice", TableDefaults(turn_limit_s=5))


async def test_join_and_leave(service: TableService) -> None:
    t = await lobby(service, ALICE)
    board = await service.join(t, BOB, "Bob")
    assert [s.user_id for s in board.table.seats] == [ALICE, BOB]
    with pytest.raises(NotAllowed):
        await service.join(t, BOB, "Bob")  # already seated
    board = await service.leave_lobby(t, BOB)
    assert [s.user_id for s in board.table.seats] == [ALICE]
    with pytest.raises(NotSeated):
        await service.leave_lobby(t, BOB)
    with pytest.raises(NotAllowed):
        await service.leave_lobby(t, ALICE)  # the host cancels instead


async def test_max_seats(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, max_seats=2)
    with pytest.raises(NotAllowed) as refused:
        await service.join(t, CAROL, "Carol")
    assert refused.value.why is Why.TABLE_FULL


async def test_only_the_host_adds_computers_starts_and_cancels(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    v = (await service.board_of(t)).version
    with pytest.raises(NotAllowed):
        await service.add_ai(t, v, BOB, "easy")
    with pytest.raises(NotAllowed):
        await service.start(t, v, BOB)
    with pytest.raises(NotAllowed):
        await service.cancel(t, v, BOB)
    board = await service.add_ai(t, v, ALICE, "hard")
    assert board.table.seats[-1].ai == "hard"
    board = await service.remove_ai(t, board.version, ALICE)
    assert all(s.ai is None for s in board.table.seats)


async def test_the_host_seats_every_level_of_the_engine_and_no_other(
    service: TableService,
) -> None:
    assert COMPUTER_LEVELS == LEVELS == ("easy", "normal", "hard", "expert")
    t = await lobby(service, ALICE)
    board = await service.add_ai(t, (await service.board_of(t)).version, ALICE, "expert")
    assert [s.ai for s in board.table.seats] == [None, "expert"]
    with pytest.raises(BadRequest) as refused:
        await service.add_ai(t, board.version, ALICE, "master")
    assert refused.value.why is Why.UNKNOWN_LEVEL


async def test_double_click_on_add_computer_adds_one(service: TableService) -> None:
    t = await lobby(service, ALICE)
    v = (await service.board_of(t)).version
    await service.add_ai(t, v, ALICE, "easy")
    with pytest.raises(Stale):
        await service.add_ai(t, v, ALICE, "easy")
    assert len((await service.board_of(t)).table.seats) == 2


async def test_start_needs_two_players(service: TableService) -> None:
    t = await lobby(service, ALICE)
    with pytest.raises(NotAllowed) as refused:
        await service.start(t, None, ALICE)
    assert refused.value.why is Why.NEED_PLAYERS


async def test_start_deals_and_hands_out(service: TableService, clock: ManualClock) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    v = (await service.board_of(t)).version
    step = await service.start(t, v, ALICE)
    assert step.kind == "start"
    assert step.board.table.status == "playing"
    assert {h.user_id for h in step.hands} == {ALICE, BOB, CAROL}
    for h in step.hands:
        assert h.view.hand is not None and len(h.view.hand) == 5
        assert h.view.player == h.seat
    assert step.board.view is not None and step.board.view.hand is None  # public
    assert step.board.prompt.kind == "play"
    assert step.board.prompt.deadline == clock.now + 24 * 3600
    with pytest.raises(Stale):
        await service.start(t, v, ALICE)  # double click
    with pytest.raises(Stale):
        await service.join(t, DAVE, "Dave")  # too late to join


async def test_cancel_closes_the_lobby(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    board = await service.cancel(t, None, ALICE)
    assert board.table.status == "cancelled"
    with pytest.raises(NoTable):
        await service.board_in_channel(CHANNEL)
    await service.new_table(GUILD, CHANNEL, BOB, "Bob")  # the channel is free again


# --- turns ----------------------------------------------------------------------------------------


async def started(service: TableService, s: dict[str, object], *users: int) -> int:
    t = await lobby(service, *users)
    await service.start_from_state(t, users[0], dict(s))
    return t


async def test_a_turn_with_several_spots(service: TableService) -> None:
    s = state(pyramid={"0,0": "Y30", "0,2": "R10", "0,6": "B20"})
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    assert hand.your_turn
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    assert [label for label, _ in choice.spots] == ["A", "B"]
    assert [p for _, p in choice.spots] == [(1, 1), (0, 4)]
    step = await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))
    assert step.actor == 0
    assert [e.kind for e in step.events][:1] == ["placed"]
    assert step.board.prompt.kind == "play" and step.board.prompt.user_id == BOB
    # Alice's hand changed; Bob's did not, but his turn began: his hand is shown again.
    assert [(h.user_id, h.your_turn) for h in step.hands] == [(ALICE, False), (BOB, True)]
    with pytest.raises(Stale):
        await service.choose_spot(t, choice.version, ALICE, "Y40", (0, 4))  # double click


async def test_a_move_reads_the_preferences_of_every_hand_it_shows_at_once(
    service: TableService, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = state(pyramid={"0,0": "Y30", "0,2": "R10", "0,6": "B20"})
    t = await started(service, s, ALICE, BOB, CAROL)
    await service.set_hand_mode(ALICE, "channel")
    await service.store.note_dm_refused(BOB, clock.now)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    store = service.store
    reads: list[tuple[str, object]] = []
    get_reach = store.get_reach

    async def counted(user_ids: Collection[int]) -> dict[int, PlayerReach]:
        reads.append(("get_reach", sorted(user_ids)))
        return await get_reach(user_ids)

    async def one(user_id: int) -> None:
        raise AssertionError("a move reads one player's preferences alone")

    monkeypatch.setattr(store, "get_reach", counted)
    monkeypatch.setattr(store, "get_prefs", one)
    monkeypatch.setattr(store, "dm_refused_at", one)
    step = await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))
    assert isinstance(step, Step)
    assert reads == [("get_reach", [ALICE, BOB])]  # the clicker's own hand among them
    # Each hand as the player's own choices make it.
    [alice, bob] = step.hands
    assert (alice.user_id, alice.dm, alice.dms_closed, alice.dm_refused_at) == (
        ALICE,
        False,
        False,
        None,
    )
    assert (bob.user_id, bob.dm, bob.dms_closed, bob.dm_refused_at) == (BOB, False, True, clock.now)
    assert step.mine == alice


async def test_one_spot_is_still_chosen_and_nothing_is_played_by_the_tile_alone(
    service: TableService,
) -> None:
    t = await started(service, state(), ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice) and [label for label, _ in choice.spots] == ["A"]
    assert (await service.board_of(t)).version == choice.version  # nothing played yet
    step = await service.choose_spot(t, choice.version, ALICE, "Y40", choice.spots[0][1])
    assert step.board.view is not None and step.board.view.pyramid[(1, 1)] == "Y40"


async def test_wrong_player_and_outsider_change_nothing(service: TableService) -> None:
    t = await started(service, state(), ALICE, BOB, CAROL)
    before = await service.board_of(t)
    bob = await service.hand(t, BOB)
    with pytest.raises(NotYourDecision) as refused:
        await service.play(t, BOB, "R2", bob.digest)
    assert (refused.value.decision, refused.value.owner) == ("play", "user11")
    with pytest.raises(NotSeated):
        await service.hand(t, DAVE)
    with pytest.raises(NotSeated):
        await service.play(t, DAVE, "Y40", "whatever")
    after = await service.board_of(t)
    assert after.version == before.version


async def test_old_hand_buttons_are_refused(service: TableService) -> None:
    s = state(hands=[["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]])
    t = await started(service, s, ALICE, BOB, CAROL)
    old = await service.hand(t, ALICE)
    await play_tile(service, t, ALICE, "Y40", old.digest)
    # Alice's hand changed: the old message's other tile is refused even later.
    with pytest.raises(HandChanged) as refused:
        await service.play(t, ALICE, "B2", old.digest)
    assert refused.value.why is Why.HAND_CHANGED
    assert old.digest == hand_digest(t, 1, ["Y40", "B2"])


async def test_collapse_fall_choice_right_and_wrong_player(service: TableService) -> None:
    # Y40 on Y2 and R4 is too heavy: its supports go under Alice's pile and she chooses.
    s = state(pyramid={"0,0": "Y2", "0,2": "R4"})
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(step, Step)
    p = step.board.prompt
    assert (p.kind, p.seat, p.user_id, p.tile, p.at) == ("fall", 0, ALICE, "Y40", (1, 1))
    assert [e.kind for e in step.events] == ["placed", "collapsed"]
    v = step.board.version
    with pytest.raises(NotYourDecision):
        await service.fall(t, v, BOB, "left")
    with pytest.raises(NotSeated):
        await service.fall(t, v, DAVE, "left")
    step = await service.fall(t, v, ALICE, "left")
    assert step.events[0].kind == "fell"
    assert step.board.prompt.kind == "play" and step.board.prompt.user_id == BOB
    with pytest.raises(Stale):
        await service.fall(t, v, ALICE, "right")  # the double click


async def test_curse_hands_the_fall_choice_to_the_previous_player(service: TableService) -> None:
    # G10 on Y10 and R10 makes three 10s: cursed, they go to the previous player (Carol), who
    # then bears the mayhem: B30 keeps one support and collapses; Carol chooses its fall.
    s = state(
        options={"curse": True, "fire_die": False},
        pyramid={"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
        hands=[["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
    )
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "G10", hand.digest)
    assert isinstance(step, Step)
    assert [e.kind for e in step.events] == ["placed", "cursed", "collapsed"]
    p = step.board.prompt
    assert (p.kind, p.seat, p.user_id) == ("fall", 2, CAROL)
    with pytest.raises(NotYourDecision):
        await service.fall(t, step.board.version, ALICE, "left")
    step = await service.fall(t, step.board.version, CAROL, "right")
    assert step.actor == 2
    assert step.board.prompt.user_id == BOB


async def test_fire_die_is_rolled_by_the_game(service: TableService) -> None:
    # A blowtorch next to wood with the fire die: the game rolls it at once.
    s = state(
        options={"curse": False, "fire_die": True},
        pyramid={"0,0": "Y30"},
        hands=[["B7", "Y2"], ["R2", "G2"], ["B4", "Y4"]],
    )
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    step = await service.choose_spot(t, hand.version, ALICE, "B7", (0, 2))
    kinds = [e.kind for e in step.events]
    assert "rolled" in kinds
    log = await service.store.action_log(t)
    assert log[-1].action == {"die": "roll"} and log[-1].seat is None


async def test_a_won_match_is_finished_and_recorded(service: TableService) -> None:
    s = state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], ["G20"], ["B10"]])
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(step, Step)
    assert step.board.prompt.kind == "over"
    assert step.results is not None and step.results.winners == (0,)
    assert step.board.table.status == "finished"
    results = await service.store.results(GUILD)
    assert results and results[0]["winners"] == [0]
    await service.new_table(GUILD, CHANNEL, BOB, "Bob")  # the channel is free


async def test_multi_round_next_round_button_and_pause(
    service: TableService, clock: ManualClock
) -> None:
    s = with_rounds(state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], [], []]), 2)
    t = await started(service, s, ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(step, Step) and step.board.prompt.kind == "next_round"
    with pytest.raises(NotSeated):
        await service.next_round(t, step.board.version, DAVE)
    # Nobody presses "Next round": after the pause the timer deals it.
    assert await service.tick() == []
    clock.advance(service.next_round_pause_s + 1)
    [nxt] = await service.tick()
    assert isinstance(nxt, Step) and nxt.kind == "next_round"
    assert nxt.board.view is not None and nxt.board.view.round == 2
    assert {h.user_id for h in nxt.hands} == {ALICE, BOB, CAROL}
    with pytest.raises(Stale):
        await service.next_round(t, step.board.version, BOB)  # the button's moment passed


# --- timers ---------------------------------------------------------------------------------------


async def test_reminder_then_a_computer_plays_for_the_absent_player(
    service: TableService, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, CAROL, turn_limit_s=3600, reminder_s=600)
    await service.start_from_state(t, ALICE, state())
    assert await service.tick() == []
    clock.advance(3600 - 600 + 1)
    [rem] = await service.tick()
    assert isinstance(rem, Reminder) and rem.user_id == ALICE
    assert await service.tick() == []  # a reminder goes out once
    clock.advance(600)
    [step] = await service.tick()
    assert isinstance(step, Step) and step.timed_out and step.actor == 0
    assert step.board.prompt.user_id == BOB
    assert step.board.prompt.deadline == clock.now + 3600
    log = await service.store.action_log(t)
    assert log[-1].user_id is None and log[-1].seat == 0
    # Alice takes over again simply by acting on her next turn: she is still seated.
    assert service.seat_of(step.board.table, ALICE) == 0


async def test_timeout_finishes_the_absent_players_fall_choices(
    service: TableService, clock: ManualClock
) -> None:
    s = state(pyramid={"0,0": "Y2", "0,2": "R4"})
    t = await lobby(service, ALICE, BOB, CAROL, turn_limit_s=600)
    await service.start_from_state(t, ALICE, s)
    clock.advance(601)
    steps = await service.tick()
    assert [type(x) for x in steps] == [Step, Step]  # the play, then the fall
    assert all(isinstance(x, Step) and x.timed_out for x in steps)
    assert steps[-1].board.prompt.user_id == BOB


async def test_timeout_finishes_a_fall_choice_that_follows_the_fire_die(
    service: TableService, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    # The computer plays the blowtorch for absent Alice; the game's die shows fire, yellow 30
    # burns and yellow 60 above it collapses: Alice's fall choice is part of that one turn.
    s = state(
        options={"curse": False, "fire_die": True},
        pyramid={"0,0": "Y30", "0,2": "R60", "1,1": "Y60"},
        hands=[["B7", "Y2"], ["R2", "G2"], ["B4", "Y4"]],
    )
    t = await lobby(service, ALICE, BOB, CAROL, turn_limit_s=600)
    await service.start_from_state(t, ALICE, s)
    clock.advance(601)
    with caplog.at_level(logging.WARNING, logger="bot"):
        steps = await service.tick()
    assert [r.getMessage() for r in caplog.records] == []  # no illegal choice was caught
    assert all(isinstance(x, Step) and x.timed_out and x.actor == 0 for x in steps)
    kinds = [e.kind for x in steps if isinstance(x, Step) for e in x.events]
    assert "rolled" in kinds and "collapsed" in kinds and "fell" in kinds
    last = steps[-1]
    assert isinstance(last, Step) and last.board.prompt.user_id == BOB


async def test_computer_players_move_by_themselves(service: TableService) -> None:
    t = await lobby(service, ALICE)
    v = (await service.board_of(t)).version
    await service.add_ai(t, v, ALICE, "normal")
    await service.start_from_state(
        t, ALICE, state(players=2, hands=[["Y40"], ["R2"]], piles=[["R20"], ["G20"]], active=1)
    )
    assert await service.needs_advance(t)
    step = await service.advance(t)
    assert step is not None and step.actor == 1
    assert step.board.prompt.user_id == ALICE
    assert await service.advance(t) is None  # a person decides now


async def test_leaving_a_game_gives_the_seat_to_a_computer(service: TableService) -> None:
    t = await started(service, state(), ALICE, BOB, CAROL)
    left = await service.leave(CHANNEL, ALICE)
    assert isinstance(left, LeftGame) and not left.closed
    assert left.board.prompt.user_id is None  # Alice's turn is now a computer's
    with pytest.raises(NotSeated):
        await service.hand(t, ALICE)
    step = await service.advance(t)
    assert step is not None and step.actor == 0
    assert step.board.table.seats[0].ai is not None  # written with the move
    await service.leave(CHANNEL, BOB)
    last = await service.leave(CHANNEL, CAROL)
    assert isinstance(last, LeftGame) and last.closed


async def test_abort_needs_host_or_manager(service: TableService) -> None:
    await started(service, state(), ALICE, BOB, CAROL)
    with pytest.raises(NotAllowed):
        await service.abort(CHANNEL, BOB, may_manage=False)
    board = await service.abort(CHANNEL, BOB, may_manage=True)
    assert board.table.status == "aborted"


async def test_hand_mode_preference(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    await service.set_hand_mode(BOB, "channel")
    step = await service.start(t, None, ALICE)
    modes = {h.user_id: h.dm for h in step.hands}
    assert modes == {ALICE: True, BOB: False}


# --- restart --------------------------------------------------------------------------------------


async def test_a_new_service_on_the_same_file_continues(db_path: Path, clock: ManualClock) -> None:
    store = SqliteStore(db_path)
    await store.open()
    first = make_service(store, clock)
    s = state(pyramid={"0,0": "Y2", "0,2": "R4"})
    t = await started(first, s, ALICE, BOB, CAROL)
    hand = await first.hand(t, ALICE)
    step = await play_tile(first, t, ALICE, "Y40", hand.digest)
    assert isinstance(step, Step)
    version = step.board.version
    await store.close()

    store2 = SqliteStore(db_path)
    await store2.open()
    try:
        second = make_service(store2, clock)
        board = await second.board_in_channel(CHANNEL)
        assert board.prompt.kind == "fall" and board.version == version
        step = await second.fall(t, version, ALICE, "right")  # the same button still works
        assert step.board.prompt.user_id == BOB
        bob = await second.hand(t, BOB)
        assert isinstance(await second.play(t, BOB, "R2", bob.digest), SpotChoice)
        assert await store2.check() == []
    finally:
        await store2.close()


async def test_replay_of_the_log_matches(service: TableService) -> None:
    t = await started(service, state(), ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    await play_tile(service, t, ALICE, "Y40", hand.digest)
    table = await service.store.get_table(t)
    log = await service.store.action_log(t)
    from engine import replay

    assert table.initial_state is not None
    game, _ = replay(table.initial_state, [{**e.action, "player": e.seat} for e in log])
    assert game == Game.from_dict(table.state or {})


async def test_an_unreadable_table_can_be_closed_by_a_manager(
    service: TableService, db_path: Path
) -> None:
    import sqlite3

    t = await started(service, state(), ALICE, BOB, CAROL)
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET state = '{not json' WHERE id = ?", (t,))
    with pytest.raises(TableError) as refused:
        await service.board_in_channel(CHANNEL)
    assert refused.value.why is Why.UNREADABLE_CHANNEL_TABLE
    with pytest.raises(NotAllowed):
        await service.abort(CHANNEL, ALICE, may_manage=False)
    board = await service.abort(CHANNEL, DAVE, may_manage=True)
    assert board.table.status == "aborted"
    await service.new_table(GUILD, CHANNEL, BOB, "Bob")  # the channel is usable again


async def test_a_damaged_table_is_reported_once_and_the_timers_of_others_run(
    db_path: Path, store: SqliteStore, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    import json
    import logging
    import sqlite3

    service = make_service(store, clock)
    damaged = await lobby(service, ALICE, BOB, CAROL, turn_limit_s=600)
    await service.start_from_state(damaged, ALICE, state())
    other = await service.new_table(
        GUILD, CHANNEL + 1, ALICE, "Alice", TableDefaults(turn_limit_s=600)
    )
    await service.join(other.table_id, BOB, "Bob")
    two = state(players=2, hands=[["Y40"], ["R2"]], piles=[["R20"], ["G20"]])
    await service.start_from_state(other.table_id, ALICE, two)
    # The damaged game's state is still JSON, but not a state the engine accepts.
    table = await store.get_table(damaged)
    broken = dict(table.state or {}, hands=[["Y40", "Y40"], [], []])
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET state = ? WHERE id = ?", (json.dumps(broken), damaged))
    clock.advance(601)
    with caplog.at_level(logging.INFO, logger="bot"):
        steps = await service.tick()
        for _ in range(3):
            await service.tick()
    assert [s.board.table_id for s in steps if isinstance(s, Step)] == [other.table_id]
    reports = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(reports) == 1, [r.getMessage() for r in reports]
    assert f"table {damaged}" in reports[0].getMessage()


async def test_a_fall_choice_keeps_the_deadline_of_its_turn(
    service: TableService, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, CAROL, turn_limit_s=3600, reminder_s=600)
    await service.start_from_state(t, ALICE, state(pyramid={"0,0": "Y2", "0,2": "R4"}))
    turn_ends = (await service.board_of(t)).prompt.deadline
    assert turn_ends == clock.now + 3600
    clock.advance(1800)  # half the turn goes by before Alice plays; her tile collapses
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert step.board.prompt.kind == "fall"
    assert step.board.prompt.deadline == turn_ends  # the fall does not restart the clock
    assert (await service.hand(t, ALICE)).deadline == turn_ends
    step = await service.fall(t, step.board.version, ALICE, "left")
    assert step.board.prompt.user_id == BOB and step.board.prompt.deadline == clock.now + 3600


async def test_a_move_never_shown_is_shown_again_only_by_a_process_started_after_it(
    service: TableService, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start(t, (await service.board_of(t)).version, ALICE)
    # The start was made (and never marked shown) before a process that starts now.
    clock.now += 5
    started = clock.now
    assert [b.table_id for b in await service.unshown(before=started)] == [t]
    # A move made after that process started is being shown by whoever made it: not again.
    clock.now += 5
    await service.store.mark_shown(t, (await service.board_of(t)).version)
    hand = await service.hand(t, ALICE)
    assert hand.view.hand is not None
    step = await play_tile(service, t, ALICE, hand.view.hand[0], hand.digest)
    assert step.board.table.shown_version != step.board.version  # not shown yet
    assert await service.unshown(before=started) == []

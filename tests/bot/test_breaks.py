"""The table service's breaks (issue 31, "Step away without stalling the table"): a player away
in a server has each decision made at once by a computer, at every table of theirs there, with
no notice; their own decision or coming back ends it; the clock running out on several of their
decisions in a row sets them away (once, by one process); a paused game's clocks stop, no
reminder goes out, and once resumed the pending decision has the time it had left."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import BadRequest, NotAllowed, Stale, Why
from bot.service import AWAY_MAX_S, Hand, Resumed, SpotChoice, Step, TableService, WentAway
from bot.service.core import AI_GRACE_S
from bot.show import handtexts
from data.records import records_for
from data.store import Absence, GuildSettings, Store
from i18n import ENGLISH
from rating import person_key

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, play_tile, state

LIMIT_S = 24 * 3600
REMINDER_S = 12 * 3600
DAY = 24 * 3600


async def started(service: TableService, *users: int, active: int = 0, **extra: Any) -> int:
    t = await lobby(service, *users)
    await service.start_from_state(t, users[0], state(active=active, **extra))
    return t


async def test_an_away_players_decision_is_the_computers_at_once_with_no_notice(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    change = await service.go_away(GUILD, BOB, 3 * DAY)
    assert change.until == clock() + 3 * DAY and change.boards == ()
    t = await started(service, ALICE, BOB, CAROL)
    board = await service.board_of(t)
    assert board.away == {1: clock() + 3 * DAY}
    assert (await service.hand(t, CAROL)).away == board.away  # her screen shows it too

    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    # Bob's turn comes: nobody is to be told (no screen begins his decision, no mention), the
    # channel shows it as the computer's, and it is the computer's at once.
    p = step.board.prompt
    assert (p.kind, p.seat, p.user_id, p.away) == ("play", 1, None, True)
    assert not [h for h in step.hands if h.user_id == BOB and h.begins]
    table = await store.get_table(t)
    assert table.deadline == clock() + AI_GRACE_S and table.reminder_at is None
    assert await service.needs_advance(t)
    played = await service.advance(t)
    assert played is not None and played.away and not played.timed_out
    assert played.actor == 1
    log = await store.action_log(t)
    assert (log[-1].seat, log[-1].user_id) == (1, None)  # the computer's, not Bob's
    assert played.board.prompt.user_id == CAROL


async def test_going_away_makes_a_pending_decision_the_computers_and_coming_back_ends_it(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, active=1, players=2, hands=[["Y40"], ["R2", "G2"]],
                      piles=[["R20"], ["G20"]])  # fmt: skip
    assert not await service.needs_advance(t)
    change = await service.go_away(GUILD, BOB, DAY)
    [board] = change.boards
    assert board.table_id == t and board.prompt.away and board.prompt.user_id is None
    assert await service.needs_advance(t)

    back = await service.come_back(GUILD, BOB)
    assert back.changed and back.until is None
    assert [b.prompt.user_id for b in back.boards] == [BOB]
    assert not await service.needs_advance(t)
    assert await store.absence(GUILD, BOB) is None
    again = await service.come_back(GUILD, BOB)
    assert not again.changed  # not away: nothing to end


async def test_an_own_decision_brings_a_player_back_and_ends_their_time_outs_in_a_row(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, CAROL)
    # Alice is away, but her click on her screen comes before the computer's move: it counts.
    await service.go_away(GUILD, ALICE, DAY)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert step.back and step.actor == 0
    assert await store.absence(GUILD, ALICE) is None
    assert (await service.board_of(t)).away == {}
    log = await store.action_log(t)
    assert (log[-1].seat, log[-1].user_id) == (0, ALICE)  # her own move

    # Bob's clock ran out once before: his own decision starts the count again.
    await store.count_timeout(GUILD, BOB)
    assert (await store.get_table(t)).absences == {BOB: Absence(None, False, 1)}
    hand = await service.hand(t, BOB)
    step = await play_tile(service, t, BOB, "R2", hand.digest)
    assert not step.back  # he was not away
    assert await store.absence(GUILD, BOB) is None


async def test_the_clock_running_out_twice_in_a_row_sets_a_player_away_once(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, players=2, hands=[["Y40", "B2"], ["R2", "G2"]],
                      piles=[["R20"], ["G20"]])  # fmt: skip
    clock.advance(LIMIT_S + 1)
    first = await service.run_timers(t)
    assert [type(o) for o in first] == [Step]  # once: not yet
    assert first[0].timed_out
    hand = await service.hand(t, BOB)
    await play_tile(service, t, BOB, "R2", hand.digest)
    clock.advance(LIMIT_S + 1)
    second = await service.run_timers(t)
    assert [type(o) for o in second] == [Step, WentAway]
    went = second[1]
    assert isinstance(went, WentAway)
    assert (went.user_id, went.seat, went.timeouts) == (ALICE, 0, 2)
    assert went.until == clock() + AWAY_MAX_S and went.dm
    assert went.board.away == {0: went.until}
    assert await store.absence(GUILD, ALICE) == Absence(went.until, True, 0)


async def test_a_server_chooses_after_how_many_time_outs_or_never(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    await store.set_guild_settings(GuildSettings(GUILD, away_after=1))
    t = await started(service, ALICE, BOB, players=2, hands=[["Y40", "B2"], ["R2", "G2"]],
                      piles=[["R20"], ["G20"]])  # fmt: skip
    clock.advance(LIMIT_S + 1)
    assert [type(o).__name__ for o in await service.run_timers(t)] == ["Step", "WentAway"]

    await store.set_guild_settings(GuildSettings(GUILD, away_after=0))
    await service.come_back(GUILD, ALICE)
    clock.advance(LIMIT_S + 1)  # Bob's clock runs out, then Alice's, then Bob's: never away
    for _ in range(3):
        outcomes = await service.run_timers(t)
        assert [type(o).__name__ for o in outcomes] == ["Step"]
        clock.advance(LIMIT_S + 1)
    assert await store.absence(GUILD, ALICE) == Absence(None, False, 1)
    assert await store.absence(GUILD, BOB) == Absence(None, False, 2)


async def test_a_pause_stops_the_clock_and_the_decision_gets_the_time_it_had_left(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, CAROL)
    before = await store.get_table(t)
    assert before.deadline == clock() + LIMIT_S
    clock.advance(3600)  # Alice took an hour of her day
    paused = await service.pause(CHANNEL, ALICE, "Alice", "dinner\nat home", 2 * DAY,
                                 may_manage=False)  # fmt: skip
    pause = paused.board.pause
    assert pause is not None and pause.reason == "dinner at home" and pause.name == "Alice"
    assert pause.left == LIMIT_S - 3600 and pause.reminder_left == REMINDER_S - 3600
    assert paused.board.prompt.deadline is None  # no clock runs: no deadline shown
    mine = await service.hand(t, ALICE)
    assert mine.paused_until == pause.until and mine.deadline is None
    assert "The game is paused until <t:" in handtexts.hand_content(mine, lang=ENGLISH)
    table = await store.get_table(t)
    assert (table.deadline, table.reminder_at) == (clock() + 2 * DAY, None)
    assert table.version == before.version  # the buttons stay good

    # No reminder and no time-out during the pause, however long the decision waits.
    clock.advance(DAY)
    assert await service.run_timers(t) == []
    # At its end the table resumes by itself: every clock moved on by the time paused.
    clock.advance(DAY)
    [resumed] = await service.run_timers(t)
    assert isinstance(resumed, Resumed) and resumed.name is None
    assert resumed.paused_s == 2 * DAY
    after = await store.get_table(t)
    assert after.pause is None
    assert after.deadline == before.deadline + 2 * DAY == clock() + LIMIT_S - 3600
    assert before.reminder_at is not None
    assert after.reminder_at == before.reminder_at + 2 * DAY
    assert resumed.board.prompt.deadline == after.deadline


async def test_a_decision_that_begins_during_a_pause_gets_its_whole_time_after_it(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, CAROL)
    await service.pause(CHANNEL, ALICE, "Alice", "", DAY, may_manage=False)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)  # playing goes on
    assert step.board.prompt.user_id == BOB and step.board.prompt.deadline is None
    table = await store.get_table(t)
    assert (table.deadline, table.reminder_at) == (clock() + DAY, None)  # still the pause's end
    clock.advance(600)
    resumed = await service.resume(CHANNEL, BOB, "Bob", may_manage=True)
    assert resumed.name == "Bob" and resumed.paused_s == 600
    table = await store.get_table(t)
    assert table.deadline == clock() + LIMIT_S  # Bob's whole time: his clock never ran
    assert table.reminder_at == clock() + LIMIT_S - REMINDER_S


async def test_the_spot_step_shows_the_same_chips_as_the_tile_step(
    service: TableService, clock: ManualClock
) -> None:
    """Bob away and the game paused: Alice's spot step is drawn with the chips her tile step
    has (his day back, the pause), not without them for its few seconds."""
    t = await started(service, ALICE, BOB, CAROL)
    await service.go_away(GUILD, BOB, DAY)
    await service.pause(CHANNEL, ALICE, "Alice", "", DAY, may_manage=False)
    hand = await service.hand(t, ALICE)
    assert hand.paused_until is not None and set(hand.away) == {1}
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    assert choice.paused and dict(choice.away) == dict(hand.away)


async def test_only_the_host_or_a_channel_manager_pauses_a_running_game(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB)
    with pytest.raises(Stale) as lobby_refusal:
        await service.pause(CHANNEL, ALICE, "Alice", "", DAY, may_manage=False)
    assert lobby_refusal.value.why is Why.PAUSE_NOT_PLAYING
    await service.start_from_state(t, ALICE, state(players=2, hands=[["Y40"], ["R2"]],
                                                   piles=[["R20"], ["G20"]]))  # fmt: skip
    with pytest.raises(NotAllowed) as who:
        await service.pause(CHANNEL, BOB, "Bob", "", DAY, may_manage=False)
    assert who.value.why is Why.PAUSE_WHO
    with pytest.raises(BadRequest):
        await service.pause(CHANNEL, ALICE, "Alice", "", 8 * DAY, may_manage=False)
    with pytest.raises(Stale) as not_paused:
        await service.resume(CHANNEL, ALICE, "Alice", may_manage=False)
    assert not_paused.value.why is Why.NOT_PAUSED
    await service.pause(CHANNEL, BOB, "Bob", "a manager", DAY, may_manage=True)
    with pytest.raises(NotAllowed):
        await service.resume(CHANNEL, BOB, "Bob", may_manage=False)


async def test_the_stats_count_a_turn_played_for_a_player_as_the_computers_not_theirs(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    # Alice's yellow 40 on yellow 2 and red 4 collapses; Bob's red 2 then fits.
    collapse = state(
        players=2,
        pyramid={"0,0": "Y2", "0,2": "R4"},
        hands=[["Y40", "B2"], ["R2", "G2"]],
        piles=[["R20"], ["G20"]],
    )
    stats = {}
    for played_by in ("the clock", "away", "herself"):
        t = await lobby(service, ALICE, BOB)
        await service.start_from_state(t, ALICE, collapse)
        if played_by == "the clock":
            clock.advance(LIMIT_S + 1)
            assert (await service.run_timers(t))[0]  # the computer plays her turn, falls too
        elif played_by == "away":
            await service.go_away(GUILD, ALICE, DAY)
            while (step := await service.advance(t)) is not None and step.actor == 0:
                pass
            await service.come_back(GUILD, ALICE)
        else:
            hand = await service.hand(t, ALICE)
            step = await play_tile(service, t, ALICE, "Y40", hand.digest)
            while step.board.prompt.kind == "fall":
                step = await service.fall(t, step.board.version, ALICE, "left")
        assert (await service.board_of(t)).prompt.user_id == BOB
        await service.abort(CHANNEL, ALICE, may_manage=False)  # rated as it stood
        records = records_for(store)
        await records.rate_pending()
        found = await records.player_stats(GUILD, person_key(ALICE))
        assert found is not None
        stats[played_by] = found.record
        await store.end_away(GUILD, ALICE)  # (the time-out's count, for the next match)
    # Her own placement counts once; the computer's turns for her never did.
    assert stats["herself"].collapses == 1 and stats["herself"].tiles_taken > 0
    assert stats["away"].collapses == 0 and stats["away"].tiles_taken == 0
    assert stats["the clock"].collapses == 0 and stats["the clock"].tiles_taken == 0
    assert stats["herself"].matches == 3


async def test_a_player_who_went_away_with_a_reminder_due_is_not_reminded(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await started(service, ALICE, BOB, CAROL)
    await service.go_away(GUILD, ALICE, DAY)  # (her decision is the computer's from now on)
    clock.advance(REMINDER_S + 1)  # the reminder of her decision, written before, comes due
    assert await service.run_timers(t) == []


async def test_a_lobby_shows_who_is_away_and_their_first_turn_is_the_computers(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB)
    [card] = (await service.go_away(GUILD, ALICE, DAY)).boards  # the card to bring up to date
    assert card.table_id == t and card.away == {0: clock() + DAY}  # it warns the table
    step = await service.start_from_state(t, ALICE, state(players=2, hands=[["Y40"], ["R2"]],
                                                          piles=[["R20"], ["G20"]]))  # fmt: skip
    assert step.board.prompt.away and step.board.prompt.user_id is None
    assert not [h for h in step.hands if h.begins]  # nobody is told: it is the computer's
    assert (await store.get_table(t)).deadline == clock() + AI_GRACE_S


async def test_an_away_players_own_turn_held_for_its_undo_window_brings_them_back(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, undo_s=30)
    await service.start_from_state(t, ALICE, state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]],
                                                   piles=[["R20"], ["G20"]]))  # fmt: skip
    await service.go_away(GUILD, ALICE, DAY)  # her click comes before the computer's move
    hand = await service.hand(t, ALICE)
    held = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(held, Hand) and held.decision == "held" and held.back
    assert await store.absence(GUILD, ALICE) is None


async def test_a_pause_leaves_a_held_turns_window_and_stops_the_next_players_clock(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, undo_s=30)
    await service.start_from_state(t, ALICE, state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]],
                                                   piles=[["R20"], ["G20"]]))  # fmt: skip
    hand = await service.hand(t, ALICE)
    held = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(held, Hand) and held.decision == "held"
    window = (await store.get_table(t)).deadline
    assert window == clock() + 30
    await service.pause(CHANNEL, ALICE, "Alice", "", DAY, may_manage=False)
    paused = await store.get_table(t)
    assert paused.deadline == window and paused.pause is not None  # the window runs on
    clock.advance(31)
    [step] = await service.run_timers(t)  # the window ends: the turn is handed on
    assert isinstance(step, Step) and step.board.prompt.user_id == BOB
    assert step.board.prompt.deadline is None  # Bob's clock does not run: the game is paused
    assert (await store.get_table(t)).deadline == paused.pause.until
    clock.advance(600)
    await service.resume(CHANNEL, ALICE, "Alice", may_manage=False)
    assert (await store.get_table(t)).deadline == clock() + LIMIT_S  # his whole time


async def test_a_turn_undone_during_a_pause_waits_for_the_pauses_end(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB, undo_s=30)
    await service.start_from_state(t, ALICE, state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]],
                                                   piles=[["R20"], ["G20"]]))  # fmt: skip
    clock.advance(LIMIT_S - 60)  # Alice plays a minute before her time ends...
    hand = await service.hand(t, ALICE)
    held = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(held, Hand) and held.held is not None
    await service.pause(CHANNEL, BOB, "Bob", "", DAY, may_manage=True)  # ...the game is paused...
    version = (await store.get_table(t)).version
    await service.undo(t, version, ALICE, held.held.token)  # ...and she takes her turn back
    clock.advance(120)  # her turn's own deadline passes during the pause: nothing happens
    assert await service.run_timers(t) == []
    table = await store.get_table(t)
    assert table.pause is not None and table.deadline == table.pause.until
    assert (await store.action_log(t)) == []  # nobody played for her

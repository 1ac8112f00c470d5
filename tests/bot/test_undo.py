"""The undo window in the table service (issue 31 §1), on each store: a person's turn is held
back, seen by nobody else, until Done, its window's end or something it reveals; Undo puts the
table back as it was. (What players see of it is tested end to end in
``tests/e2e/test_undo.py``.)"""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import BadRequest, Stale, Why
from bot.service import Hand, SpotChoice, Step, TableService
from data.store import TableDefaults
from engine import Game, Play, view

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, state

COLLAPSE = state(pyramid={"0,0": "Y2", "0,2": "R4"})
"""Alice's yellow 40 on yellow 2 and red 4 is too heavy: she chooses where it falls."""
FITS = state(pyramid={"0,0": "Y30", "0,2": "R10"})
"""Alice's yellow 40 fits on yellow 30 and red 10; she draws red 20 after it."""
CURSE = state(
    options={"curse": True, "fire_die": False},
    pyramid={"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
    hands=[["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
)
"""Alice's green 10 curses the three 10s to Carol, who must choose where blue 30 falls."""
FIRE = state(options={"curse": False, "fire_die": True}, pyramid={"0,0": "Y30"})
FIRE["hands"] = [["B7", "Y2"], ["R2", "G2"], ["B4", "Y4"]]
"""Alice's blue blowtorch beside yellow 30: the fire die is rolled."""


async def started(service: TableService, s: dict[str, Any], *users: int, undo_s: int = 30) -> int:
    t = await lobby(service, *users, undo_s=undo_s)
    await service.start_from_state(t, users[0], dict(s))
    return t


async def spot(service: TableService, t: int, user: int, tile: str, at: tuple[int, int]) -> Any:
    hand = await service.hand(t, user)
    choice = await service.play(t, user, tile, hand.digest)
    assert isinstance(choice, SpotChoice)
    return await service.choose_spot(t, choice.version, user, tile, at)


async def test_a_turn_played_is_held_nobody_else_sees_it_and_undo_puts_everything_back(
    service: TableService, clock: ManualClock
) -> None:
    t = await started(service, FITS, ALICE, BOB, CAROL)
    before = await service.store.get_table(t)
    board = await service.board_of(t)
    held = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(held, Hand) and held.decision == "held" and held.held is not None
    # Her screen shows the pyramid after her tile, and her hand before its draw.
    assert held.view.pyramid[(1, 1)] == "Y40"
    assert held.view.hand == ("B2",)
    assert held.held.until == clock.now + 30
    # Nothing of it is in the state, the log, the channel's board, or the others' hands.
    stored = await service.store.get_table(t)
    assert stored.state == before.state and await service.store.action_log(t) == []
    assert stored.version == before.version + 1  # the version counts the held decision
    now = await service.board_of(t)
    assert (now.view, now.prompt) == (board.view, board.prompt)
    assert now.shown_version == before.version  # what a post of it would show
    assert (await service.hand(t, BOB)).decision == "wait"
    # "My hand" shows her the same screen.
    assert (await service.hand(t, ALICE)).decision == "held"
    again = await service.undo(t, held.version, ALICE, held.held.token)
    assert again.decision == "play" and again.your_turn and again.view.hand == ("Y40", "B2")
    undone = await service.store.get_table(t)
    assert (undone.version, undone.state, undone.held) == (before.version, before.state, None)
    assert (undone.deadline, undone.reminder_at) == (before.deadline, before.reminder_at)
    assert await service.store.action_log(t) == []
    # A second tap of Undo finds it taken back; Done on the old screen too.
    with pytest.raises(Stale) as second:
        await service.undo(t, held.version, ALICE, held.held.token)
    assert second.value.why is Why.TURN_UNDONE
    with pytest.raises(Stale) as late:
        await service.done(t, held.version, ALICE, held.held.token)
    assert late.value.why is Why.TURN_UNDONE


async def test_done_hands_the_turn_on_at_once_and_it_is_logged_once(
    service: TableService,
) -> None:
    t = await started(service, FITS, ALICE, BOB, CAROL)
    held = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(held, Hand) and held.held is not None
    step = await service.done(t, held.version, ALICE, held.held.token)
    assert isinstance(step, Step) and not step.continues_turn and step.no_undo is None
    assert step.board.prompt.kind == "play" and step.board.prompt.user_id == BOB
    assert step.mine is not None and step.mine.view.hand == ("B2", "R20")  # drawn now
    assert [(h.user_id, h.begins) for h in step.hands] == [(ALICE, False), (BOB, True)]
    log = await service.store.action_log(t)
    assert [(a.seat, a.user_id, a.action) for a in log] == [
        (0, ALICE, Play("Y40", (1, 1)).to_dict())
    ]
    with pytest.raises(Stale) as second:
        await service.done(t, held.version, ALICE, held.held.token)
    assert second.value.why is Why.TURN_HANDED_ON
    with pytest.raises(Stale) as undo:
        await service.undo(t, held.version, ALICE, held.held.token)
    assert undo.value.why is Why.TURN_HANDED_ON
    assert await service.store.check() == []


async def test_the_window_ends_by_the_timer_and_undo_is_refused_from_then_on(
    service: TableService, clock: ManualClock
) -> None:
    t = await started(service, FITS, ALICE, BOB, CAROL)
    held = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(held, Hand) and held.held is not None
    clock.advance(29)
    assert await service.run_timers(t) == []
    clock.advance(1)
    with pytest.raises(Stale) as late:  # the window is over even before the timer ran
        await service.undo(t, held.version, ALICE, held.held.token)
    assert late.value.why is Why.TURN_HANDED_ON
    [step] = await service.run_timers(t)
    assert isinstance(step, Step) and step.actor == 0 and step.mine is None
    assert step.board.prompt.user_id == BOB
    assert len(await service.store.action_log(t)) == 1
    assert await service.run_timers(t) == []  # handed on once


async def test_the_falls_of_a_turn_are_held_with_it_and_undone_with_it(
    service: TableService,
) -> None:
    t = await started(service, COLLAPSE, ALICE, BOB, CAROL)
    before = await service.store.get_table(t)
    falling = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(falling, Hand) and falling.decision == "fall" and falling.held is not None
    assert falling.held.until is None  # no Undo yet: the turn goes on
    assert falling.version == before.version + 1
    done = await service.fall(t, falling.version, ALICE, "left")
    assert isinstance(done, Hand) and done.decision == "held" and done.held is not None
    assert [e.kind for e in done.held.events][:3] == ["placed", "collapsed", "fell"]
    assert await service.store.action_log(t) == []
    await service.undo(t, done.version, ALICE, done.held.token)
    after = await service.store.get_table(t)
    assert (after.version, after.state) == (before.version, before.state)


async def test_a_fire_die_roll_hands_the_turn_on_at_once_and_says_why(
    service: TableService,
) -> None:
    t = await started(service, FIRE, ALICE, BOB, CAROL)
    step = await spot(service, t, ALICE, "B7", (0, 2))
    assert isinstance(step, Step) and step.no_undo == "die"
    assert any(e.kind == "rolled" for e in step.events)
    assert (await service.store.get_table(t)).held is None


async def test_a_decision_passed_by_the_curse_hands_the_turn_on_and_names_who_decides(
    service: TableService,
) -> None:
    t = await started(service, CURSE, ALICE, BOB, CAROL)
    step = await spot(service, t, ALICE, "G10", (1, 1))
    assert isinstance(step, Step) and step.no_undo == "passed"
    assert step.passed_to == "user13"
    assert step.board.prompt.kind == "fall" and step.board.prompt.user_id == CAROL


async def test_a_table_without_a_window_hands_every_turn_on_at_once(
    service: TableService,
) -> None:
    t = await started(service, FITS, ALICE, BOB, CAROL, undo_s=0)
    step = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(step, Step) and step.no_undo is None


async def test_a_table_of_one_person_may_wait_longer_than_a_shared_one(
    service: TableService, clock: ManualClock
) -> None:
    solo = await lobby(service, ALICE, undo_s=600)
    await service.add_ai(solo, (await service.store.get_table(solo)).version, ALICE, "easy")
    await service.start_from_state(
        solo,
        ALICE,
        state(players=2, hands=FITS["hands"][:2], piles=FITS["piles"][:2], pyramid=FITS["pyramid"]),
    )
    held = await spot(service, solo, ALICE, "Y40", (1, 1))
    assert isinstance(held, Hand) and held.held is not None
    assert held.held.until == clock.now + 600
    board = await service.board_of(solo)
    assert board.undo_s == 600
    shared = await service.new_table(GUILD, CHANNEL + 1, BOB, "Bob", TableDefaults(undo_s=600))
    assert shared.undo_s == 600  # Bob alone, so far
    shared = await service.join(shared.table_id, CAROL, "Carol")
    assert shared.undo_s == 120


async def test_an_undo_window_out_of_range_is_refused(service: TableService) -> None:
    with pytest.raises(BadRequest) as refused:
        await service.new_table(GUILD, CHANNEL, ALICE, "Alice", TableDefaults(undo_s=601))
    assert refused.value.why is Why.UNDO_RANGE


async def test_the_turns_own_deadline_cuts_a_fall_left_undecided(
    service: TableService, clock: ManualClock
) -> None:
    t = await started(service, COLLAPSE, ALICE, BOB, CAROL)
    falling = await spot(service, t, ALICE, "Y40", (1, 1))
    assert isinstance(falling, Hand) and falling.decision == "fall"
    clock.advance(24 * 3600)
    steps = await service.run_timers(t)
    # Her tile is handed on, then the clock chooses its fall for her.
    assert [s.timed_out for s in steps if isinstance(s, Step)] == [False, True]
    log = await service.store.action_log(t)
    assert [(a.user_id, "play" in a.action, "fall" in a.action) for a in log] == [
        (ALICE, True, False),
        (None, False, True),
    ]


async def test_a_player_who_leaves_takes_their_unseen_turn_with_them(
    service: TableService,
) -> None:
    t = await started(service, FITS, ALICE, BOB, CAROL)
    before = await service.store.get_table(t)
    await spot(service, t, ALICE, "Y40", (1, 1))
    await service.leave(CHANNEL, ALICE, t)
    after = await service.store.get_table(t)
    assert after.held is None and after.state == before.state
    game = Game.from_dict(after.state or {})
    assert view(game, None).pending == view(Game.from_dict(before.state or {}), None).pending

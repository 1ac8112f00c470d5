"""Deadlines belong to people: a decision passed to a person gets that person's whole time limit,
never a computer's grace nor what was left of someone else's turn (RULES 5.5, the curse, passes
the fall choices to the previous player)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import SpotChoice, TableService, first_legal
from bot.service.core import AI_GRACE_S
from data.store import Store
from engine import Action, Play, View

from .conftest import ALICE, BOB, ManualClock, lobby, make_service, play_tile, state

LIMIT_S = 24 * 3600

CURSED = {
    # Whoever plays green 10 on yellow 10 and red 10 curses the previous player (RULES 5.5):
    # blue 30 then collapses and that player chooses its fall.
    "options": {"curse": True, "fire_die": False},
    "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
}


def cursing(level: str, v: View, seed: int) -> Action:
    """A computer player that curses when it can (green 10 on the two 10s), else plays the
    first legal action."""
    del level, seed
    p = v.pending
    if p is not None and p.kind == "play" and (1, 1) in p.spots and "G10" in (v.hand or ()):
        return Play("G10", (1, 1))
    return first_legal(v)


@pytest.fixture
def cursing_service(store: Store, clock: ManualClock) -> TableService:
    return make_service(store, clock, ai=cursing)


async def test_a_computers_curse_gives_the_person_their_whole_time_limit(
    cursing_service: TableService, store: Store, clock: ManualClock
) -> None:
    service = cursing_service
    t = await lobby(service, ALICE, BOB)
    board = await service.board_of(t)
    await service.add_ai(t, board.version, ALICE, "hard")  # seat 2, before Alice
    s: dict[str, Any] = state(**CURSED, hands=[["Y2", "B2"], ["R2", "G2"], ["G10", "Y4"]], active=2)
    await service.start_from_state(t, ALICE, s)
    assert (await store.get_table(t)).deadline == clock() + AI_GRACE_S  # the computer's turn
    clock.advance(5)
    step = await service.advance(t)
    assert step is not None
    assert [e.player for e in step.events if e.kind == "cursed"] == [1]  # Bob's now
    assert step.board.prompt.kind == "fall" and step.board.prompt.user_id == BOB
    # Bob's decision: his whole limit from now, not what was left of the computer's grace.
    table = await store.get_table(t)
    assert table.deadline == clock() + LIMIT_S
    # And he is told by a new screen: the hand that begins his decision.
    (bobs,) = [h for h in step.hands if h.user_id == BOB]
    assert bobs.begins and bobs.decision == "fall"


async def test_a_persons_curse_gives_the_previous_player_their_whole_time_limit(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB)
    s: dict[str, Any] = state(
        **CURSED, players=2, hands=[["Y2", "B2"], ["G10", "Y4"]], piles=[["R20"], ["G20"]]
    )
    s["active"] = 1
    await service.start_from_state(t, ALICE, s)
    clock.advance(20 * 3600)  # Bob takes 20 of his 24 hours
    hand = await service.hand(t, BOB)
    choice = await service.play(t, BOB, "G10", hand.digest)
    assert isinstance(choice, SpotChoice)
    cursing_spot = [at for _, at in choice.spots].index((1, 1))
    step = await play_tile(service, t, BOB, "G10", hand.digest, spot=cursing_spot)
    assert step.board.prompt.kind == "fall" and step.board.prompt.user_id == ALICE
    # Alice's fall: her own 24 hours, not the 4 Bob had left.
    assert (await store.get_table(t)).deadline == clock() + LIMIT_S

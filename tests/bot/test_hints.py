"""Hints in the table service (issue 32 §2), on each store: a practice table's decision is judged
by the coach from its player's view alone, a held fall included; the Hint button is on the
screens of a decision only; a table without hints, a decision of another moment or of another
player are refused. (The line it becomes: ``tests/bot/test_hint_lines.py``; end to end:
``tests/e2e/test_hints.py``.)"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bot.errors import NotAllowed, Stale, Why
from bot.service import (
    Hand,
    Hint,
    HintOption,
    SpotChoice,
    TableService,
    hint_seed,
    spot_labels,
)
from bot.show import buttons
from data.store import Store, TableDefaults
from engine import Fall, Game, Play, View, preview, view
from engine.ai.coach import Judgement, judge
from i18n import ENGLISH
from tests.ai.test_hidden_information import hidden_twin

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ManualClock,
    make_service,
    state,
)

DEALS = 6
NODES = 300


def coach(v: View, seed: int) -> Judgement:
    """The coach with the clock out of the way: the same view and seed, the same judgement."""
    return judge(v, seed, time_budget_s=math.inf, node_limit=NODES, deals=DEALS)


@pytest.fixture
def service(store: Store, clock: ManualClock) -> TableService:
    return make_service(store, clock, coach=coach)


COLLAPSE = state(pyramid={"0,0": "Y2", "0,2": "R4"})
"""Alice's yellow 40 on yellow 2 and red 4 is too heavy: she chooses where it falls."""
OPEN = state(
    pyramid={"0,0": "Y30", "0,2": "R10", "0,4": "B20"},
    hands=[["Y40", "R6", "B100", "G2"], ["R2", "G4", "Y6"], ["B4", "Y4", "G6"]],
    piles=[["R20", "G20"], ["G30"], ["B10"]],
)
"""Alice has four tiles and three spots: some fit, some do not."""


async def started(
    service: TableService,
    s: dict[str, Any],
    *,
    hints: bool = True,
    undo_s: int = 0,
    channel: int = CHANNEL,
) -> int:
    """Alice, Bob and Carol at a table of ``channel`` started from ``s`` (a practice table
    unless ``hints`` is False)."""
    options = TableDefaults(hints=hints, undo_s=undo_s)
    board = await service.new_table(GUILD, channel, ALICE, "Alice", options)
    for user in (BOB, CAROL):
        board = await service.join(board.table_id, user, f"user{user}")
    await service.start_from_state(board.table_id, ALICE, dict(s))
    return board.table_id


def expected(game: Game, table_id: int, version: int) -> Judgement:
    p = game.pending
    assert p is not None
    return coach(view(game, p.player), hint_seed(table_id, version))


def figures(*options: HintOption) -> dict[Any, tuple[float, float, float]]:
    return {o.action: (o.now, o.later, o.others) for o in options}


async def test_a_hint_is_the_coachs_judgement_of_the_players_view(
    service: TableService,
) -> None:
    t = await started(service, OPEN)
    hand = await service.hand(t, ALICE)
    h = await service.hint(t, hand.version, ALICE)
    game = Game.from_dict(OPEN)
    judged = expected(game, t, hand.version)
    assert h.decision == "play" and h.best.action == judged.best
    assert figures(h.best, *h.alternatives) == {
        o.action: (o.now, o.later, o.others) for o in judged.options
    }
    assert [o.now for o in h.alternatives] == sorted(o.now for o in h.alternatives)
    # The spots by the letters the picture shows, and "fits" as the spot buttons say it.
    assert game.pending is not None
    letters = dict(spot_labels(game.pending.spots))
    for o in (h.best, *h.alternatives):
        assert isinstance(o.action, Play) and o.spot is not None
        assert letters[o.spot] == o.action.at
        assert o.fits == preview(game, o.action).fits
    assert h.open_decisions == 4 * len(letters) and h.players == 3
    # The same decision asked again: the same hint.
    assert await service.hint(t, hand.version, ALICE) == h


async def test_what_the_player_cannot_see_changes_no_hint(store: Store, clock: ManualClock) -> None:
    """Two tables alike but for the others' hands and the order of every pile: the coach is
    given Alice's view, the same at both, and her hint is the same (with the same seed)."""
    game = Game.from_dict(OPEN)
    twin = hidden_twin(game, 0, random.Random(3))
    assert twin.hands[1:] != game.hands[1:] and twin.piles != game.piles
    seen: list[View] = []

    def same_seed(v: View, seed: int) -> Judgement:
        seen.append(v)
        return coach(v, 5)

    service = make_service(store, clock, coach=same_seed)
    hints = []
    for channel, s in ((CHANNEL, game.to_dict()), (CHANNEL + 1, twin.to_dict())):
        t = await started(service, s, channel=channel)
        hand = await service.hand(t, ALICE)
        h = await service.hint(t, hand.version, ALICE)
        hints.append((h.best, h.alternatives))
    assert seen == [view(game, 0), view(twin, 0)] and seen[0] == seen[1]
    assert hints[0] == hints[1]


async def test_a_fall_of_ones_own_turn_held_back_gets_its_hint(service: TableService) -> None:
    t = await started(service, COLLAPSE, undo_s=30)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    falling = await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))
    assert isinstance(falling, Hand) and falling.decision == "fall" and falling.held is not None
    h = await service.hint(t, falling.version, ALICE)
    assert h.decision == "fall" and h.version == falling.version
    # Judged on the turn as her decisions made it (nobody else sees it yet), from her view.
    judged = coach(falling.view, hint_seed(t, falling.version))
    assert h.best.action == judged.best
    assert {o.action for o in (h.best, *h.alternatives)} == {Fall("left"), Fall("right")}
    assert h.open_decisions == 2


async def test_the_hint_button_is_on_the_screens_of_a_decision_at_a_practice_table(
    service: TableService,
) -> None:
    t = await started(service, COLLAPSE)
    mine = await service.hand(t, ALICE)
    bobs = await service.hand(t, BOB)
    assert mine.hints and mine.decision == "play" and bobs.decision == "wait"

    def actions(hand: Hand) -> list[str]:
        items = buttons.hand_view(hand, fall_row=0, lang=ENGLISH).children
        ids = [str(i.custom_id) for i in items if getattr(i, "custom_id", None)]
        return [cid.split(":")[3] for cid in ids]

    assert actions(mine)[-1] == "hint"
    assert "hint" not in actions(bobs)
    choice = await service.play(t, ALICE, "Y40", mine.digest)
    assert isinstance(choice, SpotChoice) and choice.hints
    step = await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))
    falling = step.mine if not isinstance(step, Hand) else step
    assert falling is not None and falling.decision == "fall"
    assert actions(falling)[:2] == ["fall", "fall"] and "hint" in actions(falling)
    # A table without hints has none.
    plain = await started(service, COLLAPSE, hints=False, channel=CHANNEL + 1)
    assert "hint" not in actions(await service.hand(plain, ALICE))


async def test_a_hint_is_refused_without_hints_and_once_its_moment_passed(
    service: TableService,
) -> None:
    plain = await started(service, OPEN, hints=False)
    with pytest.raises(NotAllowed) as refused:
        await service.hint(plain, (await service.hand(plain, ALICE)).version, ALICE)
    assert refused.value.why is Why.NO_HINTS
    t = await started(service, OPEN, channel=CHANNEL + 1)
    hand = await service.hand(t, ALICE)
    with pytest.raises(Stale) as not_hers:  # Bob's screen: not his decision
        await service.hint(t, hand.version, BOB)
    assert not_hers.value.why is Why.PASSED_MOMENT
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))  # it fits: Bob's turn
    with pytest.raises(Stale) as passed:  # her turn is played: the old screen's Hint
        await service.hint(t, hand.version, ALICE)
    assert passed.value.why is Why.PASSED_MOMENT
    bobs = await service.hand(t, BOB)
    assert bobs.decision == "play" and bobs.version > hand.version
    assert isinstance(await service.hint(t, bobs.version, BOB), Hint)

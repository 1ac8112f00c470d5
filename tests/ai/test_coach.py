"""The coach behind hints and turning points (:mod:`engine.ai.coach`): the expert's decision, what
each decision costs the player in tiles, from the player's view alone."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, view
from engine.ai import choose
from engine.ai.coach import Judgement, judge
from engine.ai.tactics import tiles_left
from engine.model import Action, Die, Fall, Play
from tests.ai.conftest import FAST, HARD_NODES, fall_after_curse, positions
from tests.ai.test_hidden_information import hidden_twin

DEALS = 6


def _judge(game: Game, seed: int, compare: Sequence[Action] = ()) -> Judgement:
    assert game.pending is not None
    me = game.pending.player
    return judge(
        view(game, me),
        seed,
        compare=compare,
        time_budget_s=math.inf,
        node_limit=HARD_NODES,
        deals=DEALS,
    )


@FAST
@given(game=positions(), twin_seed=st.integers(0, 2**32), seed=st.integers(0, 2**32))
def test_what_a_player_cannot_see_changes_no_judgement(
    game: Game, twin_seed: int, seed: int
) -> None:
    assert game.pending is not None
    twin = hidden_twin(game, game.pending.player, random.Random(twin_seed))
    assert _judge(game, seed) == _judge(twin, seed)


@FAST
@given(game=positions(), seed=st.integers(0, 2**32))
def test_the_expert_decides_first_and_the_same_as_when_it_plays(game: Game, seed: int) -> None:
    assert game.pending is not None
    me = game.pending.player
    j = judge(view(game, me), seed, time_budget_s=math.inf, node_limit=HARD_NODES, deals=DEALS)
    assert j.best == choose(
        "expert", view(game, me), seed, time_budget_s=math.inf, node_limit=HARD_NODES
    )
    assert j.options[0].action == j.best and j.kept_off(j.best) == 0
    assert len({o.action for o in j.options}) == len(j.options)
    for o in j.options:
        assert o.now >= 0 and o.later >= 0 and o.others >= 0


def test_now_is_the_tiles_the_turn_sends_to_ones_own_pile() -> None:
    """A play's ``now`` is exact: the tiles that land under the player's pile this turn, the
    fire die averaged (RULES 5: mayhem goes to the responsible player's pile)."""
    checked = fits = 0
    for seed in range(40):
        game = Game.new(players=3, seed=seed)
        for _ in range(3 * seed % 17):  # somewhere into the round
            p = game.pending
            if p is None:
                break
            if p.kind == "die":
                game.apply(Die(None))
            else:
                game.apply(choose("normal", view(game, p.player), seed), p.player)
        p = game.pending
        if p is None or p.kind != "play":
            continue
        me = p.player
        j = judge(view(game, me), seed, alternatives=99, node_limit=HARD_NODES, deals=1)
        for o in j.options:
            assert isinstance(o.action, Play)
            g = game.copy()
            g.apply(o.action)
            if g.pending is not None and g.pending.kind == "play":  # no choice, no die: exact
                assert o.now == tiles_left(g, me) - (tiles_left(game, me) - 1)
                checked += 1
                fits += o.now == 0
    assert checked > 100 and 0 < fits < checked


def test_a_decision_asked_about_is_judged_beside_the_experts() -> None:
    game = fall_after_curse()
    assert game.pending is not None and game.pending.kind == "fall"
    j = _judge(game, 3, compare=[Fall("left"), Fall("right")])
    assert {o.action for o in j.options} == {Fall("left"), Fall("right")}


def test_a_decision_not_open_is_refused() -> None:
    game = Game.new(players=2, seed=5)
    with pytest.raises(ValueError, match="not a decision open"):
        _judge(game, 1, compare=[Fall("left")])
    with pytest.raises(ValueError, match="public view"):
        judge(view(game), 1)

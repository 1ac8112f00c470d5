"""Every level returns a legal decision, reproducibly, for plays and falls alike."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Action, Fall, Game, Play, view
from engine.ai import LEVELS, choose
from tests.ai.conftest import FAST, HARD_NODES, fall_after_curse, positions


def _decide(level: str, game: Game, seed: int) -> Action:
    assert game.pending is not None
    return choose(
        level,
        view(game, game.pending.player),
        seed,
        time_budget_s=math.inf,
        node_limit=HARD_NODES,
    )


def _assert_legal(game: Game, action: Action) -> None:
    assert game.pending is not None
    seat = game.pending.player
    game.check(action, seat)  # raises EngineError when not allowed
    if isinstance(action, Play):
        assert action.at is not None, "a computer player always names its spot"
    game.copy().apply(action, seat)


def test_the_levels() -> None:
    assert LEVELS == ("easy", "normal", "hard", "expert")


@pytest.mark.parametrize("level", LEVELS)
@FAST
@given(game=positions(), seed=st.integers(0, 2**32))
def test_every_level_decides_legally_anywhere(level: str, game: Game, seed: int) -> None:
    _assert_legal(game, _decide(level, game, seed))


@pytest.mark.parametrize("level", LEVELS)
@FAST
@given(game=positions(), seed=st.integers(0, 2**32))
def test_the_same_view_and_seed_give_the_same_decision(level: str, game: Game, seed: int) -> None:
    assert _decide(level, game, seed) == _decide(level, game.copy(), seed)


@pytest.mark.parametrize("level", LEVELS)
def test_a_fall_after_a_curse_is_the_previous_players(level: str) -> None:
    game = fall_after_curse()
    assert game.pending is not None and game.pending.player == 0 and game.active == 1
    action = _decide(level, game, 3)
    assert isinstance(action, Fall)
    _assert_legal(game, action)


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_plays_whole_games(level: str) -> None:
    for seed, players in ((1, 2), (2, 5)):
        game = Game.new(players, seed, curse=True, fire_die=True)
        turns = 0
        while game.pending is not None and turns < 40:
            p = game.pending
            if p.kind == "die":
                game.roll()
                continue
            turns += p.kind == "play"
            action = _decide(level, game, turns)
            game.apply(action, p.player)
        assert game.tile_count() == 45


def test_normal_takes_nothing_back_when_it_need_not() -> None:
    # Only G6 on 1,1 fits (colour); B120 there collapses both supports.
    game = Game(
        2,
        pyramid={(0, 0): "G2", (0, 2): "R4"},
        hands=[["B120", "G6"], ["Y2"]],
        piles=[["R6"], ["Y4"]],
        active=0,
    )
    for seed in range(5):
        assert _decide("normal", game, seed) == Play("G6", (1, 1))
        assert _decide("hard", game, seed) == Play("G6", (1, 1))


def test_normal_gets_rid_of_the_awkward_tile_when_both_are_safe() -> None:
    game = Game(
        2,
        pyramid={(0, 0): "G2"},  # the spots are the base's ends: anything fits
        hands=[["Y2", "M200"], ["B2"]],
        piles=[["R6"], ["Y4"]],
        active=0,
    )
    for seed in range(5):
        action = _decide("normal", game, seed)
        assert isinstance(action, Play) and action.tile == "M200"


def test_normal_lets_a_tile_fall_where_it_takes_nothing_back() -> None:
    # Y40 on 2,2 is too heavy for Y10 + R10, which go. Falling left, it lands on Y30 + R20 and
    # fits; falling right, on R20 + G2, it is too heavy again and takes two more tiles.
    game = Game(
        2,
        pyramid={(0, 0): "Y30", (0, 2): "R20", (0, 4): "G2", (1, 1): "Y10", (1, 3): "R10"},
        hands=[["Y40"], ["Y2"]],
        piles=[["R6"], ["Y4"]],
        active=0,
    )
    game.apply(Play("Y40", (2, 2)))
    assert game.pending is not None and game.pending.kind == "fall"
    for seed in range(3):
        assert _decide("normal", game, seed) == Fall("left")
        for level in ("easy", "hard"):  # hard looks further: the opponent is one tile from winning
            _assert_legal(game, _decide(level, game, seed))


@pytest.mark.parametrize(
    ("problem", "make"),
    [
        ("unknown level", lambda g: choose("master", view(g, g.active), 1)),
        ("public view", lambda g: choose("easy", view(g, None), 1)),
        ("not its decision", lambda g: choose("easy", view(g, (g.active + 1) % 3), 1)),
    ],
)
def test_bad_requests_are_refused(problem: str, make: object) -> None:
    game = Game.new(3, seed=4)
    with pytest.raises(ValueError):
        make(game)  # type: ignore[operator]


def test_a_die_is_not_a_players_decision() -> None:
    game = Game(
        2,
        fire_die=True,
        pyramid={(0, 0): "Y2"},
        hands=[["Y1"], ["B2"]],
        piles=[["R6"], ["Y4"]],
        active=0,
    )
    game.apply(Play("Y1", (0, 2)))  # a coal beside straw: the die decides
    assert game.pending is not None and game.pending.kind == "die"
    with pytest.raises(ValueError):
        choose("normal", view(game, 0), 1)


def test_a_finished_round_has_nothing_to_decide() -> None:
    game = Game(
        2,
        pyramid={(0, 0): "Y2"},
        hands=[["R4"], ["B2"]],
        piles=[[], ["Y4"]],
        active=0,
    )
    game.apply(Play("R4", (0, 2)))
    assert game.pending is None and game.winner == 0
    with pytest.raises(ValueError):
        choose("normal", view(game, 0), 1)

"""RULES 7: set-up, turns, the win, and multi-round matches."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import EngineError, Game, NextRound, Play, RoundOverError
from engine.scenario import load_state
from engine.tiles import ALL_TILES, INCENDIARY

from .scenario_helpers import events_of, kinds, run, state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rules_7_deal(players: int) -> None:
    for seed in range(40):
        game = Game.new(players, seed)
        share = 45 // players
        leftover = 45 % players
        assert all(len(h) == 5 for h in game.hands)
        assert all(len(h) + len(p) == share for h, p in zip(game.hands, game.piles, strict=True))
        # Leftovers start the base row side by side from 0,0; incendiaries among them leave.
        base = [game.pyramid[(0, 2 * i)] for i in range(len(game.pyramid))]
        assert len(base) + len(game.removed) == leftover
        assert not set(base) & INCENDIARY
        assert set(game.removed) <= INCENDIARY
        assert game.tile_count() == 45
        everything = (
            list(game.pyramid.values())
            + [t for h in game.hands for t in h]
            + [t for p in game.piles for t in p]
            + game.removed
        )
        assert sorted(everything) == sorted(ALL_TILES)
        assert 0 <= game.active < players
        assert game.pending is not None and game.pending.player == game.active


def test_rules_7_incendiaries_in_the_starting_row_leave_the_game() -> None:
    seen = False
    for seed in range(300):
        game = Game.new(6, seed)
        if game.removed:
            seen = True
            (dealt,) = [e for e in game.turn_events if e.kind == "dealt"]
            assert [t for t, _ in dealt.out] == game.removed
            assert len(game.pyramid) == 3 - len(game.removed)
    assert seen


def test_rules_7_the_seed_decides_shuffle_and_first_player() -> None:
    assert Game.new(4, 7) == Game.new(4, 7)
    assert {Game.new(4, s).active for s in range(40)} == {0, 1, 2, 3}
    assert Game.new(4, 7).hands != Game.new(4, 8).hands


def test_rules_7_draw_up_to_five_then_next_player() -> None:
    st = state({"0,0": "Y2"}, [["R4", "B6", "G6", "Y4", "R2"], ["G4"], ["B2"]], [["Y10"], [], []])
    out = run(st, {"play": "R4", "at": "0,2"})
    assert out["hands"][0] == ["B6", "G6", "Y4", "R2", "Y10"]
    assert out["piles"][0] == []
    assert out["active"] == 1
    assert kinds(out) == ["placed", "drew", "turn"]
    assert events_of(out, "drew")[0] == {"type": "drew", "player": 0, "count": 1}


def test_rules_7_seat_order_wraps() -> None:
    st = state({"0,0": "Y2"}, [["R4"], ["G4"], ["B2", "B4"]], active=2)
    out = run(st, {"play": "B2", "at": "0,2"})
    assert out["active"] == 0


def test_rules_7_empty_hand_and_pile_wins() -> None:
    st = state({"0,0": "Y2", "0,2": "R4"}, [["R2"], ["G4", "B2"]])
    out = run(st, {"play": "R2"})
    assert out["winner"] == 0 and out["pending"] is None
    (won,) = events_of(out, "won")
    assert won["scores"] == [0, 2]


def test_rules_7_no_win_when_mayhem_refills_the_pile() -> None:
    # The last tile collapses: its supports go under the pile, so the player draws and goes on.
    st = state({"0,0": "Y2", "0,2": "R4"}, [["G120"], ["B2", "B4"]])
    out = run(st, {"play": "G120"}, {"fall": "left"})
    assert out["winner"] is None
    assert out["hands"][0] == ["Y2", "R4"] and out["active"] == 1


def test_rules_7_actions_after_the_round_is_over_are_refused() -> None:
    st = state({"0,0": "Y2", "0,2": "R4"}, [["R2"], ["G4", "B2"]])
    game = load_state(st)
    game.apply(Play("R2"))
    with pytest.raises(EngineError) as err:
        game.apply(Play("G4", (0, 4)))
    assert isinstance(err.value, RoundOverError)
    assert game.legal_actions() == []


def test_rules_7_no_turn_is_skipped() -> None:
    game = Game.new(5, 3, curse=True)
    order = []
    rnd = random.Random(1)
    while game.pending is not None and game.turn < 60:
        if game.pending.kind == "play":
            order.append(game.pending.player)
        game.apply(rnd.choice(game.legal_actions()))
    for a, b in itertools.pairwise(order):
        assert b == (a + 1) % 5


def test_rules_7_match_scores_over_several_rounds() -> None:
    rnd = random.Random(2)
    game = Game.new(3, 21, rounds=3)
    totals = [0, 0, 0]
    for round_no in (1, 2, 3):
        assert game.round == round_no
        while game.pending is not None:
            game.apply(rnd.choice(game.legal_actions()))
        won = [e for e in game.turn_events if e.kind == "won"][-1]
        assert won.scores[game.winner or 0] == 0
        for i in range(3):
            expected = 0 if i == game.winner else len(game.hands[i]) + len(game.piles[i])
            assert won.scores[i] == expected
            totals[i] += expected
        assert game.scores == totals
        if round_no < 3:
            assert not game.match_over
            game.apply(NextRound())
            assert game.tile_count() == 45
    assert game.match_over
    assert game.winners() == [i for i in range(3) if totals[i] == min(totals)]
    with pytest.raises(EngineError):
        game.apply(NextRound())


def test_rules_7_hand_made_state_an_empty_hand_is_drawn_up_first() -> None:
    # Not reachable in a dealt game: a player whose hand is empty when their turn comes draws up
    # to five first, as at set-up; a player with no tile at all has already won.
    st = state({"0,0": "Y2"}, [["R4", "B6"], []], [[], ["G4", "G6"]])
    out = run(st, {"play": "R4", "at": "0,2"})
    assert out["active"] == 1 and out["hands"][1] == ["G4", "G6"] and out["piles"][1] == []
    assert kinds(out) == ["placed", "drew", "turn"]
    nothing = state({"0,0": "Y2"}, [["R4", "B6"], []])
    out = run(nothing, {"play": "R4", "at": "0,2"})
    assert out["winner"] == 1 and out["pending"] is None

"""RULES 5: mayhem, resolved after every placement, and the rulebooks' worked examples."""

from __future__ import annotations

import random

import pytest

from engine import EngineError, Fall, Game, NotYourDecisionError, Play
from engine.scenario import load_state

from .scenario_helpers import events_of, kinds, run, state, tiles

# The French rules' detailed example ("Exemple de résolution de chaos détaillée"): Jenny plays
# the yellow coal on blue straw 6 and red wood 30.
JENNY = state(
    {
        "0,-2": "Y100",
        "0,0": "R120",
        "0,2": "Y60",
        "0,4": "R7",
        "0,6": "B120",
        "1,-1": "Y6",
        "1,1": "R4",
        "1,3": "G60",
        "1,5": "R100",
        "2,0": "B6",
        "2,2": "R30",
    },
    [["Y1", "G2"], ["B2", "Y2"]],
)


class TestFrenchDetailedExample:
    def test_rules_5_2_step_2_the_coal_collapses(self) -> None:
        out = run(JENNY, {"play": "Y1", "at": "3,1"})
        (collapse,) = events_of(out, "collapsed")
        assert collapse["detail"] == "mismatch"
        assert tiles(collapse["to_pile"]) == ["B6", "R30"]
        assert out["pending"] == {"kind": "fall", "player": 0, "tile": "Y1", "at": "3,1"}
        assert "2,0" not in out["pyramid"] and "2,2" not in out["pyramid"]
        assert out["piles"][0] == ["B6", "R30"]

    def test_rules_5_4_outcome_4a_left_straw_fire(self) -> None:
        out = run(JENNY, {"play": "Y1", "at": "3,1"}, {"fall": "left"})
        (fell,) = events_of(out, "fell")
        assert (fell["at"], fell["to"]) == ("3,1", "2,0")
        (fire,) = events_of(out, "burnt")
        assert fire["tile"] == "Y1" and fire["detail"] == "straw"
        assert tiles(fire["to_pile"]) == ["Y6", "R4"]
        assert tiles(fire["out"]) == ["Y1"]
        assert "Y1" in out["removed"]
        assert out["pyramid"] == {
            "0,-2": "Y100",
            "0,0": "R120",
            "0,2": "Y60",
            "0,4": "R7",
            "0,6": "B120",
            "1,3": "G60",
            "1,5": "R100",
        }
        # Jenny took back 4 tiles and drew them up to a hand of 5.
        assert sorted(out["hands"][0] + out["piles"][0]) == sorted(["G2", "B6", "R30", "Y6", "R4"])
        assert out["pending"]["player"] == 1

    def test_rules_5_2_outcome_4b_right_collapses_again(self) -> None:
        out = run(JENNY, {"play": "Y1", "at": "3,1"}, {"fall": "right"})
        collapses = events_of(out, "collapsed")
        assert [tiles(c["to_pile"]) for c in collapses] == [["B6", "R30"], ["R4", "G60"]]
        assert out["pending"] == {"kind": "fall", "player": 0, "tile": "Y1", "at": "2,2"}

    def test_rules_5_4_outcome_5a_left_burns_the_yellow_straw(self) -> None:
        out = run(JENNY, {"play": "Y1", "at": "3,1"}, {"fall": "right"}, {"fall": "left"})
        (fire,) = events_of(out, "burnt")
        assert fire["at"] == "1,1" and tiles(fire["to_pile"]) == ["Y6"]
        assert sorted(out["hands"][0] + out["piles"][0]) == sorted(
            ["G2", "B6", "R30", "R4", "G60", "Y6"]
        )
        assert out["pyramid"] == {
            "0,-2": "Y100",
            "0,0": "R120",
            "0,2": "Y60",
            "0,4": "R7",
            "0,6": "B120",
            "1,5": "R100",
        }

    def test_rules_5_3_outcome_5b_right_explodes_with_the_blowtorch(self) -> None:
        out = run(JENNY, {"play": "Y1", "at": "3,1"}, {"fall": "right"}, {"fall": "right"})
        (boom,) = events_of(out, "exploded")
        assert sorted(tiles(boom["out"])) == ["R7", "Y1"]
        assert tiles(boom["to_pile"]) == ["R100", "Y60", "B120"]  # reading order
        assert "burnt" not in kinds(out)
        # "Jenny récupère 7 tuiles": B6, R30, R4, G60, R100, Y60, B120.
        taken = out["hands"][0] + out["piles"][0]
        assert sorted(taken) == sorted(["G2", "B6", "R30", "R4", "G60", "R100", "Y60", "B120"])
        assert out["pyramid"] == {"0,-2": "Y100", "0,0": "R120", "1,-1": "Y6"}
        assert sorted(out["removed"]) == ["R7", "Y1"]


def test_rules_5_4_wood_fire_example() -> None:
    # The rulebooks' wood fire: the blue blowtorch on red 40 and blue 20 burns the three
    # contiguous woods and the green straw; yellow 30 is shielded by the coal and red 120.
    st = state(
        {
            "0,-2": "G100",
            "0,0": "Y30",
            "0,2": "R120",
            "0,4": "G6",
            "0,6": "B30",
            "1,1": "Y1",
            "1,3": "R40",
            "1,5": "B20",
        },
        [["B7", "Y2"], ["B2"]],
    )
    out = run(st, {"play": "B7", "at": "2,4"})
    (fire,) = events_of(out, "burnt")
    assert fire["tile"] == "B7" and fire["detail"] == "wood"
    assert tiles(fire["to_pile"]) == ["R40", "B20", "G6", "B30"]
    assert tiles(fire["out"]) == ["B7"]
    assert out["pyramid"] == {"0,-2": "G100", "0,0": "Y30", "0,2": "R120", "1,1": "Y1"}
    assert "exploded" not in kinds(out) and "collapsed" not in kinds(out)


def test_rules_5_3_explosion_destroys_the_whole_pyramid() -> None:
    # The blowtorch placed next to the coal: the three tiles under them, millstone included.
    st = state(
        {"0,0": "Y60", "0,2": "M200", "0,4": "B100", "1,1": "Y1"},
        [["B7", "Y2"], ["B2"]],
    )
    out = run(st, {"play": "B7"})
    (boom,) = events_of(out, "exploded")
    assert tiles(boom["to_pile"]) == ["Y60", "M200", "B100"]
    assert sorted(tiles(boom["out"])) == ["B7", "Y1"]
    assert out["pyramid"] == {}
    assert out["pending"] == {"kind": "play", "player": 1, "spots": ["0,0"]}


def test_rules_5_3_explosion_comes_before_fire() -> None:
    # The blowtorch touches a straw (fire) and a coal (explosion): the explosion wins; the straw
    # is blown away, not burnt, and nothing else catches fire afterwards.
    st = state(
        {"0,0": "B2", "0,2": "Y60", "0,4": "B100", "1,3": "Y1"},
        [["B7", "R2"], ["G2"]],
    )
    out = run(st, {"play": "B7", "at": "1,1"})
    assert "burnt" not in kinds(out)
    (boom,) = events_of(out, "exploded")
    assert tiles(boom["to_pile"]) == ["B2", "Y60", "B100"]
    assert out["pyramid"] == {}


def test_rules_5_3_exploding_group_is_every_connected_incendiary() -> None:
    # Three incendiaries in a chain all leave the game; everything touching any of them goes.
    st = state(
        {
            "0,0": "G100",
            "0,2": "Y60",
            "0,4": "B100",
            "0,6": "R120",
            "0,8": "R2",
            "1,1": "Y1",
            "1,5": "R7",
        },
        [["B7", "Y2"], ["B2"]],
    )
    # The blue blowtorch goes between the coal and the red blowtorch, touching both.
    out = run(st, {"play": "B7", "at": "1,3"})
    (boom,) = events_of(out, "exploded")
    assert sorted(tiles(boom["out"])) == ["B7", "R7", "Y1"]
    assert tiles(boom["to_pile"]) == ["G100", "Y60", "B100", "R120"]
    assert out["pyramid"] == {"0,8": "R2"}


def test_rules_5_2_collapse_with_its_two_fall_choices() -> None:
    # French L, M1, M2: green stone 100 on yellow 2 and blue 4 is too heavy and matches nothing.
    st = state(
        {"0,0": "R100", "0,2": "Y120", "0,4": "B10", "1,1": "Y2", "1,3": "B4"},
        [["G100", "Y4"], ["B2"]],
    )
    after = run(st, {"play": "G100"})
    (collapse,) = events_of(after, "collapsed")
    assert collapse["detail"] == "overweight"
    assert tiles(collapse["to_pile"]) == ["Y2", "B4"]
    # M1: falls left onto red 100 and yellow 120: weights match (100), 100 <= 220. Over.
    left = run(st, {"play": "G100"}, {"fall": "left"})
    assert left["pyramid"]["1,1"] == "G100"
    assert len(events_of(left, "collapsed")) == 1
    assert left["pending"]["kind"] == "play" and left["pending"]["player"] == 1
    # M2: falls right onto yellow 120 and blue 10: matches neither, collapses again.
    right = run(st, {"play": "G100"}, {"fall": "right"})
    assert [tiles(c["to_pile"]) for c in events_of(right, "collapsed")] == [
        ["Y2", "B4"],
        ["Y120", "B10"],
    ]
    assert right["pending"] == {"kind": "fall", "player": 0, "tile": "G100", "at": "1,3"}
    # Falling right again leaves a gap in the base row: it becomes a spot.
    gap = run(st, {"play": "G100"}, {"fall": "right"}, {"fall": "right"})
    assert gap["pyramid"] == {"0,0": "R100", "0,4": "G100"}
    assert gap["pending"]["spots"] == ["0,2"]


def test_rules_5_1_free_air_after_a_fire() -> None:
    # The red blowtorch burns yellow 40 and blue 40; blue 60 above them is left on nothing.
    st = state(
        {
            "0,-2": "R120",
            "0,0": "Y100",
            "0,2": "B100",
            "0,4": "R100",
            "1,-1": "R60",
            "1,1": "Y40",
            "1,3": "B40",
            "2,2": "B60",
        },
        [["R7", "Y2"], ["B2"]],
    )
    out = run(st, {"play": "R7"})
    (fire,) = events_of(out, "burnt")
    assert tiles(fire["to_pile"]) == ["Y40", "B40"]
    assert out["pending"] == {"kind": "fall", "player": 0, "tile": "B60", "at": "2,2"}
    # Free air: nothing leaves the pyramid, the tile just moves down.
    before = out["pyramid"]
    landed = run(st, {"play": "R7"}, {"fall": "left"})
    (fell,) = events_of(landed, "fell")
    assert (fell["at"], fell["to"], fell["detail"]) == ("2,2", "1,1", "left")
    assert len(landed["pyramid"]) == len(before)
    assert landed["pyramid"]["1,1"] == "B60"


def test_rules_5_1_free_air_is_checked_before_collapses_anywhere() -> None:
    # A hand-made position: B40 floats (row 1, nothing under it) and R100 is overweight. The
    # collapse comes first in reading order, yet free air is resolved first.
    st = state(
        {"0,0": "Y2", "0,2": "R4", "0,4": "G6", "1,1": "R2", "2,2": "R100", "1,9": "B40"},
        [["Y4", "G2"], ["B2"]],
    )
    out = run(st, {"play": "Y4", "at": "1,3"})
    assert out["pending"] == {"kind": "fall", "player": 0, "tile": "B40", "at": "1,9"}
    out = run(st, {"play": "Y4", "at": "1,3"}, {"fall": "left"})
    assert out["pending"] == {"kind": "fall", "player": 0, "tile": "R100", "at": "2,2"}


def test_rules_5_2_tile_that_gains_a_second_support_is_checked_on_two() -> None:
    # B20 rests on B120 alone; placing in the gap gives it a second support. It still fits on
    # two (it matches B120), and the pyramid can grow above it again.
    st = state({"0,0": "B120", "0,4": "R60", "1,1": "B20"}, [["G2", "Y2"], ["B2", "R2"]])
    out = run(st, {"play": "G2"})
    assert out["pyramid"]["0,2"] == "G2" and out["pyramid"]["1,1"] == "B20"
    assert "collapsed" not in kinds(out)
    assert out["pending"]["spots"] == ["1,3"]


def test_rules_5_2_one_support_tile_survives_when_it_still_fits() -> None:
    # A tile on one support that fits (same colour, lighter) stays put through a turn.
    st = state({"0,0": "B120", "0,4": "R60", "1,1": "B20", "0,8": "Y2"}, [["Y4", "R2"], ["B2"]])
    out = run(st, {"play": "Y4", "at": "0,6"})
    assert out["pyramid"]["1,1"] == "B20"
    assert kinds(out) == ["placed", "turn"]


def test_rules_5_pile_order_is_reading_order_and_under_the_pile() -> None:
    st = state(
        {"0,0": "Y2", "0,2": "R4"},
        [["G120", "B6"], ["B2"]],
        [["Y10", "Y20"], []],
    )
    out = run(st, {"play": "G120"})
    assert out["piles"][0] == ["Y10", "Y20", "Y2", "R4"]  # under the pile, left before right
    out = run(st, {"play": "G120"}, {"fall": "left"})
    # Player 0 drew from the top: Y10, Y20, then Y2 and R4 (hand B6 + 4 drawn).
    assert out["hands"][0] == ["B6", "Y10", "Y20", "Y2", "R4"]
    assert out["piles"][0] == []


class TestRules55Curse:
    ST = state(
        {"0,0": "Y20", "0,2": "R20", "0,4": "G4", "1,3": "R10"},
        [["Y6", "B2"], ["B20", "G2"], ["R6", "Y4"]],
        active=1,
        curse=True,
    )

    def test_rules_5_5_curse_goes_to_the_previous_player_who_then_decides(self) -> None:
        out = run(self.ST, {"play": "B20"})
        (curse,) = events_of(out, "cursed")
        assert curse["player"] == 0
        assert tiles(curse["to_pile"]) == ["B20", "Y20", "R20"]
        (collapse,) = events_of(out, "collapsed")
        assert collapse["tile"] == "R10" and collapse["player"] == 0
        assert tiles(collapse["to_pile"]) == ["G4"]
        assert out["piles"][0] == ["B20", "Y20", "R20", "G4"]
        assert out["pending"] == {"kind": "fall", "player": 0, "tile": "R10", "at": "1,3"}

    def test_rules_5_5_only_the_previous_player_may_choose_the_fall(self) -> None:
        game = load_state(self.ST)
        game.apply(Play("B20"))
        before = game.to_dict()
        with pytest.raises(EngineError) as err:
            game.apply(Fall("left"), player=1)
        assert isinstance(err.value, NotYourDecisionError)
        assert game.to_dict() == before
        events = game.apply(Fall("right"), player=0)
        assert events[0].kind == "fell" and events[0].player == 0
        # The active player's turn ends as usual: player 1 draws nothing (empty pile), next is 2.
        assert game.active == 2

    def test_rules_5_5_no_curse_without_the_option(self) -> None:
        st = {**self.ST, "options": {"curse": False, "fire_die": False}}
        out = run(st, {"play": "B20"})
        assert "cursed" not in kinds(out)
        assert out["pyramid"]["1,1"] == "B20"

    def test_rules_5_5_curse_is_checked_after_fire(self) -> None:
        # A hand-made position with a cursed mini-pyramid (the 10s) and a coal next to a straw:
        # the fire is resolved first, then the curse.
        st = state(
            {"0,0": "Y10", "0,2": "R10", "1,1": "B10", "0,6": "G1", "0,8": "Y2"},
            [["B2", "R2"], ["G6"]],
            active=0,
            curse=True,
        )
        out = run(st, {"play": "B2", "at": "0,4"})
        assert kinds(out).index("burnt") < kinds(out).index("cursed")
        (fire,) = events_of(out, "burnt")
        assert fire["player"] == 0 and tiles(fire["to_pile"]) == ["B2", "Y2"]
        (curse,) = events_of(out, "cursed")
        assert tiles(curse["to_pile"]) == ["B10", "Y10", "R10"]
        assert curse["player"] == 1  # previous of player 0 in a 2-player game


def test_rules_5_only_incendiaries_that_explode_or_burn_leave_the_game() -> None:
    game = Game.new(4, seed=11, curse=True, fire_die=False)
    rnd = random.Random(5)
    while game.pending is not None:
        before_removed = list(game.removed)
        events = game.apply(rnd.choice(game.legal_actions()))
        gone = [t for e in events for t, _ in e.out]
        assert game.removed == before_removed + gone
        assert all(t in {"Y1", "G1", "R7", "B7"} for t in gone)


def test_rules_5_events_of_each_decision_are_their_own_list() -> None:
    game = load_state(JENNY)
    played = game.apply(Play("Y1", (3, 1)))
    kept = list(played)
    fell = game.apply(Fall("left"))
    assert played == kept  # the fall did not add to what the play returned
    assert game.turn_events == kept + fell

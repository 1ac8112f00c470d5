"""RULES 6: the fire die option."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Die, EngineError, Game, Play
from engine.scenario import load_state

from .scenario_helpers import events_of, kinds, run, state, tiles
from .test_rules_5_mayhem import JENNY

# The green coal placed on green straw 2 and green stone 100: legal, and it touches the straw.
COAL_ON_STRAW = state(
    {"0,0": "G2", "0,2": "G100", "0,4": "Y6"},
    [["G1", "R2"], ["B2", "B4"]],
    fire_die=True,
)


def test_rules_6_a_placement_next_to_fuel_waits_for_the_die() -> None:
    out = run(COAL_ON_STRAW, {"play": "G1", "at": "1,1"})
    assert out["pending"] == {"kind": "die", "player": 0}
    assert "burnt" not in kinds(out)


def test_rules_6_fire_stays() -> None:
    out = run(COAL_ON_STRAW, {"play": "G1", "at": "1,1"}, {"die": "fire_stays"})
    (roll,) = events_of(out, "rolled")
    assert roll["detail"] == "fire_stays"
    (fire,) = events_of(out, "burnt")
    assert tiles(fire["to_pile"]) == ["G2"] and "out" not in fire
    # The coal stays, now on green 100 alone (same colour, lighter: it fits).
    assert out["pyramid"] == {"1,1": "G1", "0,2": "G100", "0,4": "Y6"}
    assert out["removed"] == []


def test_rules_6_fire_removed() -> None:
    out = run(COAL_ON_STRAW, {"play": "G1", "at": "1,1"}, {"die": "fire_removed"})
    (fire,) = events_of(out, "burnt")
    assert tiles(fire["to_pile"]) == ["G2"] and tiles(fire["out"]) == ["G1"]
    assert out["pyramid"] == {"0,2": "G100", "0,4": "Y6"}
    assert out["removed"] == ["G1"]


def test_rules_6_explosion() -> None:
    out = run(COAL_ON_STRAW, {"play": "G1", "at": "1,1"}, {"die": "explosion"})
    (boom,) = events_of(out, "exploded")
    assert sorted(tiles(boom["out"])) == ["G1", "G2"]  # both tiles of the pair leave the game
    assert tiles(boom["to_pile"]) == ["G100"]  # everything touching either goes under
    assert out["pyramid"] == {"0,4": "Y6"}
    assert sorted(out["removed"]) == ["G1", "G2"]


def test_rules_6_smoke() -> None:
    out = run(COAL_ON_STRAW, {"play": "G1", "at": "1,1"}, {"die": "smoke"})
    assert kinds(out)[:2] == ["placed", "rolled"]
    assert out["pyramid"] == {"0,0": "G2", "0,2": "G100", "0,4": "Y6", "1,1": "G1"}
    # The coal keeps touching the straw: with the fire die that never burns by itself.
    out = run(
        COAL_ON_STRAW,
        {"play": "G1", "at": "1,1"},
        {"die": "smoke"},
        {"play": "B2", "at": "1,3"},
    )
    assert "rolled" not in kinds(out)[2:]
    assert "burnt" not in kinds(out)


def test_rules_6_flammable_tile_placed_next_to_an_incendiary_rolls_too() -> None:
    # The straw is the tile placed; the pair's incendiary is the blowtorch it touches.
    st = state(
        {"0,0": "R100", "0,2": "R120", "1,1": "R7", "0,4": "B60"},
        [["B4", "Y2"], ["G2"]],
        fire_die=True,
    )
    out = run(st, {"play": "B4", "at": "1,3"}, {"die": "fire_removed"})
    (fire,) = events_of(out, "burnt")
    assert fire["tile"] == "R7" and fire["detail"] == "wood"
    assert tiles(fire["to_pile"]) == ["B4"] and tiles(fire["out"]) == ["R7"]


def test_rules_6_pair_is_the_first_tile_in_reading_order() -> None:
    # The placed blowtorch touches straw below left (G2) and wood beside it (Y10 at 1,3... ):
    # the pair is the first in reading order, and the explosion removes just that pair.
    st = state(
        {"0,0": "B2", "0,2": "B100", "0,4": "Y20", "1,3": "Y10", "0,-2": "G4"},
        [["B7", "Y2"], ["G2"]],
        fire_die=True,
    )
    out = run(st, {"play": "B7", "at": "1,1"}, {"die": "explosion"})
    (boom,) = events_of(out, "exploded")
    assert sorted(tiles(boom["out"])) == ["B7", "Y10"]  # Y10 (row 1) comes before B2 (row 0)


def test_rules_6_a_collapse_never_starts_a_fire_under_the_fire_die() -> None:
    # Jenny's coal collapses and falls left next to two straws: no fire, no die.
    st = {**JENNY, "options": {"curse": False, "fire_die": True}}
    out = run(st, {"play": "Y1", "at": "3,1"}, {"fall": "left"})
    assert "burnt" not in kinds(out) and "rolled" not in kinds(out)
    assert out["pyramid"]["2,0"] == "Y1"
    assert out["pending"]["kind"] == "play" and out["pending"]["player"] == 1


def test_rules_6_explosion_is_resolved_before_the_die() -> None:
    st = state(
        {"0,0": "B2", "0,2": "Y60", "0,4": "B100", "1,3": "Y1"},
        [["B7", "R2"], ["G2"]],
        fire_die=True,
    )
    out = run(st, {"play": "B7", "at": "1,1"})
    assert "exploded" in kinds(out) and "rolled" not in kinds(out)
    assert out["pending"]["kind"] == "play"


def test_rules_6_at_most_one_roll_per_turn() -> None:
    # The die is rolled once; the turn then ends (a fall later in the same turn could never
    # roll again: only the tile just placed, still on its spot, makes a pair).
    game = load_state(COAL_ON_STRAW)
    game.apply(Play("G1", (1, 1)))
    events = game.apply(Die("smoke"))
    assert sum(e.kind == "rolled" for e in game.turn_events) == 1
    assert events[-1].kind == "turn"


def test_rules_6_no_die_without_the_option() -> None:
    st = {**COAL_ON_STRAW, "options": {"curse": False, "fire_die": False}}
    out = run(st, {"play": "G1", "at": "1,1"})
    assert "rolled" not in kinds(out)
    (fire,) = events_of(out, "burnt")
    assert tiles(fire["to_pile"]) == ["G2"] and tiles(fire["out"]) == ["G1"]
    with pytest.raises(EngineError):
        load_state(st).apply(Die("smoke"))


def test_rules_6_the_game_rolls_with_its_seeded_generator_at_the_right_odds() -> None:
    faces: Counter[str] = Counter()
    for seed in range(1200):
        game = load_state(COAL_ON_STRAW)
        game.rng.state = seed
        game.apply(Play("G1", (1, 1)))
        events = game.roll()
        faces[events[0].detail] += 1
    # 3/6, 1/6, 1/6, 1/6 within generous bounds (deterministic seeds: no flakiness).
    assert 500 < faces["fire_stays"] < 700
    for face in ("fire_removed", "explosion", "smoke"):
        assert 140 < faces[face] < 260


def test_rules_6_rolls_are_reproducible_from_the_saved_state() -> None:
    rolls = 0
    for seed in range(20):
        game = Game.new(3, seed=seed, fire_die=True)
        while game.pending is not None and game.turn < 400:
            if game.pending.kind == "die":
                twin = Game.from_dict(game.to_dict())
                assert twin.roll() == game.roll()
                assert twin == game
                rolls += 1
            else:
                game.apply(game.legal_actions()[-1])
    assert rolls > 0

"""RULES 3: where a tile may be placed (the spots)."""

from __future__ import annotations

from engine import spots

from .scenario_helpers import run, state


def p(*texts: str) -> dict[tuple[int, int], str]:
    """A pyramid from "r,x=TILE" strings."""
    out = {}
    for t in texts:
        pos, tile = t.split("=")
        r, x = pos.split(",")
        out[(int(r), int(x))] = tile
    return out


def test_rules_3_empty_table_has_one_spot_at_0_0() -> None:
    assert spots({}) == ((0, 0),)


def test_rules_3_one_tile_gives_its_left_and_right() -> None:
    assert spots(p("0,0=Y2")) == ((0, -2), (0, 2))


def test_rules_3_two_tiles_side_by_side_must_be_built_on() -> None:
    assert spots(p("0,0=Y2", "0,2=R4")) == ((1, 1),)


def test_rules_3_complete_pyramid_extends_the_base_on_either_side() -> None:
    pyramid = p("0,0=Y2", "0,2=R4", "0,4=G6", "1,1=Y10", "1,3=R10", "2,2=R20")
    assert spots(pyramid) == ((0, -2), (0, 6))


def test_rules_3_several_spots_after_mayhem_listed_in_reading_order() -> None:
    # Two free places on pairs, and a gap in the base row.
    pyramid = p("0,0=Y2", "0,2=R4", "0,4=G6", "0,8=B6", "0,10=Y4", "1,3=R10")
    assert spots(pyramid) == ((1, 1), (1, 9), (0, 6))


def test_rules_3_gap_in_the_base_row_is_a_spot() -> None:
    pyramid = p("0,0=Y2", "0,4=G6", "1,5=G10")
    assert spots(pyramid) == ((0, 2),)


def test_rules_3_never_on_top_of_a_single_tile() -> None:
    # The rulebook's "tile on one tile": B20 rests on B120 alone; the next tile goes in the gap.
    pyramid = p("0,0=B120", "0,4=R60", "1,1=B20")
    assert spots(pyramid) == ((0, 2),)
    # And a tile on one support at the edge gives no spot above it either.
    pyramid = p("0,0=B120", "1,1=B20")
    assert spots(pyramid) == ((0, -2), (0, 2))


def test_rules_3_play_must_name_the_spot_when_there_are_several() -> None:
    st = state({"0,0": "Y2"}, [["R4", "B6"], ["G4"]])
    out = run(st, {"play": "R4", "at": "0,-2"})
    assert out["pyramid"] == {"0,-2": "R4", "0,0": "Y2"}
    assert out["pending"] == {"kind": "play", "player": 1, "spots": ["1,-1"]}


def test_rules_3_at_may_be_left_out_with_one_spot() -> None:
    st = state({"0,0": "Y2", "0,2": "R4"}, [["R2", "B6"], ["G4"]])
    out = run(st, {"play": "R2"})
    assert out["pyramid"]["1,1"] == "R2"

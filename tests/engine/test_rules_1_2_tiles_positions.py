"""RULES 1 (tiles) and RULES 2 (positions, supports, touching, reading order)."""

from __future__ import annotations

import pytest

from engine import EngineError, neighbours, parse_pos, pos_str, reading_key
from engine.tiles import (
    ALL_TILES,
    COLOUR,
    IGNITES,
    INCENDIARY,
    MATERIAL,
    WEIGHT,
    colours_match,
)


class TestRules1Tiles:
    def test_rules_1_there_are_45_unique_tiles(self) -> None:
        assert len(ALL_TILES) == 45
        assert len(set(ALL_TILES)) == 45
        assert len({(COLOUR[t], WEIGHT[t]) for t in ALL_TILES}) == 45

    @pytest.mark.parametrize(
        ("material", "codes"),
        [
            ("straw", "Y2 Y4 Y6 R2 R4 R6 G2 G4 G6 B2 B4 B6"),
            (
                "wood",
                "Y10 Y20 Y30 Y40 R10 R20 R30 R40 G10 G20 G30 G40 B10 B20 B30 B40",
            ),
            ("stone", "Y60 Y100 Y120 R60 R100 R120 G60 G100 G120 B60 B100 B120 M200"),
            ("coal", "Y1 G1"),
            ("blowtorch", "R7 B7"),
        ],
    )
    def test_rules_1_materials(self, material: str, codes: str) -> None:
        expected = set(codes.split())
        assert {t for t in ALL_TILES if MATERIAL[t] == material} == expected

    def test_rules_1_incendiaries_and_what_they_ignite(self) -> None:
        assert {"Y1", "G1", "R7", "B7"} == INCENDIARY
        assert IGNITES["Y1"] == IGNITES["G1"] == {"straw"}
        assert IGNITES["R7"] == IGNITES["B7"] == {"straw", "wood"}
        assert all(not IGNITES[t] for t in ALL_TILES if t not in INCENDIARY)

    def test_rules_1_weights_and_colours(self) -> None:
        assert WEIGHT["M200"] == 200 and WEIGHT["Y1"] == 1 and WEIGHT["B7"] == 7
        assert COLOUR["R120"] == "R"

    def test_rules_1_millstone_matches_every_colour_both_ways(self) -> None:
        for t in ALL_TILES:
            assert colours_match("M200", t)
            assert colours_match(t, "M200")
        assert not colours_match("Y2", "R2")


class TestRules2Positions:
    def test_rules_2_supports_and_parity(self) -> None:
        assert parse_pos("1,3") == (1, 3)
        assert parse_pos("0,-4") == (0, -4)
        assert pos_str((2, -2)) == "2,-2"
        for bad in ("1,2", "0,1", "-1,1", "a,b", "1", "1,2,3", ""):
            with pytest.raises(EngineError):
                parse_pos(bad)

    def test_rules_2_six_neighbours_in_reading_order(self) -> None:
        assert neighbours((1, 3)) == ((2, 2), (2, 4), (1, 1), (1, 5), (0, 2), (0, 4))
        assert sorted(neighbours((1, 3)), key=reading_key) == list(neighbours((1, 3)))

    def test_rules_2_reading_order_is_top_row_first_then_left_to_right(self) -> None:
        positions = [(0, 0), (1, 1), (0, -2), (2, 2), (1, -1), (0, 4)]
        ordered = sorted(positions, key=reading_key)
        assert ordered == [(2, 2), (1, -1), (1, 1), (0, -2), (0, 0), (0, 4)]

"""The words a player reads on a spot's button before playing: the engine's preview, worded."""

from __future__ import annotations

from bot.narrate import describe_preview
from engine import Game, Play, preview
from engine.scenario import load_state
from i18n import ENGLISH
from tests.engine.scenario_helpers import state

NAMES = ("Léa", "Max")


def game(pyramid: dict[str, str], hands: list[list[str]], **options: bool) -> Game:
    return load_state(state(pyramid, hands, [["B2"], ["G4"]], **options))


def test_a_tile_that_fits_reads_fits() -> None:
    g = game({"0,0": "Y30", "0,2": "R40"}, [["Y20"], ["G2"]])
    assert describe_preview(preview(g, Play("Y20", (1, 1))), NAMES, lang=ENGLISH) == "fits"


def test_a_collapse_says_how_many_tiles_go_to_the_players_own_pile() -> None:
    g = game({"0,0": "Y30", "0,2": "R40"}, [["B100"], ["G2"]])
    text = describe_preview(preview(g, Play("B100", (1, 1))), NAMES, lang=ENGLISH)
    assert text == "collapse: 2 tiles to your pile"


def test_a_straw_fire_is_named_with_the_tile_it_burns() -> None:
    g = game({"0,0": "Y2"}, [["G1"], ["G2"]])
    assert (
        describe_preview(preview(g, Play("G1", (0, 2))), NAMES, lang=ENGLISH)
        == "straw fire: 1 tile to your pile"
    )


def test_a_curse_names_the_previous_player_whose_pile_takes_the_tiles() -> None:
    g = game({"0,0": "Y10", "0,2": "R10"}, [["G10"], ["G2"]], curse=True)
    assert (
        describe_preview(preview(g, Play("G10", (1, 1))), NAMES, lang=ENGLISH)
        == "curse: 3 tiles to Max's pile"
    )


def test_a_fire_die_is_announced_without_its_face() -> None:
    g = game({"0,0": "Y2"}, [["G1"], ["G2"]], fire_die=True)
    assert describe_preview(preview(g, Play("G1", (0, 2))), NAMES, lang=ENGLISH) == "fire die"


def test_the_winning_play_says_so() -> None:
    g = load_state(state({"0,0": "Y30"}, [["Y20"], ["G2"]]))
    assert (
        describe_preview(preview(g, Play("Y20", (0, 2))), NAMES, lang=ENGLISH)
        == "fits; you win the round"
    )

"""Sample games to look at and to measure: an empty table, a game in progress, a fall choice, a
full pyramid of all 45 tiles, and the detailed example of the French rules (Jenny's yellow coal).

Used by ``python -m render demo`` and ``python -m render bench``. They are built with the engine
from hand-made positions that the rules accept as stable (the full pyramid: no tile collapses or
burns), then played with real actions.
"""

from __future__ import annotations

from typing import Final

from engine import Event, Fall, Game, Play, View, parse_pos, view

NAMES: Final = ("Jenny", "Bob", "Zoë 🔥", "Δημήτρης")
"""Player names for the samples (the emoji is drawn with an installed emoji font, or left out)."""
WORLD_NAMES: Final = ("王小明", "김민준", "สมชาย", "محمد علي")
"""Names in scripts the bundled font lacks (but Arabic), for the bench."""

FULL_PYRAMID: Final = {
    "0,0": "R7", "0,2": "Y120", "0,4": "B120", "0,6": "R120", "0,8": "G1", "0,10": "G120",
    "0,12": "M200", "0,14": "R100", "0,16": "B7",
    "1,1": "Y100", "1,3": "B100", "1,5": "R60", "1,7": "G100", "1,9": "G60", "1,11": "Y30",
    "1,13": "G40", "1,15": "B60",
    "2,2": "Y60", "2,4": "R40", "2,6": "R10", "2,8": "G30", "2,10": "Y40", "2,12": "B40",
    "2,14": "B30",
    "3,3": "R30", "3,5": "B10", "3,7": "G20", "3,9": "Y20", "3,11": "B20", "3,13": "B4",
    "4,4": "R20", "4,6": "B6", "4,8": "G4", "4,10": "B2", "4,12": "R4",
    "5,5": "R2", "5,7": "Y6", "5,9": "G2", "5,11": "Y2",
    "6,6": "R6", "6,8": "G6", "6,10": "Y4",
    "7,7": "G10", "7,9": "Y10",
    "8,8": "Y1",
}  # fmt: skip
"""All 45 tiles in a stable pyramid with a base of nine."""

JENNY_PYRAMID: Final = {
    "0,0": "Y100", "0,2": "R120", "0,4": "Y60", "0,6": "R7", "0,8": "B120",
    "1,1": "Y6", "1,3": "R4", "1,5": "G60", "1,7": "R100",
    "2,2": "B6", "2,4": "R30",
}  # fmt: skip
"""The pyramid of the French rules' detailed example: Jenny plays the yellow coal Y1 at 3,3."""
JENNY_SPOT: Final = (3, 3)


def empty_table() -> View:
    """A three-player game just dealt: 45 tiles share out evenly, so the table is empty."""
    return view(Game.new(3, seed=1))


def mid_game() -> Game:
    """Round 2 of a three-round match with the curse, four players: Jenny plays the yellow coal
    Y1 next to the blue straw B6, which burns; Bob is to play on one of four spots."""
    pyramid = {parse_pos(k): t for k, t in FULL_PYRAMID.items() if parse_pos(k)[0] <= 3}
    pyramid[(4, 4)] = "R20"
    pyramid[(4, 6)] = "B6"
    game = Game(
        4,
        curse=True,
        rounds=3,
        pyramid=pyramid,
        hands=[["Y1", "G4", "B2", "R4", "R2"], ["Y6", "G2", "Y2"], ["R6", "G6"], ["Y4", "G10"]],
        piles=[[], [], [], ["Y10"]],
        active=0,
    )
    game.round = 2
    game.scores = [3, 0, 7, 5]
    game.apply(Play("Y1", (4, 8)))
    return game


def jenny() -> Game:
    """Jenny (player 0) about to play the yellow coal Y1 on the example's pyramid."""
    return Game(
        3,
        pyramid={parse_pos(k): t for k, t in JENNY_PYRAMID.items()},
        hands=[
            ["Y1", "G2", "B40", "R10", "Y20"],
            ["G4", "B2", "R2", "G10", "B10"],
            ["Y2", "Y4", "B4", "R6", "G6"],
        ],
        piles=[["G20", "Y30"], ["G30", "M200"], ["G40", "B60"]],
        removed=["B7"],
        active=0,
    )


def jenny_fall() -> Game:
    """The example after Jenny played Y1: it collapsed, and she must choose where it falls."""
    game = jenny()
    game.apply(Play("Y1", JENNY_SPOT))
    return game


def jenny_turn() -> tuple[View, list[Event], Game]:
    """The example played out (right, then right: the explosion of 5B).

    Returns the public view before the play, the turn's events and the game after it.
    """
    game = jenny()
    before = view(game)
    game.apply(Play("Y1", JENNY_SPOT))
    game.apply(Fall("right"))
    game.apply(Fall("right"))
    return before, list(game.turn_events), game


def full_pyramid() -> Game:
    """All 45 tiles in the pyramid: Jenny placed the last one, Y1, on top, and won."""
    pyramid = {parse_pos(k): t for k, t in FULL_PYRAMID.items() if t != "Y1"}
    game = Game(4, pyramid=pyramid, hands=[["Y1"], [], [], []], piles=[[], [], [], []])
    game.apply(Play("Y1", parse_pos("8,8")))
    return game


def match_over() -> Game:
    """The end of a two-round match: Bob wins round 2 with his last tile, but Jenny, whose total
    is lower, wins the match (RULES 7: lowest total)."""
    game = Game(
        4,
        rounds=2,
        pyramid={parse_pos(k): t for k, t in JENNY_PYRAMID.items()},
        hands=[["G2", "Y4"], ["G10"], ["B4", "R6", "G6"], ["Y2"]],
        piles=[[], [], ["B2"], ["R2", "G4"]],
        active=1,
    )
    game.round = 2
    game.scores = [0, 9, 4, 2]
    game.apply(Play("G10", (2, 6)))
    return game

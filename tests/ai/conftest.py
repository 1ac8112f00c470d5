"""Positions for the computer players' tests: random games, stopped at a player's decision."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine import Die, Fall, Game, Play

FAST = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Hypothesis settings for these tests: reproducible, no deadline (the search takes its time)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this folder's ``slow`` tests out of the default run: they run with ``-m slow``."""
    if "slow" in (config.option.markexpr or ""):
        return
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="slow: run with python -m pytest -m slow")
    for item in items:
        if item.get_closest_marker("slow") and here in item.path.parents:
            item.add_marker(skip)


HARD_NODES = 24
"""A node limit small enough for tests, large enough to search several deals."""


def random_position(
    players: int, seed: int, moves: int, *, curse: bool = False, fire_die: bool = False
) -> Game:
    """A dealt game after up to ``moves`` random decisions, waiting for a play or a fall.

    The die is rolled whenever it is pending; if the round ends first, the last position before
    the winning play is returned.
    """
    rnd = random.Random(seed)
    game = Game.new(players, seed, curse=curse, fire_die=fire_die)
    last = game.copy()
    for _ in range(moves):
        while game.pending is not None and game.pending.kind == "die":
            game.roll()
        p = game.pending
        if p is None:
            return last
        last = game.copy()
        if p.kind == "play":
            game.apply(Play(rnd.choice(game.hands[p.player]), rnd.choice(p.spots)))
        else:
            game.apply(Fall(rnd.choice(("left", "right"))))
    while game.pending is not None and game.pending.kind == "die":
        game.apply(Die(None))
    return game if game.pending is not None else last


@st.composite
def positions(draw: st.DrawFn) -> Game:
    """Random positions from random games: 2 to 6 players, every mix of options."""
    return random_position(
        draw(st.integers(2, 6)),
        draw(st.integers(0, 2**32)),
        draw(st.integers(0, 150)),
        curse=draw(st.booleans()),
        fire_die=draw(st.booleans()),
    )


def fall_after_curse() -> Game:
    """Player 1's turn; playing Y10 at 1,1 curses player 0, whose G20 then collapses: player 0
    (the previous player, now responsible) chooses where it falls."""
    game = Game(
        2,
        curse=True,
        pyramid={(0, 0): "B10", (0, 2): "R10", (0, 4): "B20", (1, 3): "G20"},
        hands=[["R2", "B4"], ["Y10", "G2"]],
        piles=[["Y6"], ["R6"]],
        active=1,
    )
    game.apply(Play("Y10", (1, 1)))
    return game

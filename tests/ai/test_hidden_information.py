"""No level ever sees hidden information.

Two games that differ only in what a player cannot see (the other hands, the order of every pile,
its own included, and the game's generator, which holds the fire die's future; but not the tiles
everyone saw go under a pile and come back into a hand) give that player the same view, and every
level makes the same decision in both with the same seed.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, view
from engine.ai import LEVELS, choose
from engine.rng import Rng
from tests.ai.conftest import FAST, HARD_NODES, fall_after_curse, positions


def hidden_twin(game: Game, me: int, rnd: random.Random) -> Game:
    """A copy of ``game`` with everything ``me`` cannot see dealt again: the other hands and all
    the piles (same sizes, hidden tiles shuffled among them) and a fresh generator. What
    everyone saw go under a pile (and come back into a hand) stays where it is."""
    twin = game.copy()
    hidden = [
        t for i, h in enumerate(twin.hands) if i != me for t in h if t not in twin.seen_in_hands[i]
    ]
    hidden += [t for p, n in zip(twin.piles, twin.hidden_piles, strict=True) for t in p[:n]]
    rnd.shuffle(hidden)
    for i in range(twin.players):
        if i != me:
            seen = [t for t in twin.hands[i] if t in twin.seen_in_hands[i]]
            n = len(twin.hands[i]) - len(seen)
            twin.hands[i] = hidden[:n] + seen
            del hidden[:n]
    for i in range(twin.players):
        n = twin.hidden_piles[i]
        twin.piles[i] = hidden[:n] + twin.piles[i][n:]
        del hidden[:n]
    twin.rng = Rng(rnd.getrandbits(64))
    return twin


def _check_same_decision(game: Game, twin_seed: int, seed: int) -> None:
    assert game.pending is not None
    me = game.pending.player
    twin = hidden_twin(game, me, random.Random(twin_seed))
    assert view(twin, me).to_dict() == view(game, me).to_dict()
    for level in LEVELS:
        decisions = [
            choose(level, view(g, me), seed, time_budget_s=math.inf, node_limit=HARD_NODES)
            for g in (game, twin)
        ]
        assert decisions[0] == decisions[1], level


@FAST
@given(game=positions(), twin_seed=st.integers(0, 2**32), seed=st.integers(0, 2**32))
def test_what_a_player_cannot_see_changes_no_decision(
    game: Game, twin_seed: int, seed: int
) -> None:
    _check_same_decision(game, twin_seed, seed)


def test_the_twin_really_differs() -> None:
    game = Game.new(4, seed=9)
    me = game.active
    twin = hidden_twin(game, me, random.Random(1))
    assert twin.hands[me] == game.hands[me]
    assert twin.hands != game.hands and twin.piles[me] != game.piles[me]


@pytest.mark.parametrize("twin_seed", range(3))
def test_a_fall_decided_by_the_cursed_player_ignores_hidden_tiles(twin_seed: int) -> None:
    _check_same_decision(fall_after_curse(), twin_seed, 7)

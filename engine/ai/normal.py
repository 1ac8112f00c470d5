"""The ``normal`` computer player: a one-step look-ahead over its own turn.

Every tile on every spot is played out on a copy of the game, with the best fall choices for the
mayhem that follows (the fire die averaged over its faces). The player keeps the plays that send
the fewest tiles back to its own hand and pile; among those it plays the most awkward tile
(millstone, heavy stones, incendiaries: see :func:`~engine.ai.tactics.awkwardness`), so that
they do not wait in its hand for a spot that may never come; remaining ties are broken at random.
Its fall choices minimise the tiles it takes back, the same way.

What happens in the turn does not depend on anything hidden (tiles go *under* piles), so one
sampled deal serves for every play.
"""

from __future__ import annotations

import random

from engine.ai.deal import sample_game
from engine.ai.tactics import awkwardness, fall_values, play_value, plays, tiles_left
from engine.game import Game
from engine.model import Action, Fall
from engine.view import View

_EPS = 1e-9


def choose_normal(view: View, rnd: random.Random) -> Action:
    """The ``normal`` decision for ``view.pending`` (a play or a fall owned by ``view.player``)."""
    me = view.player
    assert me is not None and view.pending is not None
    game = sample_game(view, rnd)

    def leaf(g: Game) -> float:
        return -float(tiles_left(g, me))

    if view.pending.kind == "fall":
        values = fall_values(game, me, leaf)
        best = max(values.values())
        directions = [d for d, v in values.items() if v >= best - _EPS]
        return Fall(directions[0] if len(directions) == 1 else rnd.choice(directions))
    scored = [
        (play_value(game, play, me, leaf), awkwardness(play.tile), play) for play in plays(game)
    ]
    top = max(v for v, _, _ in scored)
    near = [(a, play) for v, a, play in scored if v >= top - _EPS]
    most = max(a for a, _ in near)
    choices = [play for a, play in near if a == most]
    return choices[0] if len(choices) == 1 else rnd.choice(choices)

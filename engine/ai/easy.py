"""The ``easy`` computer player: any legal tile on any spot, falls at random."""

from __future__ import annotations

import random

from engine.model import Action, Fall, Play
from engine.view import View


def choose_easy(view: View, rnd: random.Random) -> Action:
    """A uniformly random legal decision for ``view.pending`` (a play or a fall)."""
    p = view.pending
    assert p is not None and view.hand is not None
    if p.kind == "fall":
        return Fall("left" if rnd.random() < 0.5 else "right")
    hand = sorted(view.hand)
    return Play(rnd.choice(hand), rnd.choice(p.spots))

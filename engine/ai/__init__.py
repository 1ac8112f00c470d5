"""Computer players: seat them in a lobby, or let them play the turn of someone who went quiet.

>>> from engine import Game, view
>>> from engine.ai import LEVELS, choose
>>> LEVELS
('easy', 'normal', 'hard', 'expert')
>>> game = Game.new(players=3, seed=7)
>>> seat = game.pending.player
>>> action = choose("normal", view(game, seat), seed=1)
>>> _ = game.apply(action, seat)

A computer player sees only its seat's :class:`~engine.View` (never a hidden hand, nor the order
of any pile, its own included) and returns a legal decision for whatever it is asked: a tile and
a spot, or the direction a tile falls. Die rolls are not decisions: the game rolls them.

Levels:

- ``easy``: any legal tile on any spot, falls at random;
- ``normal``: looks one turn ahead: takes back as few tiles as it can, then gets rid of awkward
  tiles (millstone, heavy stones, incendiaries) while it safely can;
- ``hard``: searches: it deals the tiles it cannot see at random many times over, consistently
  with what it sees, plays its candidate moves out a few turns on each deal, and keeps the move
  that does best on average;
- ``expert``: deals the tiles it cannot see in the same way, but searches each deal a few turns
  deep, its own best plays against the others' best replies, and keeps the move that does best
  on average.
"""

from __future__ import annotations

import random
from typing import Final

from engine.ai.easy import choose_easy
from engine.ai.expert import choose_expert
from engine.ai.hard import DEFAULT_NODE_LIMIT, DEFAULT_TIME_BUDGET_S, choose_hard
from engine.ai.normal import choose_normal
from engine.model import Action
from engine.view import View

LEVELS: Final = ("easy", "normal", "hard", "expert")
"""The computer players' levels, weakest first; each is a choice in the lobby."""

__all__ = ["DEFAULT_NODE_LIMIT", "DEFAULT_TIME_BUDGET_S", "LEVELS", "choose"]


def choose(
    level: str,
    view: View,
    seed: int,
    *,
    time_budget_s: float | None = None,
    node_limit: int | None = None,
) -> Action:
    """A legal decision for ``view.pending``, which must be a play or a fall owned by
    ``view.player``.

    ``seed`` makes the choice reproducible: the same ``(level, view, seed)`` gives the same action
    when the node limit, not the clock, bounds the search. ``time_budget_s`` (``math.inf`` for no
    clock) and ``node_limit`` bound the searching levels: ``hard`` (default
    :data:`DEFAULT_TIME_BUDGET_S`, :data:`DEFAULT_NODE_LIMIT` playouts) and ``expert`` (default
    :data:`engine.ai.expert.DEFAULT_TIME_BUDGET_S`, :data:`engine.ai.expert.DEFAULT_NODE_LIMIT`
    positions searched); the other levels ignore them.

    Raises ValueError for an unknown level, the public view, or nothing for this player to decide.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
    p = view.pending
    if view.player is None or view.hand is None:
        raise ValueError("a computer player needs a player's view, not the public view")
    if p is None:
        raise ValueError("the round is over: there is nothing to decide")
    if p.kind not in ("play", "fall"):
        raise ValueError(f"a {p.kind} is not a player's decision")
    if p.player != view.player:
        raise ValueError(f"the pending {p.kind} is player {p.player}'s, not player {view.player}'s")
    rnd = random.Random(seed)
    if level == "easy":
        return choose_easy(view, rnd)
    if level == "normal":
        return choose_normal(view, rnd)
    if level == "hard":
        return choose_hard(view, rnd, time_budget_s=time_budget_s, node_limit=node_limit)
    return choose_expert(view, rnd, time_budget_s=time_budget_s, node_limit=node_limit)

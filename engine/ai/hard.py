"""The ``hard`` computer player: a determinised Monte Carlo search.

The player cannot see the other hands nor the order of any pile, so it searches many possible
worlds instead of the real one:

1. **Candidates.** Every play (or both fall directions) is first played out exactly over the
   player's own turn (:func:`~engine.ai.tactics.best_fall_value`: the best fall choices, the
   fire die averaged); the few best stay candidates.
2. **Deals.** Again and again, the unseen tiles are dealt at random, consistently with the view
   (:func:`~engine.ai.deal.sample_game`).
3. **Playouts.** On each deal, every candidate is played, the rest of the player's own turn is
   resolved with the exact fall choices, and the game goes on for a few more turns with quick,
   sensible players (:func:`~engine.ai.tactics.quick_play`) for everyone. The position reached is
   scored by the tiles each player still has to get rid of. Every candidate meets the same deal
   and the same chance, so they are compared on equal terms.
4. **Aggregate.** The candidate with the best mean score is played.

A node is one playout: one candidate played out on one deal. The search stops at the node limit
or when the time budget runs out, whichever comes first (a full round of candidates is always
finished on at least one deal). With the clock out of the way (``time_budget_s=math.inf``) the
choice depends only on the view, the seed and the node limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from engine.ai.deal import sample_game
from engine.ai.tactics import (
    awkwardness,
    best_fall_value,
    fall_values,
    plays,
    quick_fall,
    quick_play,
    tiles_left,
)
from engine.game import Game
from engine.model import Action, Die, Fall, Play
from engine.view import View

DEFAULT_TIME_BUDGET_S: Final = 0.5
"""Seconds of search per decision when the caller gives no budget."""

DEFAULT_NODE_LIMIT: Final = 1000
"""Playouts per decision when the caller gives no limit."""

MAX_CANDIDATES: Final = 10
"""Plays kept for the search after the exact look at the player's own turn."""

CANDIDATE_MARGIN: Final = 2.0
"""Plays whose own-turn score is worse than the best by more than this are not searched."""

WIN_SCORE: Final = 100.0
"""What ending the round (as winner, or as a loser) weighs against one tile."""

Leaf = Callable[[Game], float]


def score(game: Game, me: int) -> float:
    """How good ``game`` looks for ``me``: the tiles the others still hold against its own.

    The race is won by the first player to get rid of every tile, so what counts is ``me``'s
    tiles against the leading opponent's (and, more softly, everyone else's: a tile sent to any
    opponent slows the field down).
    """
    mine = tiles_left(game, me)
    others = [tiles_left(game, j) for j in range(game.players) if j != me]
    value = 0.5 * min(others) + 0.5 * sum(others) / len(others) - mine
    if game.winner is not None:
        value += WIN_SCORE if game.winner == me else -WIN_SCORE
    return value


def choose_hard(
    view: View,
    rnd: random.Random,
    *,
    time_budget_s: float | None = None,
    node_limit: int | None = None,
) -> Action:
    """The ``hard`` decision for ``view.pending`` (a play or a fall owned by ``view.player``)."""
    me = view.player
    assert me is not None and view.pending is not None
    budget = DEFAULT_TIME_BUDGET_S if time_budget_s is None else time_budget_s
    limit = DEFAULT_NODE_LIMIT if node_limit is None else max(1, node_limit)
    deadline = time.perf_counter() + budget if math.isfinite(budget) else math.inf

    def leaf(g: Game) -> float:
        return score(g, me)

    first = sample_game(view, rnd)
    candidates = _candidates(first, me, leaf)
    if len(candidates) == 1:
        return candidates[0]
    depth = view.players + 1
    plan: dict[tuple[object, ...], str] = {}
    totals = [0.0] * len(candidates)
    deals = 0
    nodes = 0
    while nodes + len(candidates) <= limit or deals == 0:
        deal = first if deals == 0 else sample_game(view, rnd)
        chance = rnd.getrandbits(64)
        for i, action in enumerate(candidates):
            totals[i] += _playout(deal, action, me, leaf, plan, depth, random.Random(chance))
        nodes += len(candidates)
        deals += 1
        if time.perf_counter() >= deadline:
            break
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def _candidates(game: Game, me: int, leaf: Leaf) -> list[Action]:
    """The decisions worth searching, best first by their exact own-turn value."""
    p = game.pending
    assert p is not None
    if p.kind == "fall":
        return [Fall("left"), Fall("right")]
    scored: list[tuple[float, int, int, Play]] = []
    for i, play in enumerate(plays(game)):
        g = game.copy()
        g.apply(play)
        scored.append((best_fall_value(g, me, leaf), awkwardness(play.tile), -i, play))
    scored.sort(key=lambda s: s[:3], reverse=True)
    top = scored[0][0]
    kept: list[Action] = [s[3] for s in scored if s[0] >= top - CANDIDATE_MARGIN]
    return kept[:MAX_CANDIDATES]


def _playout(
    deal: Game,
    action: Action,
    me: int,
    leaf: Leaf,
    plan: dict[tuple[object, ...], str],
    depth: int,
    rnd: random.Random,
) -> float:
    """Play ``action`` on a copy of ``deal``, the rest of the turn exactly, then ``depth`` more
    turns quickly; return the score of the position reached."""
    g = deal.copy()
    g.apply(action)
    _finish_own_mayhem(g, me, leaf, plan)
    turns = 0
    while True:
        p = g.pending
        if p is None:
            break
        if p.kind == "play":
            if turns >= depth:
                break
            turns += 1
            g.apply(quick_play(g, rnd))
        elif p.kind == "fall":
            g.apply(Fall(quick_fall(g, rnd)))
        else:
            g.apply(Die(None))
    return leaf(g)


def _finish_own_mayhem(g: Game, me: int, leaf: Leaf, plan: dict[tuple[object, ...], str]) -> None:
    """Resolve the mayhem ``me`` is responsible for with the exact fall choices (remembered in
    ``plan``: they do not depend on the hidden tiles, so every deal makes the same ones)."""
    while True:
        p = g.pending
        if p is None or p.kind == "play" or g.responsible != me:
            return
        if p.kind == "die":
            g.apply(Die(None))
            continue
        key = (
            tuple(sorted(g.pyramid.items())),
            p.at,
            tuple(tiles_left(g, j) for j in range(g.players)),
        )
        direction = plan.get(key)
        if direction is None:
            values = fall_values(g, me, leaf)
            direction = "left" if values["left"] >= values["right"] else "right"
            plan[key] = direction
        g.apply(Fall(direction))

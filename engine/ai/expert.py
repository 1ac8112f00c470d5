"""The ``expert`` computer player: a look-ahead search on many sampled deals.

The player cannot see the other hands nor the order of any pile, so, like ``hard``, it searches
possible worlds instead of the real one; but where ``hard`` plays each world out with quick,
sensible players, ``expert`` searches each one a few turns deep (perfect-information Monte Carlo):

1. **Deals.** The unseen tiles are dealt again and again at random, consistently with the view
   (:class:`~engine.ai.deal.Dealer`).
2. **Its decision.** On each deal, every decision open to the player (every tile on every spot,
   or both fall directions) is made, and the rest of its own turn's mayhem is resolved with the
   exact fall choices (as ``hard`` resolves them: they depend on nothing hidden).
3. **Look-ahead.** From there a search goes :data:`LOOKAHEAD` plays deeper, the player trying all
   of its plays. In a two-player game it is an alpha-beta search: the opponent tries all of its
   plays too and takes the one worst for the player. With more players it is a max-n search:
   each other player tries the few plays it would find cheapest (:data:`REPLY_WIDTH`) and takes
   the one best for itself. Falls inside the look-ahead are chosen quickly
   (:func:`~engine.ai.tactics.quick_fall`) and the die is rolled with the deal's own generator.
   The positions reached are scored by ``hard``'s win model (:func:`engine.ai.hard.score`: the
   chance that the player wins the round); a won round scores 1, a lost one 0.
4. **Decide.** Each decision's advantage over the default (the decision that costs least over
   the player's own turn) is averaged over the deals; the best average is played, with more than
   two players only if it clears one standard error (:data:`CONFIDENCE_Z`).

A node is one position searched. The search deals again until the node limit is reached or the
time budget runs out, whichever comes first; a deal the clock interrupts is left out, so every
decision is judged on the same deals. With the clock out of the way (``time_budget_s=math.inf``)
the choice depends only on the view, the seed and the node limit.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from engine.ai.deal import Dealer
from engine.ai.hard import _finish_own_mayhem, hand_burden, score, strengths, tile_balance
from engine.ai.tactics import (
    AWKWARDNESS,
    SpotFacts,
    quick_fall,
    quick_play_cost,
    search_bounds,
)
from engine.game import Game
from engine.model import Action, Die, Fall, Play
from engine.view import View

DEFAULT_TIME_BUDGET_S: Final = 0.8
"""Seconds of search per decision when the caller gives no budget."""

DEFAULT_NODE_LIMIT: Final = 6000
"""Positions searched per decision when the caller gives no limit."""

LOOKAHEAD: Final = {2: 3, 3: 2, 4: 3, 5: 4, 6: 5}
"""Plays searched after the player's own, by player count: up to and including its next turn
where that is affordable."""

REPLY_WIDTH: Final = {2: 99, 3: 2, 4: 2, 5: 2, 6: 2}
"""How many of its cheapest-looking plays (:func:`~engine.ai.tactics.quick_play_cost`) each other
player is allowed in the look-ahead, by player count. The player itself always tries all of its
plays."""

CONFIDENCE_Z: Final = {2: 0.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.0}
"""How many standard errors a decision's mean advantage over the default (the one that costs
least over the player's own turn) must clear to be played instead, by player count. With two
players the look-ahead is sharp enough to trust the best mean; with more, three other players'
replies make each deal's value noisy, and picking the best of dozens of noisy means favours
luck. One standard error (as ``hard`` asks) won 6 of 16 four-player games against three
``hard`` players where the best mean won 4 (the same games); over 80 games it won 27.5%."""

CLOCK_EVERY: Final = 32
"""Nodes between two looks at the clock."""


class _OutOfTime(Exception):
    """The time budget ran out in the middle of a deal."""


def choose_expert(
    view: View,
    rnd: random.Random,
    *,
    time_budget_s: float | None = None,
    node_limit: int | None = None,
) -> Action:
    """The ``expert`` decision for ``view.pending`` (a play or a fall owned by ``view.player``)."""
    me = view.player
    assert me is not None and view.pending is not None
    deadline, limit = search_bounds(
        time_budget_s, node_limit, DEFAULT_TIME_BUDGET_S, DEFAULT_NODE_LIMIT
    )
    dealer = Dealer(view)
    first = dealer.deal(rnd)
    decisions = _decisions(first)
    if len(decisions) == 1:
        return decisions[0]
    n = view.players
    count = min(max(n, 2), 6)
    search = _Search(me, LOOKAHEAD[count], REPLY_WIDTH[count], deadline)
    z = CONFIDENCE_Z[count]
    plan: dict[tuple[object, ...], str] = {}

    def tiles(g: Game) -> float:
        return tile_balance(g, me) - hand_burden(g, me)

    own: list[float] = []
    sums = [0.0] * len(decisions)
    squares = [0.0] * len(decisions)
    default = 0
    deals = 0
    while search.nodes < limit:
        deal = first if deals == 0 else dealer.deal(rnd)
        values: list[float] = []
        try:
            for action in decisions:
                g = deal.copy()
                g.apply(action)
                _finish_own_mayhem(g, me, tiles, plan)
                if deals == 0:
                    own.append(tiles(g))
                _settle(g)
                if n == 2:
                    values.append(search.value(g, search.depth, -1.0, 2.0))
                else:
                    values.append(search.values(g, search.depth)[me])
        except _OutOfTime:
            break
        if deals == 0:
            default = max(range(len(own)), key=lambda i: (own[i], -i))
        base = values[default]
        for i, v in enumerate(values):
            d = v - base
            sums[i] += d
            squares[i] += d * d
        deals += 1
    if deals == 0:  # the clock stopped the first deal: the cheapest-looking decision
        return decisions[0]
    best, best_bound = default, 0.0
    for i in range(len(decisions)):
        if i == default:
            continue
        mean = sums[i] / deals
        spread = 0.0
        if deals > 1 and z > 0:
            variance = max(0.0, squares[i] / deals - mean * mean) * deals / (deals - 1)
            spread = z * math.sqrt(variance / deals)
        bound = mean - spread
        if bound > best_bound + 1e-9:
            best, best_bound = i, bound
    return decisions[best]


def _decisions(game: Game) -> list[Action]:
    """Every decision open to the player, the cheapest-looking first (see :func:`_plays`)."""
    p = game.pending
    assert p is not None
    if p.kind == "fall":
        return [Fall("left"), Fall("right")]
    return list(_plays(game))


def _plays(game: Game) -> list[Play]:
    """The pending player's plays, the cheapest-looking first: by
    :func:`~engine.ai.tactics.quick_play_cost`, then the most awkward tile, then tile and spot."""
    p = game.pending
    assert p is not None and p.kind == "play"
    hand = game.hands[p.player]
    keyed: list[tuple[float, int, str, tuple[int, int]]] = []
    for at in p.spots:
        facts = SpotFacts(game, at)
        for tile in hand:
            keyed.append((quick_play_cost(game, tile, at, facts), -AWKWARDNESS[tile], tile, at))
    keyed.sort()
    return [Play(tile, at) for _, _, tile, at in keyed]


def _settle(game: Game) -> None:
    """Resolve what is pending until someone must play: quick fall choices, the die rolled."""
    while True:
        p = game.pending
        if p is None or p.kind == "play":
            return
        if p.kind == "fall":
            game.apply(Fall(quick_fall(game, None)))
        else:
            game.apply(Die(None))


class _Search:
    """The look-ahead on one deal, for player ``me``: alpha-beta with two players
    (:meth:`value`), max-n with more (:meth:`values`)."""

    __slots__ = ("deadline", "depth", "me", "nodes", "width")

    def __init__(self, me: int, depth: int, width: int, deadline: float) -> None:
        self.me = me
        self.depth = depth
        self.width = width
        self.deadline = deadline
        self.nodes = 0

    def value(self, game: Game, depth: int, alpha: float, beta: float) -> float:
        """The value of ``game`` (waiting for a play, or over) for ``me``, ``depth`` plays on."""
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and time.perf_counter() >= self.deadline:
            raise _OutOfTime
        p = game.pending
        if p is None:
            return 1.0 if game.winner == self.me else 0.0
        if depth == 0:
            return score(game, self.me)
        plays = _plays(game)
        mine = p.player == self.me
        if not mine:
            plays = plays[: self.width]
        best = -1.0 if mine else 2.0
        for play in plays:
            g = game.copy()
            g.apply(play)
            _settle(g)
            v = self.value(g, depth - 1, alpha, beta)
            if mine:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    def values(self, game: Game, depth: int) -> list[float]:
        """Every player's chance of winning from ``game``, ``depth`` plays on, each player
        playing for its own chance (max-n)."""
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and time.perf_counter() >= self.deadline:
            raise _OutOfTime
        p = game.pending
        if p is None:
            return [1.0 if i == game.winner else 0.0 for i in range(game.players)]
        if depth == 0:
            return _chances(game)
        plays = _plays(game)
        who = p.player
        if who != self.me:
            plays = plays[: self.width]
        best: list[float] | None = None
        for play in plays:
            g = game.copy()
            g.apply(play)
            _settle(g)
            v = self.values(g, depth - 1)
            if best is None or v[who] > best[who]:
                best = v
        assert best is not None
        return best


def _chances(game: Game) -> list[float]:
    """Every player's chance of winning the round by the win model (see
    :func:`engine.ai.hard.score`)."""
    s = strengths(game)
    top = max(s)
    e = [math.exp(v - top) for v in s]
    total = sum(e)
    return [v / total for v in e]

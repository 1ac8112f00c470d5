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
   scored by a win model (:func:`score`). Every candidate meets the same deal and the same
   chance, so they are compared on equal terms.
4. **Decide.** Each candidate's advantage over the default (the first candidate) is measured deal
   by deal; clearly worse ones are dropped as the search goes, and another candidate is played
   only if its mean advantage clears one standard error.

A node is one playout: one candidate played out on one deal. The search stops before a round of
candidates would pass the node limit, or when the time budget runs out, whichever comes first
(with neither room for one round, the default is played). With the clock out of the way
(``time_budget_s=math.inf``) the choice depends only on the view, the seed and the node limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from engine.ai.deal import Dealer
from engine.ai.tactics import (
    AWKWARDNESS,
    awkwardness,
    best_fall_value,
    fall_values,
    least_quick_cost,
    plays,
    quick_fall,
    quick_play,
    search_bounds,
    tiles_left,
)
from engine.game import Game
from engine.model import Action, Die, Fall, Play
from engine.tiles import INCENDIARY, MILLSTONE_CODE
from engine.view import View

DEFAULT_TIME_BUDGET_S: Final = 0.5
"""Seconds of search per decision when the caller gives no budget."""

DEFAULT_NODE_LIMIT: Final = 1000
"""Playouts per decision when the caller gives no limit."""

MAX_CANDIDATES: Final = 8
"""Plays kept for the search after the exact look at the player's own turn."""

CANDIDATE_MARGIN: Final = 1.0
"""Plays whose exact own-turn :func:`tile_balance` is worse than the best by more than this many
tiles are not searched."""

CONFIDENCE_Z: Final = 1.0
"""How many standard errors a candidate's mean advantage over the default must clear."""

DROP_Z: Final = 2.0
"""A candidate whose mean advantage plus this many standard errors is below the best mean so far
is dropped from the search."""

RACE_ROUND: Final = 8
"""Deals between two looks at which candidates to drop."""

MIN_DEALS: Final = 4
"""Deals needed before the search trusts a difference at all."""

HORIZON: Final = 2
"""Turns a playout goes on after the other players' next turns: 1 ends it after the player's own
next turn, 2 one turn later."""

HAND_IN_DEFAULT: Final = True
"""Whether the exact look at the player's own turn counts the hand it leaves
(:func:`hand_burden`), instead of only breaking ties by playing the most awkward tile."""

WIN_MODEL: Final[dict[int, tuple[float, float, float, float, float, float, float, float]]] = {
    2: (-0.0247, -0.2737, 0.0167, -0.5665, -0.2038, -0.102, -0.0955, -0.1998),
    3: (0.0249, -0.6592, 0.0709, -0.9419, -0.4123, -0.1965, 0.0354, -0.3215),
    4: (-0.0556, -0.8509, 0.0957, -1.3762, -0.3078, -0.313, -0.151, -0.4932),
    5: (0.4619, -2.352, 0.44, -2.4608, -0.4908, -0.3963, -0.0781, -0.6261),
    6: (0.6128, -3.0622, 0.722, -3.4619, -0.4272, -0.4057, -0.076, -0.7645),
}
"""The win model's weights by player count (see :func:`strengths`), in the order: tiles,
scaled tiles, turn order, scaled turn order, awkwardness, incendiaries, millstone, stuck. Fitted by
maximum likelihood (conditional logit of the round's winner) on every position of 7,700 games
between ``normal`` players (1,200 to 2,500 per player count, the four option mixes in turn)."""

Leaf = Callable[[Game], float]


def strengths(game: Game) -> list[float]:
    """Each player's strength in the win model: the higher, the likelier to win the round.

    A linear function (weights :data:`WIN_MODEL`, by player count) of the tiles left ``t``, the
    place in the turn order from the player about to play ``o`` (0 for that player, up to
    ``(n-1)/n``), both also scaled by ``1/sqrt(mean tiles + 1)`` (a lead counts for more near
    the end), the hand: its awkwardness (:func:`~engine.ai.tactics.awkwardness`, summed, over
    10), its incendiaries and the millstone, and for the player about to play, how stuck it is
    (:func:`~engine.ai.tactics.least_quick_cost`: the tiles its best play seems to cost).
    """
    n = game.players
    weights = WIN_MODEL[min(max(n, 2), 6)]
    w_t, w_ts, w_o, w_os, w_k, w_c, w_m, w_s = weights
    left = [tiles_left(game, i) for i in range(n)]
    scale = 1.0 / math.sqrt(sum(left) / n + 1.0)
    first = game.active
    stuck = least_quick_cost(game)
    out: list[float] = []
    for i in range(n):
        hand = game.hands[i]
        t = left[i]
        o = ((i - first) % n) / n
        awkward = sum(AWKWARDNESS[x] for x in hand) / 10
        incendiaries = sum(1 for x in hand if x in INCENDIARY)
        millstone = 1.0 if MILLSTONE_CODE in hand else 0.0
        out.append(
            (w_t + w_ts * scale) * t
            + (w_o + w_os * scale) * o
            + w_k * awkward
            + w_c * incendiaries
            + w_m * millstone
            + (w_s * stuck if i == first else 0.0)
        )
    return out


def score(game: Game, me: int) -> float:
    """The chance that ``me`` wins the round from ``game``, by the win model: the softmax of
    every player's :func:`strengths`. A won round scores 1 or 0."""
    if game.winner is not None:
        return 1.0 if game.winner == me else 0.0
    s = strengths(game)
    top = max(s)
    total = sum(math.exp(v - top) for v in s)
    return math.exp(s[me] - top) / total


def hand_burden(game: Game, player: int) -> float:
    """What ``player``'s hand costs in the win model, in tiles: its awkwardness, incendiaries
    and millstone, each weighed against one more tile to get rid of."""
    n = game.players
    w_t, w_ts, _, _, w_k, w_c, w_m, _ = WIN_MODEL[min(max(n, 2), 6)]
    scale = 1.0 / math.sqrt(sum(tiles_left(game, i) for i in range(n)) / n + 1.0)
    per_tile = w_t + w_ts * scale
    if per_tile >= 0:
        return 0.0
    hand = game.hands[player]
    cost = (
        w_k * sum(AWKWARDNESS[x] for x in hand) / 10
        + w_c * sum(1 for x in hand if x in INCENDIARY)
        + w_m * (MILLSTONE_CODE in hand)
    )
    return cost / per_tile


def tile_balance(game: Game, me: int) -> float:
    """The tiles the others hold against ``me``'s (the leading opponent's and the average,
    half each): what the exact look at one turn compares."""
    mine = tiles_left(game, me)
    others = [tiles_left(game, j) for j in range(game.players) if j != me]
    return 0.5 * min(others) + 0.5 * sum(others) / len(others) - mine


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
    deadline, limit = search_bounds(
        time_budget_s, node_limit, DEFAULT_TIME_BUDGET_S, DEFAULT_NODE_LIMIT
    )

    def leaf(g: Game) -> float:
        return score(g, me)

    def tiles(g: Game) -> float:
        if HAND_IN_DEFAULT:
            return tile_balance(g, me) - hand_burden(g, me)
        return tile_balance(g, me)

    dealer = Dealer(view)
    first = dealer.deal(rnd)
    candidates = _candidates(first, me, tiles)
    if len(candidates) == 1:
        return candidates[0]
    depth = view.players - 1 + HORIZON
    plan: dict[tuple[object, ...], str] = {}
    stats = [_Advantage() for _ in candidates]
    alive = list(range(len(candidates)))
    deals = 0
    nodes = 0
    while len(alive) > 1:
        if nodes + len(alive) > limit or time.perf_counter() >= deadline:
            break
        deal = first if deals == 0 else dealer.deal(rnd)
        chance = rnd.getrandbits(64)
        values = [
            _playout(deal, candidates[i], me, leaf, tiles, plan, depth, random.Random(chance))
            for i in alive
        ]
        for i, v in zip(alive, values, strict=True):
            stats[i].add(v - values[0])
        nodes += len(alive)
        deals += 1
        if deals % RACE_ROUND == 0:
            alive = _race(alive, stats)
    return candidates[_confident_best(alive, stats)]


class _Advantage:
    """One candidate's advantage over the default, deal by deal: count, sum, sum of squares."""

    __slots__ = ("n", "squares", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, d: float) -> None:
        self.n += 1
        self.total += d
        self.squares += d * d

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def stderr(self) -> float:
        """The standard error of :attr:`mean` (infinite with fewer than two deals)."""
        if self.n < 2:
            return math.inf
        mean = self.mean
        variance = max(0.0, self.squares / self.n - mean * mean) * self.n / (self.n - 1)
        return math.sqrt(variance / self.n)


def _race(alive: list[int], stats: list[_Advantage]) -> list[int]:
    """Drop the candidates that are clearly worse than the best so far (the default, index 0,
    stays: it is what the others are measured against)."""
    best = max(0.0, *(stats[i].mean for i in alive[1:]))
    return [0] + [i for i in alive[1:] if stats[i].mean + DROP_Z * stats[i].stderr >= best]


def _confident_best(alive: list[int], stats: list[_Advantage]) -> int:
    """The candidate whose advantage over the default is largest at the lower end of its
    confidence interval; the default unless some candidate beats it clearly."""
    best, best_bound = 0, 0.0
    for i in alive[1:]:
        if stats[i].n < MIN_DEALS:
            continue
        bound = stats[i].mean - CONFIDENCE_Z * stats[i].stderr
        if bound > best_bound:
            best, best_bound = i, bound
    return best


def _candidates(game: Game, me: int, leaf: Leaf) -> list[Action]:
    """The decisions worth searching, best first by their exact own-turn value (then the most
    awkward tile played): the first one is the default, the one ``normal`` would make."""
    p = game.pending
    assert p is not None
    if p.kind == "fall":
        values = fall_values(game, me, leaf)
        order = sorted(values, key=lambda d: -values[d])  # stable: left first on a tie
        return [Fall(d) for d in order]
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
    exact: Leaf,
    plan: dict[tuple[object, ...], str],
    depth: int,
    rnd: random.Random,
) -> float:
    """Play ``action`` on a copy of ``deal``, the rest of the turn with the fall choices that are
    best by ``exact``, then ``depth`` more turns quickly; return ``leaf`` of where it ends."""
    g = deal.copy()
    g.apply(action)
    _finish_own_mayhem(g, me, exact, plan)
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

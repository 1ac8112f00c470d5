"""Shared tactics: what a play or a fall costs, looked at quickly or worked out exactly.

Two ways to judge a move, used by the levels and by the search's playouts:

- **exactly**: :func:`best_fall_value` plays the rest of a turn's mayhem out on a copy of the game,
  trying both fall directions wherever the player is responsible and averaging over the fire
  die's faces;
- **quickly**: :func:`quick_play_cost` and :func:`quick_fall_cost` read the pyramid around one spot
  (building regulations, incendiaries, the curse) without playing anything, which is what fast
  playouts can afford.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from engine.game import Game, fits
from engine.model import DIE_CHANCES, DIE_FACES, Die, Fall, Play, Pos, neighbours
from engine.tiles import ALL_TILES, IGNITES, INCENDIARY, MATERIAL, MILLSTONE_CODE, WEIGHT

DIRECTIONS: Final = ("left", "right")

BRANCH_DEPTH: Final = 4
"""Fall choices (and die rolls) deep into a turn's mayhem that are still tried both ways."""

FALL_NODES: Final = 48
"""Fall choices tried both ways per evaluated move; beyond, the quick choice is taken."""

_DIE_ODDS: Final = tuple((face, DIE_CHANCES[face] / 6) for face in DIE_FACES)


def awkwardness(tile: str) -> int:
    """How hard ``tile`` is to place without mayhem: higher for heavy stones, the millstone and
    incendiaries (0 for straw and light wood). Levels prefer to play awkward tiles when it is safe.

    >>> [awkwardness(t) for t in ("Y2", "R40", "B120", "M200", "R7", "G1")]
    [0, 1, 5, 8, 4, 3]
    """
    if tile == MILLSTONE_CODE:
        return 8
    material = MATERIAL[tile]
    if material == "blowtorch":
        return 4
    if material == "coal":
        return 3
    w = WEIGHT[tile]
    if w >= 120:
        return 5
    if w >= 100:
        return 4
    if w >= 60:
        return 3
    if w >= 40:
        return 1
    return 0


AWKWARDNESS: Final = {tile: awkwardness(tile) for tile in ALL_TILES}
""":func:`awkwardness` of every tile."""


def tiles_left(game: Game, player: int) -> int:
    """Tiles ``player`` still has to get rid of: hand and pile."""
    return len(game.hands[player]) + len(game.piles[player])


def search_bounds(
    time_budget_s: float | None, node_limit: int | None, budget: float, limit: int
) -> tuple[float, int]:
    """When a search must stop: its deadline on :func:`time.perf_counter`'s clock (``math.inf``
    for no clock) and its node limit (at least 1), from the caller's bounds, each None for the
    level's own (``budget`` seconds, ``limit`` nodes)."""
    seconds = budget if time_budget_s is None else time_budget_s
    deadline = time.perf_counter() + seconds if math.isfinite(seconds) else math.inf
    return deadline, limit if node_limit is None else max(1, node_limit)


# --- exact: play the turn out ---------------------------------------------------------------------


class _Budget:
    """How many more fall choices may be tried both ways."""

    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes


def best_fall_value(
    game: Game,
    me: int,
    leaf: Callable[[Game], float],
    depth: int = 0,
    budget: _Budget | None = None,
) -> float:
    """The value of ``game`` (modified in place) once ``me`` stops being responsible for mayhem.

    ``me`` picks the falls it is responsible for to maximise ``leaf``, and the fire die is
    averaged over its faces, for the first :data:`BRANCH_DEPTH` choices and at most
    :data:`FALL_NODES` of them (a tall pyramid can tumble through dozens of choices); beyond, the
    quick choice of :func:`quick_fall` is taken. The search stops (and ``leaf`` is called) as soon
    as the game waits for a play or the round is over, or someone else is responsible (after a
    curse nothing more lands on ``me`` this turn).
    """
    if budget is None:
        budget = _Budget(FALL_NODES)
    while True:
        p = game.pending
        if p is None or p.kind == "play" or game.responsible != me:
            return leaf(game)
        if depth < BRANCH_DEPTH and budget.left > 0:
            break
        game.apply(Die(None) if p.kind == "die" else Fall(quick_fall(game, None)))
    depth += 1
    budget.left -= 1
    if p.kind == "die":
        total = 0.0
        for face, odds in _DIE_ODDS:
            g = game.copy()
            g.apply(Die(face))
            total += odds * best_fall_value(g, me, leaf, depth, budget)
        return total
    g = game.copy()
    g.apply(Fall("left"))
    left = best_fall_value(g, me, leaf, depth, budget)
    game.apply(Fall("right"))
    right = best_fall_value(game, me, leaf, depth, budget)
    return max(left, right)


def fall_values(game: Game, me: int, leaf: Callable[[Game], float]) -> dict[str, float]:
    """For a fall pending for ``me``: the value of each direction (see :func:`best_fall_value`)."""
    values: dict[str, float] = {}
    for d in DIRECTIONS:
        g = game.copy()
        g.apply(Fall(d))
        values[d] = best_fall_value(g, me, leaf)
    return values


def play_value(game: Game, play: Play, me: int, leaf: Callable[[Game], float]) -> float:
    """The value of making ``play`` now and resolving the mayhem as well as ``me`` can."""
    g = game.copy()
    g.apply(play)
    return best_fall_value(g, me, leaf)


def plays(game: Game) -> list[Play]:
    """Every play the pending play decision allows, hand sorted (tile, then spot order)."""
    p = game.pending
    if p is None or p.kind != "play":
        return []
    return [Play(t, s) for t in sorted(game.hands[p.player]) for s in p.spots]


# --- quick: read the pyramid ----------------------------------------------------------------------


class SpotFacts:
    """What :func:`quick_play_cost` needs to know about one spot, read once for every tile."""

    __slots__ = (
        "above",
        "at",
        "blowtorches",
        "curse_weight",
        "explosive",
        "incendiaries",
        "left",
        "right",
        "straw",
        "wood",
    )

    def __init__(self, game: Game, at: Pos) -> None:
        pyr = game.pyramid
        r, x = at
        self.at = at
        self.left = pyr.get((r - 1, x - 1)) if r >= 1 else None
        self.right = pyr.get((r - 1, x + 1)) if r >= 1 else None
        self.above = sum(1 for q in ((r + 1, x - 1), (r + 1, x + 1)) if q in pyr)
        self.curse_weight = -1
        if (
            game.curse
            and self.left is not None
            and self.right is not None
            and WEIGHT[self.left] == WEIGHT[self.right]
        ):
            self.curse_weight = WEIGHT[self.left]
        self.incendiaries = 0
        self.blowtorches = 0
        self.explosive = 0.0  # what two incendiaries side by side would cost
        self.straw = 0
        self.wood = 0
        for q in neighbours(at):
            t = pyr.get(q)
            if t is None:
                continue
            material = MATERIAL[t]
            if t in INCENDIARY:
                self.incendiaries += 1
                self.blowtorches += material == "blowtorch"
                self.explosive += 2.0 + sum(1 for n in neighbours(q) if n in pyr and n != at)
            elif material == "straw":
                self.straw += 1
            elif material == "wood":
                self.wood += 1


def quick_play_cost(game: Game, tile: str, at: Pos, facts: SpotFacts | None = None) -> float:
    """A fast estimate of the tiles the active player takes back by playing ``tile`` at ``at``
    (negative when a curse sends tiles to the previous player instead).

    Reads only the spot's surroundings (``facts``, read from ``game`` if not given): a placement
    that breaks the building regulations costs its two supports; an incendiary next to what it
    ignites, or a flammable tile next to an incendiary that ignites it, costs the burning tiles
    (on average, with the fire die); two incendiaries side by side cost everything around them.
    """
    f = facts if facts is not None else SpotFacts(game, at)
    cost = 0.0
    w = WEIGHT[tile]
    left, right = f.left, f.right
    if left is not None and right is not None:
        c = tile[0]
        if w > WEIGHT[left] + WEIGHT[right] or not (
            c == "M"
            or left[0] in (c, "M")
            or right[0] in (c, "M")
            or w == WEIGHT[left]
            or w == WEIGHT[right]
        ):
            cost += 2.0 + 0.5 * f.above
    elif f.above and at[0] == 0:
        cost += _gap_cost(game.pyramid, tile, at)
    elif at[0] >= 1 and not fits(game.pyramid, at, tile):
        cost += 2.0
    fire = 0.7 if game.fire_die else 1.0
    material = MATERIAL[tile]
    if tile in INCENDIARY:
        cost += f.explosive
        cost += fire * (f.straw + f.wood if material == "blowtorch" else f.straw)
    elif material == "straw":
        cost += fire * f.incendiaries
    elif material == "wood":
        cost += fire * f.blowtorches
    if cost == 0.0 and w == f.curse_weight:
        cost -= 3.0
    return cost


def _gap_cost(pyr: dict[Pos, str], tile: str, at: Pos) -> float:
    """Filling a gap in the base gives the tiles above it a second support: they must fit now."""
    cost = 0.0
    r, x = at
    pyr[at] = tile
    try:
        for above in ((r + 1, x - 1), (r + 1, x + 1)):
            t = pyr.get(above)
            if t is not None and not fits(pyr, above, t):
                cost += 2.0
    finally:
        del pyr[at]
    return cost


def quick_fall_cost(game: Game, direction: str) -> float:
    """A fast estimate of what letting the pending fall go ``direction`` costs the responsible
    player: landing on the base or on fitting supports is free, free air falls on (free for now),
    landing where it does not fit collapses two more tiles."""
    p = game.pending
    assert p is not None and p.at is not None and p.tile is not None
    r, x = p.at
    to = (r - 1, x - 1) if direction == "left" else (r - 1, x + 1)
    cost = 0.0
    pyr = game.pyramid
    if to[0] >= 1:
        below = sum(1 for q in ((to[0] - 1, to[1] - 1), (to[0] - 1, to[1] + 1)) if q in pyr)
        if below and not fits(pyr, to, p.tile):
            cost += 2.0 if below == 2 else 1.0
    for q in neighbours(to):
        t = pyr.get(q)
        if t is None or q == p.at:
            continue
        if dangerous_pair(p.tile, t):
            cost += 1.0
    return cost


def dangerous_pair(a: str, b: str) -> bool:
    """Whether tiles ``a`` and ``b`` side by side make mayhem: two incendiaries, or an
    incendiary and a tile it ignites.

    >>> dangerous_pair("Y1", "R2"), dangerous_pair("Y1", "R10"), dangerous_pair("B7", "R10")
    (True, False, True)
    """
    if a in INCENDIARY:
        return b in INCENDIARY or MATERIAL[b] in IGNITES[a]
    return b in INCENDIARY and MATERIAL[a] in IGNITES[b]


def quick_fall(game: Game, rnd: random.Random | None) -> str:
    """The cheaper fall direction by :func:`quick_fall_cost`; ties at random (or left)."""
    left = quick_fall_cost(game, "left")
    right = quick_fall_cost(game, "right")
    if left < right:
        return "left"
    if right < left:
        return "right"
    if rnd is None:
        return "left"
    return "left" if rnd.random() < 0.5 else "right"


def least_quick_cost(game: Game) -> float:
    """The lowest :func:`quick_play_cost` the player about to play can achieve with its hand:
    0 when it has a safe play, more when it is stuck (0 when no play is pending)."""
    p = game.pending
    if p is None or p.kind != "play":
        return 0.0
    hand = game.hands[p.player]
    best = math.inf
    for at in p.spots:
        facts = SpotFacts(game, at)
        for tile in hand:
            cost = quick_play_cost(game, tile, at, facts)
            if cost < best:
                best = cost
    return 0.0 if best == math.inf else best


def quick_play(game: Game, rnd: random.Random) -> Play:
    """The play a quick, sensible player makes: the lowest :func:`quick_play_cost`, then the most
    awkward tile, then at random."""
    p = game.pending
    assert p is not None and p.kind == "play"
    hand = game.hands[p.player]
    best: list[Play] = []
    best_key = (math.inf, 0)
    for at in p.spots:
        facts = SpotFacts(game, at)
        for tile in hand:
            key = (quick_play_cost(game, tile, at, facts), -AWKWARDNESS[tile])
            if key < best_key:
                best_key = key
                best = [Play(tile, at)]
            elif key == best_key:
                best.append(Play(tile, at))
    return best[0] if len(best) == 1 else rnd.choice(best)

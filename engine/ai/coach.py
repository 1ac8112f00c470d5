"""The coach: what the ``expert`` would decide, and what each decision costs the player in tiles.

Hints and the turning points of a replay both ask one question of one decision, seen from one
seat (its :class:`~engine.view.View` alone, never a hidden hand nor a pile's order):
:func:`judge` answers with the expert's choice and, for it and the decisions compared with it,
two figures in tiles a player understands:

- ``now``: the tiles the decision sends under the player's own pile over the rest of their turn,
  the fire die averaged over its faces and every later fall of the turn chosen to keep the most
  tiles off that pile. It reads only the pyramid, so it is exact: 0 means the tile *fits*.
- ``later``: the tiles the player holds (hand and pile) once everyone else has played once more
  and the player has played their next turn, on average over many deals of the tiles they cannot
  see; every decision compared meets the same deals and the same fire die. The difference
  between two decisions' ``later`` is what one would have kept off the player's pile on average.

Everything is reproducible: the same view, seed and budgets give the same judgement whenever the
expert's search is bounded by its node limit rather than the clock.

>>> from engine import Game, view
>>> game = Game.new(players=3, seed=7)
>>> seat = game.pending.player
>>> j = judge(view(game, seat), seed=1, node_limit=200, deals=8)
>>> j.best == j.options[0].action and j.option(j.best).now >= 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.ai.deal import Dealer
from engine.ai.expert import choose_expert
from engine.ai.hard import _playout
from engine.ai.tactics import awkwardness, best_fall_value, plays, tiles_left
from engine.game import Game
from engine.model import Action, Fall, Play
from engine.view import View

DEFAULT_DEALS: Final = 48
"""Deals of the unseen tiles over which ``later`` is averaged when the caller gives no number."""

DEFAULT_ALTERNATIVES: Final = 2
"""Decisions judged besides the expert's and the ones asked about: those that send the fewest
tiles to the player's pile this turn (a hint explains the expert's choice against them)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One decision and what it costs the player, in tiles (see the module's text)."""

    action: Action
    now: float
    """Tiles sent under the player's own pile over the rest of their turn, on average over the
    fire die (0 for a tile that fits)."""
    later: float
    """Tiles the player holds after everyone's next turn, their own included, on average."""
    others: float
    """Tiles each other player holds at that same moment, on average over them and the deals:
    what a decision that costs the player a tile may win by leaving the others more."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The expert's decision and the decisions compared with it, the expert's first."""

    best: Action
    options: tuple[Option, ...]
    deals: int
    """How many deals ``later`` was averaged over."""

    def option(self, action: Action) -> Option:
        """The judged option of ``action`` (KeyError if it was not judged)."""
        for o in self.options:
            if o.action == action:
                return o
        raise KeyError(action)

    def kept_off(self, action: Action) -> float:
        """The tiles the expert's decision would have kept off the player's pile, on average,
        compared with ``action`` (negative when ``action`` did better on these deals)."""
        return self.option(action).later - self.option(self.best).later


def judge(
    view: View,
    seed: int,
    *,
    compare: Sequence[Action] = (),
    alternatives: int = DEFAULT_ALTERNATIVES,
    deals: int = DEFAULT_DEALS,
    time_budget_s: float | None = None,
    node_limit: int | None = None,
) -> Judgement:
    """Judge ``view.pending`` (a play or a fall of ``view.player``): the expert's decision (its
    search bounded by ``time_budget_s`` and ``node_limit``, as for :func:`engine.ai.choose`),
    the decisions in ``compare`` (e.g. the one a player made) and ``alternatives`` more that send
    the fewest tiles to the player's pile this turn, each with its ``now`` and ``later`` costs
    over ``deals`` deals.

    Raises ValueError for the public view, nothing to decide, or a decision in ``compare`` that
    is not open to the player.
    """
    me = view.player
    p = view.pending
    if me is None or view.hand is None:
        raise ValueError("the coach needs a player's view, not the public view")
    if p is None or p.kind not in ("play", "fall") or p.player != me:
        raise ValueError("there is no play or fall of this player to judge")
    rnd = random.Random(seed)
    best = choose_expert(
        view, random.Random(seed), time_budget_s=time_budget_s, node_limit=node_limit
    )
    dealer = Dealer(view)
    first = dealer.deal(rnd)
    now = _own_turn_costs(first, me)
    for action in compare:
        if action not in now:
            raise ValueError(f"{action!r} is not a decision open to the player")
    judged: list[Action] = [best]
    for action in [*compare, *sorted(now, key=lambda a: (now[a], -_awkward(a), _order(a)))]:
        if action not in judged and (
            action in compare or len(judged) < 1 + len(compare) + alternatives
        ):
            judged.append(action)
    deals = max(1, deals)
    later = _later(dealer, first, judged, me, deals, rnd)
    options = tuple(
        Option(action=a, now=now[a], later=mine / deals, others=theirs / deals)
        for a, (mine, theirs) in zip(judged, later, strict=True)
    )
    return Judgement(best=best, options=options, deals=deals)


def _own_turn_costs(game: Game, me: int) -> dict[Action, float]:
    """Every open decision's ``now``: tiles it sends to ``me``'s pile over the rest of the turn."""
    before = tiles_left(game, me)

    def keep(g: Game) -> float:
        return -float(tiles_left(g, me))

    p = game.pending
    assert p is not None
    out: dict[Action, float] = {}
    if p.kind == "fall":
        for d in ("left", "right"):
            g = game.copy()
            g.apply(Fall(d))
            out[Fall(d)] = -best_fall_value(g, me, keep) - before
        return out
    for play in plays(game):
        g = game.copy()
        g.apply(play)
        # The tile played leaves the hand: what stays above ``before - 1`` went to the pile.
        out[play] = max(0.0, -best_fall_value(g, me, keep) - (before - 1))
    return out


def _later(
    dealer: Dealer, first: Game, judged: list[Action], me: int, deals: int, rnd: random.Random
) -> list[tuple[float, float]]:
    """The tiles ``me`` holds after everyone's next turn and those each other player holds then
    (their mean), each summed over ``deals`` deals, for every decision of ``judged`` (the same
    deals and the same chance for all)."""
    others: list[float] = []

    def held(g: Game) -> float:
        rivals = [tiles_left(g, j) for j in range(g.players) if j != me]
        others.append(sum(rivals) / len(rivals))
        return float(tiles_left(g, me))

    def keep(g: Game) -> float:
        return -float(tiles_left(g, me))

    totals = [(0.0, 0.0)] * len(judged)
    plan: dict[tuple[object, ...], str] = {}
    depth = first.players  # the others' turns, then the player's own next turn
    for n in range(deals):
        deal = first if n == 0 else dealer.deal(rnd)
        chance = rnd.getrandbits(64)
        for i, action in enumerate(judged):
            mine = _playout(deal, action, me, held, keep, plan, depth, random.Random(chance))
            totals[i] = (totals[i][0] + mine, totals[i][1] + others.pop())
    return totals


def _awkward(action: Action) -> int:
    return awkwardness(action.tile) if isinstance(action, Play) else 0


def _order(action: Action) -> tuple[str, tuple[int, int]]:
    if isinstance(action, Play):
        return (action.tile, action.at or (0, 0))
    return (action.direction, (0, 0)) if isinstance(action, Fall) else ("", (0, 0))


__all__ = ["DEFAULT_ALTERNATIVES", "DEFAULT_DEALS", "Judgement", "Option", "judge"]

"""The review of a played match: each decision of each seat judged by the coach, as it was.

One job: walk a match as its log has it (the dealt state and the actions, the engine's scenario
format, each with the seat that took it) and judge every play and fall of a seat with
:func:`engine.ai.coach.judge`, from that seat's view at that moment alone (never another hand,
nor a pile's order: what the player could have known then). The die is chance, not a decision,
and a new round is nobody's choice: neither is judged.

Reviewing is split in two so that the judging can run elsewhere (a worker process of its own):
:func:`decisions` lists the positions, cheaply, and :func:`review` judges one of them. Both are
pure, and a review is reproducible: the same decision and :class:`Budget` give the same
:class:`Review` whenever the node limit, not the clock, bounds the expert's search.

>>> from engine import Game, view
>>> from engine.ai import choose
>>> game = Game.new(players=2, seed=3)
>>> start, log = game.to_dict(), []
>>> for _ in range(4):
...     seat = game.pending.player
...     action = choose("normal", view(game, seat), seed=1)
...     _ = game.apply(action, seat)
...     log.append((seat, action.to_dict()))
>>> found = decisions(start, log)
>>> [d.entry for d in found][:2]
[0, 1]
>>> r = review(found[0], Budget(node_limit=100, deals=2))
>>> r.entry, r.played == found[0].action, Review.from_dict(r.to_dict()) == r
(0, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.ai.coach import judge
from engine.game import Game
from engine.model import BadStateError, Fall, Play, action_from_dict
from engine.view import view


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the coach looks at each decision (see :func:`engine.ai.coach.judge`)."""

    node_limit: int
    """Positions the expert searches for its own decision."""
    deals: int
    """Deals of the unseen tiles the decisions' costs are averaged over."""
    time_budget_s: float = math.inf
    """Seconds the expert may search at most (``math.inf``: the node limit alone, which makes
    the review reproducible)."""


REVIEW_BUDGET: Final = Budget(node_limit=2000, deals=24)
"""What a match's review spends on each decision unless told otherwise: a third of the expert's
own search at the table, and half the coach's deals, so that the 120 to 230 decisions of a
three-player match of two rounds are judged in 12 to 28 s of one core, well within a minute
(``bench/analysis.py`` measures it)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a match, ready to be judged."""

    entry: int
    """Its index in the match's log."""
    seat: int
    """Whose decision it was (a fall is the responsible player's, RULES 5)."""
    state: dict[str, Any]
    """The game just before it (:meth:`Game.to_dict`)."""
    action: Play | Fall
    """What the player decided (a play always with its spot)."""


@dataclass(frozen=True, slots=True)
class Review:
    """One decision as the coach judged it: what was played, what the expert would have
    played, and the tiles between them."""

    entry: int
    """The decision's index in the match's log."""
    seat: int
    played: Play | Fall
    best: Play | Fall
    """The expert's decision (``played`` when it agrees)."""
    kept_off: float
    """Tiles the expert's decision would have kept off the player's pile, on average over the
    deals (after everyone's next turn; 0 when it agrees, negative when the move played did
    better on those deals)."""
    now: float
    """Tiles the move played sent under the player's own pile over the rest of their turn
    (exact, the fire die averaged; 0: it fit)."""
    best_now: float
    """The same for the expert's decision."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "seat": self.seat,
            "played": self.played.to_dict(),
            "best": self.best.to_dict(),
            "kept_off": self.kept_off,
            "now": self.now,
            "best_now": self.best_now,
        }

    @classmethod
    def from_dict(cls, d: object) -> Review:
        """Read :meth:`to_dict`'s form back; raises :class:`~engine.BadStateError` for anything
        else."""
        bad = BadStateError(f"not a reviewed decision: {d!r:.80}")
        if not isinstance(d, dict):
            raise bad
        try:
            played, best = action_from_dict(d["played"]), action_from_dict(d["best"])
            entry, seat = d["entry"], d["seat"]
            numbers = [d["kept_off"], d["now"], d["best_now"]]
        except (KeyError, ValueError) as e:
            raise bad from e
        if not (
            isinstance(played, Play | Fall)
            and isinstance(best, Play | Fall)
            and type(entry) is int
            and type(seat) is int
            and min(entry, seat) >= 0
            and all(type(n) in (int, float) and math.isfinite(n) for n in numbers)
        ):
            raise bad
        return cls(entry, seat, played, best, *(float(n) for n in numbers))


def decisions(
    initial_state: Mapping[str, Any], actions: Sequence[tuple[int | None, Mapping[str, Any]]]
) -> list[Decision]:
    """Every play and fall of a seat in a match's log, in order, with the game before it.
    ``actions`` are ``(seat, action)`` pairs in the scenario format, as a table's log keeps
    them. Raises the engine's :class:`~engine.EngineError` if the log does not replay."""
    game = Game.from_dict(dict(initial_state))
    found: list[Decision] = []
    for i, (seat, raw) in enumerate(actions):
        action = action_from_dict(dict(raw))
        p = game.pending
        if isinstance(action, Play | Fall) and p is not None and p.kind in ("play", "fall"):
            if isinstance(action, Play) and action.at is None and len(p.spots) == 1:
                action = Play(action.tile, p.spots[0])
            found.append(Decision(i, p.player, game.to_dict(), action))
        game.apply(action, seat)
    return found


def review(decision: Decision, budget: Budget) -> Review:
    """Judge one decision from its player's view (see the module). Raises ValueError for a
    decision that was not open to the player then."""
    game = Game.from_dict(decision.state)
    j = judge(
        view(game, decision.seat),
        decision.entry,
        compare=[decision.action],
        alternatives=0,
        deals=budget.deals,
        time_budget_s=budget.time_budget_s,
        node_limit=budget.node_limit,
    )
    best = j.best
    if not isinstance(best, Play | Fall):  # pragma: no cover - the expert plays or lets fall
        raise ValueError(f"the expert decided {best!r}")
    kept_off = round(j.kept_off(decision.action), 2) if best != decision.action else 0.0
    return Review(
        entry=decision.entry,
        seat=decision.seat,
        played=decision.action,
        best=best,
        kept_off=kept_off,
        now=round(j.option(decision.action).now, 2),
        best_now=round(j.option(best).now, 2),
    )


__all__ = ["REVIEW_BUDGET", "Budget", "Decision", "Review", "decisions", "review"]

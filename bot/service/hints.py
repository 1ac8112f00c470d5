"""Hints at a practice table (the table option ``hints``): for a person's decision, the move the
``expert`` would make and what it and its alternatives cost them in tiles, worked out by the
coach (:func:`engine.ai.coach.judge`) from that person's view alone, off the event loop.

The answer is data (:class:`Hint`), never words: the show side words it in one line
(:mod:`bot.show.hinttexts`). A hint changes nothing at the table: it takes no lock and writes
nothing; a button of a moment that has passed is refused as any private screen's is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bot.errors import NotAllowed, Stale, Why
from bot.service.undo import Undoing
from engine import Fall, Game, Play, View, labelled_spots, preview, view
from engine.ai.coach import Judgement, Option, judge

log = logging.getLogger(__name__)

HINT_TIME_BUDGET_S: Final = 0.8
"""The most the expert's search of a hint may take: with the deals the coach plays out after it,
a hint is answered well within 2 seconds on a machine of two cores (its node limit, the
computer players', bounds it first as a rule: then a hint is reproducible)."""
HINT_DEALS: Final = 32
"""Deals of the tiles the player cannot see over which a hint's "later" figures are averaged."""

Coach = Callable[[View, int], Judgement]
"""Judges the decision ``view.player`` owns: ``(view, seed) -> judgement``
(:func:`engine.ai.coach.judge` with the bot's bounds)."""


def default_coach(*, node_limit: int | None = None) -> Coach:
    """The coach of hints: :func:`engine.ai.coach.judge` within :data:`HINT_TIME_BUDGET_S`,
    its search bounded by ``node_limit`` (None: the expert's own), over :data:`HINT_DEALS`
    deals."""

    def judged(v: View, seed: int) -> Judgement:
        return judge(
            v, seed, time_budget_s=HINT_TIME_BUDGET_S, node_limit=node_limit, deals=HINT_DEALS
        )

    return judged


def hint_seed(table_id: int, version: int) -> int:
    """The seed of a hint for the decision a table waits for at ``version``: the same decision
    gets the same hint however often it is asked."""
    return (table_id * 1_000_003 + version) & 0x7FFFFFFF


@dataclass(frozen=True)
class HintOption:
    """One decision a hint weighs, with what it costs the player in tiles (see
    :class:`engine.ai.coach.Option`)."""

    action: Play | Fall
    spot: str | None
    """For a play: the letter of its spot, as the picture and the buttons show it."""
    fits: bool
    """For a play: nothing but the placement would happen (as a spot button's *fits*)."""
    now: float
    """Tiles it sends under the player's own pile over the rest of their turn (exact; the fire
    die averaged over its faces)."""
    later: float
    """Tiles the player holds after everyone's next turn, their own included, on average."""
    others: float
    """Tiles each other player holds then, on average."""


@dataclass(frozen=True)
class Hint:
    """What the expert would decide for a person's decision, and the decisions weighed with it
    (those that send the fewest tiles to the player's pile this turn, cheapest first)."""

    table_id: int
    user_id: int
    version: int
    """The table's version the hint is for (the decision it was asked on)."""
    decision: Literal["play", "fall"]
    best: HintOption
    alternatives: tuple[HintOption, ...]
    open_decisions: int
    """How many decisions were open to the player (1: a play or a fall with no choice)."""
    players: int
    """Players at the table (the others are all but one)."""


class Hints(Undoing):
    """Hints for the decisions of a practice table's people."""

    coach: Coach

    async def hint(self, table_id: int, version: int, user_id: int) -> Hint:
        """The hint for ``user_id``'s decision at ``version`` of the table: refused at a table
        without hints (``NO_HINTS``: a forged button), and once the moment has passed (the
        table moved on, or the decision is not theirs: ``PASSED_MOMENT``)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        if not table.options.hints:
            raise NotAllowed(Why.NO_HINTS, table_id=table_id)
        self._check_version(table, version)
        if table.held is not None and table.held.seat == seat:
            game = self._turn_held(table, game)  # a fall of their own turn, held back
        p = game.pending
        if p is None or p.player != seat or p.kind not in ("play", "fall"):
            raise Stale(Why.PASSED_MOMENT, table_id=table_id)
        seen = view(game, seat)
        judged = await asyncio.to_thread(self.coach, seen, hint_seed(table.id, table.version))
        letters = {pos: letter for letter, pos in labelled_spots(p.spots)}
        options = [_option(game, o, letters) for o in judged.options]
        best = next(o for o in options if o.action == judged.best)
        others = sorted((o for o in options if o is not best), key=lambda o: o.now)
        opened = 2 if p.kind == "fall" else len(seen.hand or ()) * len(p.spots)
        log.debug("table %s: a hint for seat %s", table.id, seat)
        return Hint(
            table_id=table.id,
            user_id=user_id,
            version=table.version,
            decision="play" if p.kind == "play" else "fall",
            best=best,
            alternatives=tuple(others),
            open_decisions=opened,
            players=game.players,
        )


def _option(game: Game, o: Option, letters: dict[tuple[int, int], str]) -> HintOption:
    """``o`` with what the player reads of it: its spot's letter, and whether it fits."""
    action = o.action
    assert isinstance(action, Play | Fall)
    spot = letters.get(action.at) if isinstance(action, Play) and action.at else None
    fits = isinstance(action, Play) and preview(game, action).fits
    return HintOption(action, spot, fits, o.now, o.later, o.others)

"""A match's turning points for one reader: the moves that cost the most, as the coach judged
them, among those the reader may see.

One job: from a match's analysis (every decision of every seat reviewed by the coach,
:class:`engine.ai.review.Review`), its replay (where each decision is, the board it met) and its
table (who sat where), pick the reader's share and what matters in it. Pure: no Discord, no
store (the records service reads them and calls :func:`turning_points`).

Who sees what. A review names the move played and the expert's, both tiles of the player's hand
then, which nobody else saw: so a person sees their own decisions only (those logged with their
user id, at whatever seat), and everyone sees the decisions of the computer seats (a computer
has nothing to hide). A decision a computer made in a person's place (their clock ran out, they
were away, they left) is neither: it was not the person's move, and the hand was theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.records.replay import MatchReplay
from bot.records.results import TurningGroup, TurningPoint, TurningShown
from data.store import Table
from engine import Fall, Play
from engine.ai.review import Review

MIN_KEPT_OFF: Final = 0.5
"""The tiles a move must have cost, on average, to be a turning point: less is the coach's own
noise (its deals are a sample)."""
MOST: Final = 3
"""Turning points shown per player at most."""


def played(table: Table, reader: int) -> bool:
    """Whether ``reader`` (a user id) played the match (seated at its end, or left it)."""
    return reader in {s.user_id for s in table.seats} or reader in table.departed.values()


def computer_seats(table: Table) -> list[int]:
    """The seats computers held for the whole match (not one a person left)."""
    return [i for i, s in enumerate(table.seats) if s.ai is not None and i not in table.departed]


def any_for(table: Table, reader: int) -> bool:
    """Whether the match has turning points ``reader`` may see: they played, or a computer."""
    return played(table, reader) or bool(computer_seats(table))


def turning_points(
    table: Table, replay: MatchReplay, reviews: Sequence[Review], reader: int
) -> TurningShown:
    """The turning points ``reader`` (a user id) may see of a match analysed as ``reviews``:
    their own moves first if they played, then each computer seat's; ``players_only`` when
    there is nothing for them."""
    mine = [r for r in reviews if _decider(replay, r) == reader]
    groups: list[TurningGroup] = []
    if played(table, reader):
        seat = mine[0].seat if mine else _seat_of(table, reader)
        groups.append(_group(replay, seat, True, mine))
    for seat in computer_seats(table):
        theirs = [r for r in reviews if r.seat == seat and _decider(replay, r) is None]
        groups.append(_group(replay, seat, False, theirs))
    if not groups:
        return TurningShown(table, "players_only")
    return TurningShown(table, "ready", tuple(groups), replay.rounds)


def _decider(replay: MatchReplay, review: Review) -> int | None:
    """Whose own decision the review's was (None: a computer's)."""
    if 0 <= review.entry < len(replay.deciders):
        return replay.deciders[review.entry]
    return None


def _seat_of(table: Table, user_id: int) -> int:
    for i, s in enumerate(table.seats):
        if s.user_id == user_id:
            return i
    return next((seat for seat, who in table.departed.items() if who == user_id), 0)


def _group(replay: MatchReplay, seat: int, mine: bool, reviews: Sequence[Review]) -> TurningGroup:
    costly = sorted(
        (r for r in reviews if r.kept_off >= MIN_KEPT_OFF and r.entry < len(replay.actions)),
        key=lambda r: (-r.kept_off, r.entry),
    )[:MOST]
    agreed = sum(1 for r in reviews if r.best == r.played)
    return TurningGroup(seat, mine, len(reviews), agreed, tuple(_point(replay, r) for r in costly))


def _point(replay: MatchReplay, review: Review) -> TurningPoint:
    step, round_, turn = replay.place(review.entry)
    game = replay.game_before(review.entry)

    def on(action: Play | Fall) -> tuple[str, ...]:
        if isinstance(action, Fall):
            p = game.pending
            return (p.tile,) if p is not None and p.kind == "fall" and p.tile else ()
        if action.at is None or action.at[0] == 0:
            return ()
        r, x = action.at
        below = (game.pyramid.get((r - 1, x - 1)), game.pyramid.get((r - 1, x + 1)))
        return tuple(t for t in below if t)

    return TurningPoint(
        step=step,
        round=round_,
        turn=turn,
        played=review.played,
        best=review.best,
        kept_off=review.kept_off,
        now=review.now,
        best_now=review.best_now,
        played_on=on(review.played),
        best_on=on(review.best),
    )


__all__ = ["MIN_KEPT_OFF", "MOST", "any_for", "computer_seats", "played", "turning_points"]

"""A finished match's result rows (``results``, ``result_players``): written with the move or the
close that ends the match, in the same transaction, and read back by ``Upkeep.results``. The
SQL is the same in both dialects (``?`` placeholders: :mod:`data.sql`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from data.model import Seat
from data.rows import dumps, load_json, parse_object, parse_seats, seats_json

log = logging.getLogger(__name__)


def recorded(status: str, results: dict[str, Any] | None) -> bool:
    """Whether a table closed with ``status`` gets a result row: a finished match always, an
    aborted game when the bot gives its standings (it stopped after its first move)."""
    return status == "finished" or (status == "aborted" and results is not None)


RESULT_UPSERT = (
    "INSERT INTO results (table_id, guild_id, channel_id, finished_at, seats, scores, "
    "winners, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET finished_at = excluded.finished_at, "
    "seats = excluded.seats, scores = excluded.scores, winners = excluded.winners, "
    "data = CASE WHEN excluded.data = '{}' THEN results.data ELSE excluded.data END"
)
RESULT_PLAYERS_DELETE = "DELETE FROM result_players WHERE table_id = ?"
RESULT_PLAYERS_INSERT = (
    "INSERT INTO result_players (table_id, seat, user_id, name, ai, score, won) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def result_rows(
    table_id: int,
    guild_id: int,
    channel_id: int,
    finished_at: float,
    seats: Sequence[Seat],
    state: dict[str, Any] | None,
    results: dict[str, Any] | None,
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The ``results`` row (for :data:`RESULT_UPSERT`) and the ``result_players`` rows (for
    :data:`RESULT_PLAYERS_INSERT`) recording a finished match."""
    scores, winners = scores_and_winners(state, results)
    match = (
        table_id,
        guild_id,
        channel_id,
        finished_at,
        seats_json(seats),
        None if scores is None else dumps(scores),
        None if winners is None else dumps(winners),
        dumps(results or {}),
    )
    players = [
        (
            table_id,
            i,
            s.user_id,
            s.name,
            s.ai,
            scores[i] if scores is not None and i < len(scores) else None,
            winners is not None and i in winners,
        )
        for i, s in enumerate(seats)
    ]
    return match, players


def results_from_rows(rows: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """Rows of ``results`` (table_id, guild_id, channel_id, finished_at, seats, scores,
    winners, data) as the store's ``results`` returns them; an unreadable one is logged and
    skipped."""
    out: list[dict[str, Any]] = []
    for tid, gid, cid, at, seats, scores, winners, data in rows:
        try:
            seat_list = [s.to_dict() for s in parse_seats(seats)]
            score_list = None if scores is None else load_json(scores, "scores")
            winner_list = None if winners is None else load_json(winners, "winners")
            extra = parse_object(data, "results")
        except ValueError as e:
            log.warning("skipping the result of table %s: %s", tid, e)
            continue
        if winner_list is None:
            _, winner_list = scores_and_winners({"scores": score_list}, None)
        out.append(
            {
                "table_id": tid,
                "guild_id": gid,
                "channel_id": cid,
                "finished_at": at,
                "seats": seat_list,
                "scores": score_list,
                "winners": winner_list or [],
                "results": extra,
            }
        )
    return out


def scores_and_winners(
    state: dict[str, Any] | None, results: dict[str, Any] | None
) -> tuple[list[int] | None, list[int] | None]:
    """A finished match's totals and winners: from ``results`` if the bot gave them, else from
    the final engine state (lowest total wins; ties share)."""
    res = results or {}
    scores = res.get("scores")
    if scores is None and state is not None:
        scores = state.get("scores")
    if not (isinstance(scores, list) and all(isinstance(s, int) for s in scores)):
        scores = None
    winners = res.get("winners")
    if not (isinstance(winners, list) and all(isinstance(w, int) for w in winners)):
        winners = None
    if winners is None and scores:
        best = min(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
    return scores, winners

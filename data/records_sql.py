"""The records' SQL, written once for both dialects (``?`` placeholders: :mod:`data.sql`), and
their rows as records (the ratings, a match's result and departures, the history)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from data import results as RS
from data import rows as R
from data.model import HistoryEntry
from rating import Departure, MatchFacts, PlayerRecord, StoredMatch, replay_all

RATING_COLUMNS: Final = (
    "guild_id, player, name, mu, sigma, ordinal, matches, wins, tiles_left, streak, "
    "best_streak, collapses, fires, explosions, curses, tiles_taken, cursed, last_at"
)
MATCH_COLUMNS: Final = (
    "r.table_id, r.guild_id, r.finished_at, r.seats, r.scores, r.facts, t.options"
)
"""The columns :func:`stored_match` reads, in its order: a ``results`` row (``r``) and its
table's options (``t``, :data:`MATCH_TABLES`: a practice table's match rates nobody)."""
MATCH_TABLES: Final = "results r LEFT JOIN tables t ON t.id = r.table_id"
DEPARTURE_COLUMNS: Final = "seat, user_id, at, name"
"""The ``departures`` columns :func:`departure` reads, in its order."""

MATCH = f"SELECT {MATCH_COLUMNS}, r.rated_seq IS NOT NULL FROM {MATCH_TABLES} WHERE r.table_id = ?"
DEPARTURES = f"SELECT {DEPARTURE_COLUMNS} FROM departures WHERE table_id = ?"
UNRATED = (
    "SELECT table_id FROM results WHERE rated_seq IS NULL ORDER BY finished_at, table_id LIMIT ?"
)
RATED_GUILDS = "SELECT DISTINCT guild_id FROM results WHERE rated_seq IS NOT NULL"
#: What recomputing a server reads, in one snapshot: its rating sequence, its departures, and
#: its rated matches in the order they were rated.
SEQ = "SELECT seq FROM rating_seqs WHERE guild_id = ?"
GUILD_DEPARTURES = (
    "SELECT d.table_id, d.seat, d.user_id, d.at, d.name FROM departures d "
    "JOIN results r ON r.table_id = d.table_id WHERE r.guild_id = ?"
)
RATED_MATCHES = (
    f"SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES} "
    "WHERE r.guild_id = ? AND r.rated_seq IS NOT NULL ORDER BY r.rated_seq"
)
UPSERT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({', '.join('?' * 18)}) "
    "ON CONFLICT (guild_id, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
    "sigma = excluded.sigma, ordinal = excluded.ordinal, matches = excluded.matches, "
    "wins = excluded.wins, tiles_left = excluded.tiles_left, streak = excluded.streak, "
    "best_streak = excluded.best_streak, collapses = excluded.collapses, "
    "fires = excluded.fires, explosions = excluded.explosions, curses = excluded.curses, "
    "tiles_taken = excluded.tiles_taken, cursed = excluded.cursed, last_at = excluded.last_at"
)
ADD_OPENING = (
    "INSERT INTO rating_openings (guild_id, player, tile, times) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild_id, player, tile) DO UPDATE "
    "SET times = rating_openings.times + excluded.times"
)
NEXT_SEQ = (
    "INSERT INTO rating_seqs (guild_id, seq) VALUES (?, 1) "
    "ON CONFLICT (guild_id) DO UPDATE SET seq = rating_seqs.seq + 1 RETURNING seq"
)
SET_RATED = "UPDATE results SET rated_seq = ?, facts = ? WHERE table_id = ?"
DELETE_RATINGS = "DELETE FROM ratings WHERE guild_id = ?"
DELETE_OPENINGS = "DELETE FROM rating_openings WHERE guild_id = ?"
PLAYER = f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND player = ?"
FAVOURITE = (
    "SELECT tile FROM rating_openings WHERE guild_id = ? AND player = ? "
    "ORDER BY times DESC, tile LIMIT 1"
)
RANKED = "SELECT count(*) FROM ratings WHERE guild_id = ? AND matches >= ?"
#: The ranked players above a player (parameters: guild, player, least matches).
ABOVE = (
    "SELECT count(*) FROM ratings o JOIN ratings p ON p.guild_id = o.guild_id "
    "WHERE p.guild_id = ? AND p.player = ? AND o.matches >= ? "
    "AND (o.ordinal > p.ordinal OR (o.ordinal = p.ordinal AND o.player < p.player))"
)
BOARD = (
    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND matches >= ? "
    "ORDER BY ordinal DESC, player LIMIT ? OFFSET ?"
)
ALL_RECORDS = f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? ORDER BY player"
HISTORY = (
    "SELECT r.table_id, r.guild_id, r.channel_id, t.thread_id, r.finished_at, r.seats, "
    "r.scores, r.winners, t.number, t.status FROM results r JOIN tables t ON t.id = r.table_id "
    "WHERE r.guild_id = ? AND r.finished_at < ? "
)
PLAYED_BY = (
    "AND r.table_id IN (SELECT table_id FROM result_players WHERE user_id = ? "
    "UNION SELECT table_id FROM departures WHERE user_id = ?) "
)
"""A player's matches: those they were seated at in the end, and those they left."""


# --- rows and records -----------------------------------------------------------------------


def rating_row(r: PlayerRecord) -> tuple[Any, ...]:
    """The ``ratings`` row of a record, in the column order of :data:`RATING_COLUMNS`."""
    return (
        r.guild_id,
        r.player,
        r.name,
        r.mu,
        r.sigma,
        r.ordinal,
        r.matches,
        r.wins,
        r.tiles_left,
        r.streak,
        r.best_streak,
        r.collapses,
        r.fires,
        r.explosions,
        r.curses,
        r.tiles_taken,
        r.cursed,
        r.last_at,
    )


def player_record(row: Sequence[Any]) -> PlayerRecord:
    """A ``ratings`` row read in the order of :data:`RATING_COLUMNS`."""
    (gid, player, name, mu, sigma, _ordinal, *counts, last_at) = row
    c = [int(x) for x in counts]
    return PlayerRecord(
        guild_id=int(gid),
        player=str(player),
        name=str(name),
        mu=float(mu),
        sigma=float(sigma),
        matches=c[0],
        wins=c[1],
        tiles_left=c[2],
        streak=c[3],
        best_streak=c[4],
        collapses=c[5],
        fires=c[6],
        explosions=c[7],
        curses=c[8],
        tiles_taken=c[9],
        cursed=c[10],
        last_at=float(last_at),
    )


def stored_match(row: Sequence[Any], departures: Iterable[Departure]) -> StoredMatch:
    """A results row in the order of :data:`MATCH_COLUMNS` (JSON as text or as already decoded
    values; no options: a table row that could not be read, not a practice table)."""
    tid, gid, at, seats, scores, facts, options = row

    def value(v: Any, what: str) -> Any:
        return R.load_json(v, what) if isinstance(v, str) else v

    seat_list = R.parse_seats(seats if isinstance(seats, str) else R.dumps(seats))
    score_list = value(scores, "scores")
    fact_dict = value(facts, "facts")
    option_dict = value(options, "options")
    practice = isinstance(option_dict, dict) and option_dict.get("hints") in (True, 1)
    return StoredMatch(
        int(tid),
        int(gid),
        float(at),
        tuple(seat_list),
        None if score_list is None else tuple(int(s) for s in score_list),
        tuple(departures),
        None if fact_dict is None else MatchFacts.from_dict(fact_dict),
        practice=practice,
    )


def departure(row: Sequence[Any]) -> Departure:
    """A ``departures`` row in the order of :data:`DEPARTURE_COLUMNS`."""
    seat, user_id, at, name = row
    return Departure(int(seat), int(user_id), float(at), None if name is None else str(name))


def recomputed(
    rows: Sequence[Sequence[Any]], departures: Iterable[Sequence[Any]]
) -> tuple[dict[str, PlayerRecord], dict[tuple[str, str], int]]:
    """:func:`rating.replay_all` of results rows in rating order (see :func:`stored_match`) and
    ``departures`` rows: the table id, then :data:`DEPARTURE_COLUMNS`."""
    deps: dict[int, list[Departure]] = {}
    for tid, *rest in departures:
        deps.setdefault(int(tid), []).append(departure(rest))
    return replay_all(stored_match(r, deps.get(int(r[0]), ())) for r in rows)


def history_entry(row: Sequence[Any]) -> HistoryEntry:
    """A row of :data:`HISTORY`, JSON as text (``status``: the table's, ``aborted`` for a
    match stopped before its end)."""
    tid, gid, cid, thread, at, seats, scores, winners, number, status = row
    score_list = None if scores is None else R.load_json(scores, "scores")
    winner_list = None if winners is None else R.load_json(winners, "winners")
    if winner_list is None:
        _, winner_list = RS.scores_and_winners({"scores": score_list}, None)
    return HistoryEntry(
        int(tid),
        int(gid),
        int(cid),
        None if thread is None else int(thread),
        float(at),
        R.parse_seats(seats),
        None if score_list is None else tuple(int(s) for s in score_list),
        tuple(winner_list or ()),
        status != "finished",
        int(number),
    )

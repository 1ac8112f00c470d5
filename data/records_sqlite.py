"""Records (ratings, aggregates, history) on the SQLite store: see :mod:`data.records`.

A match is rated in one ``BEGIN IMMEDIATE`` transaction of the store's writer: SQLite's write lock
serialises every rating of the file, so two processes rating the same match (or two matches of the
same players) cannot interleave; the first to set the match's ``rated_seq`` wins, the other finds
it set and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Sequence
from typing import Any

from data import records as RC
from data import rows as R
from data.records import (
    DEPARTURE_COLUMNS,
    MATCH_COLUMNS,
    MIN_MATCHES,
    RATING_COLUMNS,
    BoardPage,
    HistoryEntry,
    PlayerRecord,
    PlayerStats,
    StoredMatch,
)
from data.sqlite import SqliteStore
from data.store import StoreError

log = logging.getLogger(__name__)

MATCH = f"SELECT {MATCH_COLUMNS}, rated_seq IS NOT NULL FROM results WHERE table_id = ?"
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
    "ON CONFLICT (guild_id, player, tile) DO UPDATE SET times = times + excluded.times"
)
NEXT_SEQ = (
    "INSERT INTO rating_seqs (guild_id, seq) VALUES (?, 1) "
    "ON CONFLICT (guild_id) DO UPDATE SET seq = seq + 1 RETURNING seq"
)
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


class SqliteRecords:
    """:class:`data.records.Records` on a :class:`~data.sqlite.SqliteStore`."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._db = store._db  # the store's own connections: one writer, one reader

    # --- rating -----------------------------------------------------------------------------------

    async def _match(self, table_id: int) -> tuple[StoredMatch, bool] | None:
        rows = await self._db.read(MATCH, (table_id,))
        if not rows:
            return None
        row = rows[0]
        deps = await self._db.read(
            f"SELECT {DEPARTURE_COLUMNS} FROM departures WHERE table_id = ?", (table_id,)
        )
        return RC.stored_match(row[:6], map(RC.departure, deps)), bool(row[6])

    async def rate_match(self, table_id: int) -> bool:
        found = await self._match(table_id)
        if found is None or found[1]:
            return False
        m, _ = found
        facts = await RC.facts_of(self.store, m)
        seats = RC.rated_seats(m.seats, m.departures, facts)

        def op(conn: sqlite3.Connection) -> bool:
            flag = conn.execute(
                "SELECT rated_seq FROM results WHERE table_id = ?", (table_id,)
            ).fetchone()
            if flag is None or flag[0] is not None:
                return False  # rated meanwhile (another process): never twice
            seq = conn.execute(NEXT_SEQ, (m.guild_id,)).fetchone()[0]
            conn.execute(
                "UPDATE results SET rated_seq = ?, facts = ? WHERE table_id = ?",
                (seq, R.dumps(facts.to_dict()), table_id),
            )
            current = self._current(conn, m.guild_id, [s.player for s in seats])
            for r in RC.rate(current, seats, m.guild_id, m.finished_at):
                conn.execute(UPSERT_RATING, r.row())
                for tile, n in r.openings.items():
                    conn.execute(ADD_OPENING, (m.guild_id, r.player, tile, n))
            return True

        return await self._db.write(op)

    @staticmethod
    def _current(
        conn: sqlite3.Connection, guild_id: int, players: Sequence[str]
    ) -> dict[str, PlayerRecord]:
        if not players:
            return {}
        marks = ", ".join("?" * len(players))
        rows = conn.execute(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND player IN ({marks})",
            (guild_id, *players),
        ).fetchall()
        return {str(r[1]): PlayerRecord.from_row(r) for r in rows}

    async def rate_pending(self, limit: int = 1000) -> int:
        rows = await self._db.read(
            "SELECT table_id FROM results WHERE rated_seq IS NULL "
            "ORDER BY finished_at, table_id LIMIT ?",
            (limit,),
        )
        rated = 0
        for (table_id,) in rows:
            rated += int(await self.rate_match(int(table_id)))
        return rated

    async def recompute(self, guild_id: int | None = None) -> int:
        guilds = (
            [guild_id]
            if guild_id is not None
            else [
                int(g)
                for (g,) in await self._db.read(
                    "SELECT DISTINCT guild_id FROM results WHERE rated_seq IS NOT NULL"
                )
            ]
        )
        applied = 0
        for gid in guilds:
            applied += await self._recompute_guild(gid)
        return applied

    async def _recompute_guild(self, guild_id: int) -> int:
        """Read the server's results, replay the ratings in memory (off the event loop, with no
        lock held), then write them in one short transaction, unless a match was rated
        meanwhile (its sequence number moved on): then again from the start."""
        for _ in range(5):
            seq_rows, dep_rows, rows = await self._db.snapshot(
                [
                    ("SELECT seq FROM rating_seqs WHERE guild_id = ?", (guild_id,)),
                    (
                        "SELECT d.table_id, d.seat, d.user_id, d.at, d.name FROM departures d "
                        "JOIN results r ON r.table_id = d.table_id WHERE r.guild_id = ?",
                        (guild_id,),
                    ),
                    (
                        f"SELECT {MATCH_COLUMNS} FROM results "
                        "WHERE guild_id = ? AND rated_seq IS NOT NULL ORDER BY rated_seq",
                        (guild_id,),
                    ),
                ]
            )
            seq = int(seq_rows[0][0]) if seq_rows else None
            records, openings = await asyncio.to_thread(RC.recomputed, rows, dep_rows)

            if await self._write_recomputed(guild_id, seq, records, openings):
                return len(rows)
        raise StoreError(f"server {guild_id} kept rating matches; recompute again later")

    async def _write_recomputed(
        self,
        guild_id: int,
        seq: int | None,
        records: dict[str, PlayerRecord],
        openings: dict[tuple[str, str], int],
    ) -> bool:
        """Write recomputed records unless the server's rating sequence moved past ``seq``."""

        def op(conn: sqlite3.Connection) -> bool:
            now = conn.execute(
                "SELECT seq FROM rating_seqs WHERE guild_id = ?", (guild_id,)
            ).fetchone()
            if (int(now[0]) if now else None) != seq:
                return False
            conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            conn.execute("DELETE FROM rating_openings WHERE guild_id = ?", (guild_id,))
            conn.executemany(UPSERT_RATING, [r.row() for r in records.values()])
            conn.executemany(ADD_OPENING, [(guild_id, p, t, n) for (p, t), n in openings.items()])
            return True

        return await self._db.write(op)

    # --- reading ----------------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats | None:
        q1 = (f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND player = ?",
              (guild_id, player))  # fmt: skip
        q2 = (
            "SELECT tile FROM rating_openings WHERE guild_id = ? AND player = ? "
            "ORDER BY times DESC, tile LIMIT 1",
            (guild_id, player),
        )
        q3 = (
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND matches >= ?",
            (guild_id, MIN_MATCHES),
        )
        found, fav, total = await self._db.snapshot([q1, q2, q3])
        if not found:
            return None
        record = PlayerRecord.from_row(found[0])
        rank = None
        if record.matches >= MIN_MATCHES:
            above = await self._db.read(
                "SELECT count(*) FROM ratings WHERE guild_id = ? AND matches >= ? "
                "AND (ordinal > ? OR (ordinal = ? AND player < ?))",
                (guild_id, MIN_MATCHES, record.ordinal, record.ordinal, record.player),
            )
            rank = int(above[0][0]) + 1
        return PlayerStats(record, rank, int(total[0][0]), str(fav[0][0]) if fav else None)

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, min_matches: int = MIN_MATCHES
    ) -> BoardPage:
        rows, total = await self._db.snapshot(
            [
                (
                    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND matches >= ? "
                    "ORDER BY ordinal DESC, player LIMIT ? OFFSET ?",
                    (guild_id, min_matches, limit, offset),
                ),
                (
                    "SELECT count(*) FROM ratings WHERE guild_id = ? AND matches >= ?",
                    (guild_id, min_matches),
                ),
            ]
        )
        return BoardPage(
            tuple(PlayerRecord.from_row(r) for r in rows), offset + 1, int(total[0][0])
        )

    async def history(
        self, guild_id: int, user_id: int | None, limit: int, before: float | None = None
    ) -> list[HistoryEntry]:
        params: list[Any] = [guild_id, before if before is not None else float("inf")]
        sql = HISTORY
        if user_id is not None:
            sql += PLAYED_BY
            params += [user_id, user_id]
        sql += "ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?"
        params.append(limit)
        return [entry(r) for r in await self._db.read(sql, params)]

    async def all_records(self, guild_id: int) -> list[PlayerRecord]:
        rows = await self._db.read(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? ORDER BY player",
            (guild_id,),
        )
        return [PlayerRecord.from_row(r) for r in rows]


def entry(row: Sequence[Any]) -> HistoryEntry:
    """A history row ``(table_id, guild_id, channel_id, thread_id, finished_at, seats, scores,
    winners, number, status)``, JSON as text (``status``: the table's, ``aborted`` for a match
    stopped before its end)."""
    tid, gid, cid, thread, at, seats, scores, winners, number, status = row
    score_list = None if scores is None else R.load_json(scores, "scores")
    winner_list = None if winners is None else R.load_json(winners, "winners")
    if winner_list is None:
        _, winner_list = R.scores_and_winners({"scores": score_list}, None)
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

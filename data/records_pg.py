"""Records (ratings, aggregates, history) on the PostgreSQL store: see :mod:`data.records`.

A match is rated in one transaction: it locks the match's result row (``FOR UPDATE``: a second
process rating the same match waits, then finds it rated and changes nothing) and then the
server's rating sequence row (an upsert, which serialises the ratings of one server across every
process until the commit), reads its players' rows, and writes them with the match's
``rated_seq``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from data import records as RC
from data import rows as R
from data.postgres import PostgresStore
from data.records import (
    DEPARTURE_COLUMNS,
    MIN_MATCHES,
    RATING_COLUMNS,
    BoardPage,
    HistoryEntry,
    PlayerRecord,
    PlayerStats,
    StoredMatch,
)
from data.records_sqlite import entry
from data.store import StoreError

if TYPE_CHECKING:
    from data.pgmigrate import Conn

log = logging.getLogger(__name__)

MATCH_TEXT = "table_id, guild_id, finished_at, seats::text, scores::text, facts::text"
""":data:`data.records.MATCH_COLUMNS`, JSON as text."""
MATCH = f"SELECT {MATCH_TEXT}, rated_seq IS NOT NULL FROM results WHERE table_id = $1"
UPSERT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES "
    f"({', '.join(f'${i}' for i in range(1, 19))}) "
    "ON CONFLICT (guild_id, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
    "sigma = excluded.sigma, ordinal = excluded.ordinal, matches = excluded.matches, "
    "wins = excluded.wins, tiles_left = excluded.tiles_left, streak = excluded.streak, "
    "best_streak = excluded.best_streak, collapses = excluded.collapses, "
    "fires = excluded.fires, explosions = excluded.explosions, curses = excluded.curses, "
    "tiles_taken = excluded.tiles_taken, cursed = excluded.cursed, last_at = excluded.last_at"
)
ADD_OPENING = (
    "INSERT INTO rating_openings (guild_id, player, tile, times) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (guild_id, player, tile) DO UPDATE "
    "SET times = rating_openings.times + excluded.times"
)
NEXT_SEQ = (
    "INSERT INTO rating_seqs (guild_id, seq) VALUES ($1, 1) "
    "ON CONFLICT (guild_id) DO UPDATE SET seq = rating_seqs.seq + 1 RETURNING seq"
)
HISTORY = (
    "SELECT r.table_id, r.guild_id, r.channel_id, t.thread_id, r.finished_at, r.seats::text, "
    "r.scores::text, r.winners::text, t.number, t.status "
    "FROM results r JOIN tables t ON t.id = r.table_id "
    "WHERE r.guild_id = $1 AND r.finished_at < $2 "
)
PLAYED_BY = (
    "AND r.table_id IN (SELECT table_id FROM result_players WHERE user_id = $3 "
    "UNION SELECT table_id FROM departures WHERE user_id = $3) "
)
"""A player's matches: those they were seated at in the end, and those they left."""


class PgRecords:
    """:class:`data.records.Records` on a :class:`~data.postgres.PostgresStore`."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store
        self._db = store._db  # the store's own pool, with its retries and timeouts

    # --- rating -----------------------------------------------------------------------------------

    async def _match(self, table_id: int) -> tuple[StoredMatch, bool] | None:
        rows = await self._db.read(MATCH, table_id)
        if not rows:
            return None
        row = rows[0]
        deps = await self._db.read(
            f"SELECT {DEPARTURE_COLUMNS} FROM departures WHERE table_id = $1", table_id
        )
        return RC.stored_match(tuple(row)[:6], [RC.departure(tuple(d)) for d in deps]), bool(row[6])

    async def rate_match(self, table_id: int) -> bool:
        found = await self._match(table_id)
        if found is None or found[1]:
            return False
        m, _ = found
        facts = await RC.facts_of(self.store, m)
        seats = RC.rated_seats(m.seats, m.departures, facts)

        async def op(conn: Conn) -> bool:
            flag = await conn.fetchrow(
                "SELECT rated_seq FROM results WHERE table_id = $1 FOR UPDATE", table_id
            )
            if flag is None or flag[0] is not None:
                return False  # rated meanwhile (another process): never twice
            seq = await conn.fetchval(NEXT_SEQ, m.guild_id)
            await conn.execute(
                "UPDATE results SET rated_seq = $1, facts = $2::jsonb WHERE table_id = $3",
                seq,
                R.dumps(facts.to_dict()),
                table_id,
            )
            current = await self._current(conn, m.guild_id, [s.player for s in seats])
            for r in RC.rate(current, seats, m.guild_id, m.finished_at):
                await conn.execute(UPSERT_RATING, *r.row())
                for tile, n in r.openings.items():
                    await conn.execute(ADD_OPENING, m.guild_id, r.player, tile, n)
            return True

        return await self._db.write(op, f"rating table {table_id}")

    @staticmethod
    async def _current(
        conn: Conn, guild_id: int, players: Sequence[str]
    ) -> dict[str, PlayerRecord]:
        rows = await conn.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings "
            "WHERE guild_id = $1 AND player = ANY($2::text[]) FOR UPDATE",
            guild_id,
            list(players),
        )
        return {str(r[1]): PlayerRecord.from_row(tuple(r)) for r in rows}

    async def rate_pending(self, limit: int = 1000) -> int:
        rows = await self._db.read(
            "SELECT table_id FROM results WHERE rated_seq IS NULL "
            "ORDER BY finished_at, table_id LIMIT $1",
            limit,
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
        """As on SQLite: read in one snapshot, replay in memory with no transaction open (a
        long one would hold locks and meet the idle-in-transaction timeout), then write in one
        short transaction unless a match was rated meanwhile (then again from the start)."""
        for _ in range(5):

            async def read(conn: Conn) -> tuple[Any, list[Any], list[Any]]:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    seq = await conn.fetchval(
                        "SELECT seq FROM rating_seqs WHERE guild_id = $1", guild_id
                    )
                    deps = await conn.fetch(
                        "SELECT d.table_id, d.seat, d.user_id, d.at, d.name FROM departures d "
                        "JOIN results r ON r.table_id = d.table_id WHERE r.guild_id = $1",
                        guild_id,
                    )
                    rows = await conn.fetch(
                        f"SELECT {MATCH_TEXT} FROM results "
                        "WHERE guild_id = $1 AND rated_seq IS NOT NULL ORDER BY rated_seq",
                        guild_id,
                    )
                return seq, [tuple(d) for d in deps], [tuple(r) for r in rows]

            seq, deps, rows = await self._db.run(read, transaction=False, what="reading results")
            records, openings = await asyncio.to_thread(RC.recomputed, rows, deps)

            if await self._write_recomputed(guild_id, seq, records, openings):
                return len(rows)
        raise StoreError(f"server {guild_id} kept rating matches; recompute again later")

    async def _write_recomputed(
        self,
        guild_id: int,
        seq: Any,
        records: dict[str, PlayerRecord],
        openings: dict[tuple[str, str], int],
    ) -> bool:
        """Write recomputed records unless the server's rating sequence moved past ``seq``."""

        async def op(conn: Conn) -> bool:
            now = await conn.fetchval(
                "SELECT seq FROM rating_seqs WHERE guild_id = $1 FOR UPDATE", guild_id
            )
            if now != seq:
                return False
            await conn.execute("DELETE FROM ratings WHERE guild_id = $1", guild_id)
            await conn.execute("DELETE FROM rating_openings WHERE guild_id = $1", guild_id)
            await conn.executemany(UPSERT_RATING, [r.row() for r in records.values()])
            await conn.executemany(
                ADD_OPENING, [(guild_id, p, t, n) for (p, t), n in openings.items()]
            )
            return True

        return await self._db.write(op, f"writing the recomputed ratings of server {guild_id}")

    # --- reading ----------------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats | None:
        async def op(conn: Conn) -> PlayerStats | None:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                found = await conn.fetchrow(
                    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND player = $2",
                    guild_id,
                    player,
                )
                if found is None:
                    return None
                record = PlayerRecord.from_row(tuple(found))
                fav = await conn.fetchval(
                    "SELECT tile FROM rating_openings WHERE guild_id = $1 AND player = $2 "
                    "ORDER BY times DESC, tile LIMIT 1",
                    guild_id,
                    player,
                )
                total = await conn.fetchval(
                    "SELECT count(*) FROM ratings WHERE guild_id = $1 AND matches >= $2",
                    guild_id,
                    MIN_MATCHES,
                )
                rank = None
                if record.matches >= MIN_MATCHES:
                    above = await conn.fetchval(
                        "SELECT count(*) FROM ratings WHERE guild_id = $1 AND matches >= $2 "
                        "AND (ordinal > $3 OR (ordinal = $3 AND player < $4))",
                        guild_id,
                        MIN_MATCHES,
                        record.ordinal,
                        record.player,
                    )
                    rank = int(above) + 1
            return PlayerStats(record, rank, int(total), None if fav is None else str(fav))

        return await self._db.run(op, transaction=False, what="reading a player's stats")

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, min_matches: int = MIN_MATCHES
    ) -> BoardPage:
        async def op(conn: Conn) -> BoardPage:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                rows = await conn.fetch(
                    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND matches >= $2 "
                    "ORDER BY ordinal DESC, player LIMIT $3 OFFSET $4",
                    guild_id,
                    min_matches,
                    limit,
                    offset,
                )
                total = await conn.fetchval(
                    "SELECT count(*) FROM ratings WHERE guild_id = $1 AND matches >= $2",
                    guild_id,
                    min_matches,
                )
            return BoardPage(
                tuple(PlayerRecord.from_row(tuple(r)) for r in rows), offset + 1, int(total)
            )

        return await self._db.run(op, transaction=False, what="reading the leaderboard")

    async def history(
        self, guild_id: int, user_id: int | None, limit: int, before: float | None = None
    ) -> list[HistoryEntry]:
        params: list[Any] = [guild_id, before if before is not None else float("inf")]
        sql = HISTORY
        if user_id is not None:
            sql += PLAYED_BY
            params.append(user_id)
        sql += f"ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ${len(params) + 1}"
        params.append(limit)
        return [entry(tuple(r)) for r in await self._db.read(sql, *params)]

    async def all_records(self, guild_id: int) -> list[PlayerRecord]:
        rows = await self._db.read(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 ORDER BY player",
            guild_id,
        )
        return [PlayerRecord.from_row(tuple(r)) for r in rows]

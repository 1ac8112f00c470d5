"""Records on the PostgreSQL store: the two transactions :class:`data.records.StoreRecords`
leaves to each store.

A match is rated in one transaction: it locks the match's result row (``FOR UPDATE``: a second
process rating the same match waits, then finds it rated and changes nothing) and then the
server's rating sequence row (an upsert, which serialises the ratings of one server across every
process until the commit), reads its players' rows, and writes them with the match's
``rated_seq``. Recomputing reads in one snapshot with no transaction open (a long one would hold
locks and meet the idle-in-transaction timeout), then writes in one short transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from data import records_sql as RC
from data import rows as R
from data.pg_db import Database
from data.records import StoreRecords, TableLog
from data.sql import numbered
from rating import MatchFacts, PlayerRecord, RatedSeat, StoredMatch, rate

if TYPE_CHECKING:
    from data.pgmigrate import Conn

NEXT_SEQ, SET_RATED, SEQ = numbered(RC.NEXT_SEQ), numbered(RC.SET_RATED), numbered(RC.SEQ)
UPSERT_RATING, ADD_OPENING = numbered(RC.UPSERT_RATING), numbered(RC.ADD_OPENING)
DELETE_RATINGS, DELETE_OPENINGS = numbered(RC.DELETE_RATINGS), numbered(RC.DELETE_OPENINGS)


class PgRecords(StoreRecords):
    """:class:`data.store.Records` on a PostgreSQL database (its store's own pool, with its
    retries and timeouts)."""

    def __init__(self, db: Database, tables: TableLog) -> None:
        super().__init__(db, tables)
        self._db = db

    async def _commit_rating(
        self, m: StoredMatch, facts: MatchFacts, seats: list[RatedSeat]
    ) -> bool:
        async def op(conn: Conn) -> bool:
            flag = await conn.fetchrow(
                "SELECT rated_seq FROM results WHERE table_id = $1 FOR UPDATE", m.table_id
            )
            if flag is None or flag[0] is not None:
                return False  # rated meanwhile (another process): never twice
            seq = await conn.fetchval(NEXT_SEQ, m.guild_id)
            await conn.execute(SET_RATED, seq, R.dumps(facts.to_dict()), m.table_id)
            current = await _current(conn, m.guild_id, [s.player for s in seats])
            for r in rate(current, seats, m.guild_id, m.finished_at):
                await conn.execute(UPSERT_RATING, *RC.rating_row(r))
                for tile, n in r.openings.items():
                    await conn.execute(ADD_OPENING, m.guild_id, r.player, tile, n)
            return True

        return await self._db.write(op, f"rating table {m.table_id}")

    async def _write_recomputed(
        self,
        guild_id: int,
        seq: int | None,
        records: Mapping[str, PlayerRecord],
        openings: Mapping[tuple[str, str], int],
    ) -> bool:
        async def op(conn: Conn) -> bool:
            now = await conn.fetchval(f"{SEQ} FOR UPDATE", guild_id)
            if now != seq:
                return False
            await conn.execute(DELETE_RATINGS, guild_id)
            await conn.execute(DELETE_OPENINGS, guild_id)
            await conn.executemany(UPSERT_RATING, [RC.rating_row(r) for r in records.values()])
            await conn.executemany(
                ADD_OPENING, [(guild_id, p, t, n) for (p, t), n in openings.items()]
            )
            return True

        return await self._db.write(op, f"writing the recomputed ratings of server {guild_id}")


async def _current(conn: Conn, guild_id: int, players: Sequence[str]) -> dict[str, PlayerRecord]:
    """The current records of ``players``, locked until the commit."""
    rows = await conn.fetch(
        f"SELECT {RC.RATING_COLUMNS} FROM ratings "
        "WHERE guild_id = $1 AND player = ANY($2::text[]) FOR UPDATE",
        guild_id,
        list(players),
    )
    return {str(r[1]): RC.player_record(tuple(r)) for r in rows}

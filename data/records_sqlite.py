"""Records on the SQLite store: the two transactions :class:`data.records.StoreRecords` leaves
to each store.

A match is rated in one ``BEGIN IMMEDIATE`` transaction of the store's writer: SQLite's write lock
serialises every rating of the file, so two processes rating the same match (or two matches of the
same players) cannot interleave; the first to set the match's ``rated_seq`` wins, the other finds
it set and changes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from data import records_sql as RC
from data import rows as R
from data.records import StoreRecords, TableLog
from data.sqlite_db import Database
from rating import MatchFacts, PlayerRecord, RatedSeat, StoredMatch, rate


class SqliteRecords(StoreRecords):
    """:class:`data.store.Records` on a SQLite file (its store's own connections)."""

    def __init__(self, db: Database, tables: TableLog) -> None:
        super().__init__(db, tables)
        self._db = db

    async def _commit_rating(
        self, m: StoredMatch, facts: MatchFacts, seats: list[RatedSeat]
    ) -> bool:
        def op(conn: sqlite3.Connection) -> bool:
            flag = conn.execute(
                "SELECT rated_seq FROM results WHERE table_id = ?", (m.table_id,)
            ).fetchone()
            if flag is None or flag[0] is not None:
                return False  # rated meanwhile (another process): never twice
            seq = conn.execute(RC.NEXT_SEQ, (m.guild_id,)).fetchone()[0]
            conn.execute(RC.SET_RATED, (seq, R.dumps(facts.to_dict()), m.table_id))
            current = _current(conn, m.guild_id, [s.player for s in seats])
            for r in rate(current, seats, m.guild_id, m.finished_at):
                conn.execute(RC.UPSERT_RATING, RC.rating_row(r))
                for tile, n in r.openings.items():
                    conn.execute(RC.ADD_OPENING, (m.guild_id, r.player, tile, n))
            return True

        return await self._db.write(op)

    async def _write_recomputed(
        self,
        guild_id: int,
        seq: int | None,
        records: Mapping[str, PlayerRecord],
        openings: Mapping[tuple[str, str], int],
    ) -> bool:
        def op(conn: sqlite3.Connection) -> bool:
            now = conn.execute(RC.SEQ, (guild_id,)).fetchone()
            if (int(now[0]) if now else None) != seq:
                return False
            conn.execute(RC.DELETE_RATINGS, (guild_id,))
            conn.execute(RC.DELETE_OPENINGS, (guild_id,))
            conn.executemany(RC.UPSERT_RATING, [RC.rating_row(r) for r in records.values()])
            conn.executemany(
                RC.ADD_OPENING, [(guild_id, p, t, n) for (p, t), n in openings.items()]
            )
            return True

        return await self._db.write(op)


def _current(
    conn: sqlite3.Connection, guild_id: int, players: Sequence[str]
) -> dict[str, PlayerRecord]:
    """The current records of ``players`` (under the write lock)."""
    if not players:
        return {}
    marks = ", ".join("?" * len(players))
    rows = conn.execute(
        f"SELECT {RC.RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND player IN ({marks})",
        (guild_id, *players),
    ).fetchall()
    return {str(r[1]): RC.player_record(r) for r in rows}

"""Keeping the records of played matches (:class:`data.store.Records`): one implementation for
both stores, over the SQL both dialects share (:class:`data.sql.Sql`).

The rating itself is :mod:`rating`'s (pure: the match's facts, who is placed where, openskill);
this module reads a match's result row and log, asks :mod:`rating`, and writes what it answers:

- :meth:`StoreRecords.rate_match`: a match is rated in one transaction that gives its result row
  the server's next rating sequence number (the rated-once flag) and writes its players' rows,
  so a crash or two processes never rate it twice. That transaction is the one part each store
  writes its own way (:meth:`StoreRecords._commit_rating`: SQLite's write lock, PostgreSQL's row
  locks), as is the write of a recomputed server (:meth:`StoreRecords._write_recomputed`).
- :meth:`StoreRecords.rate_pending` rates every match with a result not rated yet, in the order
  they ended; :meth:`StoreRecords.recompute` rebuilds a server's ratings from its results.
- The reads (stats, leaderboard, history) are the same SQL on both.

The names the records answer with (:class:`PlayerRecord`, :func:`person_key`...) are importable
from here too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from data import records_sql as S
from data.errors import CorruptRecord, NotFound, StoreError
from data.model import BoardPage, HistoryEntry, LoggedAction, PlayerStats, Table
from data.sql import Sql
from data.store import Records, Store
from rating import (
    MIN_MATCHES,
    MODEL,
    Departure,
    MatchFacts,
    PlayerRecord,
    RatedSeat,
    SeatFacts,
    StoredMatch,
    computer_key,
    level_of,
    match_facts,
    person_key,
    rate,
    rated_seats,
    user_of,
)

log = logging.getLogger(__name__)


class TableLog(Protocol):
    """What rating a match reads of its table (:class:`data.store.Tables` has it)."""

    async def get_table(self, table_id: int) -> Table: ...

    async def action_log(self, table_id: int) -> list[LoggedAction]: ...


async def facts_of(tables: TableLog, m: StoredMatch) -> MatchFacts:
    """What a match's public log says (the mayhem, the openings), replayed off the event
    loop; from its totals alone if its record or log cannot be read or replayed (logged)."""
    if m.facts is not None:
        return m.facts
    try:
        table = await tables.get_table(m.table_id)
        log_rows = await tables.action_log(m.table_id)
        if table.initial_state is None:
            raise ValueError("no dealt state")
        people = [i for i, s in enumerate(m.seats) if s.ai is None and s.user_id is not None]
        return await asyncio.to_thread(match_facts, table.initial_state, log_rows, m.totals, people)
    except (CorruptRecord, NotFound, ValueError, KeyError) as e:
        log.warning("table %s: rated from its totals only: %s", m.table_id, e)
    except Exception as e:  # the engine refused the log
        log.warning("table %s: its log does not replay (%s); rated from totals", m.table_id, e)
    return m.fallback_facts()


class StoreRecords:
    """:class:`data.store.Records` on a database (see the module): everything but the two
    transactions each store writes its own way."""

    def __init__(self, sql: Sql, tables: TableLog) -> None:
        self._sql = sql
        self._tables = tables

    # --- rating -------------------------------------------------------------------------------

    async def _match(self, table_id: int) -> tuple[StoredMatch, bool] | None:
        rows = await self._sql.fetch(S.MATCH, (table_id,))
        if not rows:
            return None
        row = tuple(rows[0])
        deps = await self._sql.fetch(S.DEPARTURES, (table_id,))
        return S.stored_match(row[:7], [S.departure(tuple(d)) for d in deps]), bool(row[7])

    async def rate_match(self, table_id: int) -> bool:
        found = await self._match(table_id)
        if found is None or found[1]:
            return False
        m, _ = found
        facts = await facts_of(self._tables, m)
        return await self._commit_rating(m, facts, m.rated_seats(facts))

    async def _commit_rating(
        self, m: StoredMatch, facts: MatchFacts, seats: list[RatedSeat]
    ) -> bool:
        """In one transaction: unless the match is rated meanwhile (False), give it the
        server's next rating sequence number and its ``facts`` (``records_sql.NEXT_SEQ``,
        ``SET_RATED``), read its players' current records, :func:`rating.rate` them and write
        what it returns (``UPSERT_RATING``, ``ADD_OPENING``)."""
        raise NotImplementedError

    async def rate_pending(self, limit: int = 1000) -> int:
        rated = 0
        for (table_id,) in await self._sql.fetch(S.UNRATED, (limit,)):
            rated += int(await self.rate_match(int(table_id)))
        return rated

    async def recompute(self, guild_id: int | None = None) -> int:
        if guild_id is not None:
            guilds = [guild_id]
        else:
            guilds = [int(g) for (g,) in await self._sql.fetch(S.RATED_GUILDS)]
        applied = 0
        for gid in guilds:
            applied += await self._recompute_guild(gid)
        return applied

    async def _recompute_guild(self, guild_id: int) -> int:
        """Read the server's results in one snapshot, replay the ratings in memory (off the
        event loop, with no lock held and no transaction open), then write them in one short
        transaction, unless a match was rated meanwhile (its sequence number moved on): then
        again from the start."""
        for _ in range(5):
            seq_rows, dep_rows, rows = await self._sql.snapshot(
                [
                    (S.SEQ, (guild_id,)),
                    (S.GUILD_DEPARTURES, (guild_id,)),
                    (S.RATED_MATCHES, (guild_id,)),
                ]
            )
            seq = int(seq_rows[0][0]) if seq_rows else None
            records, openings = await asyncio.to_thread(
                S.recomputed, [tuple(r) for r in rows], [tuple(d) for d in dep_rows]
            )
            if await self._write_recomputed(guild_id, seq, records, openings):
                return len(rows)
        raise StoreError(f"server {guild_id} kept rating matches; recompute again later")

    async def _write_recomputed(
        self,
        guild_id: int,
        seq: int | None,
        records: Mapping[str, PlayerRecord],
        openings: Mapping[tuple[str, str], int],
    ) -> bool:
        """In one transaction, unless the server's ``SEQ`` moved past ``seq`` (False):
        delete its ratings and openings and write ``records`` and ``openings``."""
        raise NotImplementedError

    # --- reading ------------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats | None:
        found, fav, total, above = await self._sql.snapshot(
            [
                (S.PLAYER, (guild_id, player)),
                (S.FAVOURITE, (guild_id, player)),
                (S.RANKED, (guild_id, MIN_MATCHES)),
                (S.ABOVE, (guild_id, player, MIN_MATCHES)),
            ]
        )
        if not found:
            return None
        record = S.player_record(tuple(found[0]))
        rank = int(above[0][0]) + 1 if record.matches >= MIN_MATCHES else None
        return PlayerStats(record, rank, int(total[0][0]), str(fav[0][0]) if fav else None)

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, min_matches: int = MIN_MATCHES
    ) -> BoardPage:
        rows, total = await self._sql.snapshot(
            [
                (S.BOARD, (guild_id, min_matches, limit, offset)),
                (S.RANKED, (guild_id, min_matches)),
            ]
        )
        return BoardPage(
            tuple(S.player_record(tuple(r)) for r in rows), offset + 1, int(total[0][0])
        )

    async def history(
        self, guild_id: int, user_id: int | None, limit: int, before: float | None = None
    ) -> list[HistoryEntry]:
        params: list[Any] = [guild_id, before if before is not None else float("inf")]
        sql = S.HISTORY
        if user_id is not None:
            sql += S.PLAYED_BY
            params += [user_id, user_id]
        sql += "ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?"
        params.append(limit)
        return [S.history_entry(tuple(r)) for r in await self._sql.fetch(sql, params)]

    async def all_records(self, guild_id: int) -> list[PlayerRecord]:
        return [
            S.player_record(tuple(r)) for r in await self._sql.fetch(S.ALL_RECORDS, (guild_id,))
        ]


def records_for(store: Store) -> Records:
    """The records of a store (SQLite or PostgreSQL): ``store.records()``."""
    return store.records()


__all__ = [
    "MIN_MATCHES",
    "MODEL",
    "BoardPage",
    "Departure",
    "HistoryEntry",
    "MatchFacts",
    "PlayerRecord",
    "PlayerStats",
    "RatedSeat",
    "Records",
    "SeatFacts",
    "StoreRecords",
    "computer_key",
    "level_of",
    "match_facts",
    "person_key",
    "rate",
    "rated_seats",
    "records_for",
    "user_of",
]

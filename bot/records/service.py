"""The records service: what ``/fp stats``, ``/fp leaderboard``, ``/fp history`` and replays ask
of the store and the engine, answered as typed results (no Discord, no English).

A replay or an export that cannot be given is refused as the table service refuses, with a
:class:`~bot.errors.Why` (worded by :mod:`bot.show.words`): no such match (``NO_MATCH``), a
match not over (``MATCH_UNFINISHED``), a match of another server (``MATCH_ELSEWHERE``), an export
asked by someone who did not play in it (``EXPORT_PLAYERS_ONLY``: the file holds every dealt
hand).

Ratings are brought up to date before they are read (:meth:`RecordsService.catch_up`: the
matches with a result not rated yet, oldest first, a few at most; nothing to do costs one probe
of a small index), so what a player reads includes the match that just ended, whichever process
recorded it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from bot.errors import NotAllowed, TableError, Why
from bot.records.analysis import ANALYSE_WITHIN_S
from bot.records.replay import MatchReplay, ReplayStep
from bot.records.results import PAGE_SIZE, MatchExport, ReplayShown, TurningShown
from bot.records.turning import any_for, turning_points
from data.records import (
    BoardPage,
    HistoryEntry,
    PlayerStats,
    Records,
    records_for,
)
from data.store import CorruptRecord, NotFound, Store, Table

log = logging.getLogger(__name__)

HISTORY_SIZE: Final = 5
"""Matches per history message (one replay button each)."""
REPLAYS_KEPT: Final = 16
"""Replays kept built in this process (a person stepping through one clicks many times)."""
READ_CATCH_UP: Final = 20
"""Matches a read rates first at most (the ones that just ended); a backlog, after an upgrade
say, is left to the background catch-up so that no answer waits for it."""
SUMMARY_FRAMES: Final = 14
"""Moments at most in an animated summary."""


class RecordsService:
    """Stats, leaderboard, history and replays of one store (see the module)."""

    def __init__(
        self,
        store: Store,
        records: Records | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.records = records if records is not None else records_for(store)
        self.clock = clock
        self._replays: OrderedDict[int, tuple[Table, MatchReplay]] = OrderedDict()
        self._building: dict[int, asyncio.Task[tuple[Table, MatchReplay]]] = {}

    async def catch_up(self, limit: int | None = None) -> int:
        """Rate the matches with a result not rated yet (at most ``limit``; None: all), oldest
        first; how many were."""
        total = 0
        while (limit is None or total < limit) and (
            rated := await self.records.rate_pending(200 if limit is None else limit - total)
        ):
            total += rated
        if total:
            log.info("rated %s finished matches", total)
        return total

    async def stats(self, guild_id: int, player: str) -> PlayerStats | None:
        await self.catch_up(READ_CATCH_UP)
        return await self.records.player_stats(guild_id, player)

    async def leaderboard(self, guild_id: int, page: int) -> BoardPage:
        await self.catch_up(READ_CATCH_UP)
        page = max(0, page)
        board = await self.records.leaderboard(guild_id, page * PAGE_SIZE, PAGE_SIZE)
        if not board.entries and page > 0 and board.total:
            last = (board.total - 1) // PAGE_SIZE
            board = await self.records.leaderboard(guild_id, last * PAGE_SIZE, PAGE_SIZE)
        return board

    async def history(self, guild_id: int, user_id: int | None) -> list[HistoryEntry]:
        return await self.records.history(guild_id, user_id, HISTORY_SIZE)

    # --- replays --------------------------------------------------------------------------------

    async def table_numbered(self, guild_id: int, number: int) -> int:
        """The id of the server's match numbered ``number`` (``table #12``: 12), as players
        name it; refused (``Why.NO_MATCH``) when the server has no such table."""
        table_id = await self.store.table_numbered(guild_id, number)
        if table_id is None:
            raise TableError(Why.NO_MATCH)
        return table_id

    async def _replay(self, guild_id: int, table_id: int) -> tuple[Table, MatchReplay]:
        kept = self._replays.get(table_id)
        if kept is None:
            task = self._building.get(table_id)
            if task is None:
                task = asyncio.ensure_future(self._build(table_id))
                self._building[table_id] = task
                task.add_done_callback(lambda _: self._building.pop(table_id, None))
            kept = await asyncio.shield(task)
            self._replays[table_id] = kept
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        self._replays.move_to_end(table_id)
        table = kept[0]
        if table.guild_id != guild_id:
            raise TableError(Why.MATCH_ELSEWHERE, table_id=table_id)
        return kept

    async def _build(self, table_id: int) -> tuple[Table, MatchReplay]:
        try:
            table = await self.store.get_table(table_id)
        except NotFound:
            raise TableError(Why.NO_MATCH, table_id=table_id) from None
        if table.status not in ("finished", "aborted") or table.initial_state is None:
            raise TableError(Why.MATCH_UNFINISHED, table_id=table_id)
        log_rows = await self.store.action_log(table_id)
        if not log_rows:  # aborted before its first move: nothing was played
            raise TableError(Why.MATCH_UNFINISHED, table_id=table_id)
        replay = await asyncio.to_thread(MatchReplay, table.initial_state, log_rows, table.seats)
        return table, replay

    async def step(self, guild_id: int, table_id: int, index: int) -> ReplayShown:
        """Step ``index`` of a played match of this server (clamped to the replay)."""
        table, replay = await self._replay(guild_id, table_id)
        return ReplayShown(table, await asyncio.to_thread(replay.step, index))

    async def moments(self, guild_id: int, table_id: int) -> list[ReplayShown]:
        """The steps an animated summary shows (see :meth:`MatchReplay.moments`)."""
        table, replay = await self._replay(guild_id, table_id)

        def build() -> list[ReplayStep]:
            return [replay.step(i) for i in replay.moments(SUMMARY_FRAMES)]

        return [ReplayShown(table, s) for s in await asyncio.to_thread(build)]

    async def turning_points(self, guild_id: int, table_id: int, user_id: int) -> TurningShown:
        """The turning points of a played match of this server that ``user_id`` may see (their
        own moves, the computers'), as worked out in the background after it ended
        (:mod:`bot.records.analysis`); never worked out here. A match whose analysis is not
        kept yet is ``working`` while it is recent enough to be analysed, ``unavailable``
        after that, and so is one whose analysis failed or does not read."""
        table, replay = await self._replay(guild_id, table_id)
        if not any_for(table, user_id):
            return TurningShown(table, "players_only")
        now = self.clock()
        try:
            analysis = await self.store.analyses().analysis(table_id, now)
        except CorruptRecord as e:
            log.warning("table %s: %s", table_id, e.problem)
            return TurningShown(table, "unavailable")
        if analysis is None:
            recent = table.updated_at >= now - ANALYSE_WITHIN_S
            return TurningShown(table, "working" if recent else "unavailable")
        if analysis.state != "done":
            return TurningShown(table, "unavailable" if analysis.state == "failed" else "working")
        return await asyncio.to_thread(turning_points, table, replay, analysis.reviews, user_id)

    async def export(self, guild_id: int, table_id: int, user_id: int) -> MatchExport:
        """The match in the engine's scenario format (see :meth:`MatchReplay.scenario`), with
        its table number, for one of its players only: the file holds every hand as dealt."""
        table, replay = await self._replay(guild_id, table_id)
        played = {s.user_id for s in table.seats} | set(table.departed.values())
        if user_id not in played:
            raise NotAllowed(Why.EXPORT_PLAYERS_ONLY, table_id=table_id)
        return MatchExport(table.number, replay.scenario())

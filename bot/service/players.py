"""Computer players (and the computer that plays for a player who is away), the fire die, the
timers (reminders, absent players, next rounds, the end of a pause), and what a restart picks up
again (moves never shown, computer decisions interrupted)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Final

from bot.errors import (
    TableError,
)
from bot.service.breaks import Breaks
from bot.service.core import AiPlayer
from bot.service.outcomes import TimerOutcome
from bot.service.results import (
    Board,
    LobbyExpired,
    Reminder,
    Step,
)
from bot.service.undo import Undoing
from data.store import (
    NotFound,
    Table,
    VersionConflict,
)
from engine import Action, EngineError, Fall, Game, NextRound, Play, View, view
from engine.ai import choose
from engine.model import Die

log = logging.getLogger(__name__)

THINKING_AT_ONCE: Final = 1
"""Computer players' searches one bot process runs at once; the others wait their turn. A
search is pure Python: two at once share one core through the interpreter's lock, so each
searches half as far in its time (the expert's is a clock), and the event loop, which answers
every click, waits behind all of them (``python bench/thinking.py``)."""


@dataclass(frozen=True)
class Thought:
    """A computer player's decision at a table as it stood (:meth:`Players.think`)."""

    version: int
    """The table's version it was made at: it is played only if the table is still there."""
    seat: int
    """Whose decision it is (a computer seat, or a person's who is away)."""
    level: str
    """The level that decided (the seat's own, or the server's stand-in)."""
    action: Action


def first_legal(v: View) -> Action:
    """The first legal action for the decision ``v.player`` owns (the fallback computer player)."""
    p = v.pending
    assert p is not None
    if p.kind == "play":
        assert v.hand
        return Play(v.hand[0], p.spots[0])
    if p.kind == "fall":
        return Fall("left")
    return Die(None)


def default_ai(*, time_budget_s: float | None = None, node_limit: int | None = None) -> AiPlayer:
    """The engine's computer players (:func:`engine.ai.choose`), with the bot's search bounds
    (None: each level's own budget, as the arena measures it: within about a second)."""

    def play(level: str, v: View, seed: int) -> Action:
        return choose(level, v, seed, time_budget_s=time_budget_s, node_limit=node_limit)

    return play


class Players(Undoing, Breaks):
    """Decisions the game makes itself, and what happens when time runs out."""

    thinking: asyncio.Semaphore
    """The computer players' searches running now (at most :data:`THINKING_AT_ONCE`)."""

    def _ai_owner(self, table: Table, game: Game) -> int | None:
        """The seat whose decision a computer makes now: a computer player's, or a person's
        who is away (None: a person must decide, or nothing)."""
        p = game.pending
        if p is None or p.kind == "die":
            return None
        if table.seats[p.player].ai is not None or p.player in self._away_seats(table):
            return p.player
        return None

    async def needs_advance(self, table_id: int) -> bool:
        """Whether the game waits for a computer player or the fire die."""
        try:
            table, game = await self._get_game(table_id)
        except TableError:
            return False
        p = game.pending
        return p is not None and (p.kind == "die" or self._ai_owner(table, game) is not None)

    async def think(self, table_id: int) -> Thought | None:
        """The decision a computer player makes now at the table as it stands, if one is
        theirs (a computer seat's, or a person's who is away); None otherwise (a person or the
        fire die decides, or nothing). Nothing is written, so no lock is needed: the search
        (up to a second for the expert) runs while the table takes clicks, and
        :meth:`advance` plays the decision if the table is still where it was."""
        try:
            table, game = await self._get_game(table_id)
        except TableError:
            return None
        seat = self._ai_owner(table, game)
        if seat is None:
            return None
        level = table.seats[seat].ai or await self.stand_in(table.guild_id)
        action = await self._choose(table, game, seat, level)
        return Thought(table.version, seat, level, action)

    async def advance(self, table_id: int, thought: Thought | None = None) -> Step | None:
        """Make the next decision if a computer player (or the fire die) owns it; None if a
        person must decide, the round is over, or somebody else made it first. ``thought``
        (from :meth:`think`) is played if the table has not changed since; else the computer
        thinks again now."""
        try:
            table, game = await self._get_game(table_id)
        except TableError:
            return None
        p = game.pending
        if p is None:
            return None
        if p.kind == "die":
            table, game = await self._get_game(table_id)
            if game.pending is None or game.pending.kind != "die":
                return None
            return await self._commit(table, game, None, None, Die(None))
        seat = self._ai_owner(table, game)
        if seat is None:
            return None
        if thought is None or (thought.version, thought.seat) != (table.version, seat):
            own = table.seats[seat].ai
            level = own or await self.stand_in(table.guild_id)
            thought = Thought(
                table.version, seat, level, await self._choose(table, game, seat, level)
            )
            table, game = await self._get_game(table_id)
            if table.version != thought.version or self._ai_owner(table, game) != seat:
                return None  # moved on (another process), or the person who was away is back
        away = table.seats[seat].ai is None
        if away:
            log.info("table %s: seat %s is away; a computer player decided", table_id, seat)
        return await self._commit_ai(
            table, game, seat, thought.action, timed_out=False, away=away, level=thought.level
        )

    async def _choose(self, table: Table, game: Game, seat: int, level: str) -> Action:
        seed = (table.id * 1_000_003 + table.version) & 0x7FFFFFFF
        v = view(game, seat)
        try:
            async with self.thinking:
                return await asyncio.to_thread(self.ai, level, v, seed)
        except Exception:
            log.exception(
                "table %s: computer player failed; playing the first legal action", table.id
            )
            return first_legal(v)

    async def _commit_ai(
        self,
        table: Table,
        game: Game,
        seat: int,
        action: Action,
        *,
        timed_out: bool,
        away: bool = False,
        level: str,
    ) -> Step:
        try:
            game.check(action, seat)
        except EngineError:
            log.error("table %s: a computer player chose an illegal action", table.id)
            log.debug("table %s: the illegal action was %r", table.id, action)
            action = game.legal_actions()[0]
        return await self._commit(
            table,
            game,
            seat,
            None,
            action,
            timed_out=timed_out,
            away=away,
            stand_in=level if timed_out or away else None,
        )

    async def due_tables(self) -> list[int]:
        """Ids of the tables with a timer due now."""
        return [t.id for t in await self.store.due_timers(self.clock())]

    async def claim_due(self, owner: str, lease_s: float, limit: int) -> list[int]:
        """Ids of at most ``limit`` tables with a timer due now that no other bot process is
        handling, claimed for this one (``owner``) for ``lease_s`` seconds: handle each with
        :meth:`run_timers`, then :meth:`release_due` it."""
        now = self.clock()
        return [t.id for t in await self.store.claim_timers(now, owner, lease_s, limit)]

    async def release_due(self, table_id: int, owner: str) -> None:
        """The table's due timers are handled: end ``owner``'s claim on it."""
        await self.store.release_timers(table_id, owner)

    async def run_timers(self, table_id: int) -> list[TimerOutcome]:
        """Handle one table's due timers: a reminder, a computer turn for an absent player, the
        next round after a pause, a decision a crash left unmade, or a lobby nobody started
        closed. Returns what to show."""
        try:
            table = await self._get_open(table_id)
            if table.status == "lobby":
                expired = await self._expire_lobby(table)
                return [expired] if expired is not None else []
            return await self._due(table_id, self.clock())
        except TableError:
            log.debug("table %s: timer skipped (the table moved on)", table_id)
            return []

    async def tick(self) -> list[TimerOutcome]:
        """Handle every timer that is due now (see :meth:`run_timers`)."""
        out: list[TimerOutcome] = []
        for table_id in await self.due_tables():
            try:
                out.extend(await self.run_timers(table_id))
            except Exception:
                log.exception("table %s: timer failed", table_id)
        return out

    async def _time_out(self, table: Table, game: Game, seat: int) -> list[TimerOutcome]:
        """A computer decides for ``seat``, whose time ran out: the decision the table waits
        for, and the fall choices of that same turn."""
        out: list[TimerOutcome] = []
        level = await self.stand_in(table.guild_id)
        for _ in range(20):
            action = await self._choose(table, game, seat, level)
            fresh, game = await self._get_game(table.id)
            pend = game.pending
            if fresh.version != table.version or pend is None or pend.player != seat:
                break
            step = await self._commit_ai(fresh, game, seat, action, timed_out=True, level=level)
            log.info(
                "table %s: seat %s timed out; a computer player (%s) decided", table.id, seat, level
            )
            out.append(step)
            # The computer finishes that one turn: the absent player's fall choices too,
            # also those that follow the fire die (the step's board is after the roll).
            nxt = step.board.prompt
            if nxt.kind != "fall" or nxt.seat != seat:
                break
            table, game = await self._get_game(table.id)
        if out:  # one more turn in a row the clock played for them: perhaps away now
            went = await self._timed_out(table, seat)
            if went is not None:
                out.append(went)
        return out

    async def _expire_lobby(self, table: Table) -> LobbyExpired | None:
        """Close a lobby whose deadline passed without a start (None if it changed meanwhile:
        started, cancelled, or closed by another process)."""
        if table.status != "lobby" or table.deadline is None or table.deadline > self.clock():
            return None
        try:
            closed = await self.store.end_table(table.id, table.version, "cancelled", self.clock())
        except (VersionConflict, NotFound):
            return None
        log.info("table %s: the lobby expired (nobody started it)", table.id)
        return LobbyExpired(self.board(closed))

    async def _due(self, table_id: int, now: float) -> list[TimerOutcome]:
        out: list[TimerOutcome] = []
        table, game = await self._get_game(table_id)
        held = table.held
        if held is not None and table.deadline is not None and table.deadline <= now:
            # The undo window ended (or the turn's own time, with a fall of it still to
            # choose): the turn is handed on; such a fall is then the clock's to decide.
            out.append(await self._commit(table, game, held.seat, None, None))
            if held.until is not None:
                return out
            table, game = await self._get_game(table_id)
            p = game.pending
            if p is None or p.kind != "fall" or p.player != held.seat:
                return out
            return out + await self._time_out(table, game, held.seat)
        p = game.pending
        pause = self._paused(table)
        if pause is not None and pause.until <= now:
            resumed = await self._resume(table, game, None)
            return [resumed] if resumed is not None else []
        if table.deadline is not None and table.deadline <= now:
            if pause is not None and p is not None and self._ai_owner(table, game) is None:
                # A person's clock does not run while the game is paused (an Undo may have put
                # back a deadline from before the pause): it waits for the pause's end.
                try:
                    await self.store.set_pause(
                        table.id,
                        table.version,
                        pause,
                        pause.until,
                        None,
                        expected_timers=(table.deadline, table.reminder_at),
                    )
                except (VersionConflict, NotFound):
                    log.debug("table %s: changed meanwhile", table.id)
                return out
            if p is None:
                if not game.match_over:
                    table, game = await self._get_game(table_id)
                    if game.pending is None and not game.match_over:
                        out.append(await self._commit(table, game, None, None, NextRound()))
                return out
            if p.kind == "die" or self._ai_owner(table, game) is not None:
                step = await self.advance(table_id)
                if step is not None:
                    out.append(step)
                return out
            return out + await self._time_out(table, game, p.player)
        if table.reminder_at is not None and table.reminder_at <= now and p is not None:
            fresh = await self._get_open(table_id)
            if fresh.version != table.version or fresh.reminder_at is None:
                return out
            try:
                await self.store.set_timers(
                    table.id,
                    table.version,
                    table.deadline,
                    None,
                    expected_timers=(table.deadline, table.reminder_at),
                )
            except VersionConflict:
                return out  # another process sent it
            seat_obj = table.seats[p.player]
            away = p.player in self._away_seats(table)  # (nobody is reminded while away)
            if seat_obj.ai is None and seat_obj.user_id is not None and not away:
                prefs = await self.store.get_prefs(seat_obj.user_id)
                dm = (
                    prefs.hand_mode == "dm"
                    and prefs.dm_on_turn
                    and not await self.dms_closed(seat_obj.user_id)
                )
                out.append(
                    Reminder(
                        self.board(table, game),
                        seat_obj.user_id,
                        p.player,
                        dm=dm,
                        quiet=dm and not prefs.reminders,
                        language=self.languages.of_player(prefs),
                    )
                )
        return out

    async def unshown(self, before: float) -> list[Board]:
        """Games whose latest move was committed but never shown (the bot stopped in between),
        waiting for a person: to post their picture again after a restart. Only moves made
        before ``before`` (when this process started) count: a move made since is being shown
        by whoever made it."""
        out: list[Board] = []
        for table in await self.store.open_tables():
            if table.status != "playing" or table.shown_version == table.version:
                continue
            if table.held is not None:
                continue  # nothing of it is shown until it is handed on (by its timer)
            if table.updated_at >= before:
                continue
            try:
                board = await self._told(await self._effective(table))
            except Exception:
                log.exception("table %s: cannot be shown", table.id)
                continue
            if board.prompt.user_id is not None or board.prompt.kind == "next_round":
                out.append(board)
        return out

    async def open_tables(self) -> list[Table]:
        """Every open table (to finish computer decisions a restart interrupted)."""
        return await self.store.open_tables()

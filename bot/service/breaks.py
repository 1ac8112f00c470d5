"""Breaks that do not stall a table: a player away in a server, and a running game paused.

- **Away** (``/fp away``, per server and player, kept in the store across every table and
  process): a computer makes each of the player's decisions at once, at every table of theirs in
  that server, without a reminder or a direct message; ``/fp away off:True``, the "I'm back"
  button or any decision of their own brings them back (:meth:`Writing._own_decision`). A
  player whose clock ran out on several decisions in a row (the server's ``away_after``) is set
  away by the timer loop (:meth:`Breaks._timed_out`).
- **Pause** (``/fp pause``, by the host or someone who can manage the channel): no clock of the
  table runs and no reminder goes out until ``/fp resume`` or the pause's end. The pause keeps the
  time the pending decision had left; its end is the table's deadline while it lasts, so the timer
  loop of any process resumes it (:meth:`Breaks._resume`), and the decision then gets the time it
  had left: every deadline moves on by the time paused. A decision made during the pause gets its
  whole time once the pause is over, its clock never having run.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot import names
from bot.errors import BadRequest, NotAllowed, Stale, TableError, Why
from bot.service.core import AWAY_MAX_S, DM_RETRY_S, MAX_REASON, PAUSE_MAX_S, _clean_name
from bot.service.outcomes import AwayChange, Paused, Resumed, WentAway
from bot.service.results import Board
from bot.service.writing import Writing
from data.store import NotFound, Pause, Table, VersionConflict
from engine import Game

log = logging.getLogger(__name__)

MIN_AWAY_S = 3600
"""The shortest away (the command asks for days; this is only the service's bound)."""
MIN_PAUSE_S = 60
"""The shortest pause."""


def clean_reason(reason: str) -> str:
    """A pause's reason to keep: on one line, without control or direction characters, at most
    :data:`MAX_REASON` characters."""
    return " ".join(names.clean(" ".join(reason.split())).split())[:MAX_REASON]


class Breaks(Writing):
    """Away players and paused games (see the module)."""

    # --- away -----------------------------------------------------------------------------------

    async def go_away(self, guild_id: int, user_id: int, seconds: int) -> AwayChange:
        """``/fp away``: the player is away in the server for ``seconds`` (at most
        :data:`AWAY_MAX_S`) from now; their open tables there as they now stand (a decision
        of theirs pending there is the computer's now)."""
        if not MIN_AWAY_S <= seconds <= AWAY_MAX_S:
            raise BadRequest(Why.AWAY_RANGE)
        until = self.clock() + seconds
        await self.store.set_away(guild_id, user_id, until)
        log.info("guild %s: a player is away for %s s", guild_id, seconds)
        return AwayChange(guild_id, user_id, until, await self.away_boards(guild_id, user_id))

    async def come_back(self, guild_id: int, user_id: int) -> AwayChange:
        """``/fp away off:True`` or the "I'm back" button: the player's decisions in the server are
        theirs again (``changed`` False if they were not away)."""
        ended = await self.store.end_away(guild_id, user_id)
        if ended is None or not ended.away_at(self.clock()):
            return AwayChange(guild_id, user_id, None, changed=False)
        log.info("guild %s: a player who was away is back", guild_id)
        return AwayChange(guild_id, user_id, None, await self.away_boards(guild_id, user_id))

    async def away_boards(self, guild_id: int, user_id: int) -> tuple[Board, ...]:
        """The open tables (lobbies, running games) of the server where the player holds a
        seat, as they now stand (a table that cannot be read is left out)."""
        boards = []
        for table_id in await self.store.seated_tables(guild_id, user_id):
            try:
                boards.append(self.board(await self._get(table_id)))
            except TableError:
                log.debug("table %s: left out of an absence's tables", table_id)
        return tuple(boards)

    async def _timed_out(self, table: Table, seat: int) -> WentAway | None:
        """The clock ran out on a decision of the person at ``seat`` (a computer made it): one
        more in a row; at the server's ``away_after`` of them they are set away, and this says
        so (None: not now, or another process did it)."""
        person = table.seats[seat]
        user_id = person.user_id
        if person.ai is not None or user_id is None:
            return None
        guild_id = table.guild_id
        count = await self.store.count_timeout(guild_id, user_id)
        after = (await self.store.get_guild_settings(guild_id)).away_after
        if after <= 0 or count < after:
            return None
        until = self.clock() + AWAY_MAX_S
        if not await self.store.away_after_timeouts(guild_id, user_id, until, after):
            return None
        log.info("table %s: seat %s timed out %s times in a row; set away", table.id, seat, count)
        reach = (await self.store.get_reach([user_id]))[user_id]
        refused = reach.dm_refused_at
        dm = reach.prefs.hand_mode == "dm" and (
            refused is None or self.clock() - refused >= DM_RETRY_S
        )
        boards = await self.away_boards(guild_id, user_id)
        here = next((b for b in boards if b.table_id == table.id), None)
        if here is None:  # the match ended with that decision
            here = self.board(await self._get(table.id))
        return WentAway(
            here,
            user_id,
            seat,
            until,
            count,
            dm,
            self.languages.of_player(reach.prefs),
            tuple(b for b in boards if b.table_id != table.id),
        )

    # --- pause ----------------------------------------------------------------------------------

    async def pause(
        self,
        channel_id: int,
        user_id: int,
        name: str,
        reason: str,
        seconds: int,
        *,
        may_manage: bool,
    ) -> Paused:
        """``/fp pause``: the channel's running game is paused for ``seconds`` (at most
        :data:`PAUSE_MAX_S`), by its host or someone who can manage the channel. A game paused
        already is paused again with the new end and reason (the time left stays as it was
        kept)."""
        table = await self.table_in_channel(channel_id)
        if table.host_id != user_id and not may_manage:
            raise NotAllowed(Why.PAUSE_WHO, table_id=table.id)
        if table.status != "playing":
            raise Stale(Why.PAUSE_NOT_PLAYING, table_id=table.id)
        if not MIN_PAUSE_S <= seconds <= PAUSE_MAX_S:
            raise BadRequest(Why.PAUSE_RANGE)
        table, game = await self._get_game(table.id)
        now = self.clock()
        old = self._paused(table)
        clocked = self._person_clock(table, game)
        left: float | None = None
        reminder_left: float | None = None
        if old is not None:
            at, version, left, reminder_left = old.at, old.version, old.left, old.reminder_left
        else:
            at, version = now, table.version
            if clocked and table.deadline is not None:
                left = max(0.0, table.deadline - now)
                if table.reminder_at is not None and table.reminder_at > now:
                    reminder_left = table.reminder_at - now
        pause = Pause(
            user_id,
            _clean_name(name),
            clean_reason(reason),
            at,
            now + seconds,
            version,
            left,
            reminder_left,
        )
        # A person's clock stops: the pause's end is the table's timer. A computer's decision
        # (its grace) is left to be made.
        deadline: float | None
        reminder: float | None
        if clocked:
            deadline, reminder = pause.until, None
        else:
            deadline, reminder = table.deadline, table.reminder_at
        await self._set_pause(table, pause, deadline, reminder)
        log.info("table %s: paused for %s s", table.id, seconds)
        return Paused(
            self.board(replace(table, pause=pause, deadline=deadline, reminder_at=reminder), game)
        )

    async def resume(
        self, channel_id: int, user_id: int, name: str, *, may_manage: bool
    ) -> Resumed:
        """``/fp resume``: the channel's paused game goes on (its host, or someone who can
        manage the channel)."""
        table = await self.table_in_channel(channel_id)
        if table.host_id != user_id and not may_manage:
            raise NotAllowed(Why.PAUSE_WHO, table_id=table.id)
        if self._paused(table) is None:
            raise Stale(Why.NOT_PAUSED, table_id=table.id)
        table, game = await self._get_game(table.id)
        resumed = await self._resume(table, game, _clean_name(name))
        if resumed is None:
            raise Stale(Why.TABLE_CHANGED, table_id=table.id)
        return resumed

    async def _resume(self, table: Table, game: Game, name: str | None) -> Resumed | None:
        """End the table's pause (by ``name``, or at its end: None): the decision pending since
        the pause gets the time it had left then, one that began during it its whole time.
        None if another process changed the table meanwhile."""
        pause = self._paused(table)
        assert pause is not None
        now = self.clock()
        going = replace(table, pause=None)
        deadline: float | None
        reminder: float | None
        if not self._person_clock(going, game):
            deadline, reminder = table.deadline, table.reminder_at
        elif table.version == pause.version and pause.left is not None:
            deadline = now + pause.left
            reminder = None if pause.reminder_left is None else now + pause.reminder_left
        else:
            deadline, reminder = self._timers(going, game, now)
        try:
            await self.store.set_pause(
                table.id,
                table.version,
                None,
                deadline,
                reminder,
                expected_timers=(table.deadline, table.reminder_at),
            )
        except (VersionConflict, NotFound):
            log.debug("table %s: resumed by another process", table.id)
            return None
        log.info("table %s: resumed after %.0f s", table.id, now - pause.at)
        board = self.board(replace(going, deadline=deadline, reminder_at=reminder), game)
        return Resumed(board, name, now - pause.at)

    def _person_clock(self, table: Table, game: Game) -> bool:
        """Whether the table's clock is a person's now: their decision, or the pause before
        the next round (not a computer's, an away player's, or the fire die's; nor a turn held
        back for its undo window, which keeps its own timer: the decision after it is the
        first a pause stops)."""
        if table.held is not None:
            return False
        p = game.pending
        if p is None:
            return not game.match_over
        return (
            p.kind != "die"
            and table.seats[p.player].ai is None
            and (p.player not in self._away_seats(table))
        )

    async def _set_pause(
        self, table: Table, pause: Pause | None, deadline: float | None, reminder: float | None
    ) -> None:
        try:
            await self.store.set_pause(
                table.id,
                table.version,
                pause,
                deadline,
                reminder,
                expected_timers=(table.deadline, table.reminder_at),
            )
        except VersionConflict:
            raise Stale(Why.TABLE_CHANGED, table_id=table.id) from None
        except NotFound:
            raise Stale(Why.TABLE_CLOSED, table_id=table.id) from None

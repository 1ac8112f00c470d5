"""Leaving and aborting: ``/fp leave`` (the lobby, or a running game's seat handed to a computer
player; the table closes when nobody is left) and ``/fp abort`` (the host, or a member allowed
to manage the channel, closes the table), each keeping for the records what a stopped game
stood at."""

from __future__ import annotations

import logging
from typing import Any

from bot.errors import NotAllowed, NotSeated, Stale, Why
from bot.service.lobby import Lobby
from bot.service.results import Board, LeftGame, MatchResult, Prompt
from data.store import CorruptRecord, Table, VersionConflict
from engine import EngineError, Game

log = logging.getLogger(__name__)


class Leaving(Lobby):
    """A person leaving a table, or closing it before its end (``leave`` of a lobby is the
    lobby's own)."""

    async def leave(
        self, channel_id: int, user_id: int, table_id: int | None = None
    ) -> Board | LeftGame:
        """``/fp leave``: leave the lobby, or hand a running game's seat to a computer player
        (the table closes when nobody is left). With ``table_id`` (the confirmation's button),
        that table only: refused if it is closed."""
        if table_id is None:
            table = await self.table_in_channel(channel_id)
        else:
            table = await self._get_open(table_id)
        if table.status == "lobby":
            return await self.leave_lobby(table.id, user_id)
        table, game = await self._get_game(table.id)
        seat = self._require_staying(table, user_id)
        if table.held is not None and table.held.seat == seat:
            # Nobody saw the turn they held back: it is forgotten, and the computer taking
            # their seat plays it.
            table = await self._drop_held(table)
        await self.store.record_departure(
            table.id, seat, user_id, self.clock(), table.seats[seat].name
        )
        table = await self._get(table.id)
        if not any(s.ai is None for s in table.seats):
            table = await self.store.end_table(
                table.id, table.version, "aborted", self.clock(), _stopped_result(table)
            )
            log.info("table %s: the last player left; table closed", table.id)
            return LeftGame(self.board(table, game), seat, True)
        log.info("table %s: seat %s left; a computer player took it", table.id, seat)
        return LeftGame(self.board(table, game), seat, False)

    async def _drop_held(self, table: Table) -> Table:
        """The table without the turn it held back (as an Undo leaves it)."""
        assert table.held is not None
        try:
            return await self.store.undo_turn(
                table.id, table.version, table.held.token, now=self.clock()
            )
        except VersionConflict:
            raise Stale(Why.TABLE_CHANGED, table_id=table.id) from None

    async def seated_game(self, table_id: int, user_id: int) -> None:
        """Refuse unless ``user_id`` plays at the open table ``table_id`` (before asking them
        to confirm that they leave its running game)."""
        self._require_staying(await self._get_open(table_id), user_id)

    def _require_staying(self, table: Table, user_id: int) -> int:
        """``user_id``'s seat at ``table``; refused if they have none, saying so if they left
        this match already (a computer plays their seat)."""
        if user_id in table.departed.values():
            raise NotSeated(Why.LEFT_MATCH, table_id=table.id)
        return self._require_seat(table, user_id)

    async def abort(self, channel_id: int, user_id: int, *, may_manage: bool) -> Board:
        """``/fp abort``: the host, or a member allowed to manage the channel, closes the table
        (also one whose record cannot be read any more, to free the channel)."""
        try:
            await self.store.open_table_in_channel(channel_id)
        except CorruptRecord as err:
            if not may_manage or err.version is None:
                raise NotAllowed(
                    Why.UNREADABLE_ABORT,
                    table_id=err.table_id,
                ) from None
            table = await self.store.end_table(err.table_id, err.version, "aborted", self.clock())
            log.warning("table %s: unreadable table aborted by %s", err.table_id, user_id)
            return Board(table, None, Prompt("closed"))
        table = await self.table_in_channel(channel_id)
        if table.host_id != user_id and not may_manage:
            raise NotAllowed(
                Why.ABORT_WHO,
                table_id=table.id,
            )
        table = await self._get_open(table.id)
        try:
            if table.held is not None:
                table = await self._drop_held(table)  # nobody saw it: not in the standings
            table = await self.store.end_table(
                table.id, table.version, "aborted", self.clock(), _stopped_result(table)
            )
        except VersionConflict:
            raise Stale(Why.TABLE_CHANGED) from None
        log.info("table %s: aborted by %s", table.id, user_id)
        return self.board(table)


def _stopped_result(table: Table) -> dict[str, Any] | None:
    """What a game closed before its end keeps for the records: its standings when it stopped
    (:meth:`engine.Game.standings`; nobody won it), once a tile has been played. None for a
    lobby, or a game closed before its first move: that table stays unrated."""
    if table.status != "playing" or table.state is None:
        return None
    try:
        game = Game.from_dict(table.state)
    except EngineError:
        log.exception("table %s: closed with a state that does not read; not rated", table.id)
        return None
    if not game.begun:
        return None
    return MatchResult((), game.standings(), game.rounds).to_dict(table)

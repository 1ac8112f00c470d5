"""Lobbies: opening a table, its seats, computer players and options, starting it (in the
channel or a thread), cancelling it, a rematch. Leaving and aborting: :mod:`bot.service.leaving`."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot import names
from bot.errors import (
    BadRequest,
    NotAllowed,
    NotSeated,
    Stale,
    TableExists,
    Why,
)
from bot.kept import Kept
from bot.service.core import (
    COMPUTER_LEVELS,
    LOBBY_TTL_S,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_TURN_LIMIT_S,
    MIN_SEATS,
    MIN_TURN_LIMIT_S,
    _clean_name,
    check_undo_s,
)
from bot.service.results import (
    Board,
    Step,
)
from bot.service.writing import Writing
from data.store import (
    ChannelBusy,
    Seat,
    Table,
    TableDefaults,
    TableOptions,
    VersionConflict,
)
from engine import Game

log = logging.getLogger(__name__)


class Lobby(Writing):
    """Opening a table, its seats and options, starting it, and cancelling it."""

    async def new_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        options: TableDefaults | None = None,
    ) -> Board:
        """Open a lobby in a channel, with the host seated. The options ``options`` leaves
        unset take the server's defaults; its posts, the server's language
        (:func:`~bot.service.languages.new_table_language`). Raises :class:`TableExists` if the
        channel already has a table."""
        settings = await self.store.get_guild_settings(guild_id)
        language = self.languages.of_server(settings)
        opts = TableOptions(
            turn_limit_s=settings.turn_limit_s, reminder_s=settings.reminder_s, max_seats=MAX_SEATS
        ).with_defaults(settings.defaults)
        opts = self._check_options(opts.with_defaults(options or TableDefaults()))
        try:
            table = await self.store.create_table(
                guild_id,
                channel_id,
                user_id,
                opts,
                (Seat(user_id, _clean_name(name)),),
                self.clock(),
                language=language,
            )
        except ChannelBusy as busy:
            link = None
            try:
                messages = await self.store.get_messages(busy.table_id)
                link = Kept.STATUS.of(messages) or Kept.LOBBY.of(messages)
            except Exception:
                log.exception("table %s: could not read its messages", busy.table_id)
            raise TableExists(table_id=busy.table_id, message_id=link) from None
        log.info("table %s: opened in channel %s by %s", table.id, channel_id, user_id)
        return self.board(await self._expires(table))

    async def _expires(self, table: Table) -> Table:
        """A new lobby closes by itself :data:`LOBBY_TTL_S` after it opened unless started
        (the table's deadline: the timer loop closes it). Should this
        write fail, :meth:`give_lobbies_deadlines` sets it at the next start."""
        deadline = table.created_at + LOBBY_TTL_S
        try:
            await self.store.set_timers(table.id, table.version, deadline, None)
        except Exception:
            log.exception("table %s: could not set when the lobby expires", table.id)
            return table
        return replace(table, deadline=deadline)

    async def give_lobbies_deadlines(self) -> list[int]:
        """Lobbies opened without an expiry (by an older version of the bot, or when setting
        it failed) expire :data:`LOBBY_TTL_S` after they opened; the ids of those changed."""
        changed: list[int] = []
        for table in await self.store.open_tables():
            if table.status != "lobby" or table.deadline is not None:
                continue
            try:
                await self.store.set_timers(
                    table.id,
                    table.version,
                    table.created_at + LOBBY_TTL_S,
                    None,
                    expected_timers=(None, table.reminder_at),
                )
            except VersionConflict:
                continue  # it changed meanwhile (started, or another process set it)
            changed.append(table.id)
        return changed

    @staticmethod
    def _check_options(opts: TableOptions) -> TableOptions:
        rounds, limit, max_seats = opts.rounds, opts.turn_limit_s, opts.max_seats
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadRequest(Why.ROUNDS_RANGE, detail={"max_rounds": MAX_ROUNDS})
        if not MIN_TURN_LIMIT_S <= limit <= MAX_TURN_LIMIT_S:
            raise BadRequest(Why.TURN_LIMIT_RANGE)
        if not MIN_SEATS <= max_seats <= MAX_SEATS:
            raise BadRequest(
                Why.SEATS_RANGE, detail={"min_seats": MIN_SEATS, "max_seats": MAX_SEATS}
            )
        check_undo_s(opts.undo_s)
        return replace(opts, reminder_s=max(0, opts.reminder_s))

    async def _lobby_write(
        self, table: Table, *, seats: tuple[Seat, ...] | None = None, status: Any = None
    ) -> Table:
        return await self.store.update_lobby(
            table.id, table.version, seats=seats, status=status, now=self.clock()
        )

    async def _get_lobby(self, table_id: int) -> Table:
        table = await self._get_open(table_id)
        if table.status != "lobby":
            raise Stale(Why.ALREADY_STARTED, table_id=table_id)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Board:
        """Take a seat in a lobby (idempotent: a seated user gets a polite refusal)."""
        for _ in range(3):
            table = await self._get_lobby(table_id)
            if self.seat_of(table, user_id) is not None:
                raise NotAllowed(Why.ALREADY_SEATED, table_id=table_id)
            if len(table.seats) >= table.options.max_seats:
                raise NotAllowed(Why.TABLE_FULL, table_id=table_id)
            seats = _named_computers((*table.seats, Seat(user_id, _clean_name(name))))
            try:
                table = await self._lobby_write(table, seats=seats)
            except VersionConflict:
                continue  # another process changed the lobby: read it again
            return self.board(table)
        raise Stale(Why.LOBBY_BUSY, table_id=table_id)

    async def leave_lobby(self, table_id: int, user_id: int) -> Board:
        """Give up a seat in a lobby. The host cancels instead."""
        for _ in range(3):
            table = await self._get_lobby(table_id)
            if table.host_id == user_id:
                raise NotAllowed(Why.HOST_CANCELS, table_id=table_id)
            if self.seat_of(table, user_id) is None:
                raise NotSeated(Why.NO_SEAT, table_id=table_id)
            seats = tuple(s for s in table.seats if s.user_id != user_id or s.ai is not None)
            try:
                table = await self._lobby_write(table, seats=seats)
            except VersionConflict:
                continue
            return self.board(table)
        raise Stale(Why.LOBBY_BUSY, table_id=table_id)

    async def add_ai(self, table_id: int, version: int, user_id: int, level: str) -> Board:
        """The host adds a computer player of ``level`` to the lobby."""
        if level not in COMPUTER_LEVELS:
            raise BadRequest(Why.UNKNOWN_LEVEL, detail={"level": level})
        table = await self._get_lobby(table_id)
        self._require_host(table, user_id, Why.HOST_ONLY_ADD_AI)
        self._check_version(table, version)
        if len(table.seats) >= table.options.max_seats:
            raise NotAllowed(Why.TABLE_FULL, table_id=table_id)
        seats = _named_computers((*table.seats, Seat(None, "", level)))
        try:
            table = await self._lobby_write(table, seats=seats)
        except VersionConflict:
            raise Stale(Why.LOBBY_CHANGED) from None
        return self.board(table)

    async def remove_ai(self, table_id: int, version: int, user_id: int) -> Board:
        """The host removes the last computer player of the lobby."""
        table = await self._get_lobby(table_id)
        self._require_host(table, user_id, Why.HOST_ONLY_REMOVE_AI)
        self._check_version(table, version)
        idx = [i for i, s in enumerate(table.seats) if s.ai is not None]
        if not idx:
            raise NotAllowed(Why.NO_COMPUTER, table_id=table_id)
        seats = tuple(s for i, s in enumerate(table.seats) if i != idx[-1])
        try:
            table = await self._lobby_write(table, seats=seats)
        except VersionConflict:
            raise Stale(Why.LOBBY_CHANGED) from None
        return self.board(table)

    async def cancel(self, table_id: int, version: int | None, user_id: int) -> Board:
        """The host closes the lobby."""
        table = await self._get_lobby(table_id)
        self._require_host(table, user_id, Why.HOST_ONLY_CANCEL)
        if version is not None:
            self._check_version(table, version)
        try:
            table = await self.store.end_table(table.id, table.version, "cancelled", self.clock())
        except VersionConflict:
            raise Stale(Why.LOBBY_CHANGED) from None
        log.info("table %s: cancelled by %s", table_id, user_id)
        return self.board(table)

    async def start(self, table_id: int, version: int | None, user_id: int) -> Step:
        """The host starts the game with the seated players (2 to 6)."""
        table = await self._get_lobby(table_id)
        self._require_host(table, user_id, Why.HOST_ONLY_START)
        if version is not None:
            self._check_version(table, version)
        n = len(table.seats)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise NotAllowed(
                Why.NEED_PLAYERS,
                table_id=table_id,
                detail={"min_seats": MIN_SEATS, "max_seats": MAX_SEATS, "seated": n},
            )
        game = self.deal(n, self.seed_source(), table.options)
        return await self._start_game(table, game)

    async def start_from_state(self, table_id: int, user_id: int, state: dict[str, Any]) -> Step:
        """Test seam: start a lobby's game from a chosen engine state (``Game.to_dict`` or the
        scenario format). Only tests call this; players always get a shuffled deal."""
        table = await self._get_lobby(table_id)
        self._require_host(table, user_id, Why.HOST_ONLY_START)
        game = Game.from_dict(state)
        if game.players != len(table.seats):
            raise BadRequest(
                Why.STATE_PLAYERS,
                detail={"state_players": game.players, "seated": len(table.seats)},
            )
        return await self._start_game(table, game)

    async def _start_game(self, table: Table, game: Game) -> Step:
        now = self.clock()
        deadline, reminder = self._timers(table, game, now)
        try:
            table = await self.store.start_game(
                table.id, table.version, table.seats, game.to_dict(), deadline, reminder, now
            )
        except VersionConflict:
            raise Stale(Why.LOBBY_CHANGED) from None
        log.info("table %s: game started with %s seats", table.id, len(table.seats))
        first = game.pending.player if game.pending is not None else None
        away = self._away_seats(table)  # (their first decision is the computer's: no notice)
        hands = await self._hands(
            table,
            game,
            [
                (i, i == first and i not in away)
                for i, s in enumerate(table.seats)
                if s.ai is None and s.user_id is not None
            ],
        )
        return Step(
            "start",
            self.board(table, game),
            None,
            tuple(game.turn_events),
            None,
            hands=tuple(hands),
        )

    async def rematch(self, table_id: int, user_id: int, name: str) -> Board:
        """A player of a finished match opens a new lobby in its channel with the same options:
        they take the first seat and host it, the computer players keep theirs, the other
        players confirm by joining. Raises :class:`TableExists` if the channel has a table."""
        old = await self._get(table_id)
        if old.status != "finished":
            raise NotAllowed(Why.MATCH_NOT_OVER, table_id=table_id)
        if self.seat_of(old, user_id) is None:
            raise NotAllowed(Why.REMATCH_PLAYERS_ONLY, table_id=table_id)
        seats = _named_computers(
            (Seat(user_id, _clean_name(name)), *(s for s in old.seats if s.ai is not None))
        )
        # The server's language now (its settings may have changed since the match began).
        language = self.languages.of_server(await self.store.get_guild_settings(old.guild_id))
        try:
            table = await self.store.create_table(
                old.guild_id,
                old.channel_id,
                user_id,
                old.options,
                seats,
                self.clock(),
                language=language,
            )
        except ChannelBusy as busy:
            raise TableExists(table_id=busy.table_id) from None
        log.info("table %s: rematch of table %s opened by %s", table.id, table_id, user_id)
        return self.board(await self._expires(table))

    async def move_to_thread(self, step: Step, thread_id: int) -> Step:
        """The game that ``step`` started lives in the thread ``thread_id`` from now on (its
        channel is free for another lobby): the same step, shown there."""
        await self.store.set_thread(step.board.table_id, thread_id)
        board = replace(step.board, table=replace(step.board.table, thread_id=thread_id))
        hands = tuple(replace(h, channel_id=thread_id) for h in step.hands)
        log.info("table %s: the game lives in thread %s", board.table_id, thread_id)
        return replace(step, board=board, hands=hands)


def _named_computers(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats with every computer player named apart from the people seated and from each
    other: a computer keeps its name while it is one of :data:`bot.names.COMPUTER_NAMES` that
    nobody else has (compared without case); one without a name yet, one whose name a person
    joining has, and one named the old way ("Computer 1 (hard)") takes the first free name."""
    used = {s.name.casefold() for s in seats if s.ai is None}
    short = {n.casefold() for n in names.COMPUTER_NAMES}
    out: list[Seat] = []
    for seat in seats:
        if seat.ai is not None:
            key = seat.name.casefold()
            if key not in short or key in used:
                seat = replace(seat, name=names.computer_name(used))
            used.add(seat.name.casefold())
        out.append(seat)
    return tuple(out)

"""The table service's common ground: reading tables, what a table shows, where a button may
act, and who may decide. The parts of the service build on it: the players' hands
(:mod:`bot.service.hands`), writing a decision (:mod:`bot.service.writing`), the lobby, the
moves, the computer players and timers, and the choices of players and servers
(:mod:`bot.service.choices`)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final, Literal, NamedTuple

from bot import names
from bot.errors import (
    BadRequest,
    NoTable,
    NotAllowed,
    NotSeated,
    NotYourDecision,
    Stale,
    TableError,
    Why,
)
from bot.service.chosen import Chosen
from bot.service.languages import KnownLanguages
from bot.service.results import (
    MAX_SOLO_UNDO_S,
    MAX_UNDO_S,
    Board,
    Prompt,
    PromptKind,
)
from data.store import (
    CorruptRecord,
    GuildSettings,
    NotFound,
    Pause,
    Seat,
    ServiceStore,
    Table,
    TableOptions,
)
from engine import (
    Action,
    EngineError,
    Game,
    MatchOverError,
    NotYourDecisionError,
    RoundOverError,
    View,
    WrongDecisionError,
    view,
)
from engine.ai import LEVELS

log = logging.getLogger(__name__)

Clock = Callable[[], float]
AiPlayer = Callable[[str, View, int], Action]
"""A computer player: ``(level, view, seed) -> action`` for the decision ``view.player`` owns."""
Dealer = Callable[[int, int, TableOptions], Game]
"""Deals a new match: ``(players, seed, options) -> Game``."""

MIN_SEATS = 2
MAX_SEATS = 6
MAX_ROUNDS = 10
MIN_TURN_LIMIT_S = 60
MAX_TURN_LIMIT_S = 14 * 24 * 3600
DEFAULT_TURN_LIMIT_S = 24 * 3600
DEFAULT_REMINDER_S = 12 * 3600
COMPUTER_LEVELS: Final = LEVELS
"""The computer levels a host may seat and a server may choose to play for its absent players
(``/fp-settings stand_in``): every level of the engine, weakest first."""
DM_RETRY_S = 24 * 3600
"""After Discord refused a direct message to a player, the bot tries one again at most this
long later (or as soon as they ask for it with ``/fp notify`` or the hand-mode choice)."""
AI_GRACE_S = 30.0
"""A decision owned by a computer (or the fire die) is made at once; its deadline is only a
safety net that makes the timer loop finish it after a crash."""
NEXT_ROUND_PAUSE_S = 120.0
"""After a won round of a multi-round match, the next round starts by itself after this pause
(or at once with the "Next round" button)."""
MAX_NAME = 32
AWAY_MAX_S = 14 * 24 * 3600
"""A player is away at most this long (``/fp away``, and after their time-outs): then their
decisions are theirs again."""
PAUSE_MAX_S = 7 * 24 * 3600
"""A game is paused at most this long (``/fp pause``)."""
MAX_AWAY_AFTER = 10
"""The most decisions in a row a server may let the clock run out on before a player is set
away (``/fp-settings``; 0: never)."""
MAX_REASON = 200
"""The longest reason of a pause kept."""
LOBBY_TTL_S = 24 * 3600
"""A lobby nobody starts closes this long after it opened (its channel is free again); the
deadline is the table's, so the timer loop closes it, also after a restart."""


class Place(NamedTuple):
    """Where a button was pressed: a server's channel or thread, or a direct message
    (``guild_id`` None)."""

    guild_id: int | None
    channel_id: int | None


def hand_digest(table_id: int, game_round: int, hand: Sequence[str]) -> str:
    """A short fingerprint of one hand at one table (goes into tile buttons' custom ids)."""
    raw = f"{table_id}:{game_round}:{','.join(hand)}".encode()
    return hashlib.blake2s(raw, digest_size=4).hexdigest()


def check_undo_s(seconds: int) -> None:
    """Refuse an undo window a table may not choose (:class:`BadRequest`)."""
    if not 0 <= seconds <= MAX_SOLO_UNDO_S:
        raise BadRequest(
            Why.UNDO_RANGE, detail={"max_undo": MAX_SOLO_UNDO_S, "max_shared": MAX_UNDO_S}
        )


def turn_deadline(table: Table) -> float | None:
    """When the decision the table shows ends: the deadline of the turn a held turn was played
    in (the table's own deadline is then its undo window's end, which nobody else sees)."""
    return table.held.deadline if table.held is not None else table.deadline


def _deal(players: int, seed: int, options: TableOptions) -> Game:
    return Game.new(
        players, seed, curse=options.curse, fire_die=options.fire_die, rounds=options.rounds
    )


def _clean_name(name: str) -> str:
    """A name to keep: line breaks and tabs become spaces, control and direction characters go
    (:func:`bot.names.clean`), runs of spaces become one, at most ``MAX_NAME`` characters."""
    name = " ".join(names.clean(" ".join(name.split())).split()) or "player"
    return name[:MAX_NAME]


def _engine_refusal(err: EngineError) -> TableError:
    """An engine refusal in words a player understands (no "player N")."""
    if isinstance(err, RoundOverError | MatchOverError):
        return Stale(Why.ROUND_OVER)
    if isinstance(err, NotYourDecisionError | WrongDecisionError):
        return Stale(Why.MOVED_ON)
    return NotAllowed(Why.MOVE_IMPOSSIBLE)


class TableCore:
    """The state and the common steps shared by the lobby, the moves and the computer players
    (:class:`bot.service.TableService` puts them together)."""

    store: ServiceStore
    clock: Clock
    ai: AiPlayer
    seed_source: Callable[[], int]
    deal: Dealer
    next_round_pause_s: float
    languages: KnownLanguages
    _reported: set[tuple[int, int | None]]
    chosen: Chosen

    # --- reading ---------------------------------------------------------------------------------

    async def _get(self, table_id: int) -> Table:
        try:
            table = await self.store.get_table(table_id)
        except NotFound:
            raise NoTable(Why.TABLE_CLOSED, table_id=table_id) from None
        except CorruptRecord as err:
            self._report_unreadable(err)
            raise TableError(Why.UNREADABLE_TABLE, table_id=table_id) from None
        return await self._effective(table)

    def _report_unreadable(self, err: CorruptRecord) -> None:
        """Log a damaged table record once (per record version): its timers and every click
        read it again, and the log must not fill up with the same problem."""
        key = (err.table_id, err.version)
        # (Its detail may name a tile of someone's hand: only at DEBUG.)
        log.debug("table %s: unreadable record (%s)", err.table_id, err.detail)
        if key in self._reported:
            return
        self._reported.add(key)
        log.error("table %s: unreadable record (%s)", err.table_id, err.problem)

    async def _get_open(self, table_id: int) -> Table:
        table = await self._get(table_id)
        if table.status not in ("lobby", "playing"):
            raise Stale(Why.TABLE_CLOSED, table_id=table_id)
        return table

    async def _effective(self, table: Table) -> Table:
        """The table with the seats of players who left (``/fp leave``) already played by a
        computer of the server's stand-in level (:meth:`stand_in`). The change is written into
        the seats with the table's next move."""
        if table.status != "playing" or not table.departed:
            return table
        s = table.seats
        left = {
            i
            for i, u in table.departed.items()
            if 0 <= i < len(s) and (s[i].user_id, s[i].ai) == (u, None)
        }
        if not left:
            return table
        level = await self.stand_in(table.guild_id)
        seats = [
            Seat(None, f"{x.name} (computer)", level) if i in left else x for i, x in enumerate(s)
        ]
        return replace(table, seats=tuple(seats))

    async def stand_in(self, guild_id: int) -> str:
        """The level of the computer that plays for a person of the server ``guild_id`` whose
        time ran out, who is away or who left the game (``/fp-settings stand_in``)."""
        level = (await self.store.get_guild_settings(guild_id)).stand_in
        return level if level in COMPUTER_LEVELS else GuildSettings(guild_id).stand_in

    def _away_seats(self, table: Table) -> dict[int, float]:
        """Seat -> until when of each person seated who is away now (``/fp away``): a
        computer plays their decisions at once (in a lobby: it will)."""
        if table.status not in ("lobby", "playing") or not table.absences:
            return {}
        now = self.clock()
        away: dict[int, float] = {}
        for i, s in enumerate(table.seats):
            absence = table.absences.get(s.user_id) if s.user_id is not None else None
            if s.ai is None and absence is not None and absence.away_at(now):
                assert absence.until is not None
                away[i] = absence.until
        return away

    @staticmethod
    def _paused(table: Table) -> Pause | None:
        """The running game's pause, while it lasts (no clock runs)."""
        return table.pause if table.status == "playing" else None

    @staticmethod
    def _game(table: Table) -> Game:
        if table.state is None:
            raise TableError(Why.NO_GAME_YET, table_id=table.id)
        return Game.from_dict(table.state)

    async def _get_game(self, table_id: int) -> tuple[Table, Game]:
        table = await self._get_open(table_id)
        if table.status != "playing":
            raise Stale(Why.GAME_NOT_STARTED, table_id=table_id)
        return table, self._game(table)

    async def table_in_channel(self, channel_id: int) -> Table:
        """The open table in a channel; :class:`NoTable` if there is none."""
        try:
            table = await self.store.open_table_in_channel(channel_id)
        except CorruptRecord as err:
            self._report_unreadable(err)
            raise TableError(Why.UNREADABLE_CHANNEL_TABLE, table_id=err.table_id) from None
        if table is None:
            threads = [
                t.thread_id
                for t in await self.store.open_tables()
                if t.channel_id == channel_id and t.thread_id is not None
            ]
            if threads:
                raise NoTable(Why.GAMES_IN_THREADS, detail={"threads": tuple(sorted(threads))})
            raise NoTable(Why.NO_TABLE_HERE)
        return table

    @staticmethod
    def seat_of(table: Table, user_id: int) -> int | None:
        """The seat of a user at a table, or None."""
        for i, s in enumerate(table.seats):
            if s.user_id == user_id and s.ai is None:
                return i
        return None

    def _require_seat(self, table: Table, user_id: int) -> int:
        seat = self.seat_of(table, user_id)
        if seat is None:
            raise NotSeated(Why.NOT_PLAYING, table_id=table.id)
        return seat

    def board(self, table: Table, game: Game | None = None) -> Board:
        """What the channel shows for a table now."""
        if table.status == "lobby":
            return Board(table, None, Prompt("lobby"), self._away_seats(table))
        if game is None and table.state is not None:
            game = self._game(table)
        if game is None:
            return Board(table, None, Prompt("closed"))
        pub = view(game, None)
        if table.status in ("cancelled", "aborted"):
            return Board(table, pub, Prompt("closed"))
        away = self._away_seats(table)
        # While the game is paused no clock runs: nobody is shown a deadline.
        deadline = turn_deadline(table) if self._paused(table) is None else None
        p = game.pending
        if p is None:
            kind: PromptKind = "over" if game.match_over else "next_round"
            return Board(table, pub, Prompt(kind, deadline=deadline), away)
        seat = table.seats[p.player]
        if p.kind == "die":
            return Board(table, pub, Prompt("die", p.player), away)
        kind = "fall" if p.kind == "fall" else "play"
        person = seat.ai is None and p.player not in away
        return Board(
            table,
            pub,
            Prompt(
                kind,
                p.player,
                seat.user_id if person else None,
                p.tile,
                p.at,
                deadline if person else None,
                away=p.player in away,
            ),
            away,
        )

    async def board_of(self, table_id: int) -> Board:
        """The board of a table by id."""
        return await self._told(await self._get(table_id))

    async def board_in_channel(self, channel_id: int) -> Board:
        """The board of the open table in a channel (for ``/fp status``)."""
        return await self._told(await self.table_in_channel(channel_id))

    async def _told(self, table: Table, game: Game | None = None) -> Board:
        """:meth:`board`, with the falls of its last turn that a computer player chose for a
        person (:class:`~bot.service.chosen.Chosen`), so that its account says so."""
        board = self.board(table, game)
        chose = await self.chosen.of(table, board.view.last_events) if board.view else frozenset()
        return replace(board, computer_chose=chose) if chose else board

    async def check_place(
        self, table_id: int, guild_id: int | None, channel_id: int | None, user_id: int
    ) -> None:
        """Refuse (:class:`Stale`) a button of ``table_id`` used anywhere but in its table's
        channel or thread, or in a direct message (``guild_id`` None) by someone not seated there: a
        button's id can be forged, its place cannot."""
        self._check_place(await self._get(table_id), Place(guild_id, channel_id), user_id)

    def _check_place(self, table: Table, place: Place, user_id: int) -> None:
        if place.guild_id is None:
            if self.seat_of(table, user_id) is not None:
                return
        elif table.guild_id == place.guild_id and place.channel_id in (
            table.channel_id,
            table.thread_id,
        ):
            return
        log.info("table %s: a button used out of its place by user %s", table.id, user_id)
        raise Stale(Why.MISPLACED_BUTTON, table_id=table.id)

    def _not_yours(self, table: Table, game: Game) -> NotYourDecision:
        """The refusal of a decision that is somebody else's: who decides what (the show side
        words it)."""
        p = game.pending
        if p is None or p.kind == "die":
            return NotYourDecision(None, None, table_id=table.id)
        decision: Literal["play", "fall"] = "fall" if p.kind == "fall" else "play"
        return NotYourDecision(decision, table.seats[p.player].name, table_id=table.id)

    def _check_version(self, table: Table, version: int) -> None:
        if table.version != version:
            raise Stale(Why.PASSED_MOMENT, table_id=table.id)

    def _require_host(self, table: Table, user_id: int, what: Why) -> None:
        if table.host_id != user_id:
            raise NotAllowed(what, table_id=table.id)

    async def dm_refused_at(self, user_id: int) -> float | None:
        """When Discord last refused a direct message to the player (None: not remembered)."""
        return await self.store.dm_refused_at(user_id)

    async def dms_closed(self, user_id: int) -> bool:
        """Whether the bot does not DM the player now: Discord refused a direct message to
        them less than :data:`DM_RETRY_S` ago."""
        refused_at = await self.dm_refused_at(user_id)
        return refused_at is not None and self.clock() - refused_at < DM_RETRY_S

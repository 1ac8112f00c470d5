"""The table service: lobbies, seats, turns, timers and notifications, without Discord.

Everything a Discord user can do at a table is a method here that takes plain ids and returns a
result object saying what to show (a :class:`Board` for a lobby or a picture, a :class:`Step` for
an applied decision, a :class:`Hand`, a :class:`SpotChoice`...). It never imports ``discord``; the
adapter in ``bot/`` turns results into messages, and :mod:`bot.errors` into private replies.

The rules live in :mod:`engine` only: this module asks the engine what is pending and applies the
engine's actions. Persistence goes through :class:`data.store.Store`: every accepted action is
written (with the version read, so a stale or double click fails with ``VersionConflict`` and
changes nothing) before the caller shows anything.

Concurrency: inside one process the decisions of one table are serialised by an ``asyncio.Lock``
per table id; across processes the store's version check decides. Time comes from an injectable
``clock`` so tests can move it without sleeping.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.errors import (
    BadRequest,
    HandChanged,
    NoTable,
    NotAllowed,
    NotSeated,
    NotYourDecision,
    Stale,
    TableError,
    TableExists,
)
from data.store import (
    ChannelBusy,
    CorruptRecord,
    GuildSettings,
    NotFound,
    Seat,
    Store,
    Table,
    TableDefaults,
    TableOptions,
    VersionConflict,
)
from engine import Action, EngineError, Event, Fall, Game, NextRound, Play, Pos, View, view
from engine.ai import LEVELS, choose
from engine.model import Die

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
TIMEOUT_LEVEL = "normal"
"""The level of the computer player that plays one turn for an absent player."""
AI_GRACE_S = 30.0
"""A decision owned by a computer (or the fire die) is made at once; its deadline is only a
safety net that makes the timer loop finish it after a crash."""
NEXT_ROUND_PAUSE_S = 120.0
"""After a won round of a multi-round match, the next round starts by itself after this pause
(or at once with the "Next round" button)."""
MAX_NAME = 32


# --- results --------------------------------------------------------------------------------------

PromptKind = Literal["lobby", "play", "fall", "die", "next_round", "over", "closed"]


@dataclass(frozen=True)
class Prompt:
    """What a table waits for, and from whom.

    ``kind``: ``"lobby"`` (players join), ``"play"`` (``seat`` plays a tile), ``"fall"``
    (``seat`` chooses where ``tile`` at ``at`` falls), ``"die"`` (the game rolls the fire die
    itself, at once), ``"next_round"`` (a round was won),
    ``"over"`` (the match is finished) or ``"closed"`` (cancelled or aborted).
    """

    kind: PromptKind
    seat: int | None = None
    user_id: int | None = None
    """The Discord user who must decide (None for a computer player or nobody)."""
    tile: str | None = None
    at: Pos | None = None
    deadline: float | None = None


@dataclass(frozen=True)
class Board:
    """A table as the channel sees it: the stored table, the public view and the prompt."""

    table: Table
    view: View | None
    """The public view (no hand in it); None for a lobby."""
    prompt: Prompt

    @property
    def table_id(self) -> int:
        return self.table.id

    @property
    def channel_id(self) -> int:
        return self.table.channel_id

    @property
    def guild_id(self) -> int:
        return self.table.guild_id

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

    @property
    def options(self) -> TableOptions:
        return self.table.options


@dataclass(frozen=True)
class Hand:
    """One player's private hand at one table, to show to that player only."""

    table_id: int
    guild_id: int
    channel_id: int
    user_id: int
    seat: int
    view: View
    """That player's view (their hand in ``view.hand``)."""
    names: tuple[str, ...]
    digest: str
    """Identifies this exact hand: a tile button carrying it is refused once the hand changed."""
    version: int
    """The table's version when this hand was shown."""
    your_turn: bool
    dm: bool
    """Whether the player wants their hand by direct message (else: ephemeral replies only)."""
    dm_failed_before: bool = False
    """Whether a direct message to this player already failed at this table."""


@dataclass(frozen=True)
class SpotChoice:
    """A tile was chosen and there are several spots: the player picks one (labelled A, B...)."""

    table_id: int
    version: int
    tile: str
    spots: tuple[tuple[str, Pos], ...]
    """``(label, position)`` in reading order."""
    view: View
    """The chooser's view, for the picture with the spots labelled."""
    names: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """A decision was applied (or a match started): show one new channel message.

    ``events`` are what happened (the fire die's roll included), ``before`` the public view just
    before (for the mayhem animation; None at the start of a round), ``board`` the table after.
    """

    kind: Literal["start", "move", "next_round"]
    board: Board
    before: View | None
    events: tuple[Event, ...]
    actor: int | None
    """The seat whose decision this was (None: the game itself)."""
    timed_out: bool = False
    """A computer player decided for an absent player whose time ran out."""
    hands: tuple[Hand, ...] = ()
    """Hands of people that changed (or were dealt): send each to its owner."""
    results: dict[str, Any] | None = None
    """Final standings when the match ended with this step."""


@dataclass(frozen=True)
class Reminder:
    """The decision owner's time is running out."""

    board: Board
    user_id: int
    seat: int


@dataclass(frozen=True)
class LeftGame:
    """A player left a running game; a computer took the seat (or the table closed)."""

    board: Board
    seat: int
    closed: bool


TimerOutcome = Step | Reminder


# --- helpers --------------------------------------------------------------------------------------


def hand_digest(table_id: int, game_round: int, hand: Sequence[str]) -> str:
    """A short fingerprint of one hand at one table (goes into tile buttons' custom ids)."""
    raw = f"{table_id}:{game_round}:{','.join(hand)}".encode()
    return hashlib.blake2s(raw, digest_size=4).hexdigest()


def spot_label(i: int) -> str:
    """The ``i``-th spot label as the pictures show it: ``A`` ... ``Z``, then ``AA``, ``AB``...

    >>> spot_label(0), spot_label(25), spot_label(26)
    ('A', 'Z', 'AA')
    """
    out = ""
    n = i + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def spot_labels(spots: Sequence[Pos]) -> tuple[tuple[str, Pos], ...]:
    """Label spots A, B, C... in the order given (the engine lists them in reading order, and
    the pictures label them the same way)."""
    return tuple((spot_label(i), p) for i, p in enumerate(spots))


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
    """The engine's computer players (:func:`engine.ai.choose`), with the bot's search bounds."""

    def play(level: str, v: View, seed: int) -> Action:
        return choose(level, v, seed, time_budget_s=time_budget_s, node_limit=node_limit)

    return play


def _deal(players: int, seed: int, options: TableOptions) -> Game:
    return Game.new(
        players, seed, curse=options.curse, fire_die=options.fire_die, rounds=options.rounds
    )


def _clean_name(name: str) -> str:
    name = " ".join(name.split()) or "player"
    return name[:MAX_NAME]


def _engine_refusal(err: EngineError) -> TableError:
    """An engine refusal in words a player understands (no "player N")."""
    if err.code in ("round_over", "match_over"):
        return Stale("This round is already over.")
    if err.code in ("not_your_decision", "wrong_decision"):
        return Stale("That moment has passed: the game has moved on.")
    return NotAllowed("That move is not possible now.")


# --- the service ------------------------------------------------------------------------------


@dataclass
class _Locks:
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)

    def get(self, table_id: int) -> asyncio.Lock:
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    def drop(self, table_id: int) -> None:
        lock = self.locks.get(table_id)
        if lock is not None and not lock.locked():
            del self.locks[table_id]


class TableService:
    """Hosts Flaming Pyramids tables on top of a :class:`~data.store.Store`.

    ``clock`` gives unix time (tests inject their own); ``ai`` decides for computer players and
    absent players; ``seed_source`` picks a new match's seed; ``deal`` deals a match (tests may
    deal a chosen state). Methods raise :class:`bot.errors.TableError` subclasses for refusals.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = time.time,
        ai: AiPlayer | None = None,
        seed_source: Callable[[], int] | None = None,
        deal: Dealer | None = None,
        next_round_pause_s: float = NEXT_ROUND_PAUSE_S,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ai: AiPlayer = ai if ai is not None else default_ai()
        self.seed_source = seed_source or (lambda: secrets.randbits(31))
        self.deal: Dealer = deal or _deal
        self.next_round_pause_s = next_round_pause_s
        self._locks = _Locks()
        self._reported: set[tuple[int, int | None]] = set()

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock that serialises changes to one table in this process."""
        return self._locks.get(table_id)

    # --- reading ---------------------------------------------------------------------------------

    async def _get(self, table_id: int) -> Table:
        try:
            return self._effective(await self.store.get_table(table_id))
        except NotFound:
            raise NoTable("This table is closed.", table_id=table_id) from None
        except CorruptRecord as err:
            self._report_unreadable(err)
            raise TableError(
                "This table's record cannot be read; an admin has been told in the logs.",
                table_id=table_id,
            ) from None

    def _report_unreadable(self, err: CorruptRecord) -> None:
        """Log a damaged table record once (per record version): its timers and every click
        read it again, and the log must not fill up with the same problem."""
        key = (err.table_id, err.version)
        if key in self._reported:
            log.debug("table %s: unreadable record (%s)", err.table_id, err.problem)
            return
        self._reported.add(key)
        log.error("table %s: unreadable record (%s)", err.table_id, err.problem)

    async def _get_open(self, table_id: int) -> Table:
        table = await self._get(table_id)
        if table.status not in ("lobby", "playing"):
            raise Stale("This table is closed.", table_id=table_id)
        return table

    @staticmethod
    def _effective(table: Table) -> Table:
        """The table with the seats of players who left (``/fp leave``) already played by a
        computer. The change is written into the seats with the table's next move."""
        if table.status != "playing" or not table.departed:
            return table
        seats = list(table.seats)
        changed = False
        for i, user_id in table.departed.items():
            if 0 <= i < len(seats) and seats[i].ai is None and seats[i].user_id == user_id:
                seats[i] = Seat(None, f"{seats[i].name} (computer)", TIMEOUT_LEVEL)
                changed = True
        return replace(table, seats=tuple(seats)) if changed else table

    @staticmethod
    def _game(table: Table) -> Game:
        if table.state is None:
            raise TableError("This table has no game yet.", table_id=table.id)
        return Game.from_dict(table.state)

    async def _get_game(self, table_id: int) -> tuple[Table, Game]:
        table = await self._get_open(table_id)
        if table.status != "playing":
            raise Stale("This game has not started yet.", table_id=table_id)
        return table, self._game(table)

    async def table_in_channel(self, channel_id: int) -> Table:
        """The open table in a channel; :class:`NoTable` if there is none."""
        try:
            table = await self.store.open_table_in_channel(channel_id)
        except CorruptRecord as err:
            self._report_unreadable(err)
            raise TableError(
                "This channel's table cannot be read any more. Someone who can manage the "
                "channel can close it with /fp abort.",
                table_id=err.table_id,
            ) from None
        if table is None:
            raise NoTable("There is no Flaming Pyramids table in this channel. Start one: /fp new")
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
            raise NotSeated(
                "You are not playing at this table, so this is not yours to decide. "
                "You can watch, and join the next game!",
                table_id=table.id,
            )
        return seat

    def board(self, table: Table, game: Game | None = None) -> Board:
        """What the channel shows for a table now."""
        if table.status == "lobby":
            return Board(table, None, Prompt("lobby"))
        if game is None and table.state is not None:
            game = self._game(table)
        if game is None:
            return Board(table, None, Prompt("closed"))
        pub = view(game, None)
        if table.status in ("cancelled", "aborted"):
            return Board(table, pub, Prompt("closed"))
        p = game.pending
        if p is None:
            kind: PromptKind = "over" if game.match_over else "next_round"
            return Board(table, pub, Prompt(kind, deadline=table.deadline))
        seat = table.seats[p.player]
        if p.kind == "die":
            return Board(table, pub, Prompt("die", p.player))
        kind = "fall" if p.kind == "fall" else "play"
        return Board(
            table,
            pub,
            Prompt(
                kind,
                p.player,
                seat.user_id if seat.ai is None else None,
                p.tile,
                p.at,
                table.deadline if seat.ai is None else None,
            ),
        )

    async def board_of(self, table_id: int) -> Board:
        """The board of a table by id."""
        return self.board(await self._get(table_id))

    async def board_in_channel(self, channel_id: int) -> Board:
        """The board of the open table in a channel (for ``/fp status``)."""
        return self.board(await self.table_in_channel(channel_id))

    async def _hand(self, table: Table, game: Game, seat: int) -> Hand:
        s = table.seats[seat]
        assert s.user_id is not None
        prefs = await self.store.get_prefs(s.user_id)
        p = game.pending
        return Hand(
            table_id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            user_id=s.user_id,
            seat=seat,
            view=view(game, seat),
            names=tuple(x.name for x in table.seats),
            digest=hand_digest(table.id, game.round, game.hands[seat]),
            version=table.version,
            your_turn=p is not None and p.kind == "play" and p.player == seat,
            dm=prefs.hand_mode == "dm",
            dm_failed_before=s.user_id in table.dm_failed,
        )

    async def hand(self, table_id: int, user_id: int) -> Hand:
        """A player's hand (for the "My hand" button); only its owner ever gets it."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        return await self._hand(table, game, seat)

    async def hand_in_channel(self, channel_id: int, user_id: int) -> Hand:
        """A player's hand at the table of a channel (``/fp hand``)."""
        table = await self.table_in_channel(channel_id)
        if table.status != "playing":
            raise Stale("The game has not started yet.", table_id=table.id)
        return await self.hand(table.id, user_id)

    # --- lobby -----------------------------------------------------------------------------------

    async def new_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        options: TableDefaults | None = None,
    ) -> Board:
        """Open a lobby in a channel, with the host seated. The options ``options`` leaves
        unset take the server's defaults. Raises :class:`TableExists` if the channel already
        has a table."""
        settings = await self.store.get_guild_settings(guild_id)
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
            )
        except ChannelBusy as busy:
            link = None
            try:
                messages = await self.store.get_messages(busy.table_id)
                link = messages.get("status") or messages.get("lobby")
            except Exception:
                log.exception("table %s: could not read its messages", busy.table_id)
            raise TableExists(
                "This channel already has a Flaming Pyramids table.",
                table_id=busy.table_id,
                message_id=link,
            ) from None
        log.info("table %s: opened in channel %s by %s", table.id, channel_id, user_id)
        return self.board(table)

    @staticmethod
    def _check_options(opts: TableOptions) -> TableOptions:
        rounds, limit, max_seats = opts.rounds, opts.turn_limit_s, opts.max_seats
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadRequest(f"A match has 1 to {MAX_ROUNDS} rounds.")
        if not MIN_TURN_LIMIT_S <= limit <= MAX_TURN_LIMIT_S:
            raise BadRequest("The turn time limit must be between 1 minute and 14 days.")
        if not MIN_SEATS <= max_seats <= MAX_SEATS:
            raise BadRequest(f"A table has {MIN_SEATS} to {MAX_SEATS} seats.")
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
            raise Stale("The game has already started.", table_id=table_id)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Board:
        """Take a seat in a lobby (idempotent: a seated user gets a polite refusal)."""
        async with self.lock(table_id):
            for _ in range(3):
                table = await self._get_lobby(table_id)
                if self.seat_of(table, user_id) is not None:
                    raise NotAllowed("You already have a seat at this table.", table_id=table_id)
                if len(table.seats) >= table.options.max_seats:
                    raise NotAllowed("This table is full.", table_id=table_id)
                seats = (*table.seats, Seat(user_id, _clean_name(name)))
                try:
                    table = await self._lobby_write(table, seats=seats)
                except VersionConflict:
                    continue  # another process changed the lobby: read it again
                return self.board(table)
            raise Stale("The lobby is busy; please try again.", table_id=table_id)

    async def leave_lobby(self, table_id: int, user_id: int) -> Board:
        """Give up a seat in a lobby. The host cancels instead."""
        async with self.lock(table_id):
            for _ in range(3):
                table = await self._get_lobby(table_id)
                if table.host_id == user_id:
                    raise NotAllowed(
                        "You host this table: use Cancel to close it.", table_id=table_id
                    )
                if self.seat_of(table, user_id) is None:
                    raise NotSeated("You have no seat at this table.", table_id=table_id)
                seats = tuple(s for s in table.seats if s.user_id != user_id or s.ai is not None)
                try:
                    table = await self._lobby_write(table, seats=seats)
                except VersionConflict:
                    continue
                return self.board(table)
            raise Stale("The lobby is busy; please try again.", table_id=table_id)

    def _check_version(self, table: Table, version: int) -> None:
        if table.version != version:
            raise Stale(
                "That button belongs to a moment that has passed; nothing was changed.",
                table_id=table.id,
            )

    def _require_host(self, table: Table, user_id: int, what: str) -> None:
        if table.host_id != user_id:
            raise NotAllowed(f"Only the host can {what}.", table_id=table.id)

    async def add_ai(self, table_id: int, version: int, user_id: int, level: str) -> Board:
        """The host adds a computer player of ``level`` to the lobby."""
        if level not in LEVELS:
            raise BadRequest(f"Unknown level {level!r}.")
        async with self.lock(table_id):
            table = await self._get_lobby(table_id)
            self._require_host(table, user_id, "add computer players")
            self._check_version(table, version)
            if len(table.seats) >= table.options.max_seats:
                raise NotAllowed("This table is full.", table_id=table_id)
            taken = {s.name for s in table.seats}
            n = 1
            while f"Computer {n} ({level})" in taken:
                n += 1
            seats = (*table.seats, Seat(None, f"Computer {n} ({level})", level))
            try:
                table = await self._lobby_write(table, seats=seats)
            except VersionConflict:
                raise Stale("The lobby just changed; please try again.") from None
            return self.board(table)

    async def remove_ai(self, table_id: int, version: int, user_id: int) -> Board:
        """The host removes the last computer player of the lobby."""
        async with self.lock(table_id):
            table = await self._get_lobby(table_id)
            self._require_host(table, user_id, "remove computer players")
            self._check_version(table, version)
            idx = [i for i, s in enumerate(table.seats) if s.ai is not None]
            if not idx:
                raise NotAllowed("There is no computer player to remove.", table_id=table_id)
            seats = tuple(s for i, s in enumerate(table.seats) if i != idx[-1])
            try:
                table = await self._lobby_write(table, seats=seats)
            except VersionConflict:
                raise Stale("The lobby just changed; please try again.") from None
            return self.board(table)

    async def cancel(self, table_id: int, version: int | None, user_id: int) -> Board:
        """The host closes the lobby."""
        async with self.lock(table_id):
            table = await self._get_lobby(table_id)
            self._require_host(table, user_id, "cancel the table")
            if version is not None:
                self._check_version(table, version)
            try:
                table = await self.store.end_table(
                    table.id, table.version, "cancelled", self.clock()
                )
            except VersionConflict:
                raise Stale("The lobby just changed; please try again.") from None
        self._locks.drop(table_id)
        log.info("table %s: cancelled by %s", table_id, user_id)
        return self.board(table)

    async def start(self, table_id: int, version: int | None, user_id: int) -> Step:
        """The host starts the game with the seated players (2 to 6)."""
        async with self.lock(table_id):
            table = await self._get_lobby(table_id)
            self._require_host(table, user_id, "start the game")
            if version is not None:
                self._check_version(table, version)
            n = len(table.seats)
            if not MIN_SEATS <= n <= MAX_SEATS:
                raise NotAllowed(
                    f"A game needs {MIN_SEATS} to {MAX_SEATS} players; {n} seated. "
                    "Invite friends or add a computer player.",
                    table_id=table_id,
                )
            game = self.deal(n, self.seed_source(), table.options)
            return await self._start_game(table, game)

    async def start_from_state(self, table_id: int, user_id: int, state: dict[str, Any]) -> Step:
        """Test seam: start a lobby's game from a chosen engine state (``Game.to_dict`` or the
        scenario format). Only tests call this; players always get a shuffled deal."""
        async with self.lock(table_id):
            table = await self._get_lobby(table_id)
            self._require_host(table, user_id, "start the game")
            game = Game.from_dict(state)
            if game.players != len(table.seats):
                raise BadRequest(
                    f"the state has {game.players} players, the table {len(table.seats)}"
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
            raise Stale("The lobby just changed; please try again.") from None
        log.info("table %s: game started with %s seats", table.id, len(table.seats))
        hands = [
            await self._hand(table, game, i)
            for i, s in enumerate(table.seats)
            if s.ai is None and s.user_id is not None
        ]
        return Step(
            "start",
            self.board(table, game),
            None,
            tuple(game.turn_events),
            None,
            hands=tuple(hands),
        )

    # --- timers ----------------------------------------------------------------------------------

    def _timers(self, table: Table, game: Game, now: float) -> tuple[float | None, float | None]:
        """The deadline and reminder time of the decision ``game`` waits for."""
        p = game.pending
        if p is None:
            if game.match_over:
                return None, None
            return now + self.next_round_pause_s, None
        seat = table.seats[p.player]
        if p.kind == "die" or seat.ai is not None:
            return now + AI_GRACE_S, None
        limit = float(table.options.turn_limit_s)
        deadline = now + limit
        lead = min(float(table.options.reminder_s), limit / 2)
        return deadline, (deadline - lead if lead > 0 else None)

    # --- moves -----------------------------------------------------------------------------------

    async def play(self, table_id: int, user_id: int, tile: str, digest: str) -> Step | SpotChoice:
        """A tile button: play ``tile`` from the hand ``digest`` names. With several spots, the
        answer is a :class:`SpotChoice`; with one, the move is applied at once."""
        async with self.lock(table_id):
            table, game = await self._get_game(table_id)
            seat = self._require_seat(table, user_id)
            p = game.pending
            if digest != hand_digest(table.id, game.round, game.hands[seat]):
                raise HandChanged(
                    "Your hand has changed since this message: use your latest hand "
                    "(the My hand button, or /fp hand).",
                    table_id=table_id,
                )
            if p is None or p.kind != "play" or p.player != seat:
                raise NotYourDecision(self._whose_turn(table, game), table_id=table_id)
            if tile not in game.hands[seat]:
                raise Stale("That tile is no longer in your hand.", table_id=table_id)
            if len(p.spots) > 1:
                return SpotChoice(
                    table.id,
                    table.version,
                    tile,
                    spot_labels(p.spots),
                    view(game, seat),
                    tuple(s.name for s in table.seats),
                )
            return await self._commit(table, game, seat, user_id, Play(tile, p.spots[0]))

    async def spot_choice(self, table_id: int, version: int, user_id: int, tile: str) -> SpotChoice:
        """The spots for ``tile`` again (another page of a long list of spots)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        self._check_version(table, version)
        p = game.pending
        if p is None or p.kind != "play" or p.player != seat or tile not in game.hands[seat]:
            raise Stale("That moment has passed: the game has moved on.", table_id=table_id)
        return SpotChoice(
            table.id,
            table.version,
            tile,
            spot_labels(p.spots),
            view(game, seat),
            tuple(s.name for s in table.seats),
        )

    async def choose_spot(
        self, table_id: int, version: int, user_id: int, tile: str, at: Pos
    ) -> Step:
        """A spot button: play ``tile`` at ``at``."""
        async with self.lock(table_id):
            table, game = await self._get_game(table_id)
            seat = self._require_seat(table, user_id)
            self._check_version(table, version)
            p = game.pending
            if p is None or p.kind != "play" or p.player != seat:
                raise NotYourDecision(self._whose_turn(table, game), table_id=table_id)
            return await self._commit(table, game, seat, user_id, Play(tile, at))

    async def fall(self, table_id: int, version: int, user_id: int, direction: str) -> Step:
        """A "Fall left" / "Fall right" button."""
        if direction not in ("left", "right"):
            raise BadRequest("A tile falls left or right.")
        async with self.lock(table_id):
            table, game = await self._get_game(table_id)
            seat = self._require_seat(table, user_id)
            p = game.pending
            if p is None or p.kind != "fall":
                raise Stale("That fall has already been decided.", table_id=table_id)
            if p.player != seat:
                raise NotYourDecision(self._whose_turn(table, game), table_id=table_id)
            self._check_version(table, version)
            return await self._commit(table, game, seat, user_id, Fall(direction))

    async def next_round(self, table_id: int, version: int, user_id: int) -> Step:
        """The "Next round" button (any seated player)."""
        async with self.lock(table_id):
            table, game = await self._get_game(table_id)
            seat = self._require_seat(table, user_id)
            if game.pending is not None or game.match_over:
                raise Stale("The next round has already started.", table_id=table_id)
            self._check_version(table, version)
            return await self._commit(table, game, seat, user_id, NextRound())

    def _whose_turn(self, table: Table, game: Game) -> str:
        p = game.pending
        if p is None:
            return "Nobody has to decide anything right now."
        name = table.seats[p.player].name
        if p.kind == "fall":
            return f"It is {name}'s decision where the tile falls, not yours."
        return f"It is {name}'s turn, not yours. I will mention you when it is your turn."

    async def _commit(
        self,
        table: Table,
        game: Game,
        seat: int | None,
        user_id: int | None,
        action: Action,
        *,
        timed_out: bool = False,
    ) -> Step:
        """Apply ``action`` (checked by the engine), roll a pending fire die, write everything
        (version-checked) and describe the result. The caller holds the table's lock."""
        before = view(game, None)
        hands_before = [tuple(h) for h in game.hands]
        try:
            events = list(game.apply(action, seat))
        except EngineError as err:
            raise _engine_refusal(err) from None
        table = await self._write(table, game, seat, user_id, action.to_dict())
        while game.pending is not None and game.pending.kind == "die":
            rolled = game.copy()
            roll = rolled.apply(Die(None))
            try:
                table = await self._write(table, rolled, None, None, {"die": "roll"})
            except Stale:
                # Another process moved the table on after our move was written: the move
                # stands; whoever holds the table now rolls the die (or the timer does).
                log.warning("table %s: the fire die was left to another process", table.id)
                break
            game = rolled
            events.extend(roll)
        results = None
        if game.match_over:
            results = self._results(table, game)
            table = await self.store.end_table(
                table.id, table.version, "finished", self.clock(), results
            )
            self._locks.drop(table.id)
            log.info("table %s: match over, winners %s", table.id, results["winners"])
        hands: list[Hand] = []
        if game.pending is not None:
            for i, s in enumerate(table.seats):
                if (
                    s.ai is None
                    and s.user_id is not None
                    and tuple(game.hands[i]) != hands_before[i]
                ):
                    hands.append(await self._hand(table, game, i))
        kind: Literal["move", "next_round"] = (
            "next_round" if isinstance(action, NextRound) else "move"
        )
        return Step(
            kind,
            self.board(table, game),
            None if kind == "next_round" else before,
            tuple(events),
            seat,
            timed_out,
            tuple(hands),
            results,
        )

    async def _write(
        self,
        table: Table,
        game: Game,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
    ) -> Table:
        now = self.clock()
        deadline, reminder = self._timers(table, game, now)
        try:
            left = bool(table.departed)
            return await self.store.apply_action(
                table.id,
                table.version,
                seat=seat,
                user_id=user_id,
                action=action,
                state=game.to_dict(),
                deadline=deadline,
                reminder_at=reminder,
                now=now,
                seats=table.seats if left else None,
                status="finished" if game.match_over else None,
            )
        except VersionConflict:
            raise Stale(
                "That moment has passed: somebody acted first. Nothing was changed.",
                table_id=table.id,
            ) from None

    @staticmethod
    def _results(table: Table, game: Game) -> dict[str, Any]:
        return {
            "seats": [s.to_dict() for s in table.seats],
            "scores": list(game.scores),
            "winners": game.winners(),
            "rounds": game.rounds,
        }

    # --- computer players and the game's own decisions -------------------------------------------

    def _ai_owner(self, table: Table, game: Game) -> int | None:
        """The seat of the computer player that must decide now (None: a person, or nothing)."""
        p = game.pending
        if p is None or p.kind == "die":
            return None
        return p.player if table.seats[p.player].ai is not None else None

    async def needs_advance(self, table_id: int) -> bool:
        """Whether the game waits for a computer player or the fire die."""
        try:
            table, game = await self._get_game(table_id)
        except TableError:
            return False
        p = game.pending
        return p is not None and (p.kind == "die" or self._ai_owner(table, game) is not None)

    async def advance(self, table_id: int) -> Step | None:
        """Make the next decision if a computer player (or the fire die) owns it; None if a
        person must decide, the round is over, or somebody else made it first."""
        try:
            table, game = await self._get_game(table_id)
        except TableError:
            return None
        p = game.pending
        if p is None:
            return None
        if p.kind == "die":
            async with self.lock(table_id):
                table, game = await self._get_game(table_id)
                if game.pending is None or game.pending.kind != "die":
                    return None
                return await self._commit(table, game, None, None, Die(None))
        seat = self._ai_owner(table, game)
        if seat is None:
            return None
        level = table.seats[seat].ai or TIMEOUT_LEVEL
        action = await self._choose(table, game, seat, level)
        async with self.lock(table_id):
            fresh, game = await self._get_game(table_id)
            if fresh.version != table.version:
                return None
            return await self._commit_ai(fresh, game, seat, action, timed_out=False)

    async def _choose(self, table: Table, game: Game, seat: int, level: str) -> Action:
        seed = (table.id * 1_000_003 + table.version) & 0x7FFFFFFF
        v = view(game, seat)
        try:
            return await asyncio.to_thread(self.ai, level, v, seed)
        except Exception:
            log.exception(
                "table %s: computer player failed; playing the first legal action", table.id
            )
            return first_legal(v)

    async def _commit_ai(
        self, table: Table, game: Game, seat: int, action: Action, *, timed_out: bool
    ) -> Step:
        try:
            game.check(action, seat)
        except EngineError:
            log.error("table %s: a computer player chose an illegal action", table.id)
            log.debug("table %s: the illegal action was %r", table.id, action)
            action = game.legal_actions()[0]
        return await self._commit(table, game, seat, None, action, timed_out=timed_out)

    async def due_tables(self) -> list[int]:
        """Ids of the tables with a timer due now."""
        return [t.id for t in await self.store.due_timers(self.clock())]

    async def run_timers(self, table_id: int) -> list[TimerOutcome]:
        """Handle one table's due timers: a reminder, a computer turn for an absent player, the
        next round after a pause, or a decision a crash left unmade. Returns what to show."""
        try:
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

    async def _due(self, table_id: int, now: float) -> list[TimerOutcome]:
        out: list[TimerOutcome] = []
        table, game = await self._get_game(table_id)
        p = game.pending
        if table.deadline is not None and table.deadline <= now:
            if p is None:
                if not game.match_over:
                    async with self.lock(table_id):
                        table, game = await self._get_game(table_id)
                        if game.pending is None and not game.match_over:
                            out.append(await self._commit(table, game, None, None, NextRound()))
                return out
            if p.kind == "die" or table.seats[p.player].ai is not None:
                step = await self.advance(table_id)
                if step is not None:
                    out.append(step)
                return out
            seat = p.player
            for _ in range(20):
                action = await self._choose(table, game, seat, TIMEOUT_LEVEL)
                async with self.lock(table_id):
                    fresh, game = await self._get_game(table_id)
                    pend = game.pending
                    if fresh.version != table.version or pend is None or pend.player != seat:
                        break
                    step = await self._commit_ai(fresh, game, seat, action, timed_out=True)
                log.info("table %s: seat %s timed out; a computer player decided", table_id, seat)
                out.append(step)
                # The computer finishes that one turn: the absent player's fall choices too,
                # also those that follow the fire die (the step's board is after the roll).
                nxt = step.board.prompt
                if nxt.kind != "fall" or nxt.seat != seat:
                    break
                table, game = await self._get_game(table_id)
            return out
        if table.reminder_at is not None and table.reminder_at <= now and p is not None:
            async with self.lock(table_id):
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
            if seat_obj.ai is None and seat_obj.user_id is not None:
                out.append(Reminder(self.board(table, game), seat_obj.user_id, p.player))
        return out

    # --- leaving, aborting, settings -------------------------------------------------------------

    async def leave(self, channel_id: int, user_id: int) -> Board | LeftGame:
        """``/fp leave``: leave the lobby, or hand a running game's seat to a computer player
        (the table closes when nobody is left)."""
        table = await self.table_in_channel(channel_id)
        if table.status == "lobby":
            return await self.leave_lobby(table.id, user_id)
        async with self.lock(table.id):
            table, game = await self._get_game(table.id)
            seat = self._require_seat(table, user_id)
            await self.store.record_departure(table.id, seat, user_id, self.clock())
            table = await self._get(table.id)
            if not any(s.ai is None for s in table.seats):
                table = await self.store.end_table(table.id, table.version, "aborted", self.clock())
                self._locks.drop(table.id)
                log.info("table %s: the last player left; table closed", table.id)
                return LeftGame(self.board(table, game), seat, True)
            log.info("table %s: seat %s left; a computer player took it", table.id, seat)
            return LeftGame(self.board(table, game), seat, False)

    async def abort(self, channel_id: int, user_id: int, *, may_manage: bool) -> Board:
        """``/fp abort``: the host, or a member allowed to manage the channel, closes the table
        (also one whose record cannot be read any more, to free the channel)."""
        try:
            await self.store.open_table_in_channel(channel_id)
        except CorruptRecord as err:
            if not may_manage or err.version is None:
                raise NotAllowed(
                    "This table's record cannot be read; someone who can manage the channel "
                    "can close it.",
                    table_id=err.table_id,
                ) from None
            table = await self.store.end_table(err.table_id, err.version, "aborted", self.clock())
            log.warning("table %s: unreadable table aborted by %s", err.table_id, user_id)
            return Board(table, None, Prompt("closed"))
        table = await self.table_in_channel(channel_id)
        if table.host_id != user_id and not may_manage:
            raise NotAllowed(
                "Only the host or someone who can manage this channel can abort the table.",
                table_id=table.id,
            )
        async with self.lock(table.id):
            table = await self._get_open(table.id)
            try:
                table = await self.store.end_table(table.id, table.version, "aborted", self.clock())
            except VersionConflict:
                raise Stale("The table just changed; please try again.") from None
        self._locks.drop(table.id)
        log.info("table %s: aborted by %s", table.id, user_id)
        return self.board(table)

    async def set_hand_mode(self, user_id: int, mode: Literal["dm", "channel"]) -> None:
        """Choose for good how a player gets their hands: direct messages, or ephemeral replies."""
        from data.store import PlayerPrefs

        await self.store.set_prefs(PlayerPrefs(user_id, mode))

    async def note_dm_failed(self, table_id: int, user_id: int) -> bool:
        """Remember that a direct message to ``user_id`` failed at this table; True the first time
        (so the channel is told once)."""
        return await self.store.note_dm_failed(table_id, user_id)

    async def mark_shown(self, table_id: int, version: int) -> None:
        """Remember that the channel has seen the table at ``version`` (see :meth:`unshown`)."""
        await self.store.mark_shown(table_id, version)

    async def unshown(self) -> list[Board]:
        """Games whose latest move was committed but never shown (the bot stopped in between),
        waiting for a person: to post their picture again after a restart."""
        out: list[Board] = []
        for table in await self.store.open_tables():
            if table.status != "playing" or table.shown_version == table.version:
                continue
            try:
                board = self.board(self._effective(table))
            except Exception:
                log.exception("table %s: cannot be shown", table.id)
                continue
            if board.prompt.user_id is not None or board.prompt.kind == "next_round":
                out.append(board)
        return out

    async def remember_message(self, table_id: int, key: str, message_id: int) -> None:
        """Remember a Discord message id (the lobby, the latest picture...)."""
        await self.store.set_message(table_id, key, message_id)

    async def settings(
        self,
        guild_id: int,
        *,
        turn_limit_s: int | None = None,
        reminder_s: int | None = None,
        defaults: TableDefaults | None = None,
    ) -> GuildSettings:
        """``/fp settings``: change (and return) a server's settings."""
        current = await self.store.get_guild_settings(guild_id)
        if turn_limit_s is not None:
            if not MIN_TURN_LIMIT_S <= turn_limit_s <= MAX_TURN_LIMIT_S:
                raise BadRequest("The turn time limit must be between 1 minute and 14 days.")
            current = replace(current, turn_limit_s=turn_limit_s)
        if reminder_s is not None:
            current = replace(current, reminder_s=max(0, reminder_s))
        changed = defaults is not None and bool(defaults.to_dict())
        if defaults is not None and changed:
            merged = {**current.defaults.to_dict(), **defaults.to_dict()}
            current = replace(current, defaults=TableDefaults.from_dict(merged))
        if turn_limit_s is not None or reminder_s is not None or changed:
            await self.store.set_guild_settings(current)
        return current

    async def open_tables(self) -> list[Table]:
        """Every open table (to finish computer decisions a restart interrupted)."""
        return await self.store.open_tables()

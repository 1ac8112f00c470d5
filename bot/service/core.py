"""The table service's common ground: reading tables, what a table shows, hands, timers, and
writing a decision (the engine checks it, the store keeps it, version-checked).

It is longer than the other parts of the service because every other part (the lobby, the
moves, the computer players) builds on these steps; the choices of players and servers at its
end are the next candidate to move out.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal, NamedTuple

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
from bot.kept import Kept
from bot.service.languages import SERVER_LANGUAGE, KnownLanguages, language_choices
from bot.service.results import (
    Board,
    Hand,
    MatchResult,
    Prompt,
    PromptKind,
    Step,
)
from bot.service.settings import SettingsChange
from data.store import (
    CorruptRecord,
    GuildSettings,
    NotFound,
    PlayerPrefs,
    PlayerReach,
    Seat,
    ServiceStore,
    Table,
    TableOptions,
    VersionConflict,
)
from engine import (
    Action,
    EngineError,
    Event,
    Fall,
    Game,
    MatchOverError,
    NextRound,
    NotYourDecisionError,
    Play,
    RoundOverError,
    View,
    WrongDecisionError,
    action_from_dict,
    fitting_tiles,
    view,
)
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
DM_RETRY_S = 24 * 3600
"""After Discord refused a direct message to a player, the bot tries one again at most this
long later (or as soon as they ask for it with ``/fp notify`` or the hand-mode choice)."""
"""The level of the computer player that plays one turn for an absent player."""
AI_GRACE_S = 30.0
"""A decision owned by a computer (or the fire die) is made at once; its deadline is only a
safety net that makes the timer loop finish it after a crash."""
NEXT_ROUND_PAUSE_S = 120.0
"""After a won round of a multi-round match, the next round starts by itself after this pause
(or at once with the "Next round" button)."""
MAX_NAME = 32
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

    # --- reading ---------------------------------------------------------------------------------

    async def _get(self, table_id: int) -> Table:
        try:
            return self._effective(await self.store.get_table(table_id))
        except NotFound:
            raise NoTable(Why.TABLE_CLOSED, table_id=table_id) from None
        except CorruptRecord as err:
            self._report_unreadable(err)
            raise TableError(
                Why.UNREADABLE_TABLE,
                table_id=table_id,
            ) from None

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
            raise TableError(
                Why.UNREADABLE_CHANNEL_TABLE,
                table_id=err.table_id,
            ) from None
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
            raise NotSeated(
                Why.NOT_PLAYING,
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

    async def _hands(
        self, table: Table, game: Game, shown: Sequence[tuple[int, bool]]
    ) -> list[Hand]:
        """The hands of the seats of ``shown`` (a seat, and whether its hand begins a decision:
        see :meth:`_hand`), their players' preferences read at once."""
        if not shown:
            return []
        users = [table.seats[i].user_id for i, _ in shown]
        reach = await self.store.get_reach([u for u in users if u is not None])
        return [await self._hand(table, game, i, begins=begins, reach=reach) for i, begins in shown]

    async def _hand(
        self,
        table: Table,
        game: Game,
        seat: int,
        *,
        begins: bool = False,
        reach: dict[int, PlayerReach] | None = None,
    ) -> Hand:
        """The hand of ``seat``; ``begins``: it begins a decision of the player (see
        :attr:`Hand.begins`), with the others' turns since their last move (for the direct
        message that tells them). ``reach``: the player's preferences, if already read
        (:meth:`_hands`)."""
        s = table.seats[seat]
        assert s.user_id is not None
        if reach is None:
            reach = await self.store.get_reach([s.user_id])
        prefs = reach[s.user_id].prefs
        p = game.pending
        decision: Literal["play", "fall", "wait"] = "wait"
        if p is not None and p.player == seat and p.kind in ("play", "fall"):
            decision = "play" if p.kind == "play" else "fall"
        fitting = fitting_tiles(game) if decision == "play" and table.options.preview else ()
        your_turn = p is not None and p.kind == "play" and p.player == seat
        wants_dm = prefs.hand_mode == "dm"
        refused_at = reach[s.user_id].dm_refused_at if wants_dm else None
        # Refused DMs are tried again once a day (or when the player asks, which forgets them).
        dm = wants_dm and (refused_at is None or self.clock() - refused_at >= DM_RETRY_S)
        wants_told = dm and prefs.dm_on_turn
        since = (
            await self._turns_since(table, seat)
            if begins and decision != "wait" and wants_told
            else ()
        )
        return Hand(
            table_id=table.id,
            guild_id=table.guild_id,
            channel_id=table.place_id,
            user_id=s.user_id,
            seat=seat,
            view=view(game, seat),
            names=tuple(x.name for x in table.seats),
            digest=hand_digest(table.id, game.round, game.hands[seat]),
            version=table.version,
            your_turn=your_turn,
            dm=dm,
            dms_closed=wants_dm and not dm,
            dm_refused_at=refused_at,
            dm_failed_before=s.user_id in table.dm_failed,
            dm_on_turn=prefs.dm_on_turn,
            decision=decision,
            fitting=tuple(fitting),
            deadline=table.deadline if decision != "wait" else None,
            board_message_id=Kept.BOARD.of(table.messages),
            since=tuple(since),
            begins=begins and decision != "wait",
            table_number=table.number,
            language=self.languages.of_player(prefs),
        )

    async def _turns_since(self, table: Table, seat: int) -> list[tuple[Event, ...]]:
        """What the game did since ``seat`` last placed a tile: one group of events per turn of
        the others (their placement, its falls and fire die), replayed from the table's action
        log, so any process tells it the same. Empty when the log cannot be replayed."""
        table_id = table.id
        if table.initial_state is None:
            return []
        turns: list[list[Event]] = []
        try:
            game = Game.from_dict(table.initial_state)
            for logged in await self.store.action_log(table_id):
                action = action_from_dict(logged.action)
                events = game.apply(action)
                if isinstance(action, Play):
                    if logged.seat == seat:
                        turns = []
                        continue
                    turns.append([])
                if turns:
                    turns[-1].extend(events)
        except EngineError as err:
            # (The engine's words may name a tile of someone's hand: only at DEBUG.)
            log.warning(
                "table %s: its action log does not replay (%s)", table_id, type(err).__name__
            )
            log.debug("table %s: the action log does not replay: %s", table_id, err)
            return []
        return [tuple(t) for t in turns]

    async def hand(self, table_id: int, user_id: int, *, begins: bool = False) -> Hand:
        """A player's hand (for the "My hand" button); only its owner ever gets it. With
        ``begins``, as the beginning of their decision (see :attr:`Hand.begins`), with what
        the others did since their last move."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        return await self._hand(table, game, seat, begins=begins)

    async def hand_in_channel(self, channel_id: int, user_id: int) -> Hand:
        """A player's hand at the table of a channel (``/fp hand``)."""
        table = await self.table_in_channel(channel_id)
        if table.status != "playing":
            raise Stale(Why.HAND_BEFORE_START, table_id=table.id)
        return await self.hand(table.id, user_id)

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
            raise Stale(
                Why.PASSED_MOMENT,
                table_id=table.id,
            )

    def _require_host(self, table: Table, user_id: int, what: Why) -> None:
        if table.host_id != user_id:
            raise NotAllowed(what, table_id=table.id)

    # --- timers ----------------------------------------------------------------------------------

    def _timers(
        self, table: Table, game: Game, now: float, *, same_turn: bool = False
    ) -> tuple[float | None, float | None]:
        """The deadline and reminder time of the decision ``game`` waits for. A person's fall
        choice in their own turn that is still running (``same_turn``) keeps the turn's
        deadline: the deadline covers the whole turn (unless it has passed: then the chooser
        gets a new one). A decision passed to another person gets that person's whole limit,
        never a computer's grace nor what was left of someone else's turn."""
        p = game.pending
        if p is None:
            if game.match_over:
                return None, None
            return now + self.next_round_pause_s, None
        seat = table.seats[p.player]
        if p.kind == "die" or seat.ai is not None:
            return now + AI_GRACE_S, None
        # A fall chosen by the player whose turn it is belongs to that turn; a fall passed to
        # someone else (a curse) is their own decision, with their whole time limit.
        if (
            same_turn
            and p.kind == "fall"
            and p.player == game.active
            and table.deadline is not None
            and table.deadline > now
        ):
            kept = table.reminder_at
            return table.deadline, (kept if kept is not None and kept > now else None)
        limit = float(table.options.turn_limit_s)
        deadline = now + limit
        lead = min(float(table.options.reminder_s), limit / 2)
        return deadline, (deadline - lead if lead > 0 else None)

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
        except (NotYourDecisionError, WrongDecisionError, RoundOverError) as err:
            if seat is None or not isinstance(action, Play | Fall):
                raise _engine_refusal(err) from None
            raise self._not_yours(table, game) from None
        except EngineError as err:
            raise _engine_refusal(err) from None
        # A new turn begins with a "turn" event; until then, a fall is part of the same turn.
        same_turn = not isinstance(action, NextRound) and all(e.kind != "turn" for e in events)
        table = await self._write(table, game, seat, user_id, action.to_dict(), same_turn)
        while game.pending is not None and game.pending.kind == "die":
            rolled = game.copy()
            roll = rolled.apply(Die(None))
            try:
                same_turn = same_turn and all(e.kind != "turn" for e in roll)
                table = await self._write(table, rolled, None, None, {"die": "roll"}, same_turn)
            except Stale:
                # Another process moved the table on after our move was written: the move
                # stands; whoever holds the table now rolls the die (or the timer does).
                log.warning("table %s: the fire die was left to another process", table.id)
                break
            game = rolled
            events.extend(roll)
        results = None
        if game.match_over:
            results = self._results(game)
            table = await self.store.end_table(
                table.id, table.version, "finished", self.clock(), results.to_dict(table)
            )
            log.info("table %s: match over, winners %s", table.id, results.winners)
        p = game.pending
        turn_began = (
            p is not None
            and p.kind == "play"
            and not (
                before.pending is not None
                and before.pending.kind == "play"
                and before.pending.player == p.player
            )
        )
        # A decision begins for a person unless they go on deciding on the screen they are
        # looking at: a fall after their own placement, decided by their own click.
        decision_began = (
            p is not None and p.kind in ("play", "fall") and (turn_began or p.player != seat)
        )
        shown: list[tuple[int, bool]] = []  # the hands that changed or begin a decision
        if p is not None:
            for i, s in enumerate(table.seats):
                changed = tuple(game.hands[i]) != hands_before[i]
                began = decision_began and i == p.player
                if s.ai is None and s.user_id is not None and (changed or began):
                    shown.append((i, began))
        # The clicker's own hand, for their screen, is read with the others (one read).
        clicker = seat if user_id is not None and not game.match_over else None
        apart = [] if clicker is None or clicker in (i for i, _ in shown) else [(clicker, False)]
        built = await self._hands(table, game, shown + apart)
        hands = built[: len(shown)]
        mine = next((h for h in built if h.seat == clicker), None)
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
            turn_events=tuple(game.turn_events) if kind == "move" else (),
            continues_turn=isinstance(action, Fall | Die),
            turn=(game.round, game.turn),  # a placement counts the turn; its falls do not
            mine=mine,
        )

    async def _write(
        self,
        table: Table,
        game: Game,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
        same_turn: bool = False,
    ) -> Table:
        now = self.clock()
        deadline, reminder = self._timers(table, game, now, same_turn=same_turn)
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
                Why.ACTED_FIRST,
                table_id=table.id,
            ) from None

    @staticmethod
    def _results(game: Game) -> MatchResult:
        return MatchResult(tuple(game.winners()), tuple(game.scores), game.rounds)

    async def dm_refused_at(self, user_id: int) -> float | None:
        """When Discord last refused a direct message to the player (None: not remembered)."""
        return await self.store.dm_refused_at(user_id)

    async def dms_closed(self, user_id: int) -> bool:
        """Whether the bot does not DM the player now: Discord refused a direct message to
        them less than :data:`DM_RETRY_S` ago."""
        refused_at = await self.dm_refused_at(user_id)
        return refused_at is not None and self.clock() - refused_at < DM_RETRY_S

    async def set_hand_mode(self, user_id: int, mode: Literal["dm", "channel"]) -> None:
        """Choose for good how a player gets their hands: direct messages, or ephemeral replies.
        Choosing direct messages tries them again, even if Discord refused one lately."""
        prefs = await self.store.get_prefs(user_id)
        await self.store.set_prefs(replace(prefs, hand_mode=mode))
        if mode == "dm":
            await self.store.clear_dm_refused(user_id)

    async def set_notify(
        self, user_id: int, *, on_turn: bool | None = None, reminders: bool | None = None
    ) -> PlayerPrefs:
        """``/fp notify``: whether a player gets a direct message when their turn begins, and
        reminders before its end (None: unchanged). Returns the choices as they now stand.
        It also tries direct messages again, even if Discord refused one lately."""
        prefs = await self.store.get_prefs(user_id)
        await self.store.clear_dm_refused(user_id)
        if on_turn is not None:
            prefs = replace(prefs, dm_on_turn=on_turn)
        if reminders is not None:
            prefs = replace(prefs, reminders=reminders)
        await self.store.set_prefs(prefs)
        return prefs

    async def note_languages(
        self,
        user_id: int,
        locale: str | None,
        guild_id: int | None = None,
        guild_locale: str | None = None,
    ) -> None:
        """Note the languages an interaction came with (Discord's locale tags: the user's
        client's ``locale``; in a server, its ``guild_locale``), for what is sent later: the
        player's direct messages (:attr:`Hand.language`, :attr:`Reminder.language`) and the
        posts of the server's next tables (:attr:`Table.language`). Only a change is written
        (see :class:`~bot.service.languages.KnownLanguages`)."""
        await self.languages.note(user_id, locale, guild_id, guild_locale)

    async def unshown(self, before: float) -> list[Board]:
        """Games whose latest move was committed but never shown (the bot stopped in between),
        waiting for a person: to post their picture again after a restart. Only moves made
        before ``before`` (when this process started) count: a move made since is being shown
        by whoever made it."""
        out: list[Board] = []
        for table in await self.store.open_tables():
            if table.status != "playing" or table.shown_version == table.version:
                continue
            if table.updated_at >= before:
                continue
            try:
                board = self.board(self._effective(table))
            except Exception:
                log.exception("table %s: cannot be shown", table.id)
                continue
            if board.prompt.user_id is not None or board.prompt.kind == "next_round":
                out.append(board)
        return out

    async def settings(self, guild_id: int, change: SettingsChange) -> GuildSettings:
        """``/fp-settings``: change (and return) a server's settings. A ``language`` given is
        the language of the posts of the server's new tables, one of :func:`language_choices`
        (:data:`SERVER_LANGUAGE`: the server's own); a ValueError for one that is not a choice
        (the adapter offers only those)."""
        given = dict(change.given)
        language = given.get("language")
        if language is not None and language not in language_choices():
            raise ValueError(f"not a language choice: {language!r}")
        current = await self.store.get_guild_settings(guild_id)
        if language == SERVER_LANGUAGE:
            given["language"] = None
        turn_limit_s = given.get("turn_limit_s")
        if isinstance(turn_limit_s, int) and not (
            MIN_TURN_LIMIT_S <= turn_limit_s <= MAX_TURN_LIMIT_S
        ):
            raise BadRequest(Why.TURN_LIMIT_RANGE)
        reminder_s = given.get("reminder_s")
        if isinstance(reminder_s, int):
            given["reminder_s"] = max(0, reminder_s)
        if not given:
            return current
        current = SettingsChange(given).applied_to(current)
        await self.store.set_guild_settings(current)
        return current

    async def open_tables(self) -> list[Table]:
        """Every open table (to finish computer decisions a restart interrupted)."""
        return await self.store.open_tables()

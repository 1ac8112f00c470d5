"""Writing a decision: the engine checks and applies it, a pending fire die is rolled, the store
keeps it (version-checked) with the next decision's deadline and reminder, and the result is
described as a :class:`~bot.service.results.Step` with the hands it changed."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any, Literal

from bot.errors import (
    Stale,
    TableError,
    Why,
)
from bot.service.core import AI_GRACE_S, _engine_refusal
from bot.service.hands import PlayerHands
from bot.service.results import MatchResult, NoUndo, Step
from data.store import (
    HeldTurn,
    LoggedAction,
    Table,
    VersionConflict,
)
from engine import (
    Action,
    EngineError,
    Event,
    Fall,
    Game,
    NextRound,
    NotYourDecisionError,
    Play,
    RoundOverError,
    View,
    WrongDecisionError,
    action_from_dict,
    view,
)
from engine.model import Die

log = logging.getLogger(__name__)


class Writing(PlayerHands):
    """The one way a decision is written, for the moves, the computer players and the timers."""

    # --- timers ----------------------------------------------------------------------------------

    def _timers(
        self, table: Table, game: Game, now: float, *, same_turn: bool = False
    ) -> tuple[float | None, float | None]:
        """The deadline and reminder time of the decision ``game`` waits for. A person's fall
        choice in their own turn that is still running (``same_turn``) keeps the turn's
        deadline: the deadline covers the whole turn (unless it has passed: then the chooser
        gets a new one). A decision passed to another person gets that person's whole limit,
        never a computer's grace nor what was left of someone else's turn. A decision of a
        person who is away is the computer's (its grace). While the game is paused no person's
        clock runs: the pause's end is the table's one timer."""
        p = game.pending
        pause = self._paused(table)
        if p is None:
            if game.match_over:
                return None, None
            if pause is not None:
                return pause.until, None
            return now + self.next_round_pause_s, None
        seat = table.seats[p.player]
        if p.kind == "die" or seat.ai is not None or p.player in self._away_seats(table):
            return now + AI_GRACE_S, None
        if pause is not None:
            return pause.until, None
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
        action: Action | None,
        *,
        timed_out: bool = False,
        no_undo: NoUndo | None = None,
        away: bool = False,
        stand_in: str | None = None,
    ) -> Step:
        """Apply ``action`` (checked by the engine), roll a pending fire die, write everything
        (version-checked) and describe the result. The caller holds the table's lock.

        At a table that holds a person's turn back (:attr:`Table.held`), that turn's
        decisions come first and the whole turn is handed on at once (Done, its window's end,
        or ``action`` revealing something: ``no_undo`` says why); ``action`` None hands on
        the held decisions alone. Nothing of a held turn was shown: its step is a new
        message for the whole turn. A decision of a person's own (``user_id``) brings them
        back if they were away, and starts their count of time-outs in a row again
        (:meth:`_own_decision`)."""
        back = await self._own_decision(table, user_id)
        before = view(game, None)
        hands_before = [tuple(h) for h in game.hands]
        held = table.held
        events = [] if held is None else self._replay_held(table, game, held)
        if action is not None:
            events += self._apply(table, game, seat, action)
        # A new turn begins with a "turn" event; until then, a fall is part of the same turn.
        same_turn = not isinstance(action, NextRound) and all(e.kind != "turn" for e in events)
        if held is not None:
            table = await self._hand_on(table, game, held, user_id, action, same_turn)
        else:
            assert action is not None
            table = await self._write(table, game, seat, user_id, action.to_dict(), same_turn)
        passed_to = None
        if no_undo == "passed" and game.pending is not None:
            passed_to = table.seats[game.pending.player].name
        table, game = await self._roll_die(table, game, events, same_turn)
        results = None
        if game.match_over:
            results = self._results(game)
            table = await self.store.end_table(
                table.id, table.version, "finished", self.clock(), results.to_dict(table)
            )
            log.info("table %s: match over, winners %s", table.id, results.winners)
        shown = self._shown(table, game, before, hands_before, seat, self._away_seats(table))
        # The clicker's own hand, for their screen, is read with the others (one read).
        clicker = seat if user_id is not None and not game.match_over else None
        apart = [] if clicker is None or clicker in (i for i, _ in shown) else [(clicker, False)]
        built = await self._hands(table, game, shown + apart)
        kind: Literal["move", "next_round"] = (
            "next_round" if isinstance(action, NextRound) else "move"
        )
        return Step(
            kind,
            await self._told(table, game),
            None if kind == "next_round" else before,
            tuple(events),
            seat,
            timed_out,
            away,
            tuple(built[: len(shown)]),
            results,
            turn_events=tuple(game.turn_events) if kind == "move" else (),
            continues_turn=held is None and isinstance(action, Fall | Die),
            turn=(game.round, game.turn),  # a placement counts the turn; its falls do not
            mine=next((h for h in built if h.seat == clicker), None),
            no_undo=no_undo,
            passed_to=passed_to,
            back=back,
            stand_in=stand_in,
        )

    def _replay_held(self, table: Table, game: Game, held: HeldTurn) -> list[Event]:
        """The events of the held turn's decisions, applied to ``game`` (the table's state:
        the game before that turn)."""
        events: list[Event] = []
        for logged in held.actions:
            try:
                events += game.apply(action_from_dict(logged), held.seat)
            except EngineError as err:
                # Checked when they were held: the record is damaged.
                log.error("table %s: its held turn does not replay", table.id)
                raise TableError(Why.UNREADABLE_TABLE, table_id=table.id) from err
        return events

    async def _hand_on(
        self,
        table: Table,
        game: Game,
        held: HeldTurn,
        user_id: int | None,
        action: Action | None,
        same_turn: bool,
    ) -> Table:
        """Write the held turn's decisions (and ``action``, by ``user_id``, if one ends it)
        into the state and the log, at once (version-checked, and only if the table still
        holds that turn)."""
        now = self.clock()
        deadline, reminder = self._timers(table, game, now, same_turn=same_turn)
        base = table.version - len(held.actions)
        logged = [
            LoggedAction(table.id, base + 1 + i, held.seat, held.user_id, a, at)
            for i, (a, at) in enumerate(zip(held.actions, held.at, strict=True))
        ]
        if action is not None:
            logged.append(
                LoggedAction(table.id, table.version + 1, held.seat, user_id, action.to_dict(), now)
            )
        try:
            return await self.store.hand_on(
                table.id,
                table.version,
                held.token,
                actions=logged,
                state=game.to_dict(),
                deadline=deadline,
                reminder_at=reminder,
                now=now,
                seats=table.seats if table.departed else None,
                status="finished" if game.match_over else None,
            )
        except VersionConflict:
            raise Stale(Why.ACTED_FIRST, table_id=table.id) from None

    async def _own_decision(self, table: Table, user_id: int | None) -> bool:
        """A person's own decision (``user_id``; None: the game's or a computer's): if the
        store keeps an absence of theirs in the server (:attr:`Table.absences`), it ends: they
        are back if they were away, and their time-outs in a row count from zero again. True
        if they were away."""
        if user_id is None or user_id not in table.absences:
            return False
        ended = await self.store.end_away(table.guild_id, user_id)
        if ended is not None and ended.away_at(self.clock()):
            log.info("table %s: a player who was away is back by playing", table.id)
            return True
        return False

    def _apply(self, table: Table, game: Game, seat: int | None, action: Action) -> list[Event]:
        """The events of ``action`` applied to ``game`` by ``seat``; the engine checks it first
        (nothing is half-applied), and its refusal becomes the service's."""
        try:
            return list(game.apply(action, seat))
        except (NotYourDecisionError, WrongDecisionError, RoundOverError) as err:
            if seat is None or not isinstance(action, Play | Fall):
                raise _engine_refusal(err) from None
            raise self._not_yours(table, game) from None
        except EngineError as err:
            raise _engine_refusal(err) from None

    async def _roll_die(
        self, table: Table, game: Game, events: list[Event], same_turn: bool
    ) -> tuple[Table, Game]:
        """Roll the fire die while one is pending, each roll written (its events added to
        ``events``); the table and the game as they then stand."""
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
        return table, game

    @staticmethod
    def _shown(
        table: Table,
        game: Game,
        before: View,
        hands_before: Sequence[tuple[str, ...]],
        seat: int | None,
        away: Collection[int] = (),
    ) -> list[tuple[int, bool]]:
        """The people's hands a change shows, each with whether it begins their decision: the
        hands it changed, and the hand of whoever must decide next. A decision of a person who
        is away (a seat of ``away``) begins for nobody: the computer makes it at once, and
        nothing is sent to tell them."""
        p = game.pending
        if p is None:
            return []
        turn_began = p.kind == "play" and not (
            before.pending is not None
            and before.pending.kind == "play"
            and before.pending.player == p.player
        )
        # A decision begins for a person unless they go on deciding on the screen they are
        # looking at: a fall after their own placement, decided by their own click.
        decision_began = p.kind in ("play", "fall") and (turn_began or p.player != seat)
        shown: list[tuple[int, bool]] = []
        for i, s in enumerate(table.seats):
            changed = tuple(game.hands[i]) != hands_before[i]
            began = decision_began and i == p.player and i not in away
            if s.ai is None and s.user_id is not None and (changed or began):
                shown.append((i, began))
        return shown

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

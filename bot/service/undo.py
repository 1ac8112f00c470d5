"""A person's turn held back for its undo window: their tile (and its falls, on their own screen)
is kept beside the table's state (:class:`data.store.HeldTurn`), seen by nobody else, until they
press Done, the window ends (a timer any process may claim hands it on) or the turn reveals
something they could not see before: a roll of the fire die, or a decision passed to another
player (the curse). Undo forgets it, and the table is as it was before their tile.

Nothing of a held turn is told, drawn or handed on: the table's state, its action log (which
replays, exports and ratings read) and what everyone else sees stay those of before the turn;
the player's own screen shows what the turn did, with their hand before its draw
(:func:`engine.before_draw`: the tiles drawn would tell them what lies on their pile). A turn
is handed on whole, as one step (:meth:`bot.service.writing.Writing._commit`).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace

from bot.errors import Stale, Why
from bot.service.results import Hand, HeldScreen, Step, undo_window
from bot.service.writing import Writing
from data.store import HeldTurn, Table, VersionConflict
from engine import Fall, Game, Play, action_from_dict, before_draw

log = logging.getLogger(__name__)


class Undoing(Writing):
    """Holding a person's turn back, handing it on, and taking it back."""

    async def _decide(
        self, table: Table, game: Game, seat: int, user_id: int, action: Play | Fall
    ) -> Step | Hand:
        """A person's decision of their own turn: its tile, or a fall of it. At a table with
        an undo window (:func:`~bot.service.core.undo_window`) the turn is held back: the
        answer is the player's :class:`Hand` (the fall to decide next, or the turn done, with
        Undo and Done), and nobody else is told anything. A decision that rolls the fire die
        or passes one to another player hands the turn on at once (the :class:`Step` says
        why: ``no_undo``); so does every decision at a table without a window."""
        held = table.held
        window = undo_window(table)
        if held is None and (window <= 0 or not isinstance(action, Play)):
            return await self._commit(table, game, seat, user_id, action)
        turn = game.copy()
        if held is not None:
            self._replay_held(table, turn, held)
        self._apply(table, turn, seat, action)  # checked: refused as any decision would be
        p = turn.pending
        if p is not None and p.kind == "die":
            return await self._commit(table, game, seat, user_id, action, no_undo="die")
        if p is not None and p.kind == "fall" and p.player != seat:
            return await self._commit(table, game, seat, user_id, action, no_undo="passed")
        back = await self._own_decision(table, user_id)
        now = self.clock()
        turn_deadline = held.deadline if held is not None else table.deadline
        until = None
        if p is None or p.kind == "play":  # the turn is over: its window opens
            until = now + window
            if turn_deadline is not None:
                until = min(until, turn_deadline)
            if until <= now:
                return await self._commit(table, game, seat, user_id, action)
        kept = HeldTurn(
            seat=seat,
            user_id=user_id,
            actions=(*(held.actions if held else ()), action.to_dict()),
            at=(*(held.at if held else ()), now),
            token=held.token if held is not None else secrets.token_hex(4),
            until=until,
            deadline=turn_deadline,
            reminder_at=held.reminder_at if held is not None else table.reminder_at,
        )
        try:
            table = await self.store.hold_turn(
                table.id,
                table.version,
                kept,
                replacing=None if held is None else held.token,
                # The window's end is the table's timer (any process hands the turn on
                # then); until then, a fall of the turn is under the turn's own deadline.
                deadline=until if until is not None else table.deadline,
                reminder_at=None if until is not None else table.reminder_at,
                now=now,
            )
        except VersionConflict:
            raise Stale(Why.ACTED_FIRST, table_id=table.id) from None
        if until is not None:
            log.debug("table %s: seat %s's turn held until %.0f", table.id, seat, until)
        hand = await self._held_hand(table, turn, seat)
        return replace(hand, back=True) if back else hand

    async def _held_hand(self, table: Table, turn: Game, seat: int) -> Hand:
        """The hand of the player whose turn the table holds: ``turn`` is the game as their
        decisions made it. While a fall of the turn is theirs to choose, that choice; once the
        turn is over, the turn done (Undo or Done), their hand before its draw."""
        hand = await self._hand(table, turn, seat)
        held = table.held
        if held is None:
            return hand
        played = action_from_dict(held.actions[0])
        assert isinstance(played, Play)
        shown = HeldScreen(held.token, held.until, tuple(turn.turn_events), played.tile)
        if held.until is None:
            return replace(hand, held=shown)
        return replace(
            hand,
            view=before_draw(hand.view),
            decision="held",
            your_turn=False,
            fitting=(),
            deadline=None,
            held=shown,
        )

    def _turn_held(self, table: Table, game: Game) -> Game:
        """The game as the held turn's decisions make it (``game``: the table's state)."""
        assert table.held is not None
        turn = game.copy()
        self._replay_held(table, turn, table.held)
        return turn

    async def hand(self, table_id: int, user_id: int, *, begins: bool = False) -> Hand:
        """A player's hand (for the "My hand" button); only its owner ever gets it. With
        ``begins``, as the beginning of their decision (see :attr:`Hand.begins`), with what
        the others did since their last move. The player whose turn the table holds back gets
        it as they left it: the fall to choose, or the turn done (Undo or Done)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        if table.held is not None and table.held.seat == seat:
            return await self._held_hand(table, self._turn_held(table, game), seat)
        return await self._hand(table, game, seat, begins=begins)

    async def undo(self, table_id: int, version: int, user_id: int, token: str) -> Hand:
        """Undo: the turn ``token`` that ``user_id`` holds is forgotten, the table is as it
        was before their tile (its version too), and the answer is their hand again, their
        turn's screen. Refused once the turn was handed on (``TURN_HANDED_ON``: Done, its
        window's end, even if the timer has not handed it on yet) or taken back already
        (``TURN_UNDONE``: the second tap of a double tap)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        held = self._held_by(table, seat, version, token)
        if held.until is None or self.clock() >= held.until:
            raise Stale(Why.TURN_HANDED_ON, table_id=table_id)  # the timer hands it on
        try:
            table = await self.store.undo_turn(table.id, table.version, token, now=self.clock())
        except VersionConflict:
            raise Stale(Why.TURN_HANDED_ON, table_id=table_id) from None  # its end came first
        log.info("table %s: seat %s took their turn back", table.id, seat)
        return await self._hand(table, game, seat)

    async def done(self, table_id: int, version: int, user_id: int, token: str) -> Step:
        """Done: the turn ``token`` that ``user_id`` holds is handed on now, as its window's
        end would (refused as :meth:`undo` is, once it was handed on or taken back)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        self._held_by(table, seat, version, token)
        return await self._commit(table, game, seat, user_id, None)

    @staticmethod
    def _held_by(table: Table, seat: int, version: int, token: str) -> HeldTurn:
        """The held turn ``token`` of ``seat``, in its window, as its Undo and Done (made at
        ``version``) name it; else why not: taken back (the table went back before
        ``version``: only an Undo does that) or handed on."""
        held = table.held
        if held is None or held.token != token or held.seat != seat or held.until is None:
            why = Why.TURN_UNDONE if table.version < version else Why.TURN_HANDED_ON
            raise Stale(why, table_id=table.id)
        return held

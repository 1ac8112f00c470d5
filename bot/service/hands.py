"""A player's hand as the service answers it: what they hold and decide, how they get it (by
direct message or not, their preferences read once for every hand a change shows), and, when
it asks them to decide, what the others did since their last move (replayed from the log)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from bot.errors import (
    Stale,
    Why,
)
from bot.kept import Kept
from bot.service.chosen import made_for
from bot.service.core import DM_RETRY_S, TableCore, hand_digest
from bot.service.results import ChosenFalls, Hand
from data.store import (
    PlayerReach,
    Table,
)
from engine import (
    EngineError,
    Event,
    Game,
    Play,
    Pos,
    action_from_dict,
    fitting_tiles,
    view,
)

log = logging.getLogger(__name__)


class PlayerHands(TableCore):
    """Reading players' hands, for the moves, the lobby's start and the "My hand" button."""

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
        :attr:`Hand.begins`). A hand that asks a decision carries the others' turns since the
        player's last move. ``reach``: the player's preferences, if already read
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
        # Every screen of a decision tells what happened since the player's last move, however
        # it reaches them (a new DM, a silent one, a private screen in the channel).
        since, chose, won = await self._since(table, seat) if decision != "wait" else ([], [], None)
        seen = view(game, seat)
        return Hand(
            table_id=table.id,
            guild_id=table.guild_id,
            channel_id=table.place_id,
            user_id=s.user_id,
            seat=seat,
            view=seen,
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
            deadline=table.deadline if decision != "wait" and not self._paused(table) else None,
            board_message_id=Kept.BOARD.of(table.messages),
            since=tuple(since),
            since_chose=tuple(chose),
            computer_chose=await self.chosen.of(table, seen.last_events),
            round_won=won,
            begins=begins and decision != "wait",
            table_number=table.number,
            language=self.languages.of_player(prefs),
            away=self._away_seats(table),
            paused_until=pause.until if (pause := self._paused(table)) is not None else None,
            hints=table.options.hints,
        )

    async def _since(
        self, table: Table, seat: int
    ) -> tuple[list[tuple[Event, ...]], list[ChosenFalls], Event | None]:
        """What the game did since ``seat`` last placed a tile: one group of events per turn of
        the others (their placement, its falls and fire die), with what of each a computer
        player chose for a person (:func:`~bot.service.chosen.made_for`: a tile, or a fall of
        someone else's turn, logged without its person), and the ``won`` event of a round
        that ended since (by that placement too), replayed from the table's action log, so any
        process tells it the same. Nothing when the log cannot be replayed."""
        table_id = table.id
        if table.initial_state is None:
            return [], [], None
        turns: list[list[Event]] = []
        chose: list[set[tuple[str, Pos]]] = []
        won: Event | None = None
        own = False
        active: int | None = None
        try:
            game = Game.from_dict(table.initial_state)
            for logged in await self.store.action_log(table_id):
                action = action_from_dict(logged.action)
                events = game.apply(action)
                if isinstance(action, Play):
                    active = logged.seat
                    own = logged.seat == seat
                    if own:
                        turns, chose, won = [], [], None
                    else:
                        turns.append([])
                        chose.append(set())
                if turns and not own:
                    turns[-1].extend(events)
                    chose[-1].update(made_for(table.seats, logged, active, events))
                won = next((e for e in events if e.kind == "won"), won)
        except EngineError as err:
            # (The engine's words may name a tile of someone's hand: only at DEBUG.)
            log.warning(
                "table %s: its action log does not replay (%s)", table_id, type(err).__name__
            )
            log.debug("table %s: the action log does not replay: %s", table_id, err)
            return [], [], None
        return [tuple(t) for t in turns], [frozenset(c) for c in chose], won

    async def hand(self, table_id: int, user_id: int, *, begins: bool = False) -> Hand:
        """A player's hand (for the "My hand" button); only its owner ever gets it. With
        ``begins``, as the beginning of their decision (see :attr:`Hand.begins`)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        return await self._hand(table, game, seat, begins=begins)

    async def hand_in_channel(self, channel_id: int, user_id: int) -> Hand:
        """A player's hand at the table of a channel (``/fp hand``)."""
        table = await self.table_in_channel(channel_id)
        if table.status != "playing":
            raise Stale(Why.HAND_BEFORE_START, table_id=table.id)
        return await self.hand(table.id, user_id)

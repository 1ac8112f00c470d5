"""A person's decisions during a game: a tile, its spot, a fall, the next round."""

from __future__ import annotations

from bot.errors import BadRequest, HandChanged, Stale, TableError, Why
from bot.kept import Kept
from bot.service.core import Place, hand_digest
from bot.service.results import Hand, SpotChoice, Step
from bot.service.undo import Undoing
from data.store import Table
from engine import Fall, Game, NextRound, Play, Pos, fitting_tiles, previews, view
from engine import labelled_spots as spot_labels


class Moves(Undoing):
    """What a seated person decides."""

    async def play(self, table_id: int, user_id: int, tile: str, digest: str) -> SpotChoice | Hand:
        """A tile button: the spots where ``tile`` (from the hand ``digest`` names) may go, as a
        :class:`SpotChoice` (always, even for one spot: a play is never made by one tap). If
        this player must first decide where a tile falls, the answer is their :class:`Hand`
        with that decision in it."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        if table.held is not None and table.held.seat == seat:
            return await self.hand(table_id, user_id)  # their turn is played: as they left it
        p = game.pending
        if p is not None and p.kind == "fall" and p.player == seat:
            return await self._hand(table, game, seat)
        if digest != hand_digest(table.id, game.round, game.hands[seat]):
            raise HandChanged(
                Why.HAND_CHANGED,
                table_id=table_id,
            )
        if p is None or p.kind != "play" or p.player != seat:
            raise self._not_yours(table, game)
        if tile not in game.hands[seat]:
            raise Stale(Why.TILE_GONE, table_id=table_id)
        return await self._spot_choice(table, game, seat, user_id, tile)

    async def _spot_choice(
        self, table: Table, game: Game, seat: int, user_id: int, tile: str
    ) -> SpotChoice:
        p = game.pending
        assert p is not None
        spots = spot_labels(p.spots)
        shown = None
        if table.options.preview:
            every = previews(game)
            shown = tuple(every[Play(tile, at)] for _, at in spots)
        seen = view(game, seat)
        return SpotChoice(
            table.id,
            table.version,
            tile,
            spots,
            seen,
            tuple(s.name for s in table.seats),
            hand_digest(table.id, game.round, game.hands[seat]),
            previews=shown,
            user_id=user_id,
            guild_id=table.guild_id,
            channel_id=table.place_id,
            deadline=None if self._paused(table) else table.deadline,
            board_message_id=Kept.BOARD.of(table.messages),
            fitting=tuple(fitting_tiles(game)) if table.options.preview else (),
            table_number=table.number,
            hints=table.options.hints,
            away=self._away_seats(table),
            paused=self._paused(table) is not None,
            computer_chose=await self.chosen.of(table, seen.last_events),
        )

    async def spot_choice(self, table_id: int, version: int, user_id: int, tile: str) -> SpotChoice:
        """The spots for ``tile`` again (another page of a long list of spots)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        self._check_version(table, version)
        p = game.pending
        if p is None or p.kind != "play" or p.player != seat or tile not in game.hands[seat]:
            raise Stale(Why.MOVED_ON, table_id=table_id)
        return await self._spot_choice(table, game, seat, user_id, tile)

    async def choose_spot(
        self,
        table_id: int,
        version: int,
        user_id: int,
        tile: str,
        at: Pos,
        *,
        place: Place | None = None,
    ) -> Step | Hand:
        """A spot button: play ``tile`` at ``at``. If this player must first decide where a
        tile falls, nothing is played and the answer is their :class:`Hand` with that decision.
        ``place``: where the button was pressed, refused unless it belongs there (see
        :meth:`check_place`)."""
        table, game = await self._get_game(table_id)
        if place is not None:
            self._check_place(table, place, user_id)
        seat = self._require_seat(table, user_id)
        p = game.pending
        if p is not None and p.kind == "fall" and p.player == seat:
            return await self._hand(table, game, seat)
        self._check_version(table, version)
        # Whose decision it is, the engine checks (a refusal names who must decide).
        return await self._decide(table, game, seat, user_id, Play(tile, at))

    async def repeated(
        self, table_id: int, version: int, user_id: int, action: Play | Fall | NextRound
    ) -> bool:
        """Whether a click that found the table moved on is a second tap of a click already
        applied: ``user_id``'s own ``action``, made from ``version``, is what moved it on (in
        the action log, or in the turn the table holds back)."""
        try:
            table = await self._get(table_id)
        except TableError:
            table = None
        held = table.held if table is not None else None
        if table is not None and held is not None and held.user_id == user_id:
            index = version - (table.version - len(held.actions))
            if 0 <= index < len(held.actions):
                return held.actions[index] == action.to_dict()
        for logged in reversed(await self.store.action_log(table_id)):
            if logged.version == version + 1:
                return logged.user_id == user_id and logged.action == action.to_dict()
            if logged.version <= version:
                break
        return False

    async def fall(self, table_id: int, version: int, user_id: int, direction: str) -> Step | Hand:
        """A "Fall left" / "Fall right" button. A fall of a turn the table holds back stays
        held (the answer is the player's :class:`Hand`: the next fall, or the turn done),
        unless it ends the hold (:meth:`_decide`)."""
        if direction not in ("left", "right"):
            raise BadRequest(Why.FALL_DIRECTION)
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        held = table.held
        p = game.pending if held is None else self._turn_held(table, game).pending
        if p is None or p.kind != "fall" or (held is not None and held.seat != seat):
            raise Stale(Why.FALL_DECIDED, table_id=table_id)
        self._check_version(table, version)
        return await self._decide(table, game, seat, user_id, Fall(direction))

    async def next_round(self, table_id: int, version: int, user_id: int) -> Step:
        """The "Next round" button (any seated player)."""
        table, game = await self._get_game(table_id)
        seat = self._require_seat(table, user_id)
        if game.pending is not None or game.match_over:
            raise Stale(Why.NEXT_ROUND_STARTED, table_id=table_id)
        self._check_version(table, version)
        return await self._commit(table, game, seat, user_id, NextRound())

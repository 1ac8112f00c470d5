"""A person's decisions during a game: a tile, its spot, a fall, the next round."""

from __future__ import annotations

from bot.errors import (
    BadRequest,
    HandChanged,
    NotYourDecision,
    Stale,
)
from bot.service.core import (
    TableCore,
    hand_digest,
)
from bot.service.results import (
    SpotChoice,
    Step,
)
from data.store import (
    Table,
)
from engine import Fall, Game, NextRound, Play, Pos, view
from render.labels import labelled_spots as spot_labels


class Moves(TableCore):
    """What a seated person decides."""

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
                raise self._not_yours(table, game)
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
                raise self._not_yours(table, game)
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
                raise self._not_yours(table, game)
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

    def _not_yours(self, table: Table, game: Game) -> NotYourDecision:
        """The refusal of a decision that is somebody else's (it names them)."""
        p = game.pending
        if p is None:
            return NotYourDecision("Nobody has to decide anything right now.", table_id=table.id)
        name = {"name": table.seats[p.player].name}
        if p.kind == "fall":
            text = "It is {name}'s decision where the tile falls, not yours."
        else:
            text = "It is {name}'s turn, not yours. I will mention you when it is your turn."
        return NotYourDecision(text, table_id=table.id, names=name)

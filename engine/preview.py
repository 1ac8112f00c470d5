"""What a decision would do, up to the next decision, without doing it.

:func:`preview` answers "what happens if I play this tile here?" (or "if it falls left?") for a
player about to choose. It carries the action out on a copy of the game and stops where the game
itself would stop: at the end of the turn, at a fall choice (RULES 5.1, 5.2), or before the fire die
(RULES 6). Chance stays hidden: a pending die is reported as a die to roll, never as a face, and
the game's generator is not touched (the copy has its own, and nothing up to a pending die draws
from it). The game passed in is never changed.

>>> from engine import Game, Play
>>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20", "B100"], ["G2"]])
>>> preview(g, Play("Y20", (1, 1))).fits
True
>>> p = preview(g, Play("B100", (1, 1)))
>>> p.kinds, p.to_piles, p.stops_at.kind
(('collapsed',), (2, 0), 'fall')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game
from engine.model import Action, Die, Event, NextRound, NoPreviewError, Pending, Play

MAYHEM_KINDS: frozenset[str] = frozenset(
    {"collapsed", "fell", "exploded", "burnt", "cursed", "rolled"}
)
"""Events that are mayhem (RULES 5 and 6): anything beyond placing the tile and ending the turn."""


@dataclass(frozen=True, slots=True)
class Preview:
    """What ``action`` would do, from now up to the next decision (see :func:`preview`)."""

    action: Action
    """The action previewed."""
    player: int
    """Who would take it (the player the pending decision belongs to)."""
    events: tuple[Event, ...]
    """Exactly the events :meth:`Game.apply` would return for ``action`` now, in order."""
    mayhem: tuple[Event, ...]
    """The mayhem among ``events`` (collapsed, fell, exploded, burnt, cursed; in order)."""
    to_piles: tuple[int, ...]
    """Per player, how many tiles would go under that player's pile."""
    out: tuple[str, ...]
    """Tiles that would leave the game, in order."""
    stops_at: Pending | None
    """The decision the same turn would then wait for: a fall choice (``kind`` ``"fall"``, with
    the player who makes it, the tile and where it is) or the fire die (``"die"``, not rolled);
    None when the turn would be over."""
    winner: int | None
    """The player who would win the round, if it would end."""

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of mayhem, in order, each once: ``("collapsed", "exploded")``."""
        return tuple(dict.fromkeys(e.kind for e in self.mayhem))

    @property
    def fits(self) -> bool:
        """Nothing but the placement (and the end of the turn) would happen: no mayhem, no fall
        choice, no fire die."""
        return not self.mayhem and self.stops_at is None

    @property
    def die(self) -> bool:
        """The fire die would have to be rolled (RULES 6); its face is not foretold."""
        return self.stops_at is not None and self.stops_at.kind == "die"

    @property
    def tiles_to_piles(self) -> int:
        """How many tiles would go under piles, everyone's together."""
        return sum(self.to_piles)


def preview(game: Game, action: Action, player: int | None = None) -> Preview:
    """What ``action`` (by ``player``, if given) would do in ``game``, up to the next decision.

    Raises :class:`EngineError`, as :meth:`Game.apply` would, when the action is not allowed now;
    also for a roll of the die (``Die(None)``) and for :class:`NextRound`, whose outcome is chance
    that must stay hidden. ``game`` is never changed.
    """
    if isinstance(action, NextRound) or (isinstance(action, Die) and action.face is None):
        raise NoPreviewError("chance cannot be previewed: the outcome stays hidden")
    game.check(action, player)
    pending = game.pending
    assert pending is not None  # check() passed
    copy = game.copy()
    events = tuple(copy.apply(action, player))
    mayhem = tuple(e for e in events if e.kind in MAYHEM_KINDS)
    to_piles = [0] * game.players
    out: list[str] = []
    for e in events:
        if e.kind in ("collapsed", "exploded", "burnt", "cursed"):
            to_piles[e.player] += len(e.to_pile)
        out.extend(t for t, _ in e.out)
    after = copy.pending
    stops_at = after if after is not None and after.kind in ("fall", "die") else None
    return Preview(
        action=action,
        player=pending.player,
        events=events,
        mayhem=mayhem,
        to_piles=tuple(to_piles),
        out=tuple(out),
        stops_at=stops_at,
        winner=copy.winner if after is None else None,
    )


def previews(game: Game) -> dict[Play, Preview]:
    """Every play the pending player may make now, with its preview; empty unless a play is
    pending. Keys follow :meth:`Game.legal_actions` (hand order, then the spots' reading order)."""
    if game.pending is None or game.pending.kind != "play":
        return {}
    return {a: preview(game, a) for a in game.legal_actions() if isinstance(a, Play)}


def fitting_tiles(game: Game) -> tuple[str, ...]:
    """The tiles of the pending player's hand that fit somewhere: on at least one spot, nothing
    but the placement would happen (:attr:`Preview.fits`). In hand order; empty unless a play is
    pending."""
    return tuple(dict.fromkeys(a.tile for a, p in previews(game).items() if p.fits))

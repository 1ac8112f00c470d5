"""What one player may see (hidden information through a view, like boardgame.io's playerView).

:func:`view` is the only way ``render/``, the channel and the computer players look at a game:
a player's own hand, everyone's hand and pile *sizes*, the pyramid, the tiles out of the game,
whose turn it is and what is pending, and what everyone has seen go under the piles (and come back
into the hands). Nobody's hidden tiles are in it, not even the order of the viewer's own pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.game import Game, standings
from engine.model import BadPlayerError, Event, Pending, Pos, pos_str


@dataclass(frozen=True)
class View:
    """A game as seen by ``player`` (``None``: the public view, for the channel)."""

    player: int | None
    """Whose view this is; None for the public view."""
    players: int
    """Number of seats."""
    curse: bool
    """The curse option (RULES 5.5)."""
    fire_die: bool
    """The fire die option (RULES 6)."""
    pyramid: dict[Pos, str]
    """Tile code by position."""
    hand: tuple[str, ...] | None
    """The viewer's own hand; None in the public view."""
    hand_sizes: tuple[int, ...]
    """How many tiles each player holds."""
    pile_sizes: tuple[int, ...]
    """How many tiles each player's draw pile holds."""
    removed: tuple[str, ...]
    """Tiles out of the game this round (everyone saw them go)."""
    active: int
    """Whose turn it is."""
    responsible: int
    """Who bears the mayhem being resolved (the previous player after a curse)."""
    pending: Pending | None
    """The decision the game waits for; None once the round is over."""
    winner: int | None
    """The round's winner, once there is one."""
    round: int
    """This round, from 1."""
    rounds: int
    """Rounds in the match."""
    scores: tuple[int, ...]
    """Running match totals."""
    turn: int
    """Tiles played this round."""
    last_events: tuple[Event, ...] = field(default=())
    """What happened since the last tile was played (public events only)."""
    seen_hands: tuple[tuple[str, ...], ...] = field(default=())
    """Per player, the tiles of the hand that everyone saw go under that player's pile and be
    drawn (public knowledge; empty for a game saved before the engine kept it)."""
    seen_piles: tuple[tuple[str, ...], ...] = field(default=())
    """Per player, the bottom of the pile that everyone saw go under it, top first: the order of
    the tiles above them is hidden from everyone."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "players": self.players,
            "options": {"curse": self.curse, "fire_die": self.fire_die},
            "pyramid": {pos_str(p): t for p, t in self.pyramid.items()},
            "hand": None if self.hand is None else list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pile_sizes": list(self.pile_sizes),
            "removed": list(self.removed),
            "active": self.active,
            "responsible": self.responsible,
            "pending": None if self.pending is None else self.pending.to_dict(),
            "winner": self.winner,
            "round": self.round,
            "rounds": self.rounds,
            "scores": list(self.scores),
            "turn": self.turn,
            "last_events": [e.to_dict() for e in self.last_events],
            "seen_hands": [list(h) for h in self.seen_hands],
            "seen_piles": [list(p) for p in self.seen_piles],
        }

    @property
    def standings(self) -> tuple[int, ...]:
        """Each player's total if the match stopped now (see :func:`engine.game.standings`)."""
        return standings(
            self.scores, self.hand_sizes, self.pile_sizes, round_over=self.pending is None
        )

    def unseen_tiles(self) -> set[str]:
        """Tiles this viewer cannot see: in other hands and in every pile (their own included)."""
        from engine.tiles import ALL_TILES

        seen = set(self.pyramid.values()) | set(self.removed) | set(self.hand or ())
        return set(ALL_TILES) - seen


def view(game: Game, player: int | None = None) -> View:
    """What ``player`` may see of ``game`` (``None`` for the public view)."""
    if player is not None and not 0 <= player < game.players:
        raise BadPlayerError(f"no player {player} in a {game.players}-player game")
    return View(
        player=player,
        players=game.players,
        curse=game.curse,
        fire_die=game.fire_die,
        pyramid=dict(game.pyramid),
        hand=None if player is None else tuple(game.hands[player]),
        hand_sizes=tuple(len(h) for h in game.hands),
        pile_sizes=tuple(len(p) for p in game.piles),
        removed=tuple(game.removed),
        active=game.active,
        responsible=game.responsible,
        pending=game.pending,
        winner=game.winner,
        round=game.round,
        rounds=game.rounds,
        scores=tuple(game.scores),
        turn=game.turn,
        last_events=tuple(game.turn_events),
        seen_hands=tuple(tuple(h) for h in game.seen_in_hands),
        seen_piles=tuple(tuple(p[h:]) for p, h in zip(game.piles, game.hidden_piles, strict=True)),
    )


def before_draw(v: View) -> View:
    """``v``, a player's view once their turn is over, as it stood before the turn's draw
    (RULES 7): the tiles the turn's ``drew`` event took from the top of their pile are back
    on it, unseen. What the turn did to the pyramid and the piles stays; whose turn comes next
    stays too. A view with no draw of its player since the last tile played (a round won, a
    public view) comes back as it is.

    This is what the player may be shown of a turn that can still be taken back: the tiles
    drawn would tell them what lies on their pile.

    >>> from engine import Game, Play, view
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20"], ["G2"]],
    ...          piles=[["B4", "R2"], ["G4"]])
    >>> _ = g.apply(Play("Y20", (1, 1)))
    >>> view(g, 0).hand, before_draw(view(g, 0)).hand, before_draw(view(g, 0)).pile_sizes
    (('B4', 'R2'), (), (2, 1))
    """
    me = v.player
    if me is None or v.hand is None:
        return v
    drew = next(
        (e for e in reversed(v.last_events) if e.kind == "drew" and e.player == me),
        None,
    )
    if drew is None or not drew.amount:
        return v
    n = drew.amount
    drawn = v.hand[len(v.hand) - n :]
    hand_sizes = list(v.hand_sizes)
    pile_sizes = list(v.pile_sizes)
    hand_sizes[me] -= n
    pile_sizes[me] += n
    seen_hands = [tuple(h) for h in v.seen_hands]
    seen_piles = [tuple(p) for p in v.seen_piles]
    if me < len(seen_hands) and me < len(seen_piles):
        # Drawn tiles everyone had seen go under the pile are public again at its bottom part.
        seen = tuple(t for t in drawn if t in seen_hands[me])
        seen_hands[me] = tuple(t for t in seen_hands[me] if t not in seen)
        seen_piles[me] = (*seen, *seen_piles[me])
    return replace(
        v,
        hand=v.hand[: len(v.hand) - n],
        hand_sizes=tuple(hand_sizes),
        pile_sizes=tuple(pile_sizes),
        seen_hands=tuple(seen_hands),
        seen_piles=tuple(seen_piles),
    )

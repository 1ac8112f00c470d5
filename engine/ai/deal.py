"""Full games consistent with one player's view: the determinisations the computer players search.

A :class:`~engine.View` hides the other hands and the order of every pile. To look ahead, a computer
player needs a whole :class:`~engine.Game`, so :func:`sample_game` deals the unseen tiles
(:meth:`View.unseen_tiles`) at random into the other hands and all piles, with the sizes the view
shows, and keeps what the view does reveal: the tiles that mayhem sent under a pile in public are
known to lie at the bottom of that pile, in order, until the owner draws them; then they are known
to be in that hand until played (``view.seen_piles``, ``view.seen_hands``).

Nothing here reads anything but the view, so two games that look the same to the player give
the same samples for the same generator.
"""

from __future__ import annotations

import random

from engine.game import Game
from engine.model import Pending
from engine.rng import Rng
from engine.view import View


def known_pile_bottoms(view: View) -> tuple[list[list[str]], list[list[str]]]:
    """What this turn's public events say about hidden tiles, per player.

    Returns ``(bottoms, in_hand)``: ``bottoms[i]`` are the last tiles of player i's pile, in order
    (tiles sent under a pile this turn that are still in it); ``in_hand[i]`` are tiles sent under
    player i's pile this turn and drawn into the hand since (only after the turn's draw).
    """
    sent: list[list[str]] = [[] for _ in range(view.players)]
    for e in view.last_events:
        if e.to_pile and 0 <= e.player < view.players:
            sent[e.player].extend(t for t, _ in e.to_pile)
    bottoms: list[list[str]] = []
    in_hand: list[list[str]] = []
    for i, tiles in enumerate(sent):
        # The pile is a queue: tiles go under the bottom and are drawn from the top, so the pile
        # still ends with the last of them, and the first ones were drawn if the pile ran short.
        still = min(len(tiles), view.pile_sizes[i])
        bottoms.append(tiles[len(tiles) - still :])
        in_hand.append(tiles[: len(tiles) - still])
    return bottoms, in_hand


def known_tiles(view: View) -> tuple[list[list[str]], list[list[str]]]:
    """What everyone knows of the hidden tiles, per player: ``(bottoms, in_hand)`` as in
    :func:`known_pile_bottoms`, from the whole round's public record (``view.seen_piles``,
    ``view.seen_hands``), or from this turn's events where they tell more (a game saved before
    the engine kept the record)."""
    bottoms, in_hand = known_pile_bottoms(view)
    for i in range(min(view.players, len(view.seen_piles))):
        if len(view.seen_piles[i]) > len(bottoms[i]):
            bottoms[i] = list(view.seen_piles[i])
    for i in range(min(view.players, len(view.seen_hands))):
        in_hand[i] += [t for t in view.seen_hands[i] if t not in in_hand[i]]
    return bottoms, in_hand


class Dealer:
    """Deals full games consistent with one view, again and again (see :func:`sample_game`).

    What does not change from one deal to the next (the pool of unseen tiles, what the events
    revealed, the public part of the game) is worked out once, when the dealer is made.
    """

    def __init__(self, view: View) -> None:
        me = view.player
        if me is None or view.hand is None:
            raise ValueError("a computer player needs a player's view, not the public view")
        bottoms, in_hand = known_tiles(view)
        unseen = view.unseen_tiles()
        known: set[str] = set()
        for i in range(view.players):
            if i == me:
                in_hand[i] = []  # the viewer sees its own hand already
            bottoms[i] = [t for t in bottoms[i] if t in unseen]
            in_hand[i] = [t for t in in_hand[i] if t in unseen]
            known.update(bottoms[i], in_hand[i])
        # Sorted: a set's order depends on the process's string hashing.
        self.pool = sorted(unseen - known)
        self.me = me
        self.hand = list(view.hand)
        self.bottoms = bottoms
        self.in_hand = in_hand
        self.hand_sizes = view.hand_sizes
        self.pile_sizes = view.pile_sizes
        needed = sum(view.pile_sizes) + sum(
            size for i, size in enumerate(view.hand_sizes) if i != me
        )
        if needed > len(self.pool) + len(known):
            raise ValueError("the view's hand and pile sizes do not match its unseen tiles")
        self.template = _public_game(view)
        # The public record as the view gives it, so that a deal looks the same to the viewer.
        players = view.players
        seen_piles = list(view.seen_piles) + [()] * (players - len(view.seen_piles))
        self.hidden_piles = [view.pile_sizes[i] - len(seen_piles[i]) for i in range(players)]
        self.seen_hands = [list(h) for h in view.seen_hands] + [[]] * (
            players - len(view.seen_hands)
        )

    def deal(self, rnd: random.Random) -> Game:
        """A new full game: the template with the unseen tiles dealt at random."""
        pool = list(self.pool)
        rnd.shuffle(pool)

        def take(n: int) -> list[str]:
            if n < 0 or n > len(pool):
                raise ValueError("the view's hand and pile sizes do not match its unseen tiles")
            taken = pool[len(pool) - n :]
            del pool[len(pool) - n :]
            return taken

        game = self.template.copy()
        players = len(self.hand_sizes)
        game.hands = [
            list(self.hand)
            if i == self.me
            else self.in_hand[i] + take(self.hand_sizes[i] - len(self.in_hand[i]))
            for i in range(players)
        ]
        game.piles = [
            take(self.pile_sizes[i] - len(self.bottoms[i])) + self.bottoms[i]
            for i in range(players)
        ]
        game.hidden_piles = list(self.hidden_piles)
        game.seen_in_hands = [list(h) for h in self.seen_hands]
        # Whatever is left of the pool (only in hand-made states that hold fewer than 45 tiles)
        # is not in this game at all.
        game.rng = Rng(rnd.getrandbits(64))
        return game


def sample_game(view: View, rnd: random.Random) -> Game:
    """A full game that ``view.player`` cannot tell apart from the real one, dealt with ``rnd``.

    The unseen tiles go, shuffled, into the other players' hands and into every pile (the viewer's
    own pile included, whose order the viewer does not know), respecting ``view.hand_sizes``,
    ``view.pile_sizes`` and what this turn's events revealed. The pending decision, the
    responsible player and the turn in progress are the view's. The game's own generator (the
    fire die) is seeded from ``rnd`` too: the real generator's state is hidden information.

    Raises ValueError for the public view, or a view whose sizes cannot hold the unseen tiles.
    To deal many times from one view, make a :class:`Dealer` once.
    """
    return Dealer(view).deal(rnd)


def _public_game(view: View) -> Game:
    """A game with the view's public state; hands and piles are empty, to be dealt."""
    game = Game(
        view.players,
        curse=view.curse,
        fire_die=view.fire_die,
        pyramid={p: view.pyramid[p] for p in sorted(view.pyramid)},
        hands=[[] for _ in range(view.players)],
        piles=[[] for _ in range(view.players)],
        removed=list(view.removed),
        active=view.active,
    )
    game.round = view.round
    game.rounds = view.rounds
    game.scores = list(view.scores)
    game.turn = view.turn
    game.winner = view.winner
    game.turn_events = list(view.last_events)
    game.responsible = view.responsible
    game.pending = view.pending
    _restore_turn(game, view.pending, view)
    return game


def _restore_turn(game: Game, pending: Pending | None, view: View) -> None:
    """Set the turn-in-progress fields (the tile placed this turn, whether the die was rolled)."""
    game.placed = None
    game.rolled = False
    game.die_pair = None
    if pending is None or pending.kind == "play":
        return
    for e in view.last_events:
        if e.kind == "placed" and e.tile is not None and e.at is not None:
            game.placed = (e.tile, e.at)
        elif e.kind == "rolled":
            game.rolled = True
    if pending.kind == "die":
        raise ValueError("the fire die is not a player's decision")

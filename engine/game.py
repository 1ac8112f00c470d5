"""The game: state, legal actions, and the resolution of mayhem (RULES 3 to 7).

:class:`Game` is the whole state of a match. It is mutable for speed (the computer players search
millions of positions), but every change goes through :meth:`Game.apply`, which checks the action
first and raises :class:`EngineError` without changing anything when it is not allowed. For a pure
step use :func:`step`, which works on a copy.

>>> g = Game.new(players=3, seed=1)
>>> g.pending.kind, len(g.hands[g.active])
('play', 5)
>>> action = g.legal_actions()[0]
>>> events = g.apply(action)
>>> events[0].kind
'placed'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from engine.model import (
    DIE_FACES,
    EXPLOSION,
    FIRE_REMOVED,
    FIRE_STAYS,
    LEFT,
    Action,
    BadActionError,
    BadSetupError,
    BadSpotError,
    Die,
    Event,
    Fall,
    MatchOverError,
    NextRound,
    NotInHandError,
    NotYourDecisionError,
    Pending,
    Play,
    Pos,
    RoundOverError,
    WrongDecisionError,
    action_from_dict,
    neighbours,
    pos_str,
    reading_key,
)
from engine.model import HAND_SIZE as HAND_SIZE
from engine.model import MAX_PLAYERS as MAX_PLAYERS
from engine.model import MIN_PLAYERS as MIN_PLAYERS
from engine.rng import Rng
from engine.state import STATE_VERSION as STATE_VERSION
from engine.state import StateRecord, read_state
from engine.tiles import ALL_TILES, IGNITES, INCENDIARY, MATERIAL, WEIGHT, describe

PUBLIC_RECORD_KEYS = ("hidden_piles", "seen_in_hands")
"""The keys of :meth:`Game.to_dict` that hold what everyone has seen of the piles and hands:
kept for the computer players, not part of the rules' state. A game saved before the engine kept
them has none, and one continued from such a save keeps a shorter record than its replay."""

# The records of the hot paths (a play, a draw, a fall) are built with tuple.__new__, every field
# given in order: the same Event/Pending, without the cost of NamedTuple's keyword defaults.
_new = tuple.__new__


def _fit_problem(pyramid: dict[Pos, str], r: int, x: int, tile: str) -> str:
    """Why a tile at ``(r, x)``, ``r >= 1``, does not fit (RULES 4): ``""`` when it fits.

    Returns ``"free_air"``, ``"overweight"`` or ``"mismatch"``.
    """
    left = pyramid.get((r - 1, x - 1))
    right = pyramid.get((r - 1, x + 1))
    w = WEIGHT[tile]
    c = tile[0]
    if left is not None and right is not None:
        if w > WEIGHT[left] + WEIGHT[right]:
            return "overweight"
        if (
            c == "M"
            or w == WEIGHT[left]
            or w == WEIGHT[right]
            or left[0] in (c, "M")
            or right[0] in (c, "M")
        ):
            return ""
        return "mismatch"
    support = left if left is not None else right
    if support is None:
        return "free_air"
    # One support: same colour (the millstone is every colour) and not heavier. Weight alone
    # does not count (RULES 4, after the online game help).
    if c != "M" and support[0] not in (c, "M"):
        return "mismatch"
    if w > WEIGHT[support]:
        return "overweight"
    return ""


def fits(pyramid: dict[Pos, str], at: Pos, tile: str) -> bool:
    """Whether ``tile`` at ``at`` fits the tiles under it (RULES 4). A base tile always fits."""
    return at[0] == 0 or _fit_problem(pyramid, at[0], at[1], tile) == ""


def spots(pyramid: dict[Pos, str]) -> tuple[Pos, ...]:
    """Where the next tile may be placed, in reading order (RULES 3).

    >>> spots({})
    ((0, 0),)
    >>> spots({(0, 0): "Y2"})
    ((0, -2), (0, 2))
    >>> spots({(0, 0): "Y2", (0, 2): "R4", (0, 6): "B6"})
    ((1, 1), (0, 4))
    """
    if not pyramid:
        return ((0, 0),)
    upper: list[Pos] = []  # free places on two neighbours, rows 1 and up
    base: list[int] = []
    for r, x in pyramid:
        if not r:
            base.append(x)
        if (r, x + 2) in pyramid and (r + 1, x + 1) not in pyramid:
            upper.append((r + 1, x + 1))
    if base:
        lo = min(base)
        hi = max(base)
    else:  # only in a hand-made state with nothing on the ground
        lo = hi = 0
    gaps: list[Pos] = []
    if len(base) <= (hi - lo) // 2:  # fewer base tiles than places between the outermost two
        gaps = [(0, x) for x in range(lo + 2, hi, 2) if (0, x) not in pyramid]
    if upper:
        if len(upper) > 1:
            upper.sort(key=reading_key)
        return (*upper, *gaps)
    if gaps:
        return tuple(gaps)
    return ((0, lo - 2), (0, hi + 2))


class Game:
    """The whole state of a match of Flaming Pyramids.

    Fields (all plain data; :meth:`to_dict` / :meth:`from_dict` round-trip them exactly):

    - ``players``: number of seats, 2 to 6; ``curse``, ``fire_die``: the options.
    - ``pyramid``: tile code by position. ``hands[i]``: player i's hand. ``piles[i]``: player i's
      draw pile, ``piles[i][0]`` on top. ``removed``: tiles out of the game this round.
    - ``active``: whose turn it is; ``responsible``: who bears the mayhem now (RULES 5).
    - ``pending``: the decision the game waits for, or None once the round is won.
    - ``winner``: the round's winner or None. ``round``/``rounds``: this round and how many the
      match has; ``scores``: running totals; ``turn``: plays made this round.
    - ``rng``: the seeded generator (shuffle, first player, fire die); ``seed``: where it started.
    - ``placed``: the tile played this turn and its spot (for the fire die, RULES 6); ``rolled``:
      whether this turn's die was rolled; ``die_pair``: the pair of a pending die.
    - ``turn_events``: what happened since the last tile was played (for pictures and narration).
    - ``hidden_piles[i]``: how many tiles at the top of pile i went into it unseen (dealt, or
      given by a hand-made state); every tile below them went under the pile in public (mayhem),
      so everyone knows them and their order. ``seen_in_hands[i]``: the tiles of hand i that
      everyone saw go under that pile and be drawn. Both are public knowledge, kept for the
      computer players; they change nothing in the rules.
    """

    incremental: ClassVar[bool] = True
    """Check only near what changed (True) or the whole pyramid after every event (False, slower;
    the tests compare both)."""

    __slots__ = (
        "_dirty",
        "active",
        "curse",
        "die_pair",
        "fire_die",
        "hands",
        "hidden_piles",
        "pending",
        "piles",
        "placed",
        "players",
        "pyramid",
        "removed",
        "responsible",
        "rng",
        "rolled",
        "round",
        "rounds",
        "scores",
        "seed",
        "seen_in_hands",
        "turn",
        "turn_events",
        "winner",
    )

    def __init__(
        self,
        players: int,
        *,
        curse: bool = False,
        fire_die: bool = False,
        pyramid: dict[Pos, str] | None = None,
        hands: list[list[str]] | None = None,
        piles: list[list[str]] | None = None,
        removed: list[str] | None = None,
        active: int = 0,
        rng: Rng | None = None,
        seed: int | None = None,
        rounds: int = 1,
    ) -> None:
        """A game where ``active`` is about to play, from the given tiles; with no pyramid, hands
        or piles given, the tiles are shuffled with ``rng`` and dealt (RULES 7). No checks: see
        :meth:`Game.from_dict` for a checked way in."""
        self.players = players
        self.curse = curse
        self.fire_die = fire_die
        self.pyramid: dict[Pos, str] = dict(pyramid or {})
        self.hands: list[list[str]] = (
            [list(h) for h in hands] if hands else [[] for _ in range(players)]
        )
        self.piles: list[list[str]] = (
            [list(p) for p in piles] if piles else [[] for _ in range(players)]
        )
        self.removed: list[str] = list(removed or [])
        self.hidden_piles = [len(p) for p in self.piles]
        self.seen_in_hands: list[list[str]] = [[] for _ in range(players)]
        self.active = active
        self.responsible = active
        self.rng = rng if rng is not None else Rng(seed or 0)
        self.seed = seed
        self.round = 1
        self.rounds = rounds
        self.scores = [0] * players
        self.turn = 0
        self.winner: int | None = None
        self.placed: tuple[str, Pos] | None = None
        self.rolled = False
        self.die_pair: tuple[Pos, Pos] | None = None
        self.turn_events: list[Event] = []
        self._reset_caches()
        self.pending: Pending | None = None
        if pyramid is None and hands is None and piles is None:
            self._deal(self.turn_events)
        else:
            self._start_turn(self.turn_events)

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: int,
        seed: int = 0,
        *,
        curse: bool = False,
        fire_die: bool = False,
        rounds: int = 1,
    ) -> Game:
        """Shuffle and deal a new match (RULES 7). The seed decides everything random."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise BadSetupError(f"a game has 2 to 6 players, not {players}")
        if rounds < 1:
            raise BadSetupError("a match has at least one round")
        return cls(players, curse=curse, fire_die=fire_die, rng=Rng(seed), seed=seed, rounds=rounds)

    def _deal(self, events: list[Event]) -> None:
        n = self.players
        tiles = list(ALL_TILES)
        self.rng.shuffle(tiles)
        share = len(tiles) // n
        self.piles = [tiles[i * share : (i + 1) * share] for i in range(n)]
        leftover = tiles[n * share :]
        self.pyramid = {}
        self.removed = []
        gone: list[tuple[str, Pos]] = []
        x = 0
        for tile in leftover:
            if tile in INCENDIARY:
                self.removed.append(tile)
                gone.append((tile, (0, x)))
            else:
                self.pyramid[(0, x)] = tile
                x += 2
        self.hands = []
        for pile in self.piles:
            self.hands.append(pile[:HAND_SIZE])
            del pile[:HAND_SIZE]
        self.hidden_piles = [len(p) for p in self.piles]
        self.seen_in_hands = [[] for _ in range(n)]
        self.active = self.rng.below(n)
        self.winner = None
        self.turn = 0
        self._reset_caches()
        events.append(Event("dealt", self.active, out=tuple(gone), amount=len(leftover)))
        self._start_turn(events)

    def copy(self) -> Game:
        """An independent copy (cheap: tiles are strings, records are immutable)."""
        g = Game.__new__(Game)
        g.players = self.players
        g.curse = self.curse
        g.fire_die = self.fire_die
        g.pyramid = dict(self.pyramid)
        g.hands = [list(h) for h in self.hands]
        g.piles = [list(p) for p in self.piles]
        g.removed = list(self.removed)
        g.hidden_piles = list(self.hidden_piles)
        g.seen_in_hands = [list(h) for h in self.seen_in_hands]
        g.active = self.active
        g.responsible = self.responsible
        g.rng = self.rng.copy()
        g.seed = self.seed
        g.round = self.round
        g.rounds = self.rounds
        g.scores = list(self.scores)
        g.turn = self.turn
        g.winner = self.winner
        g.placed = self.placed
        g.rolled = self.rolled
        g.die_pair = self.die_pair
        g.turn_events = list(self.turn_events)
        g._dirty = None if self._dirty is None else set(self._dirty)
        g.pending = self.pending
        return g

    # --- questions --------------------------------------------------------------------------------

    @property
    def round_over(self) -> bool:
        return self.pending is None

    @property
    def match_over(self) -> bool:
        return self.pending is None and self.round >= self.rounds

    @property
    def previous(self) -> int:
        """The player who played just before the active player (the curse's victim, RULES 5.5)."""
        return (self.active - 1) % self.players

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, for the pending decision (empty once the round is over).

        For the fire die these are the four faces (a chance decision: their odds are
        ``engine.model.DIE_CHANCES`` out of 6, RULES 6).
        """
        p = self.pending
        if p is None:
            return []
        if p.kind == "play":
            return [Play(t, s) for t in self.hands[p.player] for s in p.spots]
        if p.kind == "fall":
            return [Fall("left"), Fall("right")]
        return [Die(face) for face in DIE_FACES]

    def winners(self) -> list[int]:
        """The match's winners by lowest total (ties share the win); empty until it is over."""
        if not self.match_over:
            return []
        best = min(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]

    @property
    def begun(self) -> bool:
        """Whether a tile has been played in the match (in any round)."""
        return self.round > 1 or self.turn > 0

    def standings(self) -> tuple[int, ...]:
        """Each player's total if the match stopped now (see :func:`standings`).

        >>> g = Game(2, hands=[["Y2"], ["R2", "G2"]], piles=[["B2"], []])
        >>> g.standings()
        (2, 2)
        """
        return standings(
            self.scores,
            [len(h) for h in self.hands],
            [len(p) for p in self.piles],
            round_over=self.pending is None,
        )

    def tile_count(self) -> int:
        """Tiles in the pyramid, hands, piles and out of the game (45 in a dealt game)."""
        return (
            len(self.pyramid)
            + sum(len(h) for h in self.hands)
            + sum(len(p) for p in self.piles)
            + len(self.removed)
        )

    # --- acting -----------------------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        """Check ``action`` (by ``player``, if given) and carry it out; return what happened.

        Raises :class:`EngineError` with a readable message, changing nothing, when the action is
        not allowed now.
        """
        events: list[Event] = []
        p = self.pending
        if (  # the common case, checked cheaply; anything unusual goes through check()
            type(action) is Play
            and p is not None
            and p.kind == "play"
            and (player is None or player == p.player)
            and action.tile in self.hands[p.player]
            and (action.at in p.spots if action.at is not None else len(p.spots) == 1)
        ):
            self._play(action, events)
            self.turn_events = events[:]  # its own list: later decisions of the turn extend it
            return events
        self.check(action, player)
        if isinstance(action, Play):
            self._play(action, events)
            self.turn_events = events[:]
        elif isinstance(action, Fall):
            self._fall(action.direction, events)
            self.turn_events.extend(events)
        elif isinstance(action, Die):
            face = action.face if action.face is not None else self._roll_face()
            self._die(face, events)
            self.turn_events.extend(events)
        else:
            self.round += 1
            self._deal(events)
            self.turn_events = events[:]
        return events

    def check(self, action: Action, player: int | None = None) -> None:
        """Raise :class:`EngineError` if ``action`` (by ``player``, if given) is not allowed now."""
        p = self.pending
        if isinstance(action, NextRound):
            if p is not None:
                raise WrongDecisionError("the round is not over yet")
            if self.round >= self.rounds:
                raise MatchOverError("the match is over")
            return
        if p is None:
            raise RoundOverError("the round is over")
        if player is not None and player != p.player:
            raise NotYourDecisionError(f"it is player {p.player}'s decision, not player {player}'s")
        if isinstance(action, Play):
            if p.kind != "play":
                raise WrongDecisionError(_waiting_for(p))
            if action.tile not in self.hands[p.player]:
                raise NotInHandError(
                    f"{describe(action.tile) if action.tile in WEIGHT else repr(action.tile)} "
                    f"is not in player {p.player}'s hand"
                )
            if action.at is None:
                if len(p.spots) != 1:
                    raise BadSpotError(
                        "there are several spots: say where ("
                        + ", ".join(pos_str(s) for s in p.spots)
                        + ")"
                    )
            elif action.at not in p.spots:
                raise BadSpotError(
                    f"{pos_str(action.at)} is not a spot; the spots are "
                    + ", ".join(pos_str(s) for s in p.spots)
                )
        elif isinstance(action, Fall):
            if p.kind != "fall":
                raise WrongDecisionError(_waiting_for(p))
            if action.direction not in ("left", "right"):
                raise BadActionError('a fall is "left" or "right"')
        elif isinstance(action, Die):
            if p.kind != "die":
                if p.kind == "play" and not self.fire_die:
                    raise WrongDecisionError("this game is played without the fire die")
                raise WrongDecisionError(_waiting_for(p))
            if action.face is not None and action.face not in DIE_FACES:
                raise BadActionError(f"unknown die face {action.face!r}")
        else:  # pragma: no cover - the type says it all
            raise BadActionError(f"unknown action {action!r}")

    def roll(self) -> list[Event]:
        """Roll the pending fire die with the game's own generator."""
        return self.apply(Die(None))

    def _roll_face(self) -> str:
        side = self.rng.below(6)  # faces by side: 0-2 fire stays, 3 fire removed, 4 boom, 5 smoke
        return DIE_FACES[0] if side < 3 else DIE_FACES[side - 2]

    # --- derived state ----------------------------------------------------------------------------

    def _reset_caches(self) -> None:
        """Forget what is derived from the pyramid (after it was set wholesale)."""
        # Positions changed since the pyramid was last stable; None means "look everywhere".
        self._dirty: set[Pos] | None = None

    # --- a turn -----------------------------------------------------------------------------------

    def _start_turn(self, events: list[Event]) -> None:
        a = self.active
        self.responsible = a
        self.placed = None
        self.rolled = False
        self.die_pair = None
        hand = self.hands[a]
        if not hand:
            # Only reachable from a hand-made state, where a player may start with nothing.
            pile = self.piles[a]
            if not pile:  # no tile at all: this player has already got rid of everything
                self._win(events)
                return
            self._draw(a, HAND_SIZE)  # an empty hand is drawn up first, as at set-up
            events.append(Event("drew", a, amount=len(hand)))
        self.pending = _new(Pending, ("play", a, spots(self.pyramid), None, None))
        events.append(_new(Event, ("turn", a, None, None, None, (), (), "", 0, ())))

    def _play(self, action: Play, events: list[Event]) -> None:
        assert self.pending is not None
        a = self.active
        at = action.at if action.at is not None else self.pending.spots[0]
        self.hands[a].remove(action.tile)
        seen = self.seen_in_hands[a]
        if seen and action.tile in seen:
            seen.remove(action.tile)
        self.pyramid[at] = action.tile
        self.turn += 1
        self.placed = (action.tile, at)
        events.append(_new(Event, ("placed", a, action.tile, at, None, (), (), "", 0, ())))
        if self._dirty is not None:
            self._dirty.add(at)
        self._resolve(events)

    def _end_turn(self, events: list[Event]) -> None:
        """After mayhem: the win check, the draw, the next player (RULES 7)."""
        a = self.active
        hand = self.hands[a]
        pile = self.piles[a]
        if not hand and not pile:
            self._win(events)
            return
        need = HAND_SIZE - len(hand)
        if need > 0 and pile:
            drawn = self._draw(a, need)
            events.append(_new(Event, ("drew", a, None, None, None, (), (), "", drawn, ())))
        self.active = (a + 1) % self.players
        self._start_turn(events)

    def _draw(self, player: int, count: int) -> int:
        """Move up to ``count`` tiles from the top of ``player``'s pile to the hand; return how
        many. Those that went under the pile in public stay known in the hand."""
        pile = self.piles[player]
        drawn = pile[:count]
        del pile[:count]
        self.hands[player].extend(drawn)
        hidden = min(len(drawn), self.hidden_piles[player])
        self.hidden_piles[player] -= hidden
        if hidden < len(drawn):
            self.seen_in_hands[player].extend(drawn[hidden:])
        return len(drawn)

    def _win(self, events: list[Event]) -> None:
        a = self.active
        round_scores = tuple(
            0 if i == a else len(self.hands[i]) + len(self.piles[i]) for i in range(self.players)
        )
        for i, s in enumerate(round_scores):
            self.scores[i] += s
        self.winner = a
        self.pending = None
        events.append(Event("won", a, scores=round_scores))

    # --- mayhem (RULES 5 and 6) -------------------------------------------------------------------

    def _changed(self, *positions: Pos) -> None:
        if self._dirty is not None:
            self._dirty.update(positions)

    def _resolve(self, events: list[Event]) -> None:
        """Find and resolve mayhem until the pyramid is stable or a decision is needed (RULES 5).

        Each round of checks finds the first event by check (5.1 free air, 5.2 collapse,
        5.3 explosion, 5.4 fire or the fire die, 5.5 curse), then by reading order, resolves it,
        and starts again.
        """
        pyr = self.pyramid
        curse_on = self.curse
        fire_auto = not self.fire_die
        while True:
            # Where a tile may be unstable. A tile's fit, free air and curse depend only on the
            # tile and its supports; explosions and fires on the tiles it touches. The pyramid was
            # stable before the positions in _dirty changed, so only a tile on or just above a
            # change (`under`: its supports may differ) or on or next to a change (`near`) can be
            # unstable now. _dirty None: look everywhere. (The lists may repeat positions.)
            dirty = self._dirty
            fiery = not INCENDIARY.isdisjoint(pyr.values())  # no incendiary: no fire, no boom
            under: list[Pos]
            near: list[Pos]
            if dirty is None:
                under = near = list(pyr)
            else:
                under = []
                for r, x in dirty:
                    under.extend(((r, x), (r + 1, x - 1), (r + 1, x + 1)))
                near = []
                if fiery:
                    for r, x in dirty:
                        near.extend(
                            (
                                (r, x),
                                (r + 1, x - 1),
                                (r + 1, x + 1),
                                (r, x - 2),
                                (r, x + 2),
                                (r - 1, x - 1),
                                (r - 1, x + 1),
                            )
                        )
            free: Pos | None = None
            collapse: Pos | None = None
            problem = ""
            curse: Pos | None = None
            # "p comes before q in reading order" is p[0] > q[0] or (p[0] == q[0] and p[1] < q[1]).
            for p in under:
                r, x = p
                if not r:
                    continue
                tile = pyr.get(p)
                if tile is None:
                    continue
                left = pyr.get((r - 1, x - 1))
                right = pyr.get((r - 1, x + 1))
                if left is None and right is None:
                    if free is None or r > free[0] or (r == free[0] and x < free[1]):
                        free = p
                    continue
                why = _fit_problem(pyr, r, x, tile)
                if why:
                    if (
                        collapse is None
                        or r > collapse[0]
                        or (r == collapse[0] and x < collapse[1])
                    ):
                        collapse = p
                        problem = why
                elif (
                    curse_on
                    and left is not None
                    and right is not None
                    and WEIGHT[tile] == WEIGHT[left] == WEIGHT[right]
                    and (curse is None or r > curse[0] or (r == curse[0] and x < curse[1]))
                ):
                    curse = p
            if free is not None:
                self._ask_fall(pyr[free], free)
                return
            if collapse is not None:
                self._collapse(collapse, problem, events)
                return
            explosion: Pos | None = None
            fire: Pos | None = None
            for p in near:
                tile = pyr.get(p)
                if tile is None or tile not in INCENDIARY:
                    continue
                r, x = p
                ign = IGNITES[tile]
                for q in (
                    (r + 1, x - 1),
                    (r + 1, x + 1),
                    (r, x - 2),
                    (r, x + 2),
                    (r - 1, x - 1),
                    (r - 1, x + 1),
                ):
                    t = pyr.get(q)
                    if t is None:
                        continue
                    if t in INCENDIARY:
                        if (
                            explosion is None
                            or r > explosion[0]
                            or (r == explosion[0] and x < explosion[1])
                        ):
                            explosion = p
                    elif (
                        fire_auto
                        and MATERIAL[t] in ign
                        and (fire is None or r > fire[0] or (r == fire[0] and x < fire[1]))
                    ):
                        fire = p
            if explosion is not None:
                self._explode(explosion, events)
                continue
            if fire_auto:
                if fire is not None:
                    self._burn(fire, True, events)
                    continue
            elif fiery and self._ask_die():
                return
            if curse is not None:
                self._curse(curse, events)
                continue
            break
        self._dirty = set() if self.incremental else None
        self._end_turn(events)

    def _take(self, positions: list[Pos]) -> tuple[tuple[str, Pos], ...]:
        """Lift tiles off the pyramid, in reading order."""
        positions.sort(key=reading_key)
        pyr = self.pyramid
        lifted = tuple((pyr.pop(p), p) for p in positions)
        self._changed(*positions)
        return lifted

    def _to_pile(self, lifted: tuple[tuple[str, Pos], ...]) -> None:
        self.piles[self.responsible].extend(t for t, _ in lifted)

    def _ask_fall(self, tile: str, at: Pos) -> None:
        self.pending = _new(Pending, ("fall", self.responsible, (), tile, at))

    def _collapse(self, at: Pos, problem: str, events: list[Event]) -> None:
        """5.2: the supports go under the pile; the tile waits for its fall choice."""
        r, x = at
        supports = [p for p in ((r - 1, x - 1), (r - 1, x + 1)) if p in self.pyramid]
        lifted = self._take(supports)
        self._to_pile(lifted)
        tile = self.pyramid[at]
        events.append(
            Event("collapsed", self.responsible, tile, at, to_pile=lifted, detail=problem)
        )
        self._ask_fall(tile, at)

    def _fall(self, direction: str, events: list[Event]) -> None:
        p = self.pending
        assert p is not None and p.at is not None and p.tile is not None
        r, x = p.at
        to = (r - 1, x - 1) if direction == LEFT else (r - 1, x + 1)
        del self.pyramid[p.at]
        self.pyramid[to] = p.tile
        self._changed(p.at, to)
        events.append(_new(Event, ("fell", p.player, p.tile, p.at, to, (), (), direction, 0, ())))
        self.pending = None
        self._resolve(events)

    def _explode(self, at: Pos, events: list[Event]) -> None:
        """5.3: the connected incendiaries leave the game; every tile touching them goes under."""
        pyr = self.pyramid
        group = {at}
        todo = [at]
        while todo:
            for q in neighbours(todo.pop()):
                if q not in group and pyr.get(q, "") in INCENDIARY:
                    group.add(q)
                    todo.append(q)
        self._blast(group, events)

    def _blast(self, group: set[Pos], events: list[Event]) -> None:
        pyr = self.pyramid
        touched = {q for p in group for q in neighbours(p) if q in pyr and q not in group}
        out = self._take(list(group))
        self.removed.extend(t for t, _ in out)
        lifted = self._take(list(touched))
        self._to_pile(lifted)
        events.append(Event("exploded", self.responsible, to_pile=lifted, out=out))

    def _burn(self, at: Pos, remove_igniter: bool, events: list[Event]) -> None:
        """5.4: the fire spreads through touching tiles the igniter sets alight."""
        pyr = self.pyramid
        igniter = pyr[at]
        ign = IGNITES[igniter]
        burning: set[Pos] = set()
        todo = [at]
        while todo:
            for q in neighbours(todo.pop()):
                t = pyr.get(q)
                if t is not None and q not in burning and MATERIAL[t] in ign:
                    burning.add(q)
                    todo.append(q)
        lifted = self._take(list(burning))
        self._to_pile(lifted)
        out: tuple[tuple[str, Pos], ...] = ()
        if remove_igniter:
            out = self._take([at])
            self.removed.append(igniter)
        kind = "wood" if "wood" in ign else "straw"
        events.append(
            Event("burnt", self.responsible, igniter, at, to_pile=lifted, out=out, detail=kind)
        )

    def _curse(self, at: Pos, events: list[Event]) -> None:
        """5.5: the mini-pyramid goes under the previous player's pile, who is responsible now."""
        r, x = at
        self.responsible = self.previous
        lifted = self._take([at, (r - 1, x - 1), (r - 1, x + 1)])
        self._to_pile(lifted)
        events.append(Event("cursed", self.responsible, to_pile=lifted))

    def _ask_die(self) -> bool:
        """RULES 6: whether the tile just placed, still on its spot, makes a pair; if so the game
        waits for the die."""
        if self.rolled or self.placed is None:
            return False
        tile, at = self.placed
        pyr = self.pyramid
        if pyr.get(at) != tile:
            return False
        pair: Pos | None = None
        if tile in INCENDIARY:
            ign = IGNITES[tile]
            for q in neighbours(at):
                t = pyr.get(q)
                if t is not None and MATERIAL[t] in ign:
                    pair = q
                    break
            incendiary = at
        else:
            material = MATERIAL[tile]
            for q in neighbours(at):
                t = pyr.get(q)
                if t is not None and material in IGNITES[t]:
                    pair = q
                    break
            incendiary = pair if pair is not None else at
        if pair is None:
            return False
        other = pair if incendiary == at else at
        self.rolled = True
        self.die_pair = (incendiary, other)
        self.pending = Pending("die", self.responsible)
        return True

    def _die(self, face: str, events: list[Event]) -> None:
        assert self.die_pair is not None and self.placed is not None
        incendiary, other = self.die_pair
        tile, at = self.placed
        events.append(Event("rolled", self.responsible, tile, at, detail=face))
        self.die_pair = None
        self.pending = None
        if face in (FIRE_STAYS, FIRE_REMOVED):
            self._burn(incendiary, face == FIRE_REMOVED, events)
        elif face == EXPLOSION:
            self._blast({incendiary, other}, events)
        self._resolve(events)

    # --- serialisation ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON data; :meth:`from_dict` restores it exactly.

        The first keys are the scenario format of RULES 8; the rest carry what a saved game needs
        to go on (the generator, the turn in progress, the match).
        """
        return {
            "players": self.players,
            "options": {"curse": self.curse, "fire_die": self.fire_die},
            "pyramid": {pos_str(p): t for p, t in sorted(self.pyramid.items(), key=_item_key)},
            "hands": [list(h) for h in self.hands],
            "piles": [list(p) for p in self.piles],
            "removed": list(self.removed),
            "active": self.active,
            "version": STATE_VERSION,
            "seed": self.seed,
            "rng": self.rng.state,
            "round": self.round,
            "rounds": self.rounds,
            "scores": list(self.scores),
            "turn": self.turn,
            "winner": self.winner,
            "responsible": self.responsible,
            "placed": None if self.placed is None else [self.placed[0], pos_str(self.placed[1])],
            "rolled": self.rolled,
            "die_pair": None if self.die_pair is None else [pos_str(p) for p in self.die_pair],
            "pending": None if self.pending is None else self.pending.to_dict(),
            "turn_events": [e.to_dict() for e in self.turn_events],
            "hidden_piles": list(self.hidden_piles),
            "seen_in_hands": [list(h) for h in self.seen_in_hands],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_dict`, or start one from a scenario state (RULES 8).

        The state is checked first (:func:`engine.state.read_state`): anything wrong with it
        raises :class:`EngineError` naming the problem.
        """
        return cls.from_record(read_state(d))

    @classmethod
    def from_record(cls, record: StateRecord) -> Game:
        """The game a checked state describes: a saved game as it was, or, for a scenario
        state, a game where ``record.active`` is about to play."""
        saved = record.saved
        if saved is None:
            return cls(
                record.players,
                curse=record.curse,
                fire_die=record.fire_die,
                pyramid=dict(record.pyramid),
                hands=[list(h) for h in record.hands],
                piles=[list(p) for p in record.piles],
                removed=list(record.removed),
                active=record.active,
            )
        g = cls.__new__(cls)
        g.players = record.players
        g.curse = record.curse
        g.fire_die = record.fire_die
        g.pyramid = dict(record.pyramid)
        g.hands = [list(h) for h in record.hands]
        g.piles = [list(p) for p in record.piles]
        g.removed = list(record.removed)
        g.active = record.active
        g.rng = Rng(saved.rng)
        g.seed = saved.seed
        g.rounds = saved.rounds
        g.round = saved.round
        g.scores = list(saved.scores)
        g.turn = saved.turn
        g.winner = saved.winner
        g.responsible = saved.responsible
        g.placed = saved.placed
        g.rolled = saved.rolled
        g.die_pair = saved.die_pair
        p = saved.pending
        if p is None:
            g.pending = None
        elif p.kind == "play":
            g.pending = Pending("play", p.player, spots(g.pyramid))
        else:
            g.pending = Pending(p.kind, p.player, tile=p.tile, at=p.at)
        g.turn_events = list(saved.turn_events)
        g.hidden_piles = list(saved.hidden_piles)
        g.seen_in_hands = [list(s) for s in saved.seen_in_hands]
        g._reset_caches()
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Game.from_dict({self.to_dict()!r})"


def standings(
    scores: Sequence[int],
    hand_sizes: Sequence[int],
    pile_sizes: Sequence[int],
    *,
    round_over: bool,
) -> tuple[int, ...]:
    """Each player's total if the match stopped now: the totals of the rounds played (RULES 7),
    plus, while a round is in progress, the tiles each player has left in hand and pile, as a
    round scores every player who did not win it. Lower is better; a match that is over stands
    at its final totals.

    >>> standings([3, 0], [2, 5], [0, 4], round_over=False)
    (5, 9)
    >>> standings([3, 0], [2, 5], [0, 4], round_over=True)
    (3, 0)
    """
    if round_over:
        return tuple(scores)
    return tuple(s + h + p for s, h, p in zip(scores, hand_sizes, pile_sizes, strict=True))


def _item_key(item: tuple[Pos, str]) -> tuple[int, int]:
    return reading_key(item[0])


def _waiting_for(p: Pending) -> str:
    if p.kind == "play":
        return f"player {p.player} must play a tile first"
    if p.kind == "fall":
        return f"player {p.player} must first choose where {describe(p.tile or '')} falls"
    return "the fire die must be rolled first"


def legal_actions(game: Game) -> list[Action]:
    """Every legal action in ``game`` (see :meth:`Game.legal_actions`)."""
    return game.legal_actions()


def step(game: Game, action: Action, player: int | None = None) -> tuple[Game, list[Event]]:
    """Pure form of :meth:`Game.apply`: a new game and the events; ``game`` is unchanged."""
    new = game.copy()
    events = new.apply(action, player)
    return new, events


def replay(initial: dict[str, Any], actions: list[dict[str, Any]]) -> tuple[Game, list[Event]]:
    """Rebuild a game from a saved starting state and its action log (dicts in the scenario
    format, each with an optional ``"player"``). Returns the game and every event, in order."""
    game = Game.from_dict(initial)
    events: list[Event] = []
    for a in actions:
        events.extend(game.apply(action_from_dict(a), a.get("player")))
    return game, events

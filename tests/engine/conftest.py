"""Shared strategies and helpers for the engine's property, CLI and serialisation tests.

Everything here re-states the rules independently of the engine (RULES 2 to 5), so that the
property tests compare the engine against a second reading of RULES.md, not against itself.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import strategies as st

from engine import DIE_FACES, Action, Die, Event, Fall, Game, NextRound, Play, Pos, parse_pos
from engine.tiles import ALL_TILES

ALL_CODES: frozenset[str] = frozenset(ALL_TILES)
COAL_CODES = frozenset({"Y1", "G1"})
BLOWTORCH_CODES = frozenset({"R7", "B7"})
INCENDIARIES = COAL_CODES | BLOWTORCH_CODES
STRAW_CODES = frozenset(f"{c}{w}" for c in "YRGB" for w in (2, 4, 6))
WOOD_CODES = frozenset(f"{c}{w}" for c in "YRGB" for w in (10, 20, 30, 40))
EVENT_KINDS = frozenset(
    {
        "dealt",
        "turn",
        "placed",
        "collapsed",
        "fell",
        "exploded",
        "burnt",
        "cursed",
        "rolled",
        "drew",
        "won",
    }
)


# --- an independent reading of RULES 2 to 5 -------------------------------------------------------


def weight(tile: str) -> int:
    return int(tile[1:])


def same_colour(a: str, b: str) -> bool:
    """RULES 1: the millstone has every colour."""
    return a[0] == b[0] or "M" in (a[0], b[0])


def reading_order(p: Pos) -> tuple[int, int]:
    return (-p[0], p[1])


def touching(p: Pos) -> list[Pos]:
    """RULES 2: the six neighbours of ``p``."""
    r, x = p
    return [(r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1)]


def ref_spots(pyramid: dict[Pos, str]) -> tuple[Pos, ...]:
    """RULES 3, written from the text: where the next tile may go, in reading order."""
    if not pyramid:
        return ((0, 0),)
    found: set[Pos] = set()
    for (r, x), _ in pyramid.items():
        above = (r + 1, x + 1)
        if (r, x + 2) in pyramid and above not in pyramid:
            found.add(above)
    base = [x for (r, x) in pyramid if r == 0]
    for x in range(min(base), max(base) + 1):
        between = any(b < x for b in base) and any(b > x for b in base)
        if x % 2 == 0 and (0, x) not in pyramid and between:
            found.add((0, x))
    if not found:
        return ((0, min(base) - 2), (0, max(base) + 2))
    return tuple(sorted(found, key=reading_order))


def ref_fits(pyramid: dict[Pos, str], at: Pos, tile: str) -> bool:
    """RULES 4, written from the text."""
    r, x = at
    if r == 0:
        return True
    supports = [pyramid[q] for q in ((r - 1, x - 1), (r - 1, x + 1)) if q in pyramid]
    if len(supports) == 2:
        a, b = supports
        matches = any(same_colour(tile, s) or weight(tile) == weight(s) for s in supports)
        return matches and weight(tile) <= weight(a) + weight(b)
    if len(supports) == 1:
        (s,) = supports
        return same_colour(tile, s) and weight(tile) <= weight(s)
    return False


def ignites(igniter: str, tile: str) -> bool:
    """RULES 1 and 5.4: a coal ignites straw, a blowtorch straw and wood."""
    if igniter in COAL_CODES:
        return tile in STRAW_CODES
    if igniter in BLOWTORCH_CODES:
        return tile in STRAW_CODES or tile in WOOD_CODES
    return False


def stability_problems(pyramid: dict[Pos, str], *, curse: bool, fire_die: bool) -> list[str]:
    """What is wrong with a pyramid that should be stable (a play is pending): empty if nothing."""
    problems: list[str] = []
    for p, tile in sorted(pyramid.items(), key=lambda i: reading_order(i[0])):
        r, x = p
        left, right = pyramid.get((r - 1, x - 1)), pyramid.get((r - 1, x + 1))
        if r >= 1 and left is None and right is None:
            problems.append(f"{tile} at {p} is in free air")
        elif not ref_fits(pyramid, p, tile):
            problems.append(f"{tile} at {p} does not fit")
        for q in touching(p):
            other = pyramid.get(q)
            if other is None:
                continue
            if tile in INCENDIARIES and other in INCENDIARIES:
                problems.append(f"incendiaries {tile} at {p} and {other} at {q} touch")
            if not fire_die and ignites(tile, other):
                problems.append(f"{tile} at {p} should have set fire to {other} at {q}")
        if (
            curse
            and left is not None
            and right is not None
            and weight(tile) == weight(left) == weight(right)
        ):
            problems.append(f"cursed mini-pyramid under {tile} at {p}")
    return problems


def all_tiles_of(state: dict[str, Any]) -> list[str]:
    """Every tile code of a state dict (``Game.to_dict()`` or scenario format)."""
    codes = list(state["pyramid"].values()) + list(state.get("removed", []))
    for h in state["hands"]:
        codes += h
    for p in state["piles"]:
        codes += p
    return codes


def conserved(state: dict[str, Any]) -> bool:
    """RULES 7: pyramid + hands + piles + removed is exactly the 45 tiles, each once."""
    codes = all_tiles_of(state)
    return len(codes) == 45 and set(codes) == ALL_CODES


def json_round_trip(game: Game) -> Game:
    """Save ``game`` as JSON text and read it back."""
    return Game.from_dict(json.loads(json.dumps(game.to_dict())))


@contextmanager
def full_scan(enabled: bool = True) -> Iterator[None]:
    """Run the engine with ``Game.incremental`` off (the whole pyramid checked every time)."""
    saved = Game.incremental
    Game.incremental = not enabled
    try:
        yield
    finally:
        Game.incremental = saved


# --- the events tell the whole story --------------------------------------------------------------


def expected_after(before: dict[str, Any], events: Iterable[Event]) -> dict[str, Any]:
    """Rebuild pyramid, hands, piles, removed, active and winner from ``before`` and the events
    (``before`` is a ``Game.to_dict()``; a ``dealt`` event cannot be followed: don't pass one)."""
    pyramid = {tuple(map(int, k.split(","))): t for k, t in before["pyramid"].items()}
    hands = [list(h) for h in before["hands"]]
    piles = [list(p) for p in before["piles"]]
    removed = list(before["removed"])
    active = before["active"]
    winner = before["winner"]

    def lift(entries: tuple[tuple[str, Pos], ...]) -> list[str]:
        out = []
        for tile, pos in entries:
            assert pyramid.get(pos) == tile, f"event lifts {tile} from {pos}, not there"
            del pyramid[pos]
            out.append(tile)
        return out

    for e in events:
        k = e.kind
        assert k != "dealt", "expected_after cannot follow a deal"
        if k == "placed":
            assert e.at is not None and e.tile is not None
            assert e.at not in pyramid, f"placed on the occupied {e.at}"
            hands[e.player].remove(e.tile)
            pyramid[e.at] = e.tile
        elif k == "collapsed":
            piles[e.player] += lift(e.to_pile)
            assert e.at in pyramid
        elif k == "fell":
            assert e.at is not None and e.to is not None
            assert pyramid.get(e.at) == e.tile and e.to not in pyramid
            del pyramid[e.at]
            pyramid[e.to] = e.tile or ""
        elif k in ("exploded", "burnt"):
            removed += lift(e.out)
            piles[e.player] += lift(e.to_pile)
        elif k == "cursed":
            piles[e.player] += lift(e.to_pile)
        elif k == "drew":
            hands[e.player] += piles[e.player][: e.amount]
            del piles[e.player][: e.amount]
        elif k == "turn":
            active = e.player
        elif k == "won":
            winner = e.player
    return {
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles,
        "removed": removed,
        "active": active,
        "winner": winner,
    }


def state_summary(game: Game) -> dict[str, Any]:
    """The parts of a game that :func:`expected_after` rebuilds."""
    return {
        "pyramid": dict(game.pyramid),
        "hands": [list(h) for h in game.hands],
        "piles": [list(p) for p in game.piles],
        "removed": list(game.removed),
        "active": game.active,
        "winner": game.winner,
    }


# --- random decisions -----------------------------------------------------------------------------


def choose(game: Game, rnd: random.Random) -> Action:
    """A random legal decision: any legal play, either fall, the game's own roll or a given face."""
    p = game.pending
    if p is None:
        return NextRound()
    if p.kind == "die":
        if rnd.random() < 0.5:
            return Die(None)
        return Die(rnd.choice(DIE_FACES))
    if p.kind == "fall":
        return Fall(rnd.choice(("left", "right")))
    actions = game.legal_actions()
    action = actions[rnd.randrange(len(actions))]
    assert isinstance(action, Play)
    if len(p.spots) == 1 and rnd.random() < 0.3:
        return Play(action.tile)  # "at" may be left out with one spot
    return action


def play_random(
    game: Game, rnd: random.Random, max_decisions: int
) -> tuple[list[Action], list[list[Event]]]:
    """Play random decisions until the match is over or ``max_decisions`` have been taken."""
    actions: list[Action] = []
    events: list[list[Event]] = []
    for _ in range(max_decisions):
        if game.match_over:
            break
        action = choose(game, rnd)
        events.append(list(game.apply(action)))  # apply returns game.turn_events itself
        actions.append(action)
    return actions, events


def event_kinds(events: Iterable[Event]) -> Counter[str]:
    return Counter(e.kind for e in events)


# --- strategies -----------------------------------------------------------------------------------

players_st = st.sampled_from([2, 3, 4, 5, 6])
seeds_st = st.integers(min_value=0, max_value=2**64 - 1)


OPTION_MIXES = [(False, False), (False, True), (True, False), (True, True)]
"""Every mix of (curse, fire die)."""


@st.composite
def new_games(
    draw: st.DrawFn,
    curse: bool | None = None,
    fire_die: bool | None = None,
    max_rounds: int = 1,
) -> Game:
    """A freshly dealt game: 2 to 6 players, any seed, the given options (drawn when None)."""
    return Game.new(
        draw(players_st),
        draw(seeds_st),
        curse=draw(st.booleans()) if curse is None else curse,
        fire_die=draw(st.booleans()) if fire_die is None else fire_die,
        rounds=draw(st.integers(min_value=1, max_value=max_rounds)),
    )


# --- a second reading of RULES 5 to 7: mayhem, the fire die, the end of a turn -----------------


class Reference:
    """The table after one decision, worked out from RULES 5 to 7 with plain full scans.

    Built from a ``Game.to_dict()``; :meth:`decide` applies a play, a fall or a die face and
    resolves mayhem until the next decision, like the engine should.
    """

    def __init__(self, d: dict[str, Any]) -> None:
        self.n: int = d["players"]
        self.curse: bool = d["options"]["curse"]
        self.fire_die: bool = d["options"]["fire_die"]
        self.pyr: dict[Pos, str] = {parse_pos(k): t for k, t in d["pyramid"].items()}
        self.hands: list[list[str]] = [list(h) for h in d["hands"]]
        self.piles: list[list[str]] = [list(p) for p in d["piles"]]
        self.removed: list[str] = list(d["removed"])
        self.active: int = d["active"]
        self.resp: int = d["responsible"]
        self.winner: int | None = d["winner"]
        placed = d["placed"]
        self.placed: tuple[str, Pos] | None = (
            None if placed is None else (placed[0], parse_pos(placed[1]))
        )
        self.rolled: bool = d["rolled"]
        pair = d["die_pair"]
        self.pair: tuple[Pos, Pos] | None = (
            None if pair is None else (parse_pos(pair[0]), parse_pos(pair[1]))
        )
        p = d["pending"]
        self.pending: tuple[Any, ...] | None = (
            None
            if p is None
            else ("fall", p["player"], p["tile"], parse_pos(p["at"]))
            if p["kind"] == "fall"
            else (p["kind"], p["player"])
        )

    def ordered(self) -> list[Pos]:
        return sorted(self.pyr, key=reading_order)

    def lift(self, positions: Iterable[Pos]) -> list[str]:
        return [self.pyr.pop(p) for p in sorted(set(positions), key=reading_order)]

    def burn(self, igniter_at: Pos, remove_igniter: bool) -> None:
        igniter = self.pyr[igniter_at]
        burning: set[Pos] = set()
        todo = [igniter_at]
        while todo:
            for q in touching(todo.pop()):
                if q in self.pyr and q not in burning and ignites(igniter, self.pyr[q]):
                    burning.add(q)
                    todo.append(q)
        self.piles[self.resp] += self.lift(burning)
        if remove_igniter:
            self.removed += self.lift([igniter_at])

    def blast(self, group: set[Pos]) -> None:
        touched = {q for p in group for q in touching(p) if q in self.pyr and q not in group}
        self.removed += self.lift(group)
        self.piles[self.resp] += self.lift(touched)

    def die_pair(self) -> tuple[Pos, Pos] | None:
        """RULES 6: the placed tile, still on its spot, and the first tile completing a pair."""
        if self.rolled or self.placed is None:
            return None
        tile, at = self.placed
        if self.pyr.get(at) != tile:
            return None
        for q in sorted((q for q in touching(at) if q in self.pyr), key=reading_order):
            other = self.pyr[q]
            if ignites(tile, other):
                return (at, q)
            if ignites(other, tile):
                return (q, at)
        return None

    def resolve(self) -> None:
        while True:
            order = self.ordered()
            free = [p for p in order if p[0] >= 1 and not self.supports(p)]
            if free:
                self.pending = ("fall", self.resp, self.pyr[free[0]], free[0])
                return
            bad = [p for p in order if not ref_fits(self.pyr, p, self.pyr[p])]
            if bad:
                self.piles[self.resp] += self.lift(self.supports(bad[0]))
                self.pending = ("fall", self.resp, self.pyr[bad[0]], bad[0])
                return
            boom = [
                p
                for p in order
                if self.pyr[p] in INCENDIARIES
                and any(self.pyr.get(q) in INCENDIARIES for q in touching(p))
            ]
            if boom:
                group = {boom[0]}
                todo = [boom[0]]
                while todo:
                    for q in touching(todo.pop()):
                        if q not in group and self.pyr.get(q) in INCENDIARIES:
                            group.add(q)
                            todo.append(q)
                self.blast(group)
                continue
            if not self.fire_die:
                fire = [
                    p
                    for p in order
                    if any(ignites(self.pyr[p], self.pyr.get(q, "")) for q in touching(p))
                ]
                if fire:
                    self.burn(fire[0], True)
                    continue
            else:
                pair = self.die_pair()
                if pair is not None:
                    self.rolled = True
                    self.pair = pair
                    self.pending = ("die", self.resp)
                    return
            if self.curse:
                cursed = [
                    p
                    for p in order
                    if len(self.supports(p)) == 2
                    and len({weight(self.pyr[q]) for q in [p, *self.supports(p)]}) == 1
                ]
                if cursed:
                    self.resp = (self.active - 1) % self.n
                    self.piles[self.resp] += self.lift([cursed[0], *self.supports(cursed[0])])
                    continue
            break
        # RULES 7: win, or draw up to five and pass the turn.
        a = self.active
        if not self.hands[a] and not self.piles[a]:
            self.winner = a
            self.pending = None
            return
        need = max(0, 5 - len(self.hands[a]))
        self.hands[a] += self.piles[a][:need]
        del self.piles[a][:need]
        self.active = self.resp = (a + 1) % self.n
        self.placed = None
        self.rolled = False
        self.pending = ("play", self.active)

    def supports(self, p: Pos) -> list[Pos]:
        r, x = p
        if r == 0:
            return []
        return [q for q in ((r - 1, x - 1), (r - 1, x + 1)) if q in self.pyr]

    def decide(self, action: Action, face: str | None = None) -> None:
        """Apply ``action`` (``face``: what a rolled die showed) and resolve."""
        if isinstance(action, Play):
            at = action.at
            assert at is not None
            self.hands[self.active].remove(action.tile)
            self.pyr[at] = action.tile
            self.placed = (action.tile, at)
        elif isinstance(action, Fall):
            assert self.pending is not None
            _, _, tile, (r, x) = self.pending
            del self.pyr[(r, x)]
            self.pyr[(r - 1, x - 1) if action.direction == "left" else (r - 1, x + 1)] = tile
        else:
            assert isinstance(action, Die) and self.pair is not None
            face = action.face or face
            incendiary, other = self.pair
            self.pair = None
            if face in ("fire_stays", "fire_removed"):
                self.burn(incendiary, face == "fire_removed")
            elif face == "explosion":
                self.blast({incendiary, other})
        self.pending = None
        self.resolve()

    def summary(self) -> dict[str, Any]:
        return {
            "pyramid": self.pyr,
            "hands": self.hands,
            "piles": self.piles,
            "removed": self.removed,
            "active": self.active,
            "winner": self.winner,
            "pending": self.pending,
        }


def pending_summary(game: Game) -> tuple[Any, ...] | None:
    p = game.pending
    if p is None:
        return None
    if p.kind == "fall":
        return ("fall", p.player, p.tile, p.at)
    return (p.kind, p.player)

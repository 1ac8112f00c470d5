"""Property-based tests: random legal play keeps every invariant of RULES 2 to 8.

Hypothesis draws the player count (2 to 6), the options (curse × fire die), the seed and the
sequence of decisions; after EVERY decision the state is checked against an independent reading of
the rules (see ``conftest.py``): tiles conserved, a stable pyramid whenever a play is pending, the
spots of RULES 3, pending decisions that make sense, the same table as a second, plain reading of
RULES 5 to 7 (``conftest.Reference``), events that tell the whole story and reveal no hidden
tile, views that show nobody else's tiles, an exact JSON round trip that goes on identically,
replay determinism, and the incremental mayhem checks equal to the full scan.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import (
    DIE_FACES,
    Action,
    Die,
    EngineError,
    Event,
    Fall,
    Game,
    NextRound,
    Play,
    Pos,
    fits,
    replay,
    view,
)
from engine.tiles import ALL_TILES
from tests.engine.conftest import (
    EVENT_KINDS,
    OPTION_MIXES,
    Reference,
    all_tiles_of,
    choose,
    conserved,
    expected_after,
    full_scan,
    json_round_trip,
    new_games,
    pending_summary,
    players_st,
    ref_spots,
    seeds_st,
    stability_problems,
    state_summary,
)

FAST = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SLOW = settings(FAST, max_examples=150)
MAX_DECISIONS = 500
budgets = st.integers(min_value=1, max_value=MAX_DECISIONS) | st.just(MAX_DECISIONS)
"""Decisions per example: half the examples play the whole budget (or to the end)."""
rnds = st.integers(min_value=0, max_value=2**32 - 1).map(random.Random)
"""The decisions' generator: Hypothesis draws its seed (cheaper than ``st.randoms``, which
records every call; the budget still shrinks a failure to its first bad decision)."""


# --- the checks ---------------------------------------------------------------------------------


def tiles_in(events: list[Event]) -> set[str]:
    """Every tile code an event mentions."""
    found: set[str] = set()
    for e in events:
        if e.tile is not None:
            found.add(e.tile)
        found.update(t for t, _ in e.to_pile)
        found.update(t for t, _ in e.out)
    return found


def check_state(game: Game) -> None:
    """What must hold after every decision, whatever happened."""
    d = game.to_dict()
    assert conserved(d), f"tiles not conserved: {sorted(Counter(all_tiles_of(d)).items())}"
    for pos in game.pyramid:
        r, x = pos
        assert r >= 0 and (r + x) % 2 == 0, f"bad position {pos}"
    for i, h in enumerate(game.hands):
        assert len(h) <= 5, f"player {i} holds {len(h)} tiles"
    kinds = [e.kind for e in game.turn_events]
    assert kinds.count("rolled") <= 1, f"two rolls in one turn: {kinds}"
    if not game.fire_die:
        assert "rolled" not in kinds
    assert set(kinds) <= EVENT_KINDS

    p = game.pending
    legal = game.legal_actions()
    if p is None:
        assert game.winner is not None
        assert not game.hands[game.winner] and not game.piles[game.winner]
        assert legal == []
        return
    assert game.winner is None
    assert 0 <= p.player < game.players
    if p.kind == "play":
        assert p.player == game.active == game.responsible
        problems = stability_problems(game.pyramid, curse=game.curse, fire_die=game.fire_die)
        assert not problems, problems
        for pos, tile in game.pyramid.items():
            assert fits(game.pyramid, pos, tile), f"{tile} at {pos} does not fit"
        assert p.spots == ref_spots(game.pyramid), (p.spots, ref_spots(game.pyramid))
        for s in p.spots:
            assert s not in game.pyramid and s[0] >= 0 and sum(s) % 2 == 0
        hand = game.hands[p.player]
        assert hand, "a play is pending but the hand is empty"
        assert len(legal) == len(hand) * len(p.spots)
        assert set(legal) == {Play(t, s) for t in hand for s in p.spots}
    elif p.kind == "fall":
        assert p.at is not None and p.tile is not None
        r, x = p.at
        assert r >= 1
        assert game.pyramid.get(p.at) == p.tile, "the falling tile is not where it says"
        assert (r - 1, x - 1) not in game.pyramid and (r - 1, x + 1) not in game.pyramid
        assert p.player == game.responsible
        assert legal == [Fall("left"), Fall("right")]
    else:
        assert p.kind == "die"
        assert game.fire_die, "a fire die is pending in a game without the fire die"
        assert p.player == game.responsible
        assert kinds.count("rolled") == 0
        assert game.placed is not None and game.pyramid.get(game.placed[1]) == game.placed[0]
        assert legal == [Die(face) for face in DIE_FACES]


def check_events(before: dict[str, Any], action: Action, events: list[Event], game: Game) -> None:
    """The events of one decision: their kinds, what they reveal, and that they explain the
    change of state exactly."""
    assert events, f"{action} produced no event"
    for e in events:
        assert e.kind in EVENT_KINDS
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
        if e.kind == "drew":
            assert e.amount > 0
            assert set(e.to_dict()) == {"type", "player", "count"}, e
            assert e.tile is None and not e.to_pile and not e.out
        if e.kind == "rolled":
            assert e.detail in DIE_FACES
    first = events[0]
    if isinstance(action, Play):
        assert first.kind == "placed" and first.tile == action.tile
        assert action.at is None or first.at == action.at
        assert game.turn_events == events
        assert game.turn == before["turn"] + 1
    elif isinstance(action, Fall):
        assert first.kind == "fell" and first.detail == action.direction
        assert game.turn_events[-len(events) :] == events
    elif isinstance(action, Die):
        assert first.kind == "rolled"
        assert action.face is None or first.detail == action.face
        assert game.turn_events[-len(events) :] == events
    else:
        assert first.kind == "dealt"
        assert game.round == before["round"] + 1
        return
    got = state_summary(game)
    assert expected_after(before, events) == got, "the events do not explain the new state"


def check_against_reference(
    before: dict[str, Any], action: Action, events: list[Event], game: Game
) -> None:
    """The table after the decision is what a second, plain reading of RULES 5 to 7 gives
    (``conftest.Reference``): same pyramid, hands, piles, removed, turn and pending decision."""
    if isinstance(action, NextRound):
        return
    if isinstance(action, Play) and action.at is None:
        action = Play(action.tile, next(e.at for e in events if e.kind == "placed"))
    face = next((e.detail for e in events if e.kind == "rolled"), None)
    ref = Reference(before)
    ref.decide(action, face)
    got = {**state_summary(game), "pending": pending_summary(game)}
    assert got == ref.summary(), f"{action}: the engine and the rules' reading differ"


class Observer:
    """Someone watching the channel: from the public events alone (and the pile sizes the
    table shows at a deal), which tiles lie at the bottom of each pile, in order, and which
    came back into a hand. The engine's record (``View.seen_piles``, ``View.seen_hands``) must
    say exactly this, no more."""

    def __init__(self, game: Game) -> None:
        self.players = game.players
        self.sizes = [len(p) for p in game.piles]
        self.piles: list[list[str]] = [[] for _ in range(game.players)]
        self.hands: list[list[str]] = [[] for _ in range(game.players)]

    def watch(self, events: list[Event], game: Game) -> None:
        for e in events:
            if e.kind == "dealt":  # a new round: the table shows the new piles' sizes
                self.sizes = [len(p) for p in game.piles]
                self.piles = [[] for _ in range(self.players)]
                self.hands = [[] for _ in range(self.players)]
            if e.kind == "placed" and e.tile in self.hands[e.player]:
                self.hands[e.player].remove(e.tile)
            if e.to_pile:
                self.piles[e.player].extend(t for t, _ in e.to_pile)
                self.sizes[e.player] += len(e.to_pile)
            if e.kind == "drew":
                hidden = self.sizes[e.player] - len(self.piles[e.player])
                known = max(0, e.amount - hidden)
                self.hands[e.player].extend(self.piles[e.player][:known])
                del self.piles[e.player][:known]
                self.sizes[e.player] -= e.amount


def check_views(game: Game, public: set[str], observer: Observer | None = None) -> None:
    """No view shows a tile of another player's hand or of any pile, but for what everyone saw
    go under a pile (``seen_piles``, ``seen_hands``: exactly what ``observer`` worked out from
    the events); ``last_events`` may only name tiles everybody saw in the pyramid (or leave it)
    this turn."""
    seen_piles = [p[h:] for p, h in zip(game.piles, game.hidden_piles, strict=True)]
    in_piles = {t for p, h in zip(game.piles, game.hidden_piles, strict=True) for t in p[:h]}
    seen_anywhere = {t for p in seen_piles for t in p} | {t for h in game.seen_in_hands for t in h}
    for who in [None, *range(game.players)]:
        v = view(game, who)
        d = v.to_dict()
        own = set(game.hands[who]) if who is not None else set()
        hidden = in_piles | {
            t
            for i, h in enumerate(game.hands)
            if i != who
            for t in h
            if t not in game.seen_in_hands[i]
        }
        assert not hidden & own
        assert not hidden & seen_anywhere
        body = json.dumps({k: val for k, val in d.items() if k != "last_events"})
        events_text = json.dumps(d["last_events"])
        for code in hidden:
            assert f'"{code}"' not in body, f"view of {who} shows the hidden {code}"
            if f'"{code}"' in events_text:
                assert code in public, f"view of {who}: last_events reveal {code}"
        assert tiles_in(list(v.last_events)) <= public | set(game.pyramid.values()) | (
            seen_anywhere
        )
        assert v.hand == (None if who is None else tuple(game.hands[who]))
        assert v.hand_sizes == tuple(len(h) for h in game.hands)
        assert v.pile_sizes == tuple(len(p) for p in game.piles)
        if observer is not None:
            assert [list(p) for p in v.seen_piles] == observer.piles
            assert [list(h) for h in v.seen_hands] == observer.hands


def illegal_actions(game: Game, rnd: random.Random) -> Iterator[tuple[Action, int | None]]:
    """Actions that are not allowed now (with the player who tries them, if any)."""
    p = game.pending
    if p is None:
        yield Play(ALL_TILES[0], (0, 0)), None
        yield Fall("left"), None
        yield Die(None), None
        if game.match_over:
            yield NextRound(), None
        return
    yield NextRound(), None
    yield next(a for a in game.legal_actions()), (p.player + 1) % game.players  # wrong player
    if p.kind == "play":
        hand = game.hands[p.player]
        not_in_hand = [t for t in ALL_TILES if t not in hand]
        yield Play(rnd.choice(not_in_hand), p.spots[0]), None
        occupied: list[Pos] = list(game.pyramid)
        bad: list[Pos] = [(0, 1), (40, 0), (-1, 1), *occupied]
        yield Play(hand[0], rnd.choice(bad)), None
        if len(p.spots) > 1:
            yield Play(hand[0]), None  # "at" left out with several spots
        yield Fall(rnd.choice(("left", "right"))), None
        yield Die(rnd.choice([None, *DIE_FACES])), None
    elif p.kind == "fall":
        yield Play(ALL_TILES[rnd.randrange(45)], (0, 0)), None
        yield Die(None), None
        yield Fall("up"), None
    else:
        yield Play(ALL_TILES[rnd.randrange(45)], (0, 0)), None
        yield Fall("left"), None
        yield Die("fire_everywhere"), None


def check_illegal(game: Game, rnd: random.Random) -> None:
    before = game.to_dict()
    for action, player in illegal_actions(game, rnd):
        with pytest.raises(EngineError):
            game.apply(action, player)
        assert game.to_dict() == before, f"the illegal {action} changed the game"


def public_tiles(game: Game) -> set[str]:
    return set(game.pyramid.values()) | set(game.removed)


def note_coverage(game: Game, events: list[Event], decisions: int) -> None:
    """What the example reached (see ``--hypothesis-show-statistics``)."""
    event(f"{game.players} players, curse={game.curse}, fire_die={game.fire_die}")
    event(f"decisions: {min(decisions // 100 * 100, 300)}+")
    for kind in sorted({e.kind for e in events} - {"turn", "placed", "drew"}):
        event(f"saw {kind}")


# --- the properties ------------------------------------------------------------------------------


def play_and_check(game: Game, rnd: random.Random, budget: int) -> None:
    initial = game.to_dict()
    check_state(game)
    public = public_tiles(game)
    observer = Observer(game)
    check_views(game, public, observer)
    log: list[dict[str, Any]] = []
    all_events: list[Event] = []
    shadow: Game | None = None
    for _ in range(budget):
        if game.match_over:
            break
        if rnd.random() < 0.15:
            check_illegal(game, rnd)
        if rnd.random() < 0.1:
            shadow = json_round_trip(game)
            assert shadow.to_dict() == game.to_dict()
        before = game.to_dict()
        action = choose(game, rnd)
        pending = game.pending
        if isinstance(action, Play):
            public = public_tiles(game) | {action.tile}
        events = list(game.apply(action))
        if isinstance(action, NextRound):
            public = public_tiles(game)
        entry = action.to_dict()
        if pending is not None and rnd.random() < 0.5:
            entry["player"] = pending.player
        log.append(entry)
        all_events.extend(events)
        if shadow is not None:  # a restored game goes on exactly like the original
            assert list(shadow.apply(action)) == events
            assert shadow.to_dict() == game.to_dict()
        check_events(before, action, events, game)
        check_against_reference(before, action, events, game)
        check_state(game)
        observer.watch(events, game)
        check_views(game, public, observer)
    note_coverage(game, all_events, len(log))
    rebuilt, replayed = replay(initial, log)
    assert rebuilt.to_dict() == game.to_dict()
    assert replayed == all_events


@pytest.mark.parametrize(("curse", "fire_die"), OPTION_MIXES)
@FAST
@given(data=st.data(), rnd=rnds, budget=budgets)
def test_random_play_keeps_every_invariant(
    curse: bool, fire_die: bool, data: st.DataObject, rnd: random.Random, budget: int
) -> None:
    game = data.draw(new_games(curse, fire_die, max_rounds=2), label="game")
    play_and_check(game, rnd, budget)


@pytest.mark.slow
@pytest.mark.parametrize(("curse", "fire_die"), OPTION_MIXES)
@SLOW
@given(data=st.data(), rnd=rnds, budget=st.integers(1, 3000) | st.just(3000))
def test_random_play_keeps_every_invariant_long(
    curse: bool, fire_die: bool, data: st.DataObject, rnd: random.Random, budget: int
) -> None:
    game = data.draw(new_games(curse, fire_die, max_rounds=3), label="game")
    play_and_check(game, rnd, budget)


def lockstep(
    players: int, seed: int, curse: bool, fire_die: bool, rnd: random.Random, budget: int
) -> None:
    """The same decisions with incremental checks and with the full scan: same events, same
    states, after every decision."""
    inc = Game.new(players, seed, curse=curse, fire_die=fire_die, rounds=2)
    with full_scan():
        full = Game.new(players, seed, curse=curse, fire_die=fire_die, rounds=2)
    for _ in range(budget):
        if inc.match_over:
            break
        action = choose(inc, rnd)
        with full_scan(False):
            got = list(inc.apply(action))
        with full_scan():
            want = list(full.apply(action))
        assert got == want, f"{action}: incremental {got} != full scan {want}"
        assert inc.to_dict() == full.to_dict()
    assert full.match_over == inc.match_over


def incremental_and_full(
    players: int, seed: int, curse: bool, fire_die: bool, rnd: random.Random, budget: int
) -> None:
    saved = Game.incremental
    try:
        lockstep(players, seed, curse, fire_die, rnd, budget)
    finally:
        Game.incremental = saved
    assert Game.incremental is saved


@pytest.mark.parametrize(("curse", "fire_die"), OPTION_MIXES)
@settings(FAST, max_examples=60)
@given(players=players_st, seed=seeds_st, rnd=rnds, budget=st.integers(1, 600) | st.just(600))
def test_incremental_checks_equal_full_scan(
    curse: bool, fire_die: bool, players: int, seed: int, rnd: random.Random, budget: int
) -> None:
    incremental_and_full(players, seed, curse, fire_die, rnd, budget)


@pytest.mark.slow
@pytest.mark.parametrize(("curse", "fire_die"), OPTION_MIXES)
@settings(SLOW, max_examples=600)
@given(players=players_st, seed=seeds_st, rnd=rnds, budget=st.integers(1, 3000) | st.just(3000))
def test_incremental_checks_equal_full_scan_long(
    curse: bool, fire_die: bool, players: int, seed: int, rnd: random.Random, budget: int
) -> None:
    incremental_and_full(players, seed, curse, fire_die, rnd, budget)


@pytest.mark.parametrize(("curse", "fire_die"), OPTION_MIXES)
@FAST
@given(data=st.data(), rnd=rnds, budget=budgets)
def test_round_trip_at_every_decision(
    curse: bool, fire_die: bool, data: st.DataObject, rnd: random.Random, budget: int
) -> None:
    """``from_dict(json(to_dict()))`` is exact at every point, and the copy goes on like the
    original for the next few decisions (the fire die rolled from the restored generator)."""
    game = data.draw(new_games(curse, fire_die), label="game")
    for _ in range(budget):
        if game.pending is None:
            break
        copy = json_round_trip(game)
        assert copy.to_dict() == game.to_dict()
        probe = game.copy()
        for _ in range(3):
            if probe.pending is None:
                break
            action = choose(probe, rnd)
            if isinstance(action, Die):
                action = Die(None)
            assert list(copy.apply(action)) == list(probe.apply(action))
            assert copy.to_dict() == probe.to_dict()
        game.apply(choose(game, rnd))


# --- random games end -----------------------------------------------------------------------------

GAMES_PER_COUNT = 300
TURN_CAP = 5000


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end(players: int, record_property: Callable[[str, object], None]) -> None:
    """300 seeded random games per player count (every option mix in turn) all end well
    before the turn cap, with the 45 tiles conserved and a winner with nothing left."""
    capped = 0
    longest = 0
    for g in range(GAMES_PER_COUNT):
        rnd = random.Random(1000 * players + g)
        game = Game.new(players, 7919 * g + players, curse=bool(g & 1), fire_die=bool(g & 2))
        turns = 0
        while game.pending is not None and turns < TURN_CAP:
            p = game.pending
            if p.kind == "play":
                hand = game.hands[p.player]
                game.apply(Play(rnd.choice(hand), rnd.choice(p.spots)))
                turns += 1
            elif p.kind == "fall":
                game.apply(Fall(rnd.choice(("left", "right"))))
            else:
                game.apply(Die(None))
        longest = max(longest, turns)
        d = game.to_dict()
        assert conserved(d), f"game {g}: tiles not conserved"
        if game.pending is not None:
            capped += 1
            continue
        w = game.winner
        assert w is not None and not game.hands[w] and not game.piles[w]
        assert game.turn == turns
    record_property("capped", capped)
    record_property("longest", longest)
    print(f"{players} players: {capped} of {GAMES_PER_COUNT} games capped, longest {longest}")
    assert capped == 0, f"{capped} of {GAMES_PER_COUNT} random games hit the cap of {TURN_CAP}"


# --- the events a decision returns ---------------------------------------------------------------


def collapse_then_fall() -> Game:
    """Two players; player 0 plays R2 on Y30 and B20: R2 matches neither, so it collapses and
    waits for its fall."""
    return Game.from_dict(
        {
            "players": 2,
            "pyramid": {"0,0": "Y30", "0,2": "B20"},
            "hands": [["R2", "G4"], ["Y2"]],
            "piles": [["G6"], ["B4"]],
            "active": 0,
        }
    )


def test_apply_returns_the_events_of_this_decision() -> None:
    game = collapse_then_fall()
    events = list(game.apply(Play("R2", (1, 1))))
    assert [e.kind for e in events] == ["placed", "collapsed"]
    assert game.pending is not None and game.pending.kind == "fall"
    fell = list(game.apply(Fall("left")))
    assert [e.kind for e in fell] == ["fell", "drew", "turn"]
    assert [e.kind for e in game.turn_events] == ["placed", "collapsed", "fell", "drew", "turn"]


def test_events_returned_by_apply_do_not_change_afterwards() -> None:
    """apply() once returned game.turn_events itself, which the next fall then extended."""
    game = collapse_then_fall()
    events = game.apply(Play("R2", (1, 1)))
    kinds = [e.kind for e in events]
    game.apply(Fall("left"))
    assert [e.kind for e in events] == kinds == ["placed", "collapsed"]


def test_changing_returned_events_does_not_change_the_game() -> None:
    game = collapse_then_fall()
    before = game.to_dict()
    events = game.apply(Play("R2", (1, 1)))
    saved = game.to_dict()
    assert saved != before
    events.clear()
    assert game.to_dict() == saved
    assert list(view(game, 1).last_events) == list(game.turn_events) != []

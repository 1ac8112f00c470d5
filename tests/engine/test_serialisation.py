"""Saved games, events and actions as JSON: exact round trips, and damaged input refused cleanly.

``Game.to_dict`` / ``Game.from_dict`` must round-trip exactly in every phase of a match (a play,
a fall or the fire die pending, a round won, the next round dealt, the match over), and the
restored game must go on exactly like the original, fire die rolls included. A damaged saved state
raises :class:`EngineError`, never ``KeyError``/``TypeError``. ``Event`` and the actions have
their own ``to_dict``/``from_dict`` round trips.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import (
    DIE_FACES,
    Action,
    Die,
    EngineError,
    Event,
    Fall,
    Game,
    NextRound,
    Pending,
    Play,
    action_from_dict,
)
from tests.engine.conftest import EVENT_KINDS, choose, conserved, json_round_trip

Phase = Callable[[], Game]


# --- games in every phase ------------------------------------------------------------------------


def find(
    wanted: Callable[[Game], bool],
    *,
    players: int = 4,
    curse: bool = False,
    fire_die: bool = False,
    rounds: int = 1,
    min_turn: int = 0,
) -> Game:
    """The first game (by seed) whose random play reaches a state ``wanted`` accepts."""
    for seed in range(500):
        game = Game.new(players, seed, curse=curse, fire_die=fire_die, rounds=rounds)
        rnd = random.Random(seed)
        for _ in range(5000):
            if game.turn >= min_turn and wanted(game):
                return game
            if game.match_over:
                break
            game.apply(choose(game, rnd))
    raise AssertionError("no seed reached the wanted state")


def pending_kind(kind: str | None) -> Callable[[Game], bool]:
    return lambda g: (g.pending.kind if g.pending else None) == kind


def after_curse(g: Game) -> bool:
    """A fall is pending and the previous player, not the active one, bears the mayhem."""
    return g.pending is not None and g.pending.kind == "fall" and g.responsible != g.active


PHASES: dict[str, Phase] = {
    "dealt, 2 players": lambda: Game.new(2, 11),
    "dealt, 6 players, options": lambda: Game.new(6, 12, curse=True, fire_die=True),
    "play pending mid-game": lambda: find(pending_kind("play"), players=3, min_turn=15),
    "fall pending": lambda: find(pending_kind("fall"), players=5, min_turn=5),
    "fall pending after a curse": lambda: find(after_curse, players=3, curse=True),
    "die pending": lambda: find(pending_kind("die"), players=2, fire_die=True, min_turn=3),
    "die pending, curse": lambda: find(pending_kind("die"), players=6, curse=True, fire_die=True),
    "round won": lambda: find(pending_kind(None), players=4, curse=True),
    "round won, match goes on": lambda: find(pending_kind(None), players=3, rounds=3),
    "next round dealt": lambda: find(lambda g: g.round == 2, players=5, rounds=2),
    "third round, fall pending": lambda: find(
        lambda g: g.round == 3 and pending_kind("fall")(g), players=2, rounds=3
    ),
    "match over": lambda: find(lambda g: g.match_over, players=6, rounds=2, fire_die=True),
    "scenario state": lambda: Game.from_dict(
        {
            "players": 2,
            "pyramid": {"0,0": "Y30", "0,2": "B20"},
            "hands": [["R2", "G4"], ["Y2"]],
            "piles": [["G6"], ["B4"]],
            "active": 1,
        }
    ),
}


@pytest.fixture(params=list(PHASES), ids=list(PHASES))
def phase_game(request: pytest.FixtureRequest) -> Game:
    return PHASES[request.param]()


def plain_json(value: object) -> bool:
    """Only JSON's own types: objects with string keys, lists, strings, ints, bools, None."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


# --- exact round trips ---------------------------------------------------------------------------


def test_phases_are_what_they_say() -> None:
    assert PHASES["fall pending after a curse"]().pending.kind == "fall"  # type: ignore[union-attr]
    die = PHASES["die pending"]()
    assert die.pending is not None and die.pending.kind == "die" and die.die_pair is not None
    assert PHASES["round won, match goes on"]().round_over
    assert not PHASES["round won, match goes on"]().match_over
    assert PHASES["match over"]().winners()


def test_round_trip_is_exact(phase_game: Game) -> None:
    d = phase_game.to_dict()
    assert plain_json(d)
    text = json.dumps(d, allow_nan=False)
    restored = Game.from_dict(json.loads(text))
    assert restored.to_dict() == d
    assert json.dumps(restored.to_dict(), allow_nan=False) == text  # same keys, same order
    assert restored == phase_game
    assert restored.rng.state == phase_game.rng.state
    assert restored.turn_events == phase_game.turn_events
    assert restored.pending == phase_game.pending
    assert conserved(d) or d["seed"] is None  # a scenario state need not hold all 45 tiles


def test_restored_game_goes_on_identically(phase_game: Game) -> None:
    """Same decisions, same events and states; the fire die rolled by both generators."""
    restored = json_round_trip(phase_game)
    rnd = random.Random(5)
    for _ in range(300):
        if phase_game.match_over:
            break
        action = choose(phase_game, rnd)
        if isinstance(action, Die):
            action = Die(None)  # from the game's own (restored) generator
        assert list(restored.apply(action)) == list(phase_game.apply(action))
        assert restored.to_dict() == phase_game.to_dict()
    # a second save of the restored game is exact too
    assert json_round_trip(restored).to_dict() == restored.to_dict()


def test_restored_game_shares_nothing_with_its_input(phase_game: Game) -> None:
    d = phase_game.to_dict()
    kept = copy.deepcopy(d)
    restored = Game.from_dict(d)
    rnd = random.Random(1)
    for _ in range(20):
        if restored.match_over:
            break
        restored.apply(choose(restored, rnd))
    assert d == kept, "playing the restored game changed the dict it came from"
    before = restored.to_dict()
    for v in d["hands"] + d["piles"]:
        v.clear()
    d["pyramid"].clear()
    assert restored.to_dict() == before, "changing the input dict changed the restored game"


def test_to_dict_starts_with_the_scenario_keys(phase_game: Game) -> None:
    keys = list(phase_game.to_dict())
    assert keys[:7] == ["players", "options", "pyramid", "hands", "piles", "removed", "active"]


def test_to_dict_does_not_share_with_the_game(phase_game: Game) -> None:
    d = phase_game.to_dict()
    again = phase_game.to_dict()
    for v in d["hands"] + d["piles"]:
        v.append("M200")
    d["removed"].append("M200")
    d["scores"].append(99)
    assert phase_game.to_dict() == again


def test_copy_is_independent(phase_game: Game) -> None:
    before = phase_game.to_dict()
    other = phase_game.copy()
    assert other == phase_game
    rnd = random.Random(3)
    for _ in range(30):
        if other.match_over:
            break
        other.apply(choose(other, rnd))
    assert phase_game.to_dict() == before


# --- damaged saved states ------------------------------------------------------------------------


def saved(kind: str = "fall") -> dict[str, Any]:
    """A saved game waiting for a fall ("fall"), the die ("die") or a play ("play")."""
    if kind == "die":
        return PHASES["die pending"]().to_dict()
    if kind == "play":
        return PHASES["play pending mid-game"]().to_dict()
    return PHASES["fall pending"]().to_dict()


def corrupt(kind: str, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    d = saved(kind)
    change(d)
    return d


def set_(key: str, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda d: d.__setitem__(key, value)


def drop(key: str) -> Callable[[dict[str, Any]], object]:
    return lambda d: d.pop(key)


def six_in_hand(d: dict[str, Any]) -> None:
    """Move tiles from the other hands and the piles into hand 0 until it holds six."""
    pool = [t for h in d["hands"][1:] for t in h] + [t for p in d["piles"] for t in p]
    for t in pool[: 6 - len(d["hands"][0])]:
        for where in d["hands"][1:] + d["piles"]:
            if t in where:
                where.remove(t)
        d["hands"][0].append(t)
    assert len(d["hands"][0]) == 6


def first_pile_tile(d: dict[str, Any]) -> str:
    return str(next(t for p in d["piles"] for t in p))


DAMAGED: list[tuple[str, str, Callable[[dict[str, Any]], object]]] = [
    ("version 2", "fall", set_("version", 2)),
    ("no version", "fall", drop("version")),
    ("rng negative", "fall", set_("rng", -1)),
    ("rng text", "fall", set_("rng", "12")),
    ("rng float", "fall", set_("rng", 1.5)),
    ("rng null", "fall", set_("rng", None)),
    ("seed text", "fall", set_("seed", "7")),
    ("rounds 0", "fall", set_("rounds", 0)),
    ("round above rounds", "fall", set_("round", 2)),
    ("no round", "fall", drop("round")),
    ("scores too short", "fall", set_("scores", [0])),
    ("scores as text", "fall", lambda d: d.__setitem__("scores", ["0"] * d["players"])),
    ("scores missing", "fall", drop("scores")),
    ("turn negative", "fall", set_("turn", -1)),
    ("turn missing", "fall", drop("turn")),
    ("winner out of range", "fall", set_("winner", 9)),
    ("responsible out of range", "fall", set_("responsible", 9)),
    ("responsible missing", "fall", drop("responsible")),
    ("placed unknown tile", "fall", set_("placed", ["Q1", "0,0"])),
    ("placed a string", "fall", set_("placed", "Y2")),
    ("placed bad position", "fall", lambda d: d.__setitem__("placed", ["Y2", "1,0"])),
    ("placed a list in a list", "fall", set_("placed", [["Y2"], "0,0"])),
    ("rolled missing", "fall", drop("rolled")),
    ("die_pair of one", "die", set_("die_pair", ["0,0"])),
    ("die_pair a string", "die", set_("die_pair", "0,0")),
    ("die_pair bad position", "die", set_("die_pair", ["0,0", "x"])),
    ("die without a pair", "die", set_("die_pair", None)),
    ("die without placed", "die", set_("placed", None)),
    ("pending unknown kind", "fall", set_("pending", {"kind": "jump", "player": 0})),
    ("pending a list", "fall", set_("pending", ["fall"])),
    ("pending no player", "fall", lambda d: d["pending"].pop("player")),
    ("pending player 9", "fall", lambda d: d["pending"].__setitem__("player", 9)),
    ("pending player text", "fall", lambda d: d["pending"].__setitem__("player", "0")),
    ("falling tile elsewhere", "fall", lambda d: d["pending"].__setitem__("tile", "M200")),
    ("fall at a bad position", "fall", lambda d: d["pending"].__setitem__("at", "1,2")),
    ("fall with no at", "fall", lambda d: d["pending"].pop("at")),
    ("null pending, no winner", "fall", set_("pending", None)),
    (
        "play pending for another player",
        "play",
        lambda d: d["pending"].__setitem__("player", (d["active"] + 1) % d["players"]),
    ),
    ("turn_events a string", "fall", set_("turn_events", "placed")),
    ("turn_events of numbers", "fall", set_("turn_events", [5])),
    ("event without player", "fall", set_("turn_events", [{"type": "placed"}])),
    ("event without type", "fall", set_("turn_events", [{"player": 0}])),
    ("event bad at", "fall", set_("turn_events", [{"type": "fell", "player": 0, "at": "x"}])),
    (
        "event bad to_pile",
        "fall",
        set_("turn_events", [{"type": "burnt", "player": 0, "to_pile": [{"tile": "Y2"}]}]),
    ),
    (
        "event to_pile of text",
        "fall",
        set_("turn_events", [{"type": "x", "player": 0, "out": "ab"}]),
    ),
    ("unknown key", "fall", set_("colour", "red")),
    ("hidden_piles too short", "fall", set_("hidden_piles", [0])),
    ("hidden_piles beyond the pile", "fall", lambda d: d["hidden_piles"].__setitem__(0, 99)),
    ("hidden_piles negative", "fall", lambda d: d["hidden_piles"].__setitem__(0, -1)),
    ("hidden_piles without seen", "fall", drop("seen_in_hands")),
    ("seen_in_hands a tile elsewhere", "fall", lambda d: d["seen_in_hands"][0].append("Q1")),
    (
        "seen_in_hands not in the hand",
        "fall",
        lambda d: d["seen_in_hands"][0].append(first_pile_tile(d)),
    ),
    ("seen_in_hands of text", "fall", set_("seen_in_hands", "Y2")),
    ("players 9", "fall", set_("players", 9)),
    ("hand of 6", "play", lambda d: six_in_hand(d)),
    ("tile twice", "fall", lambda d: d["hands"][0].append(first_pile_tile(d))),
    ("unknown tile", "fall", lambda d: d["removed"].append("Z0")),
    ("pyramid a list", "fall", set_("pyramid", [])),
    ("options a list", "fall", set_("options", [])),
]


@pytest.mark.parametrize(
    ("kind", "change"), [(k, c) for _, k, c in DAMAGED], ids=[n for n, _, _ in DAMAGED]
)
def test_damaged_state_is_refused(kind: str, change: Callable[[dict[str, Any]], object]) -> None:
    d = corrupt(kind, change)
    with pytest.raises(EngineError):
        Game.from_dict(d)


@pytest.mark.parametrize("value", [None, [], "state", 42, True])
def test_not_a_state_is_refused(value: object) -> None:
    with pytest.raises(EngineError):
        Game.from_dict(value)  # type: ignore[arg-type]


WRONG_VALUES: list[object] = [
    None,
    True,
    0,
    -1,
    7,
    2**70,
    1.5,
    "",
    "x",
    "0,0",
    "1,2",
    "Y2",
    [],
    [1],
    ["Y2"],
    ["0,0", "0,2"],
    {},
    {"kind": "play", "player": 0},
    {"type": "drew", "player": 0},
    [{"tile": 1, "at": "0,0"}],
]


def paths(value: object, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path inside a JSON value."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


def replaced(d: dict[str, Any], path: tuple[Any, ...], value: object) -> dict[str, Any]:
    out = copy.deepcopy(d)
    target: Any = out
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize("phase", ["fall pending", "die pending", "round won", "next round dealt"])
def test_any_damage_raises_engine_error_or_nothing(phase: str) -> None:
    """Every value of a saved state replaced by values of every JSON type: ``from_dict``
    either accepts the state or raises EngineError, nothing else; a state it accepts saves
    again without trouble."""
    d = PHASES[phase]().to_dict()
    tried = 0
    for path in list(paths(d)):
        for value in WRONG_VALUES:
            bad = replaced(d, path, value)
            tried += 1
            try:
                game = Game.from_dict(bad)
            except EngineError:
                continue
            json.dumps(game.to_dict(), allow_nan=False)
    assert tried > 1000


def die_pending_state() -> dict[str, Any]:
    d = saved("die")
    assert d["pending"]["kind"] == "die" and d["die_pair"] is not None
    return d


def test_die_pair_off_the_pyramid_is_refused() -> None:
    d = die_pending_state()
    d["die_pair"] = ["9,1", "9,3"]
    try:
        game = Game.from_dict(d)
    except EngineError:
        return
    game.apply(Die("explosion"))  # KeyError: (9, 1)


def test_die_pending_without_the_fire_die_is_refused() -> None:
    d = die_pending_state()
    d["options"]["fire_die"] = False
    with pytest.raises(EngineError):
        Game.from_dict(d)


def test_fall_onto_tiles_is_refused() -> None:
    d = saved("play")
    top = max(d["pyramid"], key=lambda k: int(k.split(",")[0]))
    r, x = map(int, top.split(","))
    assert r >= 1 and f"{r - 1},{x - 1}" in d["pyramid"]
    d["pending"] = {"kind": "fall", "player": d["active"], "tile": d["pyramid"][top], "at": top}
    try:
        game = Game.from_dict(d)
    except EngineError:
        return
    game.apply(Fall("left"))
    assert conserved(game.to_dict()), "a tile was lost"


# --- events --------------------------------------------------------------------------------------


def every_event() -> list[Event]:
    """Events of every kind, from a few seeded games with every option mix."""
    events: list[Event] = []
    for seed, (curse, fire_die) in enumerate([(False, False), (True, True)] * 3):
        game = Game.new(2 + seed % 5, seed, curse=curse, fire_die=fire_die, rounds=2)
        events += game.turn_events
        rnd = random.Random(seed)
        while not game.match_over:
            events += game.apply(choose(game, rnd))
    return events


def test_event_round_trip() -> None:
    events = every_event()
    assert {e.kind for e in events} >= EVENT_KINDS - {"cursed"}
    for e in events:
        d = e.to_dict()
        assert plain_json(d)
        assert Event.from_dict(json.loads(json.dumps(d))) == e
        assert d["type"] == e.kind and d["player"] == e.player


def test_event_with_every_field() -> None:
    e = Event(
        "burnt",
        2,
        tile="R7",
        at=(1, 3),
        to=(0, 2),
        to_pile=(("Y2", (0, 2)), ("G10", (1, 5))),
        out=(("R7", (1, 3)),),
        detail="wood",
        amount=3,
        scores=(0, 4, 7),
    )
    d = e.to_dict()
    assert d == {
        "type": "burnt",
        "player": 2,
        "tile": "R7",
        "at": "1,3",
        "to": "0,2",
        "to_pile": [{"tile": "Y2", "at": "0,2"}, {"tile": "G10", "at": "1,5"}],
        "out": [{"tile": "R7", "at": "1,3"}],
        "detail": "wood",
        "count": 3,
        "scores": [0, 4, 7],
    }
    assert Event.from_dict(d) == e
    bare = Event("turn", 1)
    assert bare.to_dict() == {"type": "turn", "player": 1}
    assert Event.from_dict(bare.to_dict()) == bare
    zero_scores = Event("won", 0, scores=(0, 0))
    assert Event.from_dict(zero_scores.to_dict()) == zero_scores


def test_drew_events_carry_only_an_amount() -> None:
    for e in every_event():
        if e.kind == "drew":
            assert set(e.to_dict()) == {"type", "player", "count"}


# --- actions and pending decisions ---------------------------------------------------------------

ACTIONS: list[Action] = [
    Play("Y2"),
    Play("M200", (0, 0)),
    Play("B7", (2, -4)),
    Fall("left"),
    Fall("right"),
    Die(None),
    *(Die(face) for face in DIE_FACES),
    NextRound(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=[repr(a) for a in ACTIONS])
def test_action_round_trip(action: Action) -> None:
    d = action.to_dict()
    assert plain_json(d)
    assert action_from_dict(json.loads(json.dumps(d))) == action
    assert action_from_dict({**d, "player": 1}) == action


def test_action_dicts_of_the_scenario_format() -> None:
    assert action_from_dict({"play": "B7", "at": "2,4"}) == Play("B7", (2, 4))
    assert action_from_dict({"play": "B7"}) == Play("B7")
    assert action_from_dict({"fall": "left"}) == Fall("left")
    assert action_from_dict({"die": "fire_stays"}) == Die("fire_stays")
    assert Die(None).to_dict() == {"die": "roll"}
    assert action_from_dict({"die": "roll"}) == Die(None)
    assert Play("Y2").to_dict() == {"play": "Y2"}
    assert Play("Y2", (1, -1)).to_dict() == {"play": "Y2", "at": "1,-1"}


BAD_ACTION_DICTS: list[object] = [
    None,
    "play",
    ["play", "Y2"],
    {},
    {"play": "Y2", "fall": "left"},
    {"play": "Q2"},
    {"play": 2},
    {"play": None},
    {"play": ["Y2"]},
    {"play": "Y2", "at": "1,2"},
    {"play": "Y2", "at": "a,b"},
    {"play": "Y2", "at": 11},
    {"play": "Y2", "at": ["1", "1"]},
    {"play": "Y2", "at": "-1,1"},
    {"play": "Y2", "where": "0,0"},
    {"fall": "up"},
    {"fall": None},
    {"fall": ["left"]},
    {"fall": "left", "at": "0,0"},
    {"die": "six"},
    {"die": 6},
    {"die": ["smoke"]},
    {"die": {}},
    {"player": 0},
]


@pytest.mark.parametrize("d", BAD_ACTION_DICTS, ids=[json.dumps(d) for d in BAD_ACTION_DICTS])
def test_bad_action_dicts_raise_engine_error(d: object) -> None:
    with pytest.raises(EngineError):
        action_from_dict(d)


def test_pending_to_dict_shapes() -> None:
    assert Pending("play", 1, ((1, 1), (0, -2))).to_dict() == {
        "kind": "play",
        "player": 1,
        "spots": ["1,1", "0,-2"],
    }
    assert Pending("fall", 0, tile="Y1", at=(2, 0)).to_dict() == {
        "kind": "fall",
        "player": 0,
        "tile": "Y1",
        "at": "2,0",
    }
    assert Pending("die", 3).to_dict() == {"kind": "die", "player": 3}


def test_accepted_state_always_has_a_legal_action() -> None:
    d = {
        "players": 2,
        "pyramid": {},
        "hands": [[], ["Y2"]],
        "piles": [["R4"], []],
        "active": 0,
    }
    try:
        game = Game.from_dict(d)
    except EngineError:
        return
    assert game.pending is None or game.legal_actions(), f"stuck: {game.pending}"


def test_a_state_saved_before_the_public_record_loads_with_nothing_seen() -> None:
    game = Game.new(3, 5)
    rnd = random.Random(2)
    for _ in range(40):
        game.apply(choose(game, rnd))
    d = game.to_dict()
    del d["hidden_piles"], d["seen_in_hands"]
    old = Game.from_dict(d)
    assert old.hidden_piles == [len(p) for p in old.piles]
    assert old.seen_in_hands == [[] for _ in range(3)]
    assert {k: v for k, v in old.to_dict().items() if k in d} == d

"""The command line of RULES 8: ``python -m engine run FILE|-`` and ``python -m engine new``.

Most tests call the command line's ``main`` with its arguments in this process, with standard
input, output and error replaced by strings (fast, and safe to run in parallel); a few smoke tests
run it as a real program (a subprocess of this interpreter, started in the repository's root with
only ``PYTHONPATH`` set) to show that the module runs as a command and behaves the same. Bad input
of every kind must exit with status 2, print exactly one line on standard error naming the problem
(``action N`` for an action), nothing on standard output, and never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import parse_pos
from engine.cli import main
from engine.tiles import ALL_TILES, INCENDIARY
from tests.engine.conftest import ref_spots

ROOT = Path(__file__).resolve().parents[2]
STATE_KEYS = ["players", "options", "pyramid", "hands", "piles", "removed", "active"]
OUTPUT_KEYS = {*STATE_KEYS, "pending", "winner", "events"}


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m engine ARGS``, run in this process: its exit status, output and errors."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin if stdin is not None else "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as stop:  # argparse stops at what it checks itself
                status = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(
        ["python", "-m", "engine", *args], status, out.getvalue(), err.getvalue()
    )


def engine_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m engine ARGS`` as a real program from the repository root, in a clean
    environment (the smoke tests: the module runs as a command)."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def run_ok(scenario: dict[str, Any] | str, *, via_stdin: bool = True) -> dict[str, Any]:
    """Run a scenario that must succeed; return its output, checked against RULES 8's shape."""
    text = scenario if isinstance(scenario, str) else json.dumps(scenario)
    proc = engine("run", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.endswith("\n") and proc.stdout.count("\n") == 1
    out: dict[str, Any] = json.loads(proc.stdout)
    check_output_shape(out)
    return out


def run_file(tmp_path: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    proc = engine("run", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out: dict[str, Any] = json.loads(proc.stdout)
    check_output_shape(out)
    return out


def fails(proc: subprocess.CompletedProcess[str], *words: str, action: int | None = None) -> str:
    """Check the failure contract; return the error line."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    assert proc.stderr.endswith("\n") and proc.stderr.count("\n") == 1, repr(proc.stderr)
    line = proc.stderr.strip()
    assert line
    low = line.lower()
    for w in words:
        assert w.lower() in low, f"{w!r} not in {line!r}"
    if action is None:
        assert re.search(r"\baction \d", line) is None, line
    else:
        assert re.search(rf"\baction {action}\b", line), f"no 'action {action}' in {line!r}"
    return line


def run_fails(scenario: dict[str, Any] | str, *words: str, action: int | None = None) -> str:
    text = scenario if isinstance(scenario, str) else json.dumps(scenario)
    return fails(engine("run", "-", stdin=text), *words, action=action)


def check_output_shape(out: dict[str, Any]) -> None:
    """The output of ``run`` (RULES 8): the state's keys plus pending, winner and events."""
    assert set(out) == OUTPUT_KEYS
    assert isinstance(out["events"], list)
    for e in out["events"]:
        assert isinstance(e, dict) and isinstance(e.get("type"), str)
    pending = out["pending"]
    n = out["players"]
    if pending is None:
        assert isinstance(out["winner"], int) and 0 <= out["winner"] < n
        return
    assert out["winner"] is None
    kind = pending["kind"]
    assert isinstance(pending["player"], int) and 0 <= pending["player"] < n
    if kind == "play":
        assert set(pending) == {"kind", "player", "spots"}
        assert pending["player"] == out["active"]
        pyramid = {parse_pos(k): t for k, t in out["pyramid"].items()}
        spots = [parse_pos(s) for s in pending["spots"]]
        assert spots == sorted(spots, key=lambda p: (-p[0], p[1])), "spots not in reading order"
        assert tuple(spots) == ref_spots(pyramid)
    elif kind == "fall":
        assert set(pending) == {"kind", "player", "tile", "at"}
        assert out["pyramid"][pending["at"]] == pending["tile"]
        r, x = parse_pos(pending["at"])
        assert f"{r - 1},{x - 1}" not in out["pyramid"]
        assert f"{r - 1},{x + 1}" not in out["pyramid"]
    else:
        assert kind == "die"
        assert set(pending) == {"kind", "player"}
        assert out["options"]["fire_die"] is True


def state(
    pyramid: dict[str, str],
    hands: list[list[str]],
    piles: list[list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "players": len(hands),
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles if piles is not None else [[] for _ in hands],
        "active": 0,
    }
    d.update(extra)
    return d


# Player 0 plays R2 on Y30 and B20: it matches neither, so it collapses (RULES 4, 5.2).
COLLAPSE = state({"0,0": "Y30", "0,2": "B20"}, [["R2", "G4"], ["Y2"]], [["G6"], ["B4"]])
# With the fire die, the coal Y1 placed beside the straw Y2 waits for the die (RULES 6).
FIRE = state(
    {"0,0": "Y2"},
    [["Y1", "R40"], ["B4"]],
    [["G60"], ["R60"]],
    options={"curse": False, "fire_die": True},
)
# Player 1 holds one tile and nothing else: playing it wins the round (RULES 7).
LAST_TILE = state({"0,0": "G20"}, [["B100"], ["G10"]], [["Y60"], []], active=1)
WIN = {"play": "G10", "at": "0,2"}
# Spots on three rows: 2,2 on the second row, 1,9 on the first, the gap 0,6 in the base.
THREE_ROWS = state(
    {
        "0,0": "R40",
        "0,2": "Y40",
        "0,4": "B40",
        "0,8": "G40",
        "0,10": "G20",
        "1,1": "Y30",
        "1,3": "B30",
    },
    [["Y2"], ["R2"]],
)


# --- the contract ---------------------------------------------------------------------------------


def test_output_has_exactly_the_keys_of_rules_8() -> None:
    out = run_ok(THREE_ROWS)
    assert list(out) == [*STATE_KEYS, "pending", "winner", "events"]
    assert out["options"] == {"curse": False, "fire_die": False}
    assert out["removed"] == []
    assert out["events"] == []
    assert out["pending"] == {"kind": "play", "player": 0, "spots": ["2,2", "1,9", "0,6"]}
    assert out["winner"] is None


def test_options_and_removed_may_be_left_out_or_given() -> None:
    given = {**THREE_ROWS, "options": {"curse": True}, "removed": ["R7"]}
    out = run_ok(given)
    assert out["options"] == {"curse": True, "fire_die": False}
    assert out["removed"] == ["R7"]


def test_pending_play_spots_in_reading_order() -> None:
    out = run_ok(state({"0,0": "Y2", "0,2": "R4", "0,6": "B6"}, [["G2"], ["G4"]]))
    assert out["pending"] == {"kind": "play", "player": 0, "spots": ["1,1", "0,4"]}
    out = run_ok(state({"0,0": "Y2"}, [["G2"], ["G4"]]))
    assert out["pending"]["spots"] == ["0,-2", "0,2"]
    out = run_ok(state({}, [["G2"], ["G4"]]))
    assert out["pending"]["spots"] == ["0,0"]


def test_pending_fall() -> None:
    out = run_ok({**COLLAPSE, "actions": [{"play": "R2", "at": "1,1"}]})
    assert out["pending"] == {"kind": "fall", "player": 0, "tile": "R2", "at": "1,1"}
    assert out["pyramid"] == {"1,1": "R2"}  # the tile is still there, its supports are gone
    assert out["piles"] == [["G6", "Y30", "B20"], ["B4"]]
    assert out["hands"] == [["G4"], ["Y2"]]
    assert [e["type"] for e in out["events"]] == ["placed", "collapsed"]


def test_fall_then_draw_and_next_turn() -> None:
    actions = [{"play": "R2", "at": "1,1", "player": 0}, {"fall": "left", "player": 0}]
    out = run_ok({**COLLAPSE, "actions": actions})
    assert out["pyramid"] == {"0,0": "R2"}
    assert out["hands"] == [["G4", "G6", "Y30", "B20"], ["Y2"]]
    assert out["piles"] == [[], ["B4"]]
    assert out["active"] == 1
    assert out["pending"] == {"kind": "play", "player": 1, "spots": ["0,-2", "0,2"]}
    kinds = [e["type"] for e in out["events"]]
    assert kinds == ["placed", "collapsed", "fell", "drew", "turn"]
    drew = out["events"][3]
    assert set(drew) == {"type", "player", "count"} and drew["count"] == 3


def test_pending_die_and_a_given_face() -> None:
    out = run_ok({**FIRE, "actions": [{"play": "Y1", "at": "0,2"}]})
    assert out["pending"] == {"kind": "die", "player": 0}
    assert out["pyramid"] == {"0,0": "Y2", "0,2": "Y1"}
    out = run_ok({**FIRE, "actions": [{"play": "Y1", "at": "0,2"}, {"die": "smoke", "player": 0}]})
    assert out["pyramid"] == {"0,0": "Y2", "0,2": "Y1"}
    assert out["pending"]["kind"] == "play" and out["active"] == 1
    rolled = [e for e in out["events"] if e["type"] == "rolled"]
    assert len(rolled) == 1 and rolled[0]["detail"] == "smoke"
    out = run_ok({**FIRE, "actions": [{"play": "Y1", "at": "0,2"}, {"die": "fire_removed"}]})
    assert out["pyramid"] == {}
    assert out["removed"] == ["Y1"]
    assert out["piles"][0] == ["Y2"] or out["hands"][0][-1] == "Y2"


def test_round_won_pending_null() -> None:
    out = run_ok({**LAST_TILE, "actions": [WIN]})
    assert out["pending"] is None
    assert out["winner"] == 1
    assert out["hands"][1] == [] and out["piles"][1] == []
    won = out["events"][-1]
    assert won["type"] == "won" and won["player"] == 1


def test_at_may_be_left_out_with_one_spot() -> None:
    out = run_ok({**state({}, [["Y2"], ["R2"]]), "actions": [{"play": "Y2"}]})
    assert out["pyramid"] == {"0,0": "Y2"}
    assert out["events"][0] == {"type": "placed", "player": 0, "tile": "Y2", "at": "0,0"}


def test_player_is_checked_when_given() -> None:
    run_ok({**COLLAPSE, "actions": [{"play": "R2", "at": "1,1", "player": 0}]})
    run_fails(
        {**COLLAPSE, "actions": [{"play": "R2", "at": "1,1", "player": 1}]}, "player", action=0
    )
    # The fall belongs to the responsible player: player 0 here, not player 1.
    actions = [{"play": "R2", "at": "1,1"}, {"fall": "left", "player": 1}]
    run_fails({**COLLAPSE, "actions": actions}, "player", action=1)


def test_file_and_stdin_give_the_same_output(tmp_path: Path) -> None:
    scenario = {**COLLAPSE, "actions": [{"play": "R2", "at": "1,1"}, {"fall": "right"}]}
    assert run_file(tmp_path, scenario) == run_ok(scenario)


def test_the_output_of_run_is_a_state_run_accepts() -> None:
    out = run_ok({**COLLAPSE, "actions": [{"play": "R2", "at": "1,1"}, {"fall": "right"}]})
    again = run_ok(out)
    assert {k: again[k] for k in STATE_KEYS} == {k: out[k] for k in STATE_KEYS}
    assert again["pending"] == out["pending"] and again["events"] == []


# --- new ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_new_deals_every_player_count(players: int, seed: int) -> None:
    proc = engine("new", "--players", str(players), "--seed", str(seed))
    assert proc.returncode == 0 and proc.stderr == ""
    st = json.loads(proc.stdout)
    assert list(st) == STATE_KEYS
    assert st["players"] == players
    assert st["options"] == {"curse": False, "fire_die": False}
    codes = [*st["pyramid"].values(), *st["removed"]]
    for h in st["hands"]:
        codes += h
    for p in st["piles"]:
        codes += p
    assert sorted(codes) == sorted(ALL_TILES), "not the 45 tiles, each once"
    share = 45 // players
    assert [len(h) for h in st["hands"]] == [5] * players
    assert [len(p) for p in st["piles"]] == [share - 5] * players
    leftover = 45 % players
    # The leftovers start the base row from 0,0 to the right; coals and blowtorches leave.
    assert len(st["pyramid"]) + len(st["removed"]) == leftover
    assert list(st["pyramid"]) == [f"0,{2 * i}" for i in range(len(st["pyramid"]))]
    assert set(st["removed"]) <= INCENDIARY
    assert not set(st["pyramid"].values()) & INCENDIARY
    assert 0 <= st["active"] < players
    # run accepts it as it is, and a play of the active player goes on from it.
    out = run_ok(st)
    assert {k: out[k] for k in STATE_KEYS} == st
    assert out["pending"]["kind"] == "play" and out["pending"]["player"] == st["active"]
    tile = st["hands"][st["active"]][0]
    first_spot = out["pending"]["spots"][0]
    run_ok({**st, "actions": [{"play": tile, "at": first_spot, "player": st["active"]}]})


def test_new_is_decided_by_the_seed_and_prints_the_options() -> None:
    a = engine("new", "--players", "4", "--seed", "7", "--curse", "--fire-die")
    b = engine("new", "--players", "4", "--seed", "7", "--fire-die", "--curse")
    c = engine("new", "--players", "4", "--seed", "8", "--curse", "--fire-die")
    assert a.returncode == b.returncode == c.returncode == 0
    assert a.stdout == b.stdout != c.stdout
    assert json.loads(a.stdout)["options"] == {"curse": True, "fire_die": True}
    assert json.loads(engine("new", "--players", "3", "--curse").stdout)["options"] == {
        "curse": True,
        "fire_die": False,
    }
    default = engine("new", "--players", "3")
    assert default.stdout == engine("new", "--players", "3", "--seed", "0").stdout


def test_new_leftovers_incendiaries_leave_the_game() -> None:
    """Some seed deals a coal or blowtorch among the leftovers of a 6-player game; the base row
    then has no hole where it would have gone."""
    found = 0
    for seed in range(60):
        st = json.loads(engine("new", "--players", "6", "--seed", str(seed)).stdout)
        if st["removed"]:
            found += 1
            assert list(st["pyramid"]) == [f"0,{2 * i}" for i in range(3 - len(st["removed"]))]
        if found >= 2:
            break
    assert found, "no seed in 0..59 dealt an incendiary among the leftovers"


def test_new_piped_into_run() -> None:
    dealt = engine("new", "--players", "5", "--seed", "3", "--fire-die")
    out = run_ok(dealt.stdout)
    assert out["options"]["fire_die"] is True


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["new", "--players", "7"], ["7"]),
        (["new", "--players", "1"], ["1"]),
        (["new", "--players", "0"], ["players"]),
        (["new", "--players", "two"], ["players"]),
        (["new"], ["--players"]),
        (["new", "--players", "3", "--seed", "x"], ["seed"]),
        (["new", "--players", "3", "--colour"], ["--colour"]),
        ([], ["command"]),
        (["deal"], ["deal"]),
        (["run"], ["file"]),
        (["run", "a.json", "b.json"], ["b.json"]),
    ],
)
def test_bad_command_lines(args: list[str], words: list[str]) -> None:
    fails(engine(*args), *words)


# --- bad input: the state -------------------------------------------------------------------------

GOOD = state({"0,0": "Y2"}, [["R4", "B6"], ["G4", "B2"]], [["Y30"], []])


def with_(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


def without(key: str) -> dict[str, Any]:
    return {k: v for k, v in GOOD.items() if k != key}


BAD_STATES: list[tuple[str, str, list[str]]] = [
    # (name, scenario text, words the error line must contain)
    ("truncated JSON", '{"players": 2,', ["JSON"]),
    ("not JSON at all", "this is not json", ["JSON"]),
    ("single quotes", "{'players': 2}", ["JSON"]),
    ("trailing garbage", json.dumps(GOOD) + " 42", ["JSON"]),
    ("a list", "[1, 2]", ["object"]),
    ("a number", "42", ["object"]),
    ("a string", '"state"', ["object"]),
    ("null", "null", ["object"]),
    ("unknown tile in the pyramid", json.dumps(with_(pyramid={"0,0": "Y3"})), ["Y3"]),
    ("unknown tile in a hand", json.dumps(with_(hands=[["R4", "X9"], ["G4"]])), ["X9"]),
    ("a number for a tile", json.dumps(with_(piles=[[30], []])), ["30"]),
    ("lower-case tile", json.dumps(with_(hands=[["r4"], ["G4"]])), ["r4"]),
    ("tile in pyramid and hand", json.dumps(with_(hands=[["Y2"], ["G4"]])), ["Y2", "twice"]),
    ("tile in two piles", json.dumps(with_(piles=[["Y30"], ["Y30"]])), ["Y30", "twice"]),
    ("tile twice in one hand", json.dumps(with_(hands=[["R4", "R4"], ["G4"]])), ["R4", "twice"]),
    ("tile in hand and removed", json.dumps(with_(removed=["G4"])), ["G4", "twice"]),
    (
        "tile in pile and pyramid",
        json.dumps(with_(pyramid={"0,0": "Y2", "0,2": "Y30"})),
        ["Y30", "twice"],
    ),
    ("odd r+x", json.dumps(with_(pyramid={"1,0": "Y2"})), ["1,0"]),
    ("letters for a position", json.dumps(with_(pyramid={"a,b": "Y2"})), ["a,b"]),
    ("negative row", json.dumps(with_(pyramid={"-1,1": "Y2"})), ["-1,1"]),
    ("one number for a position", json.dumps(with_(pyramid={"0": "Y2"})), ["position"]),
    ("three numbers", json.dumps(with_(pyramid={"0,0,0": "Y2"})), ["0,0,0"]),
    ("empty position", json.dumps(with_(pyramid={"": "Y2"})), ["position"]),
    ("active out of range", json.dumps(with_(active=2)), ["active"]),
    ("negative active", json.dumps(with_(active=-1)), ["active"]),
    ("active as text", json.dumps(with_(active="0")), ["active"]),
    ("active as true", json.dumps(with_(active=True)), ["active"]),
    ("seven players", json.dumps(with_(players=7, hands=[[]] * 7, piles=[[]] * 7)), ["players"]),
    ("one player", json.dumps(with_(players=1, hands=[["R4"]], piles=[[]])), ["players"]),
    ("players as text", json.dumps(with_(players="2")), ["players"]),
    ("players as 2.0", json.dumps(with_(players=2.0)), ["players"]),
    (
        "hand of 6",
        json.dumps(with_(hands=[["R4", "B6", "G6", "Y4", "R6", "B4"], ["G4"]])),
        ["hands[0]", "6"],
    ),
    ("unknown key", json.dumps(with_(colour="red")), ["colour"]),
    ("unknown option", json.dumps(with_(options={"curses": True})), ["curses"]),
    ("option not a boolean", json.dumps(with_(options={"curse": "yes"})), ["curse"]),
    ("options not an object", json.dumps(with_(options=[True, False])), ["options"]),
    ("pyramid as a list", json.dumps(with_(pyramid=[["0,0", "Y2"]])), ["pyramid"]),
    ("hands as an object", json.dumps(with_(hands={"0": ["R4"]})), ["hands"]),
    ("hands for 3 players", json.dumps(with_(hands=[["R4"], ["G4"], []])), ["hands"]),
    ("a hand that is a string", json.dumps(with_(hands=["R4", ["G4"]])), ["hands[0]"]),
    ("piles for 1 player", json.dumps(with_(piles=[["Y30"]])), ["piles"]),
    ("removed not a list", json.dumps(with_(removed="R7")), ["removed"]),
    ("actions not a list", json.dumps(with_(actions={"play": "R4"})), ["actions"]),
    ("no players", json.dumps(without("players")), ["players"]),
    ("no pyramid", json.dumps(without("pyramid")), ["pyramid"]),
    ("no hands", json.dumps(without("hands")), ["hands"]),
    ("no piles", json.dumps(without("piles")), ["piles"]),
    ("no active", json.dumps(without("active")), ["active"]),
    ("empty input", "", ["JSON"]),
    ("only whitespace", "  \n\t ", ["JSON"]),
    ("a pending fall", json.dumps(with_(pending={"kind": "fall", "player": 0})), ["fall"]),
]


@pytest.mark.parametrize(
    ("text", "words"), [(t, w) for _, t, w in BAD_STATES], ids=[n for n, _, _ in BAD_STATES]
)
def test_bad_state(text: str, words: list[str]) -> None:
    run_fails(text, *words)


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    fails(engine("run", str(missing)), "nowhere.json")


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    fails(engine("run", str(tmp_path)), str(tmp_path.name))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"players": 2, "pyramid": {"0,0": "\xe9"}}')
    fails(engine("run", str(path)), "UTF-8")


def test_empty_stdin() -> None:
    fails(engine("run", "-", stdin=""), "JSON")


# --- bad input: the actions -----------------------------------------------------------------------

OK_PLAY = {"play": "R4", "at": "0,2"}  # player 0's R4 beside Y2
OK_G4 = {"play": "G4", "at": "1,1"}  # then player 1's G4 on them (the one spot)

BAD_ACTIONS: list[tuple[str, dict[str, Any], list[Any], int, list[str]]] = [
    # (name, state, actions, index of the bad one, words the error line must contain)
    ("tile not in hand", GOOD, [{"play": "G4", "at": "0,2"}], 0, ["green 4", "hand"]),
    ("tile of the pyramid", GOOD, [{"play": "Y2", "at": "0,2"}], 0, ["hand"]),
    ("unknown tile", GOOD, [{"play": "Z9", "at": "0,2"}], 0, ["Z9"]),
    ("tile as a number", GOOD, [{"play": 4, "at": "0,2"}], 0, ["4"]),
    ("spot not a spot", GOOD, [{"play": "R4", "at": "0,4"}], 0, ["0,4", "spot"]),
    ("spot occupied", GOOD, [{"play": "R4", "at": "0,0"}], 0, ["0,0", "spot"]),
    ("odd position", GOOD, [{"play": "R4", "at": "1,2"}], 0, ["1,2"]),
    ("letters for at", GOOD, [{"play": "R4", "at": "x,y"}], 0, ["x,y"]),
    ("negative row for at", GOOD, [{"play": "R4", "at": "-2,0"}], 0, ["-2,0"]),
    ("at as a list", GOOD, [{"play": "R4", "at": [0, 2]}], 0, ["position"]),
    ("at left out with two spots", GOOD, [{"play": "R4"}], 0, ["spots"]),
    ("fall when a play is pending", GOOD, [{"fall": "left"}], 0, ["play"]),
    ("die without the fire die", GOOD, [{"die": "smoke"}], 0, ["play"]),
    ("die while a play is pending", FIRE, [{"die": "smoke"}], 0, ["play"]),
    (
        "play while a fall is pending",
        COLLAPSE,
        [{"play": "R2", "at": "1,1"}, {"play": "G4", "at": "0,0"}],
        1,
        ["fall"],
    ),
    (
        "die while a fall is pending",
        COLLAPSE,
        [{"play": "R2", "at": "1,1"}, {"die": "smoke"}],
        1,
        ["fall"],
    ),
    (
        "play while the die is pending",
        FIRE,
        [{"play": "Y1", "at": "0,2"}, {"play": "R40", "at": "0,4"}],
        1,
        ["die"],
    ),
    ("unknown die face", FIRE, [{"play": "Y1", "at": "0,2"}, {"die": "six"}], 1, ["six"]),
    ("fall up", COLLAPSE, [{"play": "R2", "at": "1,1"}, {"fall": "up"}], 1, ["up"]),
    ("wrong player", GOOD, [{"play": "R4", "at": "0,2", "player": 1}], 0, ["player 1"]),
    ("no such player", GOOD, [{"play": "R4", "at": "0,2", "player": 5}], 0, ["player 5"]),
    ("player as text", GOOD, [{"play": "R4", "at": "0,2", "player": "0"}], 0, ["player"]),
    ("player as true", GOOD, [{"play": "R4", "at": "0,2", "player": True}], 0, ["player"]),
    ("action as text", GOOD, ["play R4"], 0, ["object"]),
    ("action as a list", GOOD, [["play", "R4"]], 0, ["object"]),
    ("empty action", GOOD, [{}], 0, ["play"]),
    ("two kinds in one action", GOOD, [{"play": "R4", "fall": "left"}], 0, ["one"]),
    ("unknown key in an action", GOOD, [{"play": "R4", "at": "0,2", "where": 1}], 0, ["where"]),
    (
        "at on a fall",
        COLLAPSE,
        [{"play": "R2", "at": "1,1"}, {"fall": "left", "at": "0,0"}],
        1,
        ["at"],
    ),
    ("the third action", GOOD, [OK_PLAY, OK_G4, {"play": "B6", "at": "9,9"}], 2, ["9,9"]),
    (
        "third action by the wrong player",
        GOOD,
        [OK_PLAY, OK_G4, {**OK_G4, "player": 1}],
        2,
        ["player"],
    ),
    (
        "after the round is won",
        LAST_TILE,
        [WIN, {"play": "B100", "at": "0,4"}],
        1,
        ["over"],
    ),
]


@pytest.mark.parametrize(
    ("base", "actions", "index", "words"),
    [(s, a, i, w) for _, s, a, i, w in BAD_ACTIONS],
    ids=[n for n, *_ in BAD_ACTIONS],
)
def test_bad_action(base: dict[str, Any], actions: list[Any], index: int, words: list[str]) -> None:
    run_fails({**base, "actions": actions}, *words, action=index)
    # The actions before the bad one are fine on their own.
    run_ok({**base, "actions": actions[:index]})


# --- inputs that once crashed the engine ---------------------------------------------------------


def test_deeply_nested_json() -> None:
    run_fails("[" * 100_000, "nested")


def test_integer_too_long_for_python() -> None:
    run_fails('{"players": ' + "1" * 5000 + "}", "digits")


# --- the module as a real program (smoke tests) ---------------------------------------------------


def test_the_module_runs_new_then_run_as_programs() -> None:
    dealt = engine_process("new", "--players", "3", "--seed", "5", "--curse")
    assert dealt.returncode == 0, dealt.stderr
    assert dealt.stdout == engine("new", "--players", "3", "--seed", "5", "--curse").stdout
    played = engine_process("run", "-", stdin=dealt.stdout)
    assert played.returncode == 0, played.stderr
    assert played.stderr == ""
    check_output_shape(json.loads(played.stdout))


def test_the_program_refuses_bad_input_with_one_line_and_status_2() -> None:
    line = fails(engine_process("run", "-", stdin="{"), "JSON")
    assert line == fails(engine("run", "-", stdin="{"), "JSON")
    fails(engine_process("new", "--players", "9"), "9")

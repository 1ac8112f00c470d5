"""The arena command: seeded games between two levels, win rates, timings, ``--json``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.ai.arena import run_arena, wilson_interval
from engine.ai.cli import main


def _json_run(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["arena", *args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    result: dict[str, object] = json.loads(out)
    return result


def test_json_has_games_wins_and_decision_times(capsys: pytest.CaptureFixture[str]) -> None:
    result = _json_run(["normal", "easy", "--players", "2", "--games", "4", "--seed", "3"], capsys)
    assert result["games"] == 4
    wins = result["wins"]
    assert isinstance(wins, dict) and set(wins) == {"normal", "easy"}
    assert sum(wins.values()) + result["draws"] == 4  # type: ignore[operator]
    times = result["decision_ms"]
    assert isinstance(times, dict) and set(times) == {"normal", "easy"}
    for t in times.values():
        assert 0 <= t["mean"] <= t["max"] and t["decisions"] > 0


def test_the_same_seed_gives_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["hard", "normal", "--players", "3", "--games", "3", "--seed", "5"]
    args += ["--node-limit", "12", "--time-budget", "inf", "--max-turns", "12"]
    first = _json_run(args, capsys)
    second = _json_run(args, capsys)
    for key in ("wins", "draws", "turns_mean", "turns_max"):
        assert first[key] == second[key]
    assert first["seats"] == {"hard": 1, "normal": 2}
    assert first["draws"] == 3  # every game reached the 12-turn cap


def test_seats_rotate_and_a_level_may_meet_itself() -> None:
    result = run_arena("easy", "easy", players=3, games=3, seed=1)
    assert result.names == ("easy-a", "easy-b")
    assert sum(result.wins.values()) + result.draws == 3
    assert result.timings["easy-a"].count > 0


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "easy", "normal", "--players", "4", "--games", "2", "--seed", "2"]
    assert main([*args, "--curse", "--fire-die"]) == 0
    out = capsys.readouterr().out
    assert "easy (1 seat) vs normal (3 seats), 4 players, 2 games" in out
    assert "options: curse, fire die" in out
    assert "fair share for one seat: 25.0%" in out
    assert "95% CI" in out and "mean" in out and "max" in out


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "easy", "master"],
        ["arena", "easy", "normal", "--players", "7"],
        ["arena", "easy", "normal", "--games", "0"],
        ["arena", "easy", "normal", "--node-limit", "0"],
        ["arena", "easy", "normal", "--time-budget", "-1"],
        ["bench"],
    ],
)
def test_bad_arguments_exit_with_status_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(args)
    except SystemExit as stop:  # argparse stops at what it checks itself
        status = stop.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1 and "Traceback" not in err


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.ai", "arena", "easy", "easy", "--games", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["games"] == 1


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-12
    lo, hi = wilson_interval(10, 10)
    assert hi > 0.9999 and 0.69 < lo < 0.73


@pytest.mark.slow
def test_normal_beats_easy() -> None:
    result = run_arena("normal", "easy", players=2, games=30, seed=7)
    assert result.wins["normal"] >= 24

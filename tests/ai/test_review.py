"""Reviewing a played match (:mod:`engine.ai.review`): every play and fall of a seat, judged by the
coach from that seat's view at that moment, reproducibly."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Die, Game, NextRound, action_from_dict, view
from engine.ai import choose
from engine.ai.cli import main
from engine.ai.coach import judge
from engine.ai.review import Budget, Decision, Review, decisions, review
from engine.model import BadStateError, Fall, Play
from tests.ai.conftest import HARD_NODES, fall_after_curse
from tests.ai.test_hidden_information import hidden_twin

BUDGET = Budget(node_limit=HARD_NODES, deals=3)

Log = list[tuple[int | None, dict[str, Any]]]


def played_match(
    seed: int, players: int = 3, rounds: int = 2, **options: bool
) -> tuple[dict[str, Any], Log]:
    """A match of ``normal`` players as a table logs it: its dealt state and (seat, action)
    pairs, the die rolled by the game and the next round dealt by nobody (seat None)."""
    game = Game.new(players, seed, rounds=rounds, **options)
    start, log = game.to_dict(), []
    while True:
        p = game.pending
        if p is None:
            if game.match_over:
                return start, log
            game.apply(NextRound())
            log.append((None, NextRound().to_dict()))
        elif p.kind == "die":
            game.apply(Die(None))
            log.append((None, Die(None).to_dict()))
        else:
            action = choose("normal", view(game, p.player), seed + len(log))
            game.apply(action, p.player)
            log.append((p.player, action.to_dict()))


def test_every_play_and_fall_of_a_seat_is_listed_with_the_game_before_it() -> None:
    start, log = played_match(4, curse=True, fire_die=True)
    found = decisions(start, log)
    judged = [i for i, (seat, a) in enumerate(log) if seat is not None]
    assert [d.entry for d in found] == judged
    assert any("next_round" in log[i][1] for i in range(len(log)))  # two rounds, not judged
    game = Game.from_dict(start)
    for i, (seat, a) in enumerate(log):
        if found and found[0].entry == i:
            d = found.pop(0)
            assert d.state == game.to_dict() and game.pending is not None
            assert d.seat == game.pending.player == seat
            assert d.action.to_dict() == a
        game.apply(action_from_dict(a), seat)
    assert found == []


def test_a_play_logged_without_its_only_spot_is_judged_with_it() -> None:
    game = Game(2, pyramid={}, hands=[["R2"], ["B4"]], piles=[["Y6"], ["R6"]], active=0)
    [d] = decisions(game.to_dict(), [(0, {"play": "R2"})])
    assert d.action == Play("R2", (0, 0))
    r = review(d, BUDGET)
    assert r.played == r.best == Play("R2", (0, 0)) and r.kept_off == 0 and r.now == 0


def test_a_fall_after_a_curse_is_the_previous_players_decision() -> None:
    game = fall_after_curse()
    assert game.pending is not None and game.pending.kind == "fall"
    start = Game(
        2,
        curse=True,
        pyramid={(0, 0): "B10", (0, 2): "R10", (0, 4): "B20", (1, 3): "G20"},
        hands=[["R2", "B4"], ["Y10", "G2"]],
        piles=[["Y6"], ["R6"]],
        active=1,
    ).to_dict()
    found = decisions(start, [(1, {"play": "Y10", "at": "1,1"}), (0, {"fall": "left"})])
    assert [(d.entry, d.seat) for d in found] == [(0, 1), (1, 0)]
    r = review(found[1], BUDGET)
    assert r.seat == 0 and r.played == Fall("left") and r.best in (Fall("left"), Fall("right"))


def test_a_review_is_the_coachs_judgement_of_the_move_played() -> None:
    start, log = played_match(2)
    found = decisions(start, log)
    differ = 0
    for d in found[::7]:
        r = review(d, BUDGET)
        j = judge(
            view(Game.from_dict(d.state), d.seat),
            d.entry,
            compare=[d.action],
            alternatives=0,
            deals=BUDGET.deals,
            time_budget_s=math.inf,
            node_limit=BUDGET.node_limit,
        )
        assert (r.entry, r.seat, r.played, r.best) == (d.entry, d.seat, d.action, j.best)
        assert r.now == round(j.option(d.action).now, 2)
        assert r.best_now == round(j.option(j.best).now, 2)
        if j.best == d.action:
            assert r.kept_off == 0
        else:
            differ += 1
            assert r.kept_off == round(j.kept_off(d.action), 2)
    assert differ > 0


def test_a_review_is_reproducible_and_sees_only_the_players_view() -> None:
    start, log = played_match(6)
    found = decisions(start, log)
    rnd = random.Random(1)
    for d in found[3::9]:
        game = Game.from_dict(d.state)
        twin = hidden_twin(game, d.seat, rnd)
        other = Decision(d.entry, d.seat, twin.to_dict(), d.action)
        assert review(d, BUDGET) == review(d, BUDGET) == review(other, BUDGET)


def test_a_review_reads_back_from_its_stored_form_and_refuses_anything_else() -> None:
    r = Review(12, 1, Play("B40", (1, 3)), Fall("left"), 2.25, 3.0, 0.0)
    assert Review.from_dict(r.to_dict()) == r
    good = r.to_dict()
    for bad in (
        None,
        [],
        {**good, "entry": -1},
        {**good, "seat": "1"},
        {**good, "kept_off": float("nan")},
        {**good, "kept_off": True},
        {**good, "played": {"die": "smoke"}},
        {**good, "best": {"play": "Z9"}},
        {k: v for k, v in good.items() if k != "now"},
    ):
        with pytest.raises(BadStateError):
            Review.from_dict(bad)


def test_a_log_that_does_not_replay_is_refused() -> None:
    start, log = played_match(1, rounds=1)
    seat, first = log[0]
    wrong = (seat, {"play": "M200" if first.get("play") != "M200" else "Y2", "at": "9,9"})
    with pytest.raises(ValueError):
        decisions(start, [wrong, *log[1:]])


def scenario(start: dict[str, Any], log: Log) -> dict[str, Any]:
    """A match as a replay's export holds it: the dealt state, every action with its player."""
    return {**start, "actions": [{**a, **({} if s is None else {"player": s})} for s, a in log]}


def test_the_command_line_prints_each_review_as_a_json_line(tmp_path: Path) -> None:
    start, log = played_match(3, rounds=1)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(scenario(start, log)))
    command = [sys.executable, "-m", "engine.ai", "review", str(path), "--node-limit", "24"]
    out = subprocess.run(
        [*command, "--deals", "3", "--nice", "5"], capture_output=True, text=True, check=True
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines == [review(d, BUDGET).to_dict() for d in decisions(start, log)]
    # From standard input too.
    again = subprocess.run(
        [sys.executable, "-m", "engine.ai", "review", "-", "--node-limit", "24", "--deals", "3"],
        input=path.read_text(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert again.stdout == out.stdout


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["--deals", "0"], None, "--deals must be at least 1"),
        (["--nice", "20"], None, "--nice must be from 0 to 19"),
        ([], "{not json", "match.json: "),
        ([], '{"players": 2}', 'not a scenario with its "actions"'),
        ([], '{"players": 2, "actions": []}', "match.json: "),
    ],
)
def test_bad_input_exits_with_status_2_and_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    content: str | None,
    message: str,
) -> None:
    path = tmp_path / "match.json"
    start, log = played_match(1, rounds=1)
    path.write_text(content if content is not None else json.dumps(scenario(start, log)))
    assert main(["review", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err

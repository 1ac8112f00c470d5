"""The computer players' command line.

``python -m engine.ai arena LEVEL_A LEVEL_B --players N --games G --seed S [--json]`` plays seeded
games between two levels (one seat of LEVEL_A, N-1 of LEVEL_B, seats rotating) and prints win
rates with 95% confidence intervals and decision times per level (p50, p95, mean, maximum).
``--node-limit`` and ``--time-budget`` bound the searching levels (``hard``, ``expert``); left out,
each level keeps its own default. ``--time-budget inf`` leaves only the node limits, which makes
a run reproducible; ``--curse`` and ``--fire-die`` choose the options.

``python -m engine.ai review FILE|- [--node-limit N] [--deals D] [--time-budget S] [--nice N]``
judges every play and fall of a played match (a scenario file of RULES 8 whose actions carry
their ``player``, such as a replay's export) with the coach (:mod:`engine.ai.review`), and
prints one JSON line per decision as soon as it is judged: ``{"entry", "seat", "played",
"best", "kept_off", "now", "best_now"}``. ``--nice`` lowers the process's priority first (the bot
runs its reviews so, beside the tables being played).

Bad arguments print one line on standard error and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import NoReturn

from engine.ai import LEVELS
from engine.ai.arena import DEFAULT_MAX_TURNS, print_progress, run_arena
from engine.ai.review import REVIEW_BUDGET, Budget, decisions, review

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message} (see python -m engine.ai --help)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine.ai", description="Flaming Pyramids computer players")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    arena = sub.add_parser("arena", help="play seeded games between two levels")
    arena.add_argument("level_a", choices=LEVELS, help="the level in the rotating single seat")
    arena.add_argument("level_b", choices=LEVELS, help="the level in every other seat")
    arena.add_argument("--players", type=int, default=2, help="seats per game, 2 to 6")
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--curse", action="store_true", help="play with the curse option")
    arena.add_argument("--fire-die", action="store_true", help="play with the fire die option")
    arena.add_argument(
        "--max-turns", type=int, default=DEFAULT_MAX_TURNS, help="turn cap; capped games are draws"
    )
    arena.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="hard: playouts, expert: positions searched per decision (default: each level's own)",
    )
    arena.add_argument(
        "--time-budget",
        type=float,
        default=None,
        help="hard and expert: seconds per decision (inf: the node limit alone bounds the search)",
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.add_argument("--progress", action="store_true", help="a line per game on stderr")
    review = sub.add_parser("review", help="judge every decision of a played match")
    review.add_argument("file", help="a scenario JSON file with its actions, or - for stdin")
    review.add_argument(
        "--node-limit", type=int, default=REVIEW_BUDGET.node_limit, help="expert: positions"
    )
    review.add_argument("--deals", type=int, default=REVIEW_BUDGET.deals, help="deals averaged")
    review.add_argument(
        "--time-budget", type=float, default=math.inf, help="expert: seconds at most (inf: none)"
    )
    review.add_argument("--nice", type=int, default=0, help="lower the priority first (0-19)")
    return p


def _review(args: argparse.Namespace) -> int:
    """``review``: one JSON line per decision of the match, flushed as each is judged."""
    problems = []
    if args.node_limit < 1:
        problems.append("--node-limit must be at least 1")
    if args.deals < 1:
        problems.append("--deals must be at least 1")
    if math.isnan(args.time_budget) or args.time_budget <= 0:
        problems.append("--time-budget must be a positive number of seconds (or inf)")
    if not 0 <= args.nice <= 19:
        problems.append("--nice must be from 0 to 19")
    if problems:
        sys.stderr.write(f"error: {problems[0]}\n")
        return EXIT_BAD_INPUT
    if args.nice:
        os.nice(args.nice)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        match = json.loads(text)
        if not isinstance(match, dict) or not isinstance(match.get("actions"), list):
            raise ValueError('not a scenario with its "actions"')
        state = {k: v for k, v in match.items() if k != "actions"}
        actions = [(a.get("player") if isinstance(a, dict) else None, a) for a in match["actions"]]
        found = decisions(state, actions)
    except (OSError, ValueError, TypeError) as e:  # EngineError is a ValueError
        sys.stderr.write(f"error: {args.file}: {e}\n")
        return EXIT_BAD_INPUT
    budget = Budget(args.node_limit, args.deals, args.time_budget)
    for decision in found:
        sys.stdout.write(json.dumps(review(decision, budget).to_dict()) + "\n")
        sys.stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "review":
        return _review(args)
    problems = []
    if not 2 <= args.players <= 6:
        problems.append("--players must be from 2 to 6")
    if args.games < 1:
        problems.append("--games must be at least 1")
    if args.max_turns < 1:
        problems.append("--max-turns must be at least 1")
    if args.node_limit is not None and args.node_limit < 1:
        problems.append("--node-limit must be at least 1")
    if args.time_budget is not None and (math.isnan(args.time_budget) or args.time_budget <= 0):
        problems.append("--time-budget must be a positive number of seconds (or inf)")
    if problems:
        sys.stderr.write(f"error: {problems[0]}\n")
        return EXIT_BAD_INPUT
    result = run_arena(
        args.level_a,
        args.level_b,
        players=args.players,
        games=args.games,
        seed=args.seed,
        curse=args.curse,
        fire_die=args.fire_die,
        max_turns=args.max_turns,
        node_limit=args.node_limit,
        time_budget_s=args.time_budget,
        progress=print_progress if args.progress else None,
    )
    if args.json:
        out = result.to_dict()
        if math.isinf(out["time_budget_s"] or 0):
            out["time_budget_s"] = None
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(result.text() + "\n")
    return 0

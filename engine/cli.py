"""The engine's command line (RULES 8 is its contract).

- ``python -m engine run FILE|-``: apply a scenario's actions, print the resulting state as JSON.
- ``python -m engine new --players N [--seed S] [--curse] [--fire-die]``: print a dealt state.
- ``python -m engine bench --players N --games G --seed S [--json]``: random self-play figures.

Bad input prints one line on standard error naming the problem (and the action's index) and exits
with status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from engine.game import Game
from engine.model import EngineError
from engine.scenario import ScenarioError, run_scenario, scenario_state

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message} (see python -m engine --help)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine", description="Flaming Pyramids rules engine")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser("run", help="apply a scenario's actions and print the resulting state")
    run.add_argument("file", help="a scenario JSON file, or - for standard input")
    new = sub.add_parser("new", help="print a dealt starting state")
    new.add_argument("--players", type=int, required=True)
    new.add_argument("--seed", type=int, default=0)
    new.add_argument("--curse", action="store_true")
    new.add_argument("--fire-die", action="store_true")
    bench = sub.add_parser("bench", help="play random games and print speed figures")
    bench.add_argument("--players", type=int, default=4)
    bench.add_argument("--games", type=int, default=2000)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--curse", action=argparse.BooleanOptionalAction, default=True)
    bench.add_argument("--fire-die", action=argparse.BooleanOptionalAction, default=True)
    bench.add_argument("--max-turns", type=int, default=5000, help="turn cap per game")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return EXIT_BAD_INPUT


def _read(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    with open(file, encoding="utf-8") as f:
        return f.read()


def cmd_run(file: str) -> int:
    try:
        text = _read(file)
    except OSError as e:
        return _fail(f"error: cannot read {file}: {e.strerror or e}")
    except UnicodeDecodeError:
        return _fail(f"error: {file} is not UTF-8 text")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return _fail(f"error: state: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}")
    except RecursionError:
        return _fail("error: state: invalid JSON: nested too deeply")
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        return _fail(f"error: state: invalid JSON: {e}")
    try:
        out = run_scenario(data)
    except ScenarioError as e:
        return _fail(e.line())
    except RecursionError:
        return _fail("error: state: the JSON is nested too deeply")
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


def cmd_new(players: int, seed: int, curse: bool, fire_die: bool) -> int:
    try:
        game = Game.new(players, seed, curse=curse, fire_die=fire_die)
    except EngineError as e:
        return _fail(f"error: {e}")
    sys.stdout.write(json.dumps(scenario_state(game)) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        return cmd_run(args.file)
    if args.command == "new":
        return cmd_new(args.players, args.seed, args.curse, args.fire_die)
    from engine.bench import run_bench

    if not 2 <= args.players <= 6 or args.games < 1 or args.max_turns < 1:
        return _fail("error: bench needs 2 to 6 players, at least one game and a positive cap")
    return run_bench(
        players=args.players,
        games=args.games,
        seed=args.seed,
        curse=args.curse,
        fire_die=args.fire_die,
        max_turns=args.max_turns,
        as_json=args.json,
    )

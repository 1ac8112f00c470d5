"""Computer players at many tables at once: what their searches cost the clicks, and themselves.

    python bench/thinking.py                      # 8 tables of experts, the bot's gate and none
    python bench/thinking.py --tables 16 --json
    python bench/thinking.py --tables 2 --decisions 1 --level normal   # a quick look (the suite)

Every table is a four-player game of computer players (``--level``, expert unless told),
recorded in a temporary SQLite store; each table's computers decide one after the other
(:meth:`bot.service.TableService.think` then ``advance``, as the bot's background task does),
all tables at once, with the engine's own players at the bot's bounds. It runs twice: as the bot
does (at most ``THINKING_AT_ONCE`` searches at once, the others waiting their turn) and with
every table's search let in at once. Printed for each:

- the event loop's lag: how late a 10 ms timer fires (p50, p99, worst, milliseconds): what a
  click waits for before the bot even reads it, and each request of its answer again;
- ``cpu_ms``: the processor time one search got (its thread's), median: with the expert's clock
  (0.8 s of wall time), a search that shares the interpreter with others searches less;
- ``decision_s``: from a computer's turn to its decision, waiting included (p50, p95);
- ``seconds``: the whole run.

No figure is asserted: they depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.service import TableService  # noqa: E402
from bot.service.players import THINKING_AT_ONCE, default_ai  # noqa: E402
from data import open_store  # noqa: E402
from data.store import Seat, Store, TableOptions  # noqa: E402
from engine import Action, Game, View  # noqa: E402
from engine.ai.arena import percentile  # noqa: E402
from tests.looplag import loop_lag  # noqa: E402

GUILD = 31337


class Timed:
    """The bot's computer players (:func:`bot.service.players.default_ai`), noting the
    processor time each search got in its thread."""

    def __init__(self) -> None:
        self.play = default_ai()
        self.cpu_ms: list[float] = []

    def __call__(self, level: str, view: View, seed: int) -> Action:
        started = time.thread_time()
        try:
            return self.play(level, view, seed)
        finally:
            self.cpu_ms.append((time.thread_time() - started) * 1000)


async def computer_table(store: Store, channel: int, seed: int, level: str) -> int:
    """A started four-player game of ``level`` computer players."""
    seats = tuple(Seat(None, f"Bot{i}", ai=level) for i in range(4))
    now = time.time()
    table = await store.create_table(GUILD, channel, 1000, TableOptions(), seats, now)
    game = Game.new(4, seed)
    table = await store.start_game(table.id, table.version, seats, game.to_dict(), None, None, now)
    return table.id


async def run_once(args: argparse.Namespace, at_once: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'thinking.db'}")
        await store.open()
        try:
            timed = Timed()
            service = TableService(store, ai=timed, thinking_at_once=at_once)
            tables = [
                await computer_table(store, 100 + i, args.seed + i, args.level)
                for i in range(args.tables)
            ]
            decisions: list[float] = []
            loop = asyncio.get_running_loop()

            async def play(table_id: int) -> None:
                for _ in range(args.decisions):
                    asked = loop.time()
                    thought = await service.think(table_id)
                    if thought is None:
                        return
                    decisions.append(loop.time() - asked)
                    if await service.advance(table_id, thought) is None:
                        return  # the round is over (nothing else plays these tables)

            async with loop_lag() as lags:
                started = time.perf_counter()
                await asyncio.gather(*(play(t) for t in tables))
                seconds = time.perf_counter() - started
        finally:
            await store.close()
    return {
        "at_once": at_once,
        "decisions": len(decisions),
        "seconds": round(seconds, 2),
        "loop_lag_ms": {
            "p50": round(percentile(lags, 0.5), 1),
            "p99": round(percentile(lags, 0.99), 1),
            "max": round(max(lags, default=0.0), 1),
        },
        "cpu_ms": round(percentile(timed.cpu_ms, 0.5), 1),
        "decision_s": {
            "p50": round(percentile(decisions, 0.5), 2),
            "p95": round(percentile(decisions, 0.95), 2),
        },
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/thinking.py", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=8, help="tables playing at once (8)")
    p.add_argument("--decisions", type=int, default=4, help="computer decisions per table (4)")
    p.add_argument("--level", default="expert", help="the computer players' level (expert)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    runs = [asyncio.run(run_once(args, n)) for n in (THINKING_AT_ONCE, args.tables)]
    if args.json:
        print(json.dumps({"tables": args.tables, "level": args.level, "runs": runs}))
        return 0
    for r in runs:
        how = "the bot's gate" if r["at_once"] == THINKING_AT_ONCE else "no gate"
        lag = r["loop_lag_ms"]
        print(
            f"{args.tables} tables of {args.level} players, {r['at_once']} at once ({how}): "
            f"loop lag p50 {lag['p50']} ms, p99 {lag['p99']} ms, max {lag['max']} ms; "
            f"a search's CPU {r['cpu_ms']} ms; decision p50 {r['decision_s']['p50']} s, "
            f"p95 {r['decision_s']['p95']} s; {r['decisions']} decisions in {r['seconds']} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

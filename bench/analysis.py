"""The turning points' analysis of a finished match, timed as the bot works it out.

    python bench/analysis.py                      # a 3-player match of 2 rounds
    python bench/analysis.py --repeat 5 --json    # five matches, one JSON object
    python bench/analysis.py --in thread          # the review in a thread of this process
    python bench/analysis.py --short --node-limit 20 --deals 2   # a few decisions (the suite)

Each repetition generates a match (seeded: ``--seed`` plus the repetition; played by ``normal``
players, about a hundred decisions for three players and two rounds; ``--short``: a short
deal of two players, a dozen decisions or so), records it in a temporary
SQLite store as the bot records a finished match, and has the bot's own analyser work out its
turning points (:class:`bot.records.analysis.Analyser`: the claim, ``python -m engine.ai
review`` at nice 19 in a process of its own, the save), at the bot's budget unless
``--node-limit`` and ``--deals`` say otherwise. Printed, per match and as median and worst:

- ``seconds``: from the match recorded to its analysis kept (the bot looks for matches waiting
  every 5 seconds: a match's analysis starts at most that much later than here);
- ``review_cpu_s``: the processor time the review took (its process's, or this process's threads'
  with ``--in thread``);
- the event loop's lag meanwhile: how late a 10 ms timer of this process's loop fires (p50, p99,
  worst, milliseconds), what a click waits for before the bot even reads it. With ``--in thread``
  the same reviews (:func:`engine.ai.review.review`, decision after decision) run in a thread of
  this process instead, as a thread in the bot would: the lag shows what that costs the loop.

Run it beside ``python bench/load.py`` to see the analysis under load (docs/performance.md). No
figure is asserted: they depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.records.analysis import Analyser  # noqa: E402
from data import open_store  # noqa: E402
from data.store import Seat, Store, TableOptions  # noqa: E402
from engine import Die, Game, NextRound, view  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.ai.arena import percentile  # noqa: E402
from engine.ai.review import REVIEW_BUDGET, Budget, decisions, review  # noqa: E402
from engine.scenario import load_state  # noqa: E402
from tests.looplag import loop_lag  # noqa: E402

GUILD = 31337
SHORT_DEAL: dict[str, Any] = {
    # Two players, four tiles each and two in the pile: a dozen decisions or so.
    "players": 2,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["B2", "Y40", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
    "piles": [["B10", "G10"], ["Y10", "G20"]],
    "active": 0,
}


async def recorded_match(store: Store, channel: int, seed: int, args: argparse.Namespace) -> int:
    """A match of ``normal`` players, recorded move by move and ended as the bot does it."""
    if args.short:
        game = load_state(SHORT_DEAL)
    else:
        game = Game.new(args.players, seed, rounds=args.rounds)
    seats = tuple(Seat(1000 + i, f"P{i}") for i in range(game.players))
    table = await store.create_table(
        GUILD, channel, 1000, TableOptions(rounds=game.rounds), seats, time.time()
    )
    table = await store.start_game(
        table.id, table.version, seats, game.to_dict(), None, None, time.time()
    )
    n = 0
    while True:
        p = game.pending
        if p is None and game.match_over:
            break
        seat: int | None
        if p is None:
            action: Any = NextRound()
            seat = None
        elif p.kind == "die":
            action, seat = Die(None), None
        else:
            seat = p.player
            action = choose("normal", view(game, seat), seed + n)
        game.apply(action, seat)
        n += 1
        over = game.pending is None and game.match_over
        table = await store.apply_action(
            table.id,
            table.version,
            seat=seat,
            user_id=None if seat is None else seats[seat].user_id,
            action=action.to_dict(),
            state=game.to_dict(),
            deadline=None,
            reminder_at=None,
            now=time.time(),
            status="finished" if over else None,
        )
    results = {"scores": list(game.scores)}
    await store.end_table(table.id, table.version, "finished", time.time(), results)
    return table.id


async def in_thread(store: Store, table_id: int, budget: Budget) -> None:
    """The same reviews in a thread of this process (what the bot does not do), then kept."""
    table = await store.get_table(table_id)
    log = await store.action_log(table_id)
    assert table.initial_state is not None
    found = decisions(table.initial_state, [(e.seat, e.action) for e in log])
    reviews = await asyncio.to_thread(lambda: [review(d, budget) for d in found])
    await store.analyses().save_analysis(table_id, reviews, time.time())


async def one(store: Store, i: int, args: argparse.Namespace, budget: Budget) -> dict[str, Any]:
    table_id = await recorded_match(store, 100 + i, args.seed + i, args)
    async with loop_lag() as lags:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        own = time.thread_time(), time.process_time()
        started = time.perf_counter()
        if args.inside == "thread":
            await in_thread(store, table_id, budget)
        else:
            analyser = Analyser(store, "bench", time.time, budget)
            assert await analyser.run() == 1
        seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if args.inside == "thread":
        cpu = (time.process_time() - own[1]) - (time.thread_time() - own[0])
    else:
        cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    analysis = await store.analyses().analysis(table_id, time.time())
    table = await store.get_table(table_id)
    assert analysis is not None and analysis.state == "done", analysis
    return {
        "players": len(table.seats),
        "rounds": table.options.rounds,
        "decisions": len(analysis.reviews),
        "seconds": round(seconds, 2),
        "review_cpu_s": round(cpu, 2),
        "loop_lag_ms": {
            "p50": round(percentile(lags, 0.5), 2),
            "p99": round(percentile(lags, 0.99), 2),
            "max": round(max(lags, default=0.0), 2),
        },
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    budget = Budget(args.node_limit, args.deals)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'analysis.db'}")
        await store.open()
        try:
            matches = [await one(store, i, args, budget) for i in range(args.repeat)]
        finally:
            await store.close()
    seconds = [m["seconds"] for m in matches]
    return {
        "players": matches[0]["players"],
        "rounds": matches[0]["rounds"],
        "node_limit": budget.node_limit,
        "deals": budget.deals,
        "in": args.inside,
        "matches": matches,
        "seconds_median": round(statistics.median(seconds), 2),
        "seconds_max": max(seconds),
        "loop_lag_p99_ms_max": max(m["loop_lag_ms"]["p99"] for m in matches),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/analysis.py", description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--repeat", type=int, default=1, help="matches, one after the other")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--short", action="store_true", help="the load bench's short deal")
    p.add_argument("--node-limit", type=int, default=REVIEW_BUDGET.node_limit)
    p.add_argument("--deals", type=int, default=REVIEW_BUDGET.deals)
    p.add_argument("--in", dest="inside", choices=["process", "thread"], default="process")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"turning points of a {out['players']}-player match of {out['rounds']} round(s), "
        "reviewed in a "
        f"{args.inside} ({out['node_limit']} positions and {out['deals']} deals a decision)"
    )
    for i, m in enumerate(out["matches"], start=1):
        lag = m["loop_lag_ms"]
        print(
            f"match {i}: {m['decisions']} decisions, {m['seconds']:.1f} s from its end to its "
            f"analysis kept, review CPU {m['review_cpu_s']:.1f} s, event loop lag "
            f"p50 {lag['p50']:.1f} / p99 {lag['p99']:.1f} / max {lag['max']:.1f} ms"
        )
    print(f"median {out['seconds_median']:.1f} s, worst {out['seconds_max']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

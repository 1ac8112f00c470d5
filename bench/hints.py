"""How long a practice table's hint takes to work out: the coach's judgement of one decision
(:func:`bot.service.default_coach`, the bot's own bounds: the expert's search within 0.8 s and its
node limit, then 32 deals), for decisions met in seeded games of 2 to 6 players (plays and falls),
one at a time, as the bot's worker thread does it.

    python bench/hints.py                  # 60 decisions, the figures
    python bench/hints.py --busy 2         # the same while 2 processes keep the cores busy
    python bench/hints.py --decisions 10 --json

With ``--busy N``, N processes play the engine's self-play benchmark for as long as the
measurement lasts, as other tables' work would on the same machine. The hint's answer adds to
this a read of the table and the private message (a few milliseconds: ``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.service import default_coach  # noqa: E402
from engine import Game, view  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.model import Die  # noqa: E402

BUSY = [sys.executable, "-m", "engine", "bench", "--players", "4", "--games", "1000000"]
"""What a busy process runs (stopped when the measurement ends)."""


def positions(count: int, seed: int) -> list[Game]:
    """``count`` decisions (a play or a fall) of seeded games of 2 to 6 players, somewhere into
    their first round, each as its player must decide it."""
    rnd = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game.new(players=rnd.randint(2, 6), seed=rnd.getrandbits(31))
        for _ in range(rnd.randint(0, 40)):
            p = game.pending
            if p is None:
                break
            if p.kind == "die":
                game.apply(Die(None))
            else:
                game.apply(choose("normal", view(game, p.player), rnd.getrandbits(31)), p.player)
        p = game.pending
        if p is not None and p.kind in ("play", "fall"):
            found.append(game)
    return found


def measure(decisions: int, seed: int, busy: int) -> dict[str, object]:
    """Time the coach on ``decisions`` decisions, with ``busy`` processes running beside it."""
    games = positions(decisions, seed)
    coach = default_coach()
    others = [
        subprocess.Popen(BUSY, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(busy)
    ]
    took: list[float] = []
    try:
        for i, game in enumerate(games):
            assert game.pending is not None
            seen = view(game, game.pending.player)
            started = time.perf_counter()
            coach(seen, i)
            took.append(time.perf_counter() - started)
    finally:
        for p in others:
            p.terminate()
            p.wait()
    ordered = sorted(took)
    return {
        "decisions": len(took),
        "falls": sum(1 for g in games if g.pending is not None and g.pending.kind == "fall"),
        "busy": busy,
        "p50_s": round(statistics.median(ordered), 3),
        "p95_s": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "max_s": round(ordered[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=60, help="decisions judged (60)")
    parser.add_argument("--seed", type=int, default=1, help="the deals (1)")
    parser.add_argument("--busy", type=int, default=0, help="processes kept busy meanwhile (0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = measure(args.decisions, args.seed, args.busy)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['decisions']} decisions ({figures['falls']} falls), "
        f"{figures['busy']} busy processes beside: a hint's judgement p50 {figures['p50_s']} s, "
        f"p95 {figures['p95_s']} s, max {figures['max_s']} s"
    )


if __name__ == "__main__":
    main()

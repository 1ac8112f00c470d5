"""Random self-play: how fast the rules run, and what random games look like.

Each decision is uniformly random among the legal ones (a play is a uniformly random tile of the
hand on a uniformly random spot, which is the same as a uniform pick among all legal plays; the fire
die is rolled with the game's own generator, as in a real game). A game longer than ``max_turns``
plays is stopped and counted as capped.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections import Counter
from typing import Any

from engine.game import Game
from engine.model import Die, Fall, Play


def play_random_game(
    game: Game, rnd: random.Random, max_turns: int, mayhem: Counter[str] | None = None
) -> tuple[int, bool]:
    """Play ``game`` to its end with random decisions; returns (turns played, capped?)."""
    turns = 0
    random = rnd.random
    apply = game.apply
    while True:
        p = game.pending
        if p is None:
            return turns, False
        if p.kind == "play":
            if turns >= max_turns:
                return turns, True
            hand = game.hands[p.player]
            spots = p.spots
            tile = hand[int(random() * len(hand))]
            events = apply(Play(tile, spots[int(random() * len(spots))]))
            turns += 1
        elif p.kind == "fall":
            events = apply(Fall("left" if random() < 0.5 else "right"))
        else:
            events = apply(Die(None))
        if mayhem is not None:
            for e in events:
                mayhem[e.kind] += 1


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_bench(
    *,
    players: int,
    games: int,
    seed: int,
    curse: bool,
    fire_die: bool,
    max_turns: int,
    as_json: bool,
) -> int:
    rnd = random.Random(seed)
    lengths: list[int] = []
    capped = 0
    mayhem: Counter[str] = Counter()
    # Timed pass: nothing but the games.
    start = time.perf_counter()
    for g in range(games):
        game = Game.new(players, seed * 1_000_003 + g, curse=curse, fire_die=fire_die)
        turns, was_capped = play_random_game(game, rnd, max_turns)
        lengths.append(turns)
        capped += was_capped
    elapsed = time.perf_counter() - start
    # Second pass, same seeds, counting what happened (not timed).
    rnd = random.Random(seed)
    for g in range(games):
        game = Game.new(players, seed * 1_000_003 + g, curse=curse, fire_die=fire_die)
        play_random_game(game, rnd, max_turns, mayhem)
    total = sum(lengths)
    kinds = ("collapsed", "fell", "exploded", "burnt", "cursed", "rolled")
    result: dict[str, Any] = {
        "players": players,
        "games": games,
        "seed": seed,
        "curse": curse,
        "fire_die": fire_die,
        "turn_cap": max_turns,
        "turns": total,
        "seconds": round(elapsed, 3),
        "turns_per_second": round(total / elapsed),
        "games_per_second": round(games / elapsed, 1),
        "turns_median": statistics.median(lengths),
        "turns_p95": percentile(lengths, 0.95),
        "turns_max": max(lengths),
        "capped_games": capped,
        "mayhem_per_game": {k: round(mayhem[k] / games, 2) for k in kinds},
    }
    if as_json:
        print(json.dumps(result))
        return 0
    opts = ", ".join(o for o, on in (("curse", curse), ("fire die", fire_die)) if on) or "none"
    print(f"Flaming Pyramids self-play: {games} games, {players} players, options: {opts}")
    print(f"  turns/s          {result['turns_per_second']:>10,}")
    print(f"  games/s          {result['games_per_second']:>10,}")
    print(
        f"  turns per game   median {result['turns_median']}, p95 {result['turns_p95']}, "
        f"max {result['turns_max']}"
    )
    print(f"  capped games     {capped} (cap: {max_turns} turns)")
    print(
        "  mayhem per game  " + ", ".join(f"{k} {v}" for k, v in result["mayhem_per_game"].items())
    )
    return 0

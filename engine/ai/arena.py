"""The arena: seeded games between two levels of computer player, with win rates and timings.

``python -m engine.ai arena LEVEL_A LEVEL_B --players N --games G --seed S`` plays G games; in each
one, one seat is LEVEL_A and the N-1 others are LEVEL_B. LEVEL_A's seat rotates from game to game
(seat ``g mod N`` in game ``g``) and each game's seed deals the tiles and picks the first player,
so every seat and every starting order gets its share. A game that reaches the turn cap is a draw.

Win rates come with a 95% Wilson score interval. Decision times are wall-clock milliseconds per
call of :func:`engine.ai.choose`, per level: mean, median (p50), 95th percentile (p95) and maximum.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.ai import choose
from engine.game import Game
from engine.view import view

DEFAULT_MAX_TURNS = 3000
Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials.

    >>> lo, hi = wilson_interval(80, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.711, 0.867)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values`` (0 for none): the smallest value that at
    least a share ``q`` of them do not exceed.

    >>> percentile([5.0, 1.0, 4.0, 2.0, 3.0], 0.5), percentile(list(range(1, 101)), 0.95)
    (3.0, 95)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class Timings:
    """Decision times of one level, in milliseconds."""

    samples: list[float] = field(default_factory=list)

    def add(self, ms: float) -> None:
        self.samples.append(ms)

    @property
    def count(self) -> int:
        return len(self.samples)

    @property
    def mean_ms(self) -> float:
        return sum(self.samples) / len(self.samples) if self.samples else 0.0

    @property
    def max_ms(self) -> float:
        return max(self.samples, default=0.0)

    @property
    def p50_ms(self) -> float:
        return percentile(self.samples, 0.5)

    @property
    def p95_ms(self) -> float:
        return percentile(self.samples, 0.95)


@dataclass
class ArenaResult:
    """What an arena run measured. ``names`` are the two sides' labels (the levels' names, or
    ``"<level>-a"`` / ``"<level>-b"`` when a level plays itself)."""

    level_a: str
    level_b: str
    names: tuple[str, str]
    players: int
    games: int
    seed: int
    curse: bool
    fire_die: bool
    max_turns: int
    node_limit: int | None
    time_budget_s: float | None
    wins: dict[str, int]
    draws: int = 0
    turns: list[int] = field(default_factory=list)
    timings: dict[str, Timings] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` form: ``games``, ``wins`` and ``decision_ms`` per side, and the rest."""
        decided = self.games - self.draws
        return {
            "games": self.games,
            "wins": dict(self.wins),
            "draws": self.draws,
            "decision_ms": {
                name: {
                    "mean": round(t.mean_ms, 3),
                    "p50": round(t.p50_ms, 3),
                    "p95": round(t.p95_ms, 3),
                    "max": round(t.max_ms, 3),
                    "decisions": t.count,
                }
                for name, t in self.timings.items()
            },
            "win_rate": {name: _ratio(w, self.games) for name, w in self.wins.items()},
            "ci95": {
                name: [round(v, 4) for v in wilson_interval(w, self.games)]
                for name, w in self.wins.items()
            },
            "decided_games": decided,
            "players": self.players,
            "seats": {self.names[0]: 1, self.names[1]: self.players - 1},
            "fair_share": round(1 / self.players, 4),
            "seed": self.seed,
            "options": {"curse": self.curse, "fire_die": self.fire_die},
            "turn_cap": self.max_turns,
            "node_limit": self.node_limit,
            "time_budget_s": self.time_budget_s,
            "turns_mean": round(sum(self.turns) / len(self.turns), 1) if self.turns else 0,
            "turns_max": max(self.turns, default=0),
        }

    def text(self) -> str:
        """The report for people."""
        opts = ", ".join(o for o, on in (("curse", self.curse), ("fire die", self.fire_die)) if on)
        a, b = self.names
        lines = [
            f"Arena: {a} (1 seat) vs {b} ({self.players - 1} seat"
            f"{'s' if self.players > 2 else ''}), {self.players} players, {self.games} games, "
            f"seed {self.seed}, options: {opts or 'none'}",
        ]
        if self.players > 2:
            lines.append(f"  fair share for one seat: {100 / self.players:.1f}%")
        for name in self.names:
            w = self.wins[name]
            lo, hi = wilson_interval(w, self.games)
            lines.append(
                f"  {name:<10} wins {w:>4}/{self.games} = {_pct(w, self.games):>5.1f}%  "
                f"(95% CI {100 * lo:.1f}%-{100 * hi:.1f}%)"
            )
        for name in self.names:
            t = self.timings[name]
            lines.append(
                f"  {name:<10} decisions {t.count}: p50 {t.p50_ms:.1f} ms, p95 {t.p95_ms:.1f} ms, "
                f"mean {t.mean_ms:.1f} ms, max {t.max_ms:.1f} ms"
            )
        lines.append(f"  draws (turn cap {self.max_turns}): {self.draws}")
        if self.turns:
            lines.append(
                f"  turns per game: mean {sum(self.turns) / len(self.turns):.1f}, "
                f"max {max(self.turns)}"
            )
        return "\n".join(lines)


def _ratio(w: int, n: int) -> float:
    return round(w / n, 4) if n else 0.0


def _pct(w: int, n: int) -> float:
    return 100 * w / n if n else 0.0


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of an arena run (dealing and first player)."""
    return seed * 1_000_003 + index


def run_arena(
    level_a: str,
    level_b: str,
    *,
    players: int,
    games: int,
    seed: int,
    curse: bool = False,
    fire_die: bool = False,
    max_turns: int = DEFAULT_MAX_TURNS,
    node_limit: int | None = None,
    time_budget_s: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> ArenaResult:
    """Play ``games`` seeded games: one seat of ``level_a``, ``players - 1`` of ``level_b``."""
    names = (level_a, level_b) if level_a != level_b else (f"{level_a}-a", f"{level_b}-b")
    result = ArenaResult(
        level_a=level_a,
        level_b=level_b,
        names=names,
        players=players,
        games=games,
        seed=seed,
        curse=curse,
        fire_die=fire_die,
        max_turns=max_turns,
        node_limit=node_limit,
        time_budget_s=time_budget_s,
        wins={names[0]: 0, names[1]: 0},
        timings={names[0]: Timings(), names[1]: Timings()},
    )
    for g in range(games):
        gs = game_seed(seed, g)
        game = Game.new(players, gs, curse=curse, fire_die=fire_die)
        seat_a = g % players
        sides = [names[0] if i == seat_a else names[1] for i in range(players)]
        levels = [level_a if i == seat_a else level_b for i in range(players)]
        seeds = random.Random(gs)
        turns = 0
        capped = False
        while game.pending is not None:
            p = game.pending
            if p.kind == "die":
                game.roll()
                continue
            if p.kind == "play":
                if turns >= max_turns:
                    capped = True
                    break
                turns += 1
            start = time.perf_counter()
            action = choose(
                levels[p.player],
                view(game, p.player),
                seeds.getrandbits(32),
                time_budget_s=time_budget_s,
                node_limit=node_limit,
            )
            result.timings[sides[p.player]].add(1000 * (time.perf_counter() - start))
            game.apply(action, p.player)
        result.turns.append(turns)
        if capped or game.winner is None:
            result.draws += 1
            outcome = "draw"
        else:
            result.wins[sides[game.winner]] += 1
            outcome = f"{sides[game.winner]} (seat {game.winner})"
        if progress is not None:
            progress(
                f"game {g + 1}/{games}: seed {gs}, {names[0]} at seat {seat_a}, {turns} turns, "
                f"won by {outcome}; so far {names[0]} {result.wins[names[0]]}, "
                f"{names[1]} {result.wins[names[1]]}"
            )
    return result


def print_progress(line: str) -> None:
    """Progress lines go to standard error, so that ``--json`` output stays one object."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()

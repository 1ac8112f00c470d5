"""How fast pictures are made, and how big they are: ``python -m render bench [--json]``.

Each case is rendered and encoded ``runs`` times after one warm-up (which builds the tile faces
for that size); the figures are the median and 95th percentile of the wall-clock time, the
median CPU time of the rendering thread (which other processes on a busy machine disturb
less), and the size of the bytes. Goals: a full pyramid in at most 25 ms and 120 KB, a hand in
10 ms, an animation in 300 ms and 1 MB, on one core. ``full_cjk`` is the full pyramid with
players named in Chinese, Korean, Thai and Arabic (drawn with the system's fonts where installed).

The turn screens (the board with the player's hand, for a play and for a fall) are also measured
for legibility: the cap height, once shown :data:`render.layout.PHONE_W` px wide, of the first
letter of each of their smallest texts (``render.legibility``); the figure is the least of them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any, Final

from engine import View, view
from i18n import ENGLISH
from render import layout, samples
from render.hand import render_hand
from render.legibility import first_glyph_height, phone
from render.mayhem import render_mayhem
from render.screen import render_turn_screen, turn_screen_image, turn_screen_layout
from render.table import render_table

CASES: Final = (
    "empty",
    "mid",
    "full",
    "full_cjk",
    "hand",
    "screen",
    "fall_screen",
    "animation",
)

RUNS: Final = 40
"""Timed runs per case (the animation gets a quarter of them)."""


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _measure(make: Callable[[], bytes | None], runs: int) -> dict[str, float]:
    data = make() or b""  # warm-up: builds the faces for this tile size
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        c0 = time.thread_time()
        make()
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return {
        "ms_median": statistics.median(wall),
        "ms_p95": _p95(wall),
        "cpu_ms_median": statistics.median(cpu),
        "bytes": float(len(data)),
    }


def run(runs: int = RUNS) -> dict[str, Any]:
    """Measure every case; returns the flat figures (``full_ms_median``, ``full_bytes``, ...)."""
    names = samples.NAMES
    empty = samples.empty_table()
    mid = view(samples.mid_game())
    full = view(samples.full_pyramid())
    mid_game = samples.mid_game()
    hand = view(mid_game, mid_game.active)
    before, events, game_after = samples.jenny_turn()
    after = view(game_after)
    screen = view(mid_game, 1)
    fall = view(samples.jenny_fall(), 0)
    # English throughout: these pictures are timed and measured, never read by a player.
    cases: dict[str, tuple[Callable[[], bytes | None], int]] = {
        "empty": (lambda: render_table(empty, names, lang=ENGLISH), runs),
        "mid": (lambda: render_table(mid, names, lang=ENGLISH), runs),
        "full": (lambda: render_table(full, names, lang=ENGLISH), runs),
        "full_cjk": (lambda: render_table(full, samples.WORLD_NAMES, lang=ENGLISH), runs),
        "hand": (lambda: render_hand(hand, names[hand.player or 0], lang=ENGLISH), runs),
        "screen": (lambda: render_turn_screen(screen, names, title="Table #2", lang=ENGLISH), runs),
        "fall_screen": (
            lambda: render_turn_screen(fall, names, title="Table #3", lang=ENGLISH),
            runs,
        ),
        "animation": (
            lambda: render_mayhem(before, events, names, after=after, lang=ENGLISH),
            max(1, runs // 4),
        ),
    }
    figures: dict[str, Any] = {}
    for case, (make, n) in cases.items():
        for key, value in _measure(make, n).items():
            figures[f"{case}_{key}"] = round(value, 2) if key != "bytes" else int(value)
    figures["screen_cap_px"] = smallest_cap_height(screen, "Table #2")
    figures["fall_screen_cap_px"] = smallest_cap_height(fall, "Table #3")
    figures["runs"] = runs
    return figures


def smallest_cap_height(v: View, title: str) -> int:
    """The least cap height, at phone width, among the turn screen's texts of the smallest size
    (:data:`render.layout.TEXT_MIN`): the title, the turn line, the last move, the hand's
    opening line. Each is measured on its first letter, a capital."""
    names = ("Hal", "Bob", "Ida", "Kim")  # capitals without descenders lead the lines
    img = turn_screen_image(v, names, title=title, lang=ENGLISH)
    lay = turn_screen_layout(v, names, title=title, lang=ENGLISH)
    small, scale = phone(img)
    m, right = layout.MARGIN, img.width - layout.MARGIN
    boxes = [(m, lay.info_y, right, lay.info_y + layout.INFO_H)]
    if lay.title_y is not None:
        boxes.append((m, lay.title_y, right, lay.title_y + layout.TITLE_H))
    if lay.last_move_y is not None:
        boxes.append((m, lay.last_move_y, right, lay.last_move_y + layout.LAST_MOVE_H))
    head = lay.hand_head_y
    boxes.append((m, head, right // 2, head + layout.SCREEN_HAND_HEAD_H))
    return min(first_glyph_height(small, box, scale) for box in boxes)


def report(figures: dict[str, Any]) -> str:
    """The figures as a small table."""
    lines = [f"{'case':<12} {'median ms':>10} {'p95 ms':>8} {'cpu ms':>8} {'bytes':>9}"]
    for case in CASES:
        lines.append(
            f"{case:<12} {figures[f'{case}_ms_median']:>10.1f} {figures[f'{case}_ms_p95']:>8.1f}"
            f" {figures[f'{case}_cpu_ms_median']:>8.1f} {figures[f'{case}_bytes']:>9,}"
        )
    lines.append(
        f"smallest text's cap height at {layout.PHONE_W} px wide: turn screen"
        f" {figures['screen_cap_px']} px, fall screen {figures['fall_screen_cap_px']} px"
        f" (goal at least {layout.READABLE_CAP} px)"
    )
    lines.append(
        f"{figures['runs']} runs per case (animation: a quarter); wall-clock median and 95th"
        " percentile, and the median CPU time of the rendering thread (steady when the machine"
        " is busy)."
    )
    return "\n".join(lines)

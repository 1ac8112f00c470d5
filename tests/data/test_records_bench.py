"""``python bench/records.py`` (the records' bench) runs end to end at a tiny size and prints its
figures, so that it keeps up with the schema. Wall-clock values are not asserted on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_records_bench_prints_its_figures_on_a_small_server() -> None:
    result = subprocess.run(
        [sys.executable, "bench/records.py", "--store", "sqlite", "--json", "--matches", "50",
         "--samples", "2", "--moves", "20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    figures = report["sqlite"]
    assert figures["matches"] == 50
    for name in ("rating_update", "stats", "leaderboard_page", "history_server", "history_player"):
        assert set(figures[name]) == {"median_ms", "max_ms"}, name
    assert report["replay"]["moves"] == 20 and report["replay"]["steps"] >= 2

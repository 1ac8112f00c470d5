"""``python bench/store.py`` (the store's bench) runs end to end and prints the figures the
persistence issue names.

Wall-clock values are not asserted on (they depend on the machine); their presence, their
kind and the quantities that do not depend on time are. (Bytes per game are counted in whole
database pages: a handful of games is the least that grows the file at all.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_the_bench_prints_its_figures_as_one_json_object(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    if store == "postgres":
        request.getfixturevalue("pg_server")  # skips (or fails in CI) without PostgreSQL
    result = subprocess.run(
        [sys.executable, "bench/store.py", "--store", store, "--json", "--games", "20",
         "--moves", "2", "--paced-games", "30", "--paced-moves", "2", "--finished-games", "4",
         "--load-games", "20", "--dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for key in (
        "commit_p99_ms_20_games",
        "commit_p50_ms_20_games",
        "actions_per_second_20_games",
        "commit_p99_ms_1_game",
        "actions_per_second_1_game",
        "commit_p99_ms_30_games_paced",
        "bytes_per_finished_game",
        "load_20_games_s",
    ):
        assert isinstance(report[key], float) and report[key] > 0, key
    assert report["store"] == store
    assert report["commit_p50_ms_20_games"] <= report["commit_p99_ms_20_games"]
    assert report["load_log_rows"] > 0
    assert report["moves_per_finished_game"] > 1
    assert list(tmp_path.iterdir()) == []  # its files are gone

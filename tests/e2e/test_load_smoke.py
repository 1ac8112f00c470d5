"""The load test itself, small, through ``bench/load.py`` (``-m slow``): five tables with the bot
as one process over SQLite, and four tables with the bot as three processes over PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import in_ci
from tests.pgserver import INSTALL_HINT, find_bindir

REPO = Path(__file__).resolve().parents[2]


def load(*args: str) -> dict[str, Any]:
    """Run the load test with ``args`` (quick players); its JSON result."""
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--think", "0.2", "--ramp", "1", "--json", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(lines[-1])
    return result


@pytest.mark.slow
def test_load_bench_runs_clean() -> None:
    result = load("--tables", "5")
    assert result["finished"] == 5
    assert result["errors"] == 0, json.dumps(result["error_details"], indent=1)  # whole, not cut
    for key in ("tables", "ack_p99_ms", "move_p50_ms", "move_p99_ms", "errors"):
        assert key in result


@pytest.mark.slow
def test_load_bench_with_three_processes_over_postgres_plays_every_table_in_every_process() -> None:
    if find_bindir() is None:
        if in_ci():
            pytest.fail(f"CI=true and PostgreSQL is not installed: {INSTALL_HINT}")
        pytest.skip(f"needs PostgreSQL: {INSTALL_HINT}")
    result = load("--processes", "3", "--store", "postgres", "--tables", "4", "--rate-limits")
    assert result["finished"] == 4
    assert result["errors"] == 0, json.dumps(result["error_details"], indent=1)  # whole, not cut
    assert result["global_429"] == 0
    assert result["shard_count"] == 4
    per_process = result["per_process"]
    assert [p["shard_ids"] for p in per_process] == ["0-1", "2", "3"]
    # One table in a server on each shard: every process served the clicks of its servers.
    for p in per_process:
        assert p["cpu_s"] > 0, per_process
        assert p["peak_rss_mib"] > 0, per_process
    assert result["rest_calls_per_move_global_budget"] > 0

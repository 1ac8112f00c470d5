"""The load test itself, small: five tables through ``bench/load.py`` (``-m slow``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_load_bench_runs_clean() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--tables",
            "5",
            "--think",
            "0.2",
            "--ramp",
            "1",
            "--json",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["finished"] == 5, done.stderr[-2000:]
    assert result["errors"] == 0, result["error_details"]
    for key in ("tables", "ack_p99_ms", "move_p50_ms", "move_p99_ms", "errors"):
        assert key in result

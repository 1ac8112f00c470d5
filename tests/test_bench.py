"""Every script under ``bench/`` runs at a tiny size in the suite, typed as the documents type it
(``python bench/NAME.py ...`` from the repository root), so that a benchmark whose figures the
documents quote cannot rot unseen.

Wall-clock figures are never asserted on (they depend on the machine); that each figure is
printed, its kind, and the quantities that do not depend on time are. ``bench/store.py`` runs in
``tests/data/test_bench.py``, ``bench/table_counts.py`` in ``tests/e2e/test_table_counts.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from data.store import Store

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    """``python bench/...`` from the repository root, as a reader of the documents runs it."""
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


def test_every_script_under_bench_is_run_by_a_test() -> None:
    scripts = sorted(p.name for p in (ROOT / "bench").glob("*.py") if p.name != "__init__.py")
    assert scripts, "no bench scripts found"
    tests = [p.read_text() for p in TESTS.rglob("test_*.py")]
    # run as typed, or measured through its module by a test of its own
    unrun = [
        s
        for s in scripts
        if not any(f'"bench/{s}"' in t or f"from bench.{s[:-3]} import" in t for t in tests)
    ]
    assert unrun == [], f"give these a tiny run in the suite: {unrun}"


def test_hops_traces_a_spot_click_and_prints_its_figures() -> None:
    done = bench("bench/hops.py", "--path")
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    hops = re.search(r"^hops on the spot click's path: (\d+)$", out, re.MULTILINE)
    reads = re.search(r"^table row reads on it: (\d+)$", out, re.MULTILINE)
    parts = re.search(r"^entries per part: (.+)$", out, re.MULTILINE)
    assert hops and reads and parts, out
    assert int(hops.group(1)) >= 1
    assert int(reads.group(1)) >= 1  # the click reads its table at least once
    entered = dict(item.rsplit(" ", 1) for item in parts.group(1).split(", "))
    assert {"cogs", "service", "store"} <= set(entered), entered
    assert re.search(r"^hops in background tasks meanwhile: \d+$", out, re.MULTILINE), out
    # --path: the module entries in order, after the figures
    assert len(out.strip().splitlines()) > 5
    # A hop into the store is a call of its contracts, never the property of a record it returned.
    entered_store = set(re.findall(r"-> store\.(\w+)$", out, re.MULTILINE))
    assert entered_store, out
    assert all(hasattr(Store, name) for name in entered_store), entered_store


def test_load_plays_two_tables_to_the_end_without_an_error() -> None:
    done = bench("bench/load.py", "--tables", "2", "--think", "0.2", "--ramp", "1", "--json")
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["finished"] == 2
    assert result["errors"] == 0, json.dumps(result["error_details"], indent=1)  # whole, not cut
    assert result["refused_payloads"] == 0
    for key in ("ack_p50_ms", "ack_p99_ms", "move_p50_ms", "move_p99_ms", "rest_calls_per_move"):
        assert isinstance(result[key], float | int) and result[key] > 0, key


def test_taps_doubles_every_step_of_one_table_a_gap_and_counts_no_failure() -> None:
    done = bench("bench/taps.py", "--tables", "1", "--json")
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    counts: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["second"] == "same" and counts["tables"] == 1
    assert sorted(counts["steps"]) == ["0", "0.1", "0.6"]
    for gap, steps in counts["steps"].items():
        assert sorted(steps) == ["fall", "fall 2", "spot", "tile"], gap
        for step, c in steps.items():
            assert c["doubled"] == 1, (gap, step)
            assert c["failed"] == 0 and c["second_moves"] == 0, (gap, step, c)
    assert counts["second_falls"] == 0 and counts["not_reached"] == 0


def test_hints_times_the_coach_on_a_few_decisions() -> None:
    done = bench("bench/hints.py", "--decisions", "3", "--json")
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["decisions"] == 3 and figures["busy"] == 0
    assert 0 < figures["p50_s"] <= figures["p95_s"] <= figures["max_s"]


def test_thinking_runs_tables_of_computers_with_and_without_the_gate() -> None:
    done = bench(
        "bench/thinking.py", "--tables", "2", "--decisions", "2", "--level", "normal", "--json"
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert (figures["tables"], figures["level"]) == (2, "normal")
    assert [r["at_once"] for r in figures["runs"]] == [1, 2]
    for r in figures["runs"]:
        assert r["decisions"] == 4, r
        lag = r["loop_lag_ms"]
        assert 0 <= lag["p50"] <= lag["p99"] <= lag["max"], r
        assert r["cpu_ms"] > 0 and 0 <= r["decision_s"]["p50"] <= r["decision_s"]["p95"], r


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_records_measures_a_small_server_on_each_store(
    store: str, request: pytest.FixtureRequest
) -> None:
    if store == "postgres":
        request.getfixturevalue("pg_server")  # skips (or fails in CI) without PostgreSQL
    done = bench(
        "bench/records.py", "--store", store, "--matches", "60", "--players", "6",
        "--samples", "2", "--moves", "40", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert set(report) == {"replay", store}
    replay = report["replay"]
    assert replay["moves"] >= 40
    assert 0 < replay["steps"] <= replay["moves"]
    assert 0 < replay["summary_frames"] <= 14 and replay["summary_bytes"] > 0
    for key in ("step_engine", "step_with_picture"):
        assert 0 < replay[key]["median_ms"] <= replay[key]["max_ms"], key
    figures = report[store]
    assert figures["matches"] == 60  # every generated match rated by the recomputation
    assert figures["top_player"] is not None
    for key in (
        "rating_update",
        "stats",
        "stats_with_card",
        "leaderboard_page",
        "leaderboard_page_with_card",
        "history_server",
        "history_player",
    ):
        assert 0 < figures[key]["median_ms"] <= figures[key]["max_ms"], key


def test_records_prints_a_readable_report_without_json() -> None:
    done = bench(
        "bench/records.py", "--store", "sqlite", "--matches", "20", "--players", "6",
        "--samples", "1", "--moves", "20",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "replay:" in lines and "sqlite:" in lines
    assert any(line.startswith("  stats_with_card: {'median_ms': ") for line in lines), lines


@pytest.mark.parametrize("inside", ["process", "thread"])
def test_analysis_works_out_the_turning_points_of_short_matches_and_times_them(
    inside: str,
) -> None:
    done = bench(
        "bench/analysis.py", "--short", "--node-limit", "20", "--deals", "2", "--repeat", "2",
        "--in", inside, "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    report: dict[str, Any] = json.loads(done.stdout)
    assert (report["players"], report["rounds"], report["in"]) == (2, 1, inside)
    assert (report["node_limit"], report["deals"]) == (20, 2)
    assert len(report["matches"]) == 2  # two matches of the short deal, each reviewed whole
    for match in report["matches"]:
        assert match["decisions"] >= 8  # each player's four tiles at least
        assert match["seconds"] > 0 and match["review_cpu_s"] >= 0
        lag = match["loop_lag_ms"]
        assert 0 <= lag["p50"] <= lag["p99"] <= lag["max"]
    assert report["seconds_max"] >= report["seconds_median"] > 0


def test_analysis_prints_a_readable_report_without_json() -> None:
    done = bench("bench/analysis.py", "--short", "--node-limit", "20", "--deals", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("turning points of a 2-player match of 1 round(s), reviewed in")
    assert re.match(r"match 1: \d+ decisions, [\d.]+ s from its end to its analysis kept", lines[1])

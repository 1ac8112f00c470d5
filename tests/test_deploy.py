"""The systemd units in ``deploy/``: the same hardening in both, a state directory the bot can
write its database to, and the exposure ``systemd-analyze security`` rates at most 3 (where the
machine has systemd-analyze, always in CI; docs/operating.md gives the figure)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = sorted((ROOT / "deploy").glob("*.service"))
MAX_EXPOSURE = 3.0


def _settings(unit: Path) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def _sandbox(unit: Path) -> dict[str, list[str]]:
    """The settings that restrict what the service may do (what is not about starting it)."""
    about_starting = {
        "Description", "Wants", "After", "Type", "User", "Group", "WorkingDirectory",
        "Environment", "EnvironmentFile", "ExecStart", "Restart", "RestartSec",
        "RestartPreventExitStatus", "TimeoutStopSec", "WantedBy", "StateDirectoryMode",
    }  # fmt: skip
    return {k: v for k, v in _settings(unit).items() if k not in about_starting}


def test_both_units_are_sandboxed_alike_and_keep_a_writable_state_directory() -> None:
    assert [u.name for u in UNITS] == ["flaming-pyramids.service", "flaming-pyramids@.service"]
    single, template = (_sandbox(u) for u in UNITS)
    assert single == template
    # Read-only everywhere but the state directory, where the SQLite database is kept
    # ($STATE_DIRECTORY, which systemd makes writable by the unit's user).
    assert single["ProtectSystem"] == ["strict"]
    assert single["StateDirectory"] == ["flaming-pyramids"]
    assert "ReadOnlyPaths" not in single and "InaccessiblePaths" not in single
    assert single["CapabilityBoundingSet"] == [""] and single["NoNewPrivileges"] == ["yes"]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_systemd_rates_the_exposure_of_each_unit_at_most_3(unit: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        message = "systemd-analyze is not installed (Debian: apt-get install systemd)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message)
    done = subprocess.run(
        [analyze, "security", "--offline=true", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout[-2000:] + done.stderr[-2000:]
    assert float(found.group(1)) <= MAX_EXPOSURE

"""The version: one number in ``pyproject.toml``, exposed as ``bot.__version__``, and the
CHANGELOG's released sections all older than it, under an "Unreleased" section on top."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.version import Version

import bot

ROOT = Path(__file__).resolve().parents[1]


def _project_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def test_bot_version_is_the_installed_distributions_version_from_pyproject() -> None:
    assert bot.__version__ == _project_version(), "reinstall: pip install -e '.[test]'"


def test_the_changelog_has_unreleased_on_top_then_older_releases_newest_first() -> None:
    heads = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert heads[0] == "Unreleased"
    released = [Version(re.match(r"(\S+) ", h + " ").group(1)) for h in heads[1:]]  # type: ignore[union-attr]
    assert released, "no released section"
    assert released == sorted(released, reverse=True)
    assert all(v < Version(_project_version()) for v in released)

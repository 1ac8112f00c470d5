"""Fixtures for the store tests: real SQLite files in a temporary folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.sqlite import SqliteStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this folder's ``slow`` tests out of the default run: they run with ``-m slow``."""
    if "slow" in (config.option.markexpr or ""):
        return
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="slow: run with python -m pytest -m slow")
    for item in items:
        if item.get_closest_marker("slow") and here in item.path.parents:
            item.add_marker(skip)

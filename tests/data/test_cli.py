"""``python -m data check`` / ``migrate``, and choosing a store from ``DATABASE_URL``."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

import data
from data.cli import main
from data.migrate import latest_version, migrate
from data.sqlite import SqliteStore
from data.store import TableOptions
from tests.data.helpers import play, start_table

REPO = Path(__file__).resolve().parents[2]


async def two_games(db: Path) -> list[int]:
    ids = []
    async with SqliteStore(db) as store:
        for ch in (1, 2):
            table, game = await start_table(store, ch, seed=ch)
            table = await play(store, table, game, random.Random(ch), moves=6)
            ids.append(table.id)
    return ids


def test_check_ok(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(two_games(db_path))
    assert main(["check", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 2 tables checked")


def test_check_reports_each_problem_on_one_line(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = asyncio.run(two_games(db_path))
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET state = '{' WHERE id = ?", (a,))
        conn.execute("DELETE FROM actions WHERE table_id = ? AND version = 5", (b,))
    conn.close()
    assert main(["check", f"sqlite:///{db_path}"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"table {a}: unreadable state JSON")
    assert lines[1].startswith(f"table {b}: version gap")
    assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize("content", [None, b"", b"this is not a database at all" * 100])
def test_check_unreadable_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    db = tmp_path / "x.db"
    if content is not None:
        db.write_bytes(content)
    assert main(["check", str(db)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error:")
    assert "Traceback" not in captured.err
    if content is None:
        assert not db.exists()  # check never creates a database


def test_check_newer_database(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(two_games(db_path))
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    conn.close()
    assert main(["check", str(db_path)]) == 2
    assert "newer release" in capsys.readouterr().err


def test_check_older_database(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A database an older release wrote is not read with this code's queries: the check says
    to migrate it first and changes nothing; migrated, it checks."""

    async def at_version(version: int) -> None:
        async with aiosqlite.connect(db_path, isolation_level=None) as conn:
            await migrate(conn, target=version)

    asyncio.run(at_version(latest_version() - 1))
    before = db_path.read_bytes()
    assert main(["check", str(db_path)]) == 2
    err = capsys.readouterr().err
    assert f"schema version {latest_version() - 1}" in err
    assert "python -m data migrate" in err and "Traceback" not in err
    assert db_path.read_bytes() == before
    assert main(["migrate", str(db_path)]) == 0
    assert main(["check", str(db_path)]) == 0


def test_migrate(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", str(db_path)]) == 0
    assert "schema version" in capsys.readouterr().out
    assert db_path.exists()


def test_bad_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "mysql://localhost/fp"]) == 2
    assert capsys.readouterr().err.startswith("error:")


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///flaming_pyramids.db", "flaming_pyramids.db"),
        ("sqlite:///data/games.db", "data/games.db"),
        ("sqlite:////var/lib/fp/games.db", "/var/lib/fp/games.db"),
        ("sqlite3:///games.db", "games.db"),
        ("games.db", "games.db"),
        ("/abs/games.db", "/abs/games.db"),
        ("sqlite:///my%20games.db", "my games.db"),
    ],
)
def test_sqlite_urls(url: str, path: str) -> None:
    assert data.sqlite_path(url) == path


@pytest.mark.parametrize(
    "url", ["", "sqlite://", "sqlite:///", "sqlite:///:memory:", "mysql://x/y"]
)
def test_unusable_urls(url: str) -> None:
    with pytest.raises(ValueError):
        data.open_store(url)


def test_open_store_reads_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/env.db")
    store = data.open_store()
    assert isinstance(store, SqliteStore)
    assert store.path == tmp_path / "env.db"
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.chdir(tmp_path)
    store = data.open_store()
    assert isinstance(store, SqliteStore)
    assert store.path == tmp_path / "share" / "flaming-pyramids" / "flaming_pyramids.db"


def test_the_default_database_is_in_the_state_directory_systemd_gives(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Not in the folder the bot was started from: started elsewhere, it finds the same file."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/state:{tmp_path}/other")
    monkeypatch.chdir(tmp_path)
    store = data.open_store()
    assert isinstance(store, SqliteStore)
    assert store.path == tmp_path / "state" / "flaming_pyramids.db"


async def test_open_store_opens(tmp_path: Path) -> None:
    store = data.open_store(str(tmp_path / "sub" / "dir" / "g.db"))
    await store.open()
    try:
        t = await store.create_table(1, 2, 3, TableOptions(), (), 0.0)
        assert (await store.get_table(t.id)).id == t.id
    finally:
        await store.close()


def test_help_says_in_sentences_what_each_command_does_and_which_database_it_uses(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(STATE_DIRECTORY=str(tmp_path / "state"), PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-m", "data", "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "usage: python -m data [-h] COMMAND ..."
    # The default database, as the bot would use it here, on a line of its own.
    assert f"  {tmp_path / 'state' / 'flaming_pyramids.db'}" in lines
    text = " ".join(done.stdout.split())
    for said in (
        "Without DB, the command uses DATABASE_URL if it is set, and otherwise the bot's "
        "default database:",
        "check Replay every stored game and compare it with its stored state.",
        "migrate Create the database, or bring it up to the version this code reads.",
        "copy Copy a SQLite database into an empty PostgreSQL database, then check the copy.",
        "ratings Rate the finished matches not rated yet; with --recompute, rebuild every rating.",
        "Exit status: 0 when all went well, 1 when check or copy found a problem, 2 when the "
        "database cannot be read or used",
    ):
        assert said in text, said
    # Plain sentences: no reST markup of the module's docstring, nothing cut mid-sentence.
    assert "``" not in done.stdout and "python -m data``" not in done.stdout

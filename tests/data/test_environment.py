"""``python -m data`` where the database lives on a full disk or on read-only media: the real
problem in one line, and a database on read-only media checked as it is."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.mounts import fill, make_read_only, tmpfs

REPO = Path(__file__).resolve().parents[2]


def data_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "data", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_migrate_on_a_full_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", 64) as disk:
        fill(disk)
        done = data_cli("migrate", f"sqlite:///{disk / 'games.db'}")
        left = sorted(p.name for p in disk.iterdir())
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "full" in lines[0] and str(disk / "games.db") in lines[0]
    assert "rollback" not in done.stderr and "Traceback" not in done.stderr
    assert left == ["filler"]  # no half-made database, no temporary files


def test_migrate_on_a_full_disk_with_an_older_database_says_the_disk_is_full(
    tmp_path: Path,
) -> None:
    """A migration that runs out of space stops with the real reason, and leaves the database at
    its previous version."""
    with tmpfs(tmp_path / "disk", 256) as disk:
        db = disk / "games.db"
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)"
        )
        conn.commit()
        conn.close()
        fill(disk)
        done = data_cli("migrate", str(db))
        (disk / "filler").unlink()
        check = sqlite3.connect(db).execute("SELECT COUNT(*) FROM schema_version").fetchone()
    assert done.returncode == 2, done.stderr
    assert "full" in done.stderr
    assert "cannot rollback" not in done.stderr and "Traceback" not in done.stderr
    assert check == (0,)


def test_check_reads_a_database_on_read_only_media(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "media", 4096) as media:
        db = media / "games.db"
        made = data_cli("migrate", str(db))
        assert made.returncode == 0, made.stderr
        make_read_only(media)
        done = data_cli("check", str(db))
        files = sorted(p.name for p in media.iterdir())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: 0 tables checked")
    assert files == ["games.db"]  # nothing written beside it


def test_check_on_read_only_media_with_changes_only_in_the_log_says_to_copy_it(
    tmp_path: Path,
) -> None:
    """A snapshot taken while the bot ran: the last commits are in ``games.db-wal``, which
    SQLite can only read with a writable folder; check says so instead of missing them."""
    made = data_cli("migrate", str(tmp_path / "games.db"))
    assert made.returncode == 0, made.stderr
    conn = sqlite3.connect(tmp_path / "games.db")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (100, 'x', 0)")
    conn.commit()
    with tmpfs(tmp_path / "media", 4096) as media:
        for name in ("games.db", "games.db-wal"):
            (media / name).write_bytes((tmp_path / name).read_bytes())
        conn.close()
        make_read_only(media)
        done = data_cli("check", str(media / "games.db"))
    assert done.returncode == 2
    assert "games.db-wal holds changes not yet in the file" in done.stderr
    assert "Traceback" not in done.stderr


def test_migrate_and_check_of_sqlite_need_no_postgresql_driver(tmp_path: Path) -> None:
    """(asyncpg made unimportable, as on a host installed without the ``postgres`` extra.)"""
    code = (
        "import runpy, sys; sys.modules['asyncpg'] = None; "
        "runpy.run_module('data', run_name='__main__', alter_sys=True)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    db = str(tmp_path / "games.db")
    for command in ("migrate", "check", "ratings"):
        done = subprocess.run(
            [sys.executable, "-c", code, command, db],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


def test_the_bot_and_its_records_load_over_sqlite_without_the_postgresql_driver(
    tmp_path: Path,
) -> None:
    """Every extension the bot loads, and the records of a SQLite store, import no asyncpg (a
    host installed without the ``postgres`` extra has none)."""
    code = (
        "import asyncio, importlib, sys; sys.modules['asyncpg'] = None\n"
        "from bot.config import EXTENSIONS\n"
        "for ext in EXTENSIONS: importlib.import_module(ext)\n"
        "from data import open_store\n"
        "from data.records import records_for\n"
        "async def main():\n"
        f"    store = open_store('sqlite:///{tmp_path / 'games.db'}')\n"
        "    await store.open()\n"
        "    records = records_for(store)\n"
        "    try: print(type(records).__name__, await records.rate_pending(10))\n"
        "    finally: await store.close()\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SqliteRecords", "0"]

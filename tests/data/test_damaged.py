"""A damaged database tells the truth: an existing file that is empty, not SQLite, cut short or
overwritten is refused with DatabaseDamaged (and left as it is, never recreated), damage found in
use is reported as such, and table ids of a database made anew never repeat the old ones."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from data.store import DatabaseDamaged, TableOptions
from tests.data.helpers import NOW, play, start_table

PAGE = 4096


async def a_database_with_games(path: Path, games: int = 6) -> list[int]:
    """A database holding a few games with some moves each, all in the file (no WAL)."""
    ids = []
    async with SqliteStore(path) as store:
        for ch in range(games):
            table, game = await start_table(store, ch, seed=ch)
            await play(store, table, game, random.Random(ch), moves=25)
            ids.append(table.id)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return ids


def pages(path: Path) -> int:
    return path.stat().st_size // PAGE


def overwrite(path: Path, first_page: int, count: int) -> None:
    """Overwrite ``count`` pages from page ``first_page`` (1-based) with garbage."""
    rnd = random.Random(first_page)
    with path.open("r+b") as f:
        f.seek((first_page - 1) * PAGE)
        f.write(bytes(rnd.randrange(256) for _ in range(count * PAGE)))


async def test_an_empty_file_is_refused_and_left_empty(db_path: Path) -> None:
    await a_database_with_games(db_path)
    os.truncate(db_path, 0)
    with pytest.raises(DatabaseDamaged, match="empty"):
        await SqliteStore(db_path).open()
    assert db_path.stat().st_size == 0  # not recreated


async def test_a_file_that_is_not_sqlite_is_refused(db_path: Path) -> None:
    db_path.write_text("these are my notes, not a database\n" * 200)
    before = db_path.read_bytes()
    with pytest.raises(DatabaseDamaged, match="not a SQLite database"):
        await SqliteStore(db_path).open()
    assert db_path.read_bytes() == before


async def test_a_file_cut_in_half_is_refused(db_path: Path) -> None:
    await a_database_with_games(db_path)
    os.truncate(db_path, pages(db_path) // 2 * PAGE)
    with pytest.raises(DatabaseDamaged, match="damaged"):
        await SqliteStore(db_path).open()


def page_of(path: Path, name: str) -> int:
    """The first page of the table or index ``name`` in the file."""
    with sqlite3.connect(path) as conn:
        page = conn.execute("SELECT min(pageno) FROM dbstat WHERE name = ?", (name,)).fetchone()
    conn.close()
    return int(page[0])


async def test_a_page_overwritten_with_garbage_is_found_at_start(db_path: Path) -> None:
    # An index page in the middle of the file: SQLite opens the file, its check finds it.
    await a_database_with_games(db_path)
    overwrite(db_path, page_of(db_path, "tables_open_deadline"), 1)
    with pytest.raises(DatabaseDamaged, match="integrity check"):
        await SqliteStore(db_path).open()


async def test_damage_found_in_use_is_reported_as_damage(db_path: Path) -> None:
    """The file is overwritten under an open store: reading a table, or writing a move, says
    the database is damaged (not that one table's row is)."""
    ids = await a_database_with_games(db_path)
    async with SqliteStore(db_path) as store:
        # A write elsewhere, then everything into the file: the store reads afresh from it.
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("INSERT INTO player_prefs (user_id, hand_mode) VALUES (1, 'dm')")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        overwrite(db_path, 2, pages(db_path) - 1)
        with pytest.raises(DatabaseDamaged, match="malformed"):
            await store.get_table(ids[0])
        with pytest.raises(DatabaseDamaged):
            await store.create_table(1, 99, 1, TableOptions(), (), NOW)


async def test_a_database_made_anew_never_reuses_a_table_id(tmp_path: Path) -> None:
    """The old file is lost and a new one made in its place: its first table id is past every
    id the old one issued, so a stale button can never reach a new table."""
    path = tmp_path / "games.db"
    async with SqliteStore(path) as store:
        old = [(await store.create_table(1, ch, 1, TableOptions(), (), NOW)).id for ch in range(3)]
    path.unlink()
    async with SqliteStore(path) as store:
        new = (await store.create_table(1, 0, 1, TableOptions(), (), NOW)).id
    assert new > max(old)
    assert max(old) - min(old) == 2  # one after the other within a database
    assert new < 2**53  # safe in JSON and in a button's custom id


async def test_closed_table_whose_version_does_not_match_its_log_is_reported(
    store: SqliteStore, db_path: Path
) -> None:
    table, game = await start_table(store, 1)
    table = await play(store, table, game, random.Random(1), moves=5)
    ended = await store.end_table(table.id, table.version, "aborted", NOW)
    assert await store.check() == []
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET version = version + 3 WHERE id = ?", (ended.id,))
    conn.close()
    [problem] = await store.check()
    assert problem.table_id == ended.id
    assert "closed table is at version" in problem.problem


async def test_a_started_game_without_any_start_is_reported(
    store: SqliteStore, db_path: Path
) -> None:
    table, _ = await start_table(store, 1)
    with sqlite3.connect(db_path) as conn:
        conn.execute("DELETE FROM initial_states WHERE table_id = ?", (table.id,))
        conn.execute("UPDATE tables SET start_version = NULL WHERE id = ?", (table.id,))
    conn.close()
    [problem] = await store.check()
    assert problem.table_id == table.id
    assert "no initial state" in problem.problem


async def test_an_empty_sqlite_file_of_another_program_gets_time_derived_ids(
    db_path: Path,
) -> None:
    """A valid SQLite file without the bot's schema (made by another tool) becomes a database
    of the bot's, with the same never-reused ids as one the bot made."""
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    async with SqliteStore(db_path) as store:
        table = await store.create_table(1, 1, 1, TableOptions(), (), NOW)
    assert 10**12 < table.id < 2**53


async def test_a_new_database_left_half_built_by_a_killed_process_is_cleared_away(
    tmp_path: Path,
) -> None:
    """A process killed while building a new database leaves it under a temporary name, never
    under the database's own: the next start builds its own and removes the abandoned one."""
    path = tmp_path / "games.db"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    abandoned = tmp_path / f"games.db.new-{dead.pid}-0000"
    abandoned.write_bytes(b"half")
    async with SqliteStore(path) as store:
        assert await store.table_count() == 0
    assert not abandoned.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if ".new-" in p.name) == []

"""Numbered SQL migrations: discovery, and applying the pending ones to a SQLite database.

Migrations are the files ``data/migrations/NNNN_name.sql``, applied in number order. Each one is
applied in its own ``BEGIN IMMEDIATE`` transaction together with its row in ``schema_version``, so
a crash leaves the database at the previous version, and two processes starting at once apply it
exactly once (the second waits for the write lock, then sees it done). A database whose newest
recorded version is above the newest file refuses to open (:class:`~data.store.SchemaTooNew`).
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from data.store import SchemaTooNew

log = logging.getLogger(__name__)

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)
"""


@dataclass(frozen=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's statements, one by one (``executescript`` would commit on its own)."""
        out: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                stmt = _strip_comments(pending)
                if stmt:
                    out.append(stmt)
                pending = ""
        if _strip_comments(pending):
            raise ValueError(f"migration {self.version:04d}_{self.name}: unterminated statement")
        return out


def _strip_comments(sql: str) -> str:
    lines = [ln for ln in sql.splitlines() if not ln.strip().startswith("--")]
    return "\n".join(lines).strip()


def migrations(package: str = "data.migrations") -> list[Migration]:
    """Every migration shipped with this code in ``package`` (the SQLite files by default, or
    ``data.migrations.postgres``), in order (numbers must be 1, 2, 3...)."""
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise RuntimeError(f"migrations must be numbered 1, 2, 3...: not {mig.version}")
    return found


def latest_version() -> int:
    """The schema version this code writes."""
    found = migrations()
    return found[-1].version if found else 0


async def current_version(conn: aiosqlite.Connection) -> int:
    """The database's schema version (0 for an empty database)."""
    rows = await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not list(rows):
        return 0
    rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(next(iter(rows))[0])


def too_new_message(found: int, known: int) -> str:
    """What to tell the operator when the database is newer than the code."""
    return (
        f"the database is at schema version {found}, but this code only knows versions up to "
        f"{known}: it was written by a newer release of the bot. Run that release (or newer) "
        f"instead; this one will not touch the database."
    )


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back the failed migration's transaction, if SQLite has not already (it does by
    itself after a full disk or an I/O error): the error that stopped the migration is the one
    to report, never a "cannot rollback - no transaction is active" in its place."""
    try:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
    except sqlite3.Error as e:
        log.warning("rollback after a failed migration: %s", e)


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> list[int]:
    """Apply the pending migrations up to ``target`` (default: all); return the versions applied.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Raises :class:`SchemaTooNew`
    if the database is already beyond the newest migration this code has.
    """
    available = migrations()
    known = available[-1].version if available else 0
    goal = known if target is None else target
    applied: list[int] = []
    # The table is created outside the loop's transactions; IF NOT EXISTS makes it idempotent.
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute(SCHEMA_TABLE)
        await conn.execute("COMMIT")
    except BaseException:
        await _rollback(conn)
        raise
    for mig in available:
        if mig.version > goal:
            break
        await conn.execute("BEGIN IMMEDIATE")
        try:
            rows = await conn.execute_fetchall(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version"
            )
            have = int(next(iter(rows))[0])
            if have > known:
                raise SchemaTooNew(too_new_message(have, known))
            if have >= mig.version:
                await conn.execute("ROLLBACK")
                continue
            for stmt in mig.statements():
                await conn.execute(stmt)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (mig.version, mig.name, time.time()),
            )
            await conn.execute("COMMIT")
        except BaseException:
            await _rollback(conn)
            raise
        log.info("applied migration %04d_%s", mig.version, mig.name)
        applied.append(mig.version)
    have = await current_version(conn)
    if have > known:
        raise SchemaTooNew(too_new_message(have, known))
    return applied

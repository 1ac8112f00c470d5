"""Numbered SQL migrations of the PostgreSQL store: discovery, and applying the pending ones.

The files are ``data/migrations/postgres/NNNN_name.sql``, applied in number order. PostgreSQL's
DDL is transactional: each file runs in one transaction with its ``schema_version`` row, under a
transaction-level advisory lock, so that of several bot processes starting together exactly one
applies each file and the others wait, then find it applied. A database whose newest recorded
version is above the newest file refuses to open (:class:`~data.store.SchemaTooNew`).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import asyncpg

from data import migrate as numbered
from data.migrate import Migration, too_new_message
from data.store import DatabaseDamaged, SchemaTooNew

if TYPE_CHECKING:
    from typing import TypeAlias

    #: A connection of the pool, or a plain one.
    Conn: TypeAlias = (
        asyncpg.pool.PoolConnectionProxy[asyncpg.Record] | asyncpg.Connection[asyncpg.Record]
    )

log = logging.getLogger(__name__)

POSTGRES_MIGRATIONS = "data.migrations.postgres"
#: The advisory lock key the migrations take (any fixed 64-bit number; "FP" "migr").
LOCK_KEY = 0x4650_6D69_6772

SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""


def migrations() -> list[Migration]:
    """Every PostgreSQL migration shipped with this code, in order (numbered 1, 2, 3...)."""
    return numbered.migrations(POSTGRES_MIGRATIONS)


def latest_version() -> int:
    """The PostgreSQL schema version this code writes."""
    found = migrations()
    return found[-1].version if found else 0


async def _has_table(conn: Conn, name: str) -> bool:
    return bool(await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", name))


async def current_version(conn: Conn) -> int:
    """The database's schema version (0 for a database this store never wrote)."""
    if not await _has_table(conn, "schema_version"):
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def check_known(conn: Conn) -> int:
    """The schema version, after making sure the database is one this code can use: raises
    :class:`SchemaTooNew` if it is newer, :class:`DatabaseDamaged` if it holds a ``tables``
    table without a schema version (not this bot's, or damaged)."""
    have = await current_version(conn)
    known = latest_version()
    if have > known:
        raise SchemaTooNew(too_new_message(have, known))
    if have == 0 and await _has_table(conn, "tables"):
        raise DatabaseDamaged(
            "the database has a 'tables' table but no schema_version: it is not a Flaming "
            "Pyramids database, or it was damaged. Point DATABASE_URL at an empty database "
            "(createdb) or restore this one from a backup; the bot will not touch it."
        )
    return have


async def migrate(conn: Conn, target: int | None = None) -> list[int]:
    """Apply the pending migrations up to ``target`` (default: all); the versions applied.

    Raises :class:`SchemaTooNew` if the database is beyond the newest migration of this code.
    """
    available = migrations()
    goal = available[-1].version if target is None else target
    applied: list[int] = []
    for mig in available:
        if mig.version > goal:
            break
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
            await conn.execute(SCHEMA_TABLE)
            have = await check_known(conn)
            if have >= mig.version:
                continue
            await conn.execute(mig.sql)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                mig.version,
                mig.name,
                time.time(),
            )
        log.info("applied PostgreSQL migration %04d_%s", mig.version, mig.name)
        applied.append(mig.version)
    await check_known(conn)
    return applied

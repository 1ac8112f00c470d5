"""``python -m data``: look after the bot's database from the command line.

::

    python -m data check [DB]      # replay every stored game; one line per problem, exit 1 if
                                   # any, 2 if DB cannot be read (it is only read)
    python -m data migrate [DB]    # create the database, or apply the pending migrations
    python -m data copy SQLITE POSTGRESQL   # copy everything into an empty PostgreSQL database
    python -m data ratings [DB] [--recompute] [--guild ID]   # rate finished matches not rated
                                   # yet; --recompute: rebuild every rating from the stored
                                   # results (data/records.py)

``DB`` is a file path, a ``sqlite:///`` URL or a ``postgresql://`` (``postgres://``) URL; by
default ``DATABASE_URL``, else the bot's default SQLite file (see :mod:`data.location`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from data import default_database_url, safe_url, sqlite_path, store_kind
from data import migrate as sqlite_migrate
from data.location import default_database_path
from data.store import SchemaTooNew, Store, StoreError

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database.

    >>> is_postgres("postgres://bot@db/games"), is_postgres("games.db")
    (True, False)
    """
    return url.strip().lower().startswith(("postgres://", "postgresql://"))


def _url(db: str | None) -> str:
    return db or os.environ.get("DATABASE_URL") or default_database_url()


def _shown(url: str) -> str:
    """The URL for messages, without a password."""
    return safe_url(url) if is_postgres(url) else url


async def _check(url: str, out: list[str]) -> int:
    from data.sqlite import SqliteStore

    store: Store
    if is_postgres(url):
        from data import pgmigrate
        from data.postgres import PostgresStore

        store = PostgresStore(url, pool_min=1, pool_max=2, migrate_schema=False)
        latest = pgmigrate.latest_version()
    else:
        path = Path(sqlite_path(url))
        if not path.exists():
            raise StoreError(f"no database at {path}")
        # Only read: a database on read-only media (a backup, a snapshot) is checked as it is.
        store = SqliteStore(path, migrate_schema=False, read_only=True)
        latest = sqlite_migrate.latest_version()
    await store.open()
    try:
        try:
            version = await store.schema_version()
        except sqlite3.OperationalError:
            version = 0
        if version == 0:
            raise StoreError("not a Flaming Pyramids database (it has no schema version)")
        if version < latest:
            raise StoreError(
                f"the database is at schema version {version}, this code reads version "
                f"{latest}: run python -m data migrate first (check never changes a database)"
            )
        problems = [f"database: {p}" for p in await store.integrity_check()]
        problems += [f"table {p.table_id}: {p.problem}" for p in await store.check()]
        count = await store.table_count()
    finally:
        await store.close()
    out.extend(problems)
    if problems:
        return EXIT_PROBLEMS
    out.append(f"ok: {count} tables checked, every stored state equals its replay")
    return EXIT_OK


async def _migrate(url: str, out: list[str]) -> int:
    from data.sqlite import SqliteStore

    if is_postgres(url):
        from data.postgres import PostgresStore

        async with PostgresStore(url, pool_min=1, pool_max=1) as pg:
            out.append(f"{_shown(url)}: schema version {await pg.schema_version()}")
    else:
        path = Path(sqlite_path(url))
        async with SqliteStore(path) as lite:
            out.append(f"{path}: schema version {await lite.schema_version()}")
    return EXIT_OK


async def _copy(source: str, target: str, out: list[str]) -> int:
    from data.copy import copy

    if is_postgres(source) or not is_postgres(target):
        raise StoreError("copy goes from a SQLite file to a postgresql:// database")
    report, problems = await copy(Path(sqlite_path(source)), target)
    out.extend(report)
    return EXIT_PROBLEMS if problems else EXIT_OK


async def _ratings(url: str, recompute: bool, guild_id: int | None, out: list[str]) -> int:
    from data import open_store
    from data.records import records_for

    store = open_store(url)
    await store.open()
    try:
        records = records_for(store)
        pending = 0
        while batch := await records.rate_pending(1000):
            pending += batch
        out.append(f"rated {pending} finished matches that were not rated yet")
        if recompute:
            applied = await records.recompute(guild_id)
            out.append(f"recomputed the ratings from {applied} stored results")
    finally:
        await store.close()
    return EXIT_OK


def _run(command: str, urls: list[str], args: argparse.Namespace | None = None) -> int:
    out: list[str] = []
    where = " -> ".join(_shown(u) for u in urls)
    try:
        if command == "check":
            code = asyncio.run(_check(urls[0], out))
        elif command == "migrate":
            code = asyncio.run(_migrate(urls[0], out))
        elif command == "ratings":
            assert args is not None
            code = asyncio.run(_ratings(urls[0], args.recompute, args.guild, out))
        else:
            code = asyncio.run(_copy(urls[0], urls[1], out))
    except SchemaTooNew as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except (StoreError, sqlite3.Error, OSError, ValueError) as e:
        print(f"error: {where}: {e}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as e:  # never a traceback: say what happened, on one line
        print(f"error: {where}: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_ERROR
    for line in out:
        print(line)
    return code


DESCRIPTION = """\
Look after the bot's database: check every stored game against its moves, create the
database or bring it up to date, copy a SQLite database into PostgreSQL, or rate the
finished matches.

DB is a SQLite file, a sqlite:/// URL or a postgresql:// URL. Without DB, the command uses
DATABASE_URL if it is set, and otherwise the bot's default database:
  {default}"""

EPILOG = """\
Exit status: 0 when all went well, 1 when check or copy found a problem, 2 when the
database cannot be read or used (the one line on stderr says why)."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m data",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=DESCRIPTION.format(default=default_database_path()),
        epilog=EPILOG,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    db_help = "the database (default: DATABASE_URL, else the bot's default database)"
    check = sub.add_parser(
        "check",
        help="Replay every stored game and compare it with its stored state. One line per "
        "problem; the database is only read.",
        description="Replay every stored game and compare it with its stored state. One line "
        "per problem; the database is only read (a copy on read-only media works too).",
    )
    check.add_argument("db", nargs="?", metavar="DB", help=db_help)
    mig = sub.add_parser(
        "migrate",
        help="Create the database, or bring it up to the version this code reads.",
        description="Create the database, or bring it up to the version this code reads (the "
        "bot does the same at every start).",
    )
    mig.add_argument("db", nargs="?", metavar="DB", help=db_help)
    cp = sub.add_parser(
        "copy",
        help="Copy a SQLite database into an empty PostgreSQL database, then check the copy.",
        description="Copy a SQLite database into an empty PostgreSQL database, then check the "
        "copy. Stop the bot first; the SQLite database is only read.",
    )
    cp.add_argument("source", metavar="SQLITE", help="the SQLite file or sqlite:/// URL")
    cp.add_argument("target", metavar="POSTGRESQL", help="an empty database's postgresql:// URL")
    rat = sub.add_parser(
        "ratings",
        help="Rate the finished matches not rated yet; with --recompute, rebuild every rating.",
        description="Rate the finished matches not rated yet (the bot does it as they end); "
        "with --recompute, rebuild every rating from the stored results.",
    )
    rat.add_argument("db", nargs="?", metavar="DB", help=db_help)
    rat.add_argument(
        "--recompute", action="store_true", help="rebuild every rating from the stored results"
    )
    rat.add_argument("--guild", type=int, metavar="ID", help="only this server (with --recompute)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    urls = [args.source, args.target] if args.command == "copy" else [_url(args.db)]
    for url in urls:
        try:
            store_kind(url)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return EXIT_ERROR
    return _run(args.command, urls, args)

"""``python -m data``: check a database against its action logs, migrate it, or benchmark the store.

::

    python -m data check [DB]      # one line per problem; exit 1 if any, 2 if DB cannot be read
    python -m data migrate [DB]    # create the database / apply pending migrations
    python -m data bench [--json]  # see data/bench.py

``DB`` is a file path or a ``sqlite:///`` URL; by default ``DATABASE_URL``.
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

from data import DEFAULT_URL, sqlite_path
from data.migrate import latest_version
from data.store import SchemaTooNew, StoreError

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


def _path(db: str | None) -> Path:
    return Path(sqlite_path(db or os.environ.get("DATABASE_URL") or DEFAULT_URL))


async def _check(path: Path, out: list[str]) -> int:
    from data.sqlite import SqliteStore

    store = SqliteStore(path, migrate_schema=False)
    await store.open()
    try:
        try:
            version = await store.schema_version()
        except sqlite3.OperationalError:
            version = 0
        if version == 0:
            raise StoreError("not a Flaming Pyramids database (it has no schema version)")
        if version < latest_version():
            raise StoreError(
                f"the database is at schema version {version}, this code reads version "
                f"{latest_version()}: run python -m data migrate {path} first (check never "
                "changes a database)"
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


async def _migrate(path: Path, out: list[str]) -> int:
    from data.sqlite import SqliteStore

    async with SqliteStore(path) as store:
        out.append(f"{path}: schema version {await store.schema_version()}")
    return EXIT_OK


def _run(command: str, path: Path) -> int:
    out: list[str] = []
    try:
        if command == "check":
            if not path.exists():
                print(f"error: no database at {path}", file=sys.stderr)
                return EXIT_ERROR
            code = asyncio.run(_check(path, out))
        else:
            code = asyncio.run(_migrate(path, out))
    except SchemaTooNew as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except (StoreError, sqlite3.Error, OSError, ValueError) as e:
        print(f"error: {path}: {e}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as e:  # never a traceback: say what happened, on one line
        print(f"error: {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_ERROR
    for line in out:
        print(line)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m data", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="replay every game and compare with its stored state")
    check.add_argument("db", nargs="?", help="database file or sqlite:/// URL")
    mig = sub.add_parser("migrate", help=f"bring the schema to version {latest_version()}")
    mig.add_argument("db", nargs="?", help="database file or sqlite:/// URL")
    bench = sub.add_parser("bench", help="measure commits, latency, size and start-up time")
    from data.bench import add_arguments

    add_arguments(bench)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "bench":
        from data.bench import run

        return run(args)
    try:
        path = _path(args.db)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    return _run(args.command, path)

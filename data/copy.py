"""``python -m data copy SQLITE_URL POSTGRES_URL``: move a bot's SQLite file into PostgreSQL.

A server owner whose bot outgrows one process does this once, with the bot stopped:

1. the SQLite file must be at this code's schema (``python -m data migrate`` it first) and is
   only read (a read-only connection, in one snapshot);
2. the PostgreSQL database must hold no games, settings or preferences yet (an empty database
   is given the schema first);
3. every table, action log, initial state, message id, departure, DM failure, preference,
   server setting, result and turning points' analysis is copied in one transaction, table ids
   kept, and the id sequence set past them, so that no new table ever takes an old table's id
   (old buttons stay dead);
4. ``check`` then runs on the copy (every game replayed from its initial state and log), and
   the row counts of both databases are compared.

A JSON column that does not read in the SQLite file stops the copy before anything is written,
naming the table: PostgreSQL keeps JSON as JSONB, which holds only JSON.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from data import migrate as sqlite_migrate
from data.postgres import PostgresStore
from data.store import StoreError


@dataclass(frozen=True)
class Column:
    """A column to copy, and how a SQLite value becomes the PostgreSQL one."""

    name: str
    kind: str = "plain"  # plain | json | bool


def _cols(*spec: str) -> tuple[Column, ...]:
    out = []
    for item in spec:
        name, _, kind = item.partition(":")
        out.append(Column(name, kind or "plain"))
    return tuple(out)


#: Every table the bot keeps, in an order that satisfies the foreign keys, with its columns.
TABLES: tuple[tuple[str, tuple[Column, ...]], ...] = (
    (
        "tables",
        _cols(
            "id",
            "guild_id",
            "channel_id",
            "host_id",
            "status",
            "options:json",
            "seats:json",
            "version",
            "state:json",
            "start_version",
            "shown_version",
            "thread_id",
            "number",
            "language",
            "held",
            "pause:json",
            "deadline",
            "reminder_at",
            "created_at",
            "updated_at",
        ),
    ),
    ("initial_states", _cols("table_id", "state:json")),
    ("actions", _cols("table_id", "version", "seat", "user_id", "action:json", "at")),
    ("messages", _cols("table_id", "key", "message_id", "shown_version")),
    ("departures", _cols("table_id", "seat", "user_id", "at", "name")),
    ("dm_failures", _cols("table_id", "user_id")),
    (
        "player_prefs",
        _cols("user_id", "hand_mode", "dm_on_turn:bool", "reminders:bool", "language"),
    ),
    ("dm_refusals", _cols("user_id", "refused_at")),
    ("absences", _cols("guild_id", "user_id", "away_until", "auto:bool", "timeouts")),
    (
        "guild_settings",
        _cols("guild_id", "settings:json", "guild_locale"),
    ),
    (
        "results",
        _cols(
            "table_id",
            "guild_id",
            "channel_id",
            "finished_at",
            "seats:json",
            "scores:json",
            "winners:json",
            "data:json",
        ),
    ),
    (
        "result_players",
        _cols("table_id", "seat", "user_id", "name", "ai", "score", "won:bool"),
    ),
    (
        "analyses",
        _cols("table_id", "owner", "claimed_until", "attempts", "done_at", "reviews:json"),
    ),
)


class CopyRefused(StoreError):
    """The copy cannot be made (the source is not ready, or the target is not empty)."""


def _converter(
    table: str, columns: Sequence[Column]
) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    kinds = [c.kind for c in columns]
    names = [c.name for c in columns]

    def convert(row: tuple[Any, ...]) -> tuple[Any, ...]:
        out: list[Any] = []
        for value, kind, name in zip(row, kinds, names, strict=True):
            if kind == "json" and value is not None:
                try:
                    orjson.loads(value)
                except (orjson.JSONDecodeError, TypeError):
                    raise CopyRefused(
                        f"{table} row {row[0]}: its {name} is not JSON; run python -m data "
                        "check on the SQLite file, and abort or repair that table first"
                    ) from None
                out.append(value)
            elif kind == "bool":
                out.append(None if value is None else bool(value))
            else:
                out.append(value)
        return tuple(out)

    return convert


def read_sqlite(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row to copy, read in one snapshot of a read-only connection."""
    if not path.is_file():
        raise CopyRefused(f"no SQLite database at {path}")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        conn.execute("BEGIN")
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = 0
        if "schema_version" in names:
            found = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            version = int(found.fetchone()[0])
        latest = sqlite_migrate.latest_version()
        if version != latest:
            raise CopyRefused(
                f"the SQLite database is at schema version {version}, this code copies version "
                f"{latest}: run python -m data migrate sqlite:///{path} first"
                if 0 < version < latest
                else f"{path} is not a Flaming Pyramids database at schema version {latest}"
            )
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table, columns in TABLES:
            convert = _converter(table, columns)
            select = ", ".join(c.name for c in columns)
            rows[table] = [convert(r) for r in conn.execute(f"SELECT {select} FROM {table}")]
        conn.execute("COMMIT")
        return rows
    except sqlite3.DatabaseError as e:
        raise CopyRefused(f"cannot read {path}: {e}") from e
    finally:
        conn.close()


async def copy(sqlite_file: Path, postgres_url: str) -> tuple[list[str], int]:
    """Copy ``sqlite_file`` into the empty database ``postgres_url``; the report's lines and
    how many problems ``check`` found in the copy. Raises :class:`CopyRefused` (nothing
    written) or another :class:`StoreError`."""
    rows = read_sqlite(sqlite_file)
    async with PostgresStore(postgres_url, pool_min=1, pool_max=2) as store:
        async with store.connection() as conn, conn.transaction():
            held = [
                table
                for table, _ in TABLES
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})")
            ]
            if held:
                raise CopyRefused(
                    "the PostgreSQL database is not empty (it holds "
                    f"{', '.join(held)}): copy into a new database (createdb)"
                )
            for table, columns in TABLES:
                if rows[table]:
                    await conn.copy_records_to_table(
                        table, records=rows[table], columns=[c.name for c in columns]
                    )
            await conn.execute(
                "SELECT setval('table_ids', GREATEST((SELECT max(id) FROM tables), "
                "(SELECT last_value FROM table_ids)))"
            )
        counts = {table: await store.count_rows(table) for table, _ in TABLES}
        problems = [f"database: {p}" for p in await store.integrity_check()]
        problems += [f"table {p.table_id}: {p.problem}" for p in await store.check()]
    for table, _ in TABLES:
        if counts[table] != len(rows[table]):
            problems.append(
                f"{table}: {len(rows[table])} rows in the SQLite file, {counts[table]} copied"
            )
    games = rows["tables"]
    open_games = sum(1 for r in games if r[4] in ("lobby", "playing"))
    report = [
        f"copied {len(games)} tables ({open_games} open), {len(rows['actions'])} logged moves, "
        f"{len(rows['results'])} results, {len(rows['player_prefs'])} player preferences, "
        f"{len(rows['guild_settings'])} server settings",
        *problems,
    ]
    if not problems:
        report.append(
            f"check: ok, {len(games)} tables checked on the copy, every stored state equals its "
            "replay; point DATABASE_URL at it and start the bot"
        )
    return report, len(problems)

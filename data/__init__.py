"""Persistence: the store interface the bot talks to, and its SQLite and PostgreSQL stores.

``open_store()`` picks the implementation from ``DATABASE_URL``; the bot then awaits
``store.open()`` (which creates and migrates the database) and ``store.close()`` at shutdown::

    store = open_store()          # DATABASE_URL, or sqlite:///flaming_pyramids.db
                                  # (postgresql://... or postgres://...: PostgreSQL)
    await store.open()
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from data.store import (
    OPEN_STATUSES,
    ChannelBusy,
    CorruptRecord,
    DatabaseDamaged,
    GuildSettings,
    LoggedAction,
    NotFound,
    PlayerPrefs,
    SchemaTooNew,
    Seat,
    Store,
    StoreError,
    Table,
    TableDefaults,
    TableOptions,
    TableProblem,
    TableStatus,
    VersionConflict,
)

DEFAULT_URL = "sqlite:///flaming_pyramids.db"


def sqlite_path(url: str) -> str:
    """The file a SQLite URL names: ``sqlite:///relative.db``, ``sqlite:////abs/path.db``, or a
    plain path. Raises ValueError for another scheme.

    >>> sqlite_path("sqlite:///flaming_pyramids.db")
    'flaming_pyramids.db'
    >>> sqlite_path("sqlite:////var/lib/fp/games.db")
    '/var/lib/fp/games.db'
    >>> sqlite_path("games.db")
    'games.db'
    """
    url = url.strip()
    if "://" not in url:
        if not url:
            raise ValueError("empty database URL")
        return url
    scheme, rest = url.split("://", 1)
    if scheme.lower() not in ("sqlite", "sqlite3"):
        raise ValueError(f"not a SQLite URL: {scheme}://")
    if not rest.startswith("/") or rest == "/":
        raise ValueError(f"a SQLite URL is sqlite:///path, not {url!r}")
    path = unquote(rest[1:].split("?", 1)[0])
    if not path or path == ":memory:":
        raise ValueError("the store needs a database file (several connections share it)")
    return path


def open_store(url: str | None = None) -> Store:
    """The store ``url`` names (default: the ``DATABASE_URL`` environment variable, else
    ``sqlite:///flaming_pyramids.db``). Not yet opened: ``await store.open()``.

    Raises ValueError for a URL no implementation handles.
    """
    if url is None:
        url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    scheme = url.split("://", 1)[0].lower() if "://" in url else "sqlite"
    if scheme in ("sqlite", "sqlite3"):
        from data.sqlite import SqliteStore

        return SqliteStore(sqlite_path(url))
    if scheme in ("postgres", "postgresql"):
        from data.postgres import PostgresStore

        return PostgresStore(url, **postgres_settings(os.environ))
    raise ValueError(
        f"unknown database URL scheme {scheme!r}: use sqlite:///path or postgresql://..."
    )


def postgres_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The PostgreSQL store's pool and timeout settings from the environment:
    ``DATABASE_POOL_MIN`` / ``DATABASE_POOL_MAX`` (connections per process), ``DATABASE_TIMEOUT``
    (seconds a statement may take) and ``DATABASE_RETRY`` (seconds to wait for a database that
    went away). Unset or empty: the defaults. Raises ValueError for a value that is not a
    number, or pool sizes that do not fit.

    >>> postgres_settings({"DATABASE_POOL_MAX": "20"})["pool_max"]
    20
    """
    from data.postgres import POOL_MAX, POOL_MIN, RETRY_S, TIMEOUT_S

    def number(name: str, default: float, kind: type[int] | type[float]) -> Any:
        text = env.get(name, "").strip()
        if not text:
            return default
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"{name} must be a number, not {text!r}") from None
        if value < 0:
            raise ValueError(f"{name} must not be negative, not {text!r}")
        return value

    pool_max = number("DATABASE_POOL_MAX", POOL_MAX, int)
    if pool_max < 1:
        raise ValueError("DATABASE_POOL_MAX must be at least 1")
    pool_min = number("DATABASE_POOL_MIN", min(POOL_MIN, pool_max), int)
    if pool_min > pool_max:
        raise ValueError("DATABASE_POOL_MIN must not be above DATABASE_POOL_MAX")
    return {
        "pool_min": pool_min,
        "pool_max": pool_max,
        "timeout_s": number("DATABASE_TIMEOUT", TIMEOUT_S, float),
        "retry_s": number("DATABASE_RETRY", RETRY_S, float),
    }


__all__ = [
    "DEFAULT_URL",
    "OPEN_STATUSES",
    "ChannelBusy",
    "CorruptRecord",
    "DatabaseDamaged",
    "GuildSettings",
    "LoggedAction",
    "NotFound",
    "PlayerPrefs",
    "SchemaTooNew",
    "Seat",
    "Store",
    "StoreError",
    "Table",
    "TableDefaults",
    "TableOptions",
    "TableProblem",
    "TableStatus",
    "VersionConflict",
    "open_store",
    "postgres_settings",
    "sqlite_path",
]

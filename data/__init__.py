"""Persistence: the store interface the bot talks to, and its SQLite implementation.

``open_store()`` picks the implementation from ``DATABASE_URL``; the bot then awaits
``store.open()`` (which creates and migrates the database) and ``store.close()`` at shutdown::

    store = open_store()          # DATABASE_URL, or sqlite:///flaming_pyramids.db
    await store.open()
"""

from __future__ import annotations

import os
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
        raise ValueError("PostgreSQL is not supported yet: use a sqlite:/// URL")
    raise ValueError(f"unknown database URL scheme {scheme!r}: use sqlite:///path")


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
    "sqlite_path",
]

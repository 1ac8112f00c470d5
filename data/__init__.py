"""Persistence: the store interface the bot talks to, and its SQLite and PostgreSQL stores.

``open_store()`` picks the implementation from ``DATABASE_URL``; the bot then awaits
``store.open()`` (which creates and migrates the database) and ``store.close()`` at shutdown::

    store = open_store()          # DATABASE_URL, or the default SQLite file (data.location)
                                  # (postgresql://... or postgres://...: PostgreSQL)
    await store.open()

The PostgreSQL store needs asyncpg, installed with the ``postgres`` extra
(``pip install -e '.[postgres]'`` in the checkout); a SQLite-only host does without it.
"""

from __future__ import annotations

import importlib.util
import os
from urllib.parse import unquote

from data.location import default_database_path, default_database_url
from data.pg_settings import postgres_settings, safe_url, url_secrets
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

#: What installs the PostgreSQL store's driver.
POSTGRES_EXTRA = "pip install -e '.[postgres]' in the bot's checkout"
SQLITE_SCHEMES = ("sqlite", "sqlite3")
POSTGRES_SCHEMES = ("postgres", "postgresql")


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
        raise ValueError(f"a SQLite URL is sqlite:///path (three slashes), not {url!r}")
    path = unquote(rest[1:].split("?", 1)[0])
    if not path or path == ":memory:":
        raise ValueError("the store needs a database file (several connections share it)")
    return path


def store_kind(url: str) -> str:
    """``"sqlite"`` or ``"postgres"``: the store ``url`` names. Raises ValueError (with what to
    do) for a URL no store handles, or a PostgreSQL URL without the ``postgres`` extra.

    >>> store_kind("postgresql://bot@db/fp"), store_kind("games.db")
    ('postgres', 'sqlite')
    >>> store_kind("sqlite://games.db")
    Traceback (most recent call last):
    ...
    ValueError: a SQLite URL is sqlite:///path (three slashes), not 'sqlite://games.db'
    """
    url = url.strip()
    scheme = url.split("://", 1)[0].lower() if "://" in url else "sqlite"
    if scheme in SQLITE_SCHEMES:
        sqlite_path(url)
        return "sqlite"
    if scheme in POSTGRES_SCHEMES:
        if importlib.util.find_spec("asyncpg") is None:
            raise ValueError(
                "the database is PostgreSQL, but its driver (asyncpg) is not installed: "
                f"{POSTGRES_EXTRA}"
            )
        return "postgres"
    raise ValueError(
        f"unknown database URL scheme {scheme + '://'!r}: use sqlite:///path/to/file.db "
        "(SQLite) or postgresql://user:password@host/database (PostgreSQL)"
    )


def open_store(url: str | None = None) -> Store:
    """The store ``url`` names (default: the ``DATABASE_URL`` environment variable, else the
    default SQLite file of :mod:`data.location`). Not yet opened: ``await store.open()``.

    Raises ValueError for a URL no implementation handles.
    """
    if url is None:
        url = os.environ.get("DATABASE_URL") or default_database_url()
    if store_kind(url) == "sqlite":
        from data.sqlite import SqliteStore

        return SqliteStore(sqlite_path(url))
    from data.postgres import PostgresStore

    return PostgresStore(url, **postgres_settings(os.environ))


__all__ = [
    "OPEN_STATUSES",
    "POSTGRES_EXTRA",
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
    "default_database_path",
    "default_database_url",
    "open_store",
    "postgres_settings",
    "safe_url",
    "sqlite_path",
    "store_kind",
    "url_secrets",
]

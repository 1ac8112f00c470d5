"""Running the SQL both dialects share: one statement, written once with ``?`` placeholders.

SQLite and PostgreSQL agree on most of what the store asks (upserts with ``ON CONFLICT``,
``RETURNING``, ``coalesce``, ``count``): such a statement is written once, with SQLite's ``?``,
and run on either database through :class:`Sql`, which each store's connection layer
implements (:class:`data.sqlite_db.Database`, :class:`data.pg_db.Database`, the latter
numbering the placeholders ``$1``, ``$2``... with :func:`numbered`). A statement the dialects
write differently (a move, a claim of due timers, a lock) stays in its store's own module.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Protocol


class Sql(Protocol):
    """One database, as the shared code runs statements on it."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """The rows of one read (``sql`` with ``?`` placeholders)."""

    async def snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of each read of ``queries``, all from one snapshot of the database."""

    async def change(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> int:
        """Run one write, committed by itself; how many rows it changed. ``what`` names it in
        errors; a write that is not ``repeatable`` (doing it twice is not doing it once) is not
        sent again after a lost connection (PostgreSQL)."""

    async def change_rows(
        self, sql: str, params: Sequence[Any] = (), *, what: str, repeatable: bool = True
    ) -> list[Sequence[Any]]:
        """Run one write committed by itself, as :meth:`change`; the rows its ``RETURNING``
        gives."""


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with PostgreSQL's numbered placeholders in place of ``?`` (the statements hold
    no ``?`` of their own).

    >>> numbered("UPDATE t SET a = ? WHERE id = ?")
    'UPDATE t SET a = $1 WHERE id = $2'
    """
    pieces = sql.split("?")
    return "".join(
        piece + (f"${i}" if i < len(pieces) else "") for i, piece in enumerate(pieces, start=1)
    )

"""The one registry of locks of this process.

A table's lock (:meth:`Locks.table`) is held by the desk (:mod:`bot.desk`) around "change the
table, then show the change", so that one table's decisions are made one at a time and its
messages appear in the order its moves were made; across processes the store's version check
decides. A player's private screen at a table has a lock of its own (:meth:`Locks.screen`): its
edits go one at a time without holding up the table. A lock lives as long as somebody holds or
waits for it: the registry keeps them weakly, so a finished table leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import weakref

Key = tuple[int] | tuple[int, int]


class Locks:
    """``asyncio.Lock`` objects by table (and player), made on first use, forgotten when unused."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Key, asyncio.Lock] = weakref.WeakValueDictionary()

    def _get(self, key: Key) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def table(self, table_id: int) -> asyncio.Lock:
        """The lock held around changing ``table_id`` and showing the change."""
        return self._get((table_id,))

    def screen(self, table_id: int, user_id: int) -> asyncio.Lock:
        """The lock of one player's private screen at one table."""
        return self._get((table_id, user_id))

    def __len__(self) -> int:
        """How many locks are alive (somebody holds or waits for them)."""
        return len(self._locks)

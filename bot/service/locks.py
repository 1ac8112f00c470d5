"""The one registry of per-table locks of this process.

A table has two locks, both from here: :meth:`TableLocks.change` serialises the changes the table
service makes to a table (read, check, write), and :meth:`TableLocks.show` is held by the Discord
adapter around "ask the service, then show the result", so that one table's messages appear in
the order its moves were made (the adapter takes ``show`` first, the service ``change`` inside
it; never the other way round). A lock lives as long as somebody holds or waits for it: the
registry keeps them weakly, so a finished table leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Literal

LockKind = Literal["change", "show"]


class TableLocks:
    """Per-table ``asyncio.Lock`` objects, made on first use and forgotten when unused."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[tuple[int, LockKind], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def _get(self, table_id: int, kind: LockKind) -> asyncio.Lock:
        key = (table_id, kind)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def change(self, table_id: int) -> asyncio.Lock:
        """The lock the table service holds while it changes ``table_id``."""
        return self._get(table_id, "change")

    def show(self, table_id: int) -> asyncio.Lock:
        """The lock the adapter holds around changing ``table_id`` and showing the change."""
        return self._get(table_id, "show")

    def __len__(self) -> int:
        """How many locks are alive (somebody holds or waits for them)."""
        return len(self._locks)

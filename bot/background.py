"""Work a bot process runs for its tables in the background (showing a move, delivering hands,
the computer players' turns): a reference to each task is kept until it ends, and a failure is
logged with its table's id, quietly once the bot is shutting down."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """A set of background tasks, each named after its table."""

    def __init__(self, closing: Callable[[], bool]) -> None:
        self._closing = closing
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], table_id: int) -> asyncio.Task[Any]:
        """Run ``coro`` for table ``table_id`` in the background."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        task.set_name(f"table {table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        if self._closing():
            log.debug("background task failed during shutdown: %r", task.exception())
        else:
            log.error("%s: background task failed", task.get_name(), exc_info=task.exception())

    async def cancel_all(self) -> None:
        """Cancel every task still running and wait for them to end (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def __len__(self) -> int:
        return len(self._tasks)

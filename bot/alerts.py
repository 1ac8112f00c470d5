"""Telling the operator: errors logged by the bot are also posted to a Discord webhook
(``ERROR_WEBHOOK_URL``), so someone hears of them without reading the log.

- **Rate-limited**: at most one post per interval (a minute by default); errors in between are
  counted, and the next post says how many there were and shows the latest.
- **Never a player's hand**: a post carries the log message (hands are never logged at ERROR)
  and the exception's type and the place it was raised, never the exception's own text or a
  traceback (their values are the program's, and may be anyone's).
- **Never in the way**: posting happens on the event loop in the background; a webhook that
  fails is noted at WARNING (which this handler ignores) and the bot goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import traceback

import aiohttp

log = logging.getLogger(__name__)

#: Discord's limit for a message's content.
MAX_CONTENT = 2000
#: Seconds a post may take before it is given up.
POST_TIMEOUT_S = 10.0


def describe(record: logging.LogRecord) -> str:
    """The text posted for ``record``: level, logger, message, and the exception's type and
    where it was raised (never its message)."""
    text = f"**{record.levelname}** `{record.name}`: {record.getMessage()}"
    if record.exc_info and record.exc_info[0] is not None:
        kind = record.exc_info[0].__name__
        where = ""
        tb = record.exc_info[2]
        if tb is not None:
            last = traceback.extract_tb(tb)[-1]
            where = f" at {os.path.basename(last.filename)}:{last.lineno} ({last.name})"
        text += f"\n{kind}{where}"
    return text


class WebhookReporter(logging.Handler):
    """A logging handler (ERROR and above) that posts to a Discord webhook, rate-limited.

    Records can come from any thread; posting starts with :meth:`start` on the running event
    loop and ends with :meth:`stop`, which posts what is still pending (within a few seconds).
    """

    def __init__(self, url: str, *, interval_s: float = 60.0, name: str = "Flaming Pyramids"):
        super().__init__(level=logging.ERROR)
        self.url = url
        self.interval_s = interval_s
        self.username = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self.posted = 0

    # --- logging side (any thread) --------------------------------------------------------------

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == __name__ or self._loop is None or self._queue is None:
            return
        try:
            text = describe(record)
            queue = self._queue
            self._loop.call_soon_threadsafe(queue.put_nowait, text)
        except RuntimeError:
            pass  # the loop is closed: the log has it
        except Exception:
            self.handleError(record)

    def send_now(self, text: str) -> None:
        """Queue ``text`` as if an error had been logged (from the event loop's thread)."""
        if self._queue is not None:
            self._queue.put_nowait(text)

    # --- posting side (the event loop) ----------------------------------------------------------

    def start(self) -> None:
        """Start posting from the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=POST_TIMEOUT_S))
        self._task = asyncio.create_task(self._run(), name="error webhook")

    async def stop(self, timeout_s: float = 5.0) -> None:
        """Post what is pending (one post at most), then stop."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        queue = self._queue
        self._loop = None
        if queue is not None and not queue.empty():
            pending = [queue.get_nowait() for _ in range(queue.qsize())]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._post(self._summary(pending)), timeout_s)
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            first = await self._queue.get()
            await self._post(first)
            # Then at most one post per interval, for everything that came meanwhile.
            while True:
                await asyncio.sleep(self.interval_s)
                if self._queue.empty():
                    break
                pending = [self._queue.get_nowait() for _ in range(self._queue.qsize())]
                await self._post(self._summary(pending))

    def _summary(self, pending: list[str]) -> str:
        if len(pending) == 1:
            return pending[0]
        return f"{len(pending)} errors since the last post; the latest:\n{pending[-1]}"

    async def _post(self, text: str) -> None:
        if len(text) > MAX_CONTENT:
            text = text[: MAX_CONTENT - 1] + "…"
        body = {"content": text, "username": self.username, "allowed_mentions": {"parse": []}}
        session = self._session
        if session is None:
            return
        try:
            async with session.post(self.url, json=body) as response:
                if response.status >= 300:
                    log.warning(
                        "the error webhook answered %s %s: errors are only in the log",
                        response.status,
                        response.reason,
                    )
                    return
            self.posted += 1
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            log.warning("cannot post to the error webhook (%s): errors are only in the log", e)

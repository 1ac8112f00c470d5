"""Telling the operator: errors logged by the bot are also posted to a Discord webhook
(``ERROR_WEBHOOK_URL``), so someone hears of them without reading the log.

- **Through Discord's webhook API** (``discord.Webhook``, on ``DISCORD_API_BASE_URL`` when one is
  set): a 429 is waited out as Discord asks, a 5xx tried again.
- **Rate-limited**: at most one post per interval (a minute by default); errors in between are
  counted, and the next post says how many there were and shows the latest.
- **Never a player's hand, never a secret**: a post carries the log message and the exception's
  type and the place it was raised, never the exception's own text or a traceback (their values
  are the program's, and may be anyone's); any tile's name in it is masked, and so are the
  token and the database's password (:mod:`bot.redact`).
- **Never in the way**: posting happens on the event loop in the background; a webhook that
  fails is noted at WARNING (which this handler ignores) and the bot goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import traceback
from collections.abc import Callable

import aiohttp
import discord
import yarl

from bot.redact import without_tiles

log = logging.getLogger(__name__)

#: Discord's limit for a message's content.
MAX_CONTENT = 2000
#: Loggers whose records are never posted: this module's and discord.py's webhook's, which
#: speak of the posting itself.
OWN_LOGGERS = frozenset({__name__, "discord.webhook.async_"})
#: Seconds a post may take before it is given up.
POST_TIMEOUT_S = 10.0


class NotAWebhook(ValueError):
    """A URL that is not a Discord webhook's."""


def webhook_parts(url: str) -> tuple[int, str]:
    """The id and token of a Discord webhook URL (``.../api/webhooks/<id>/<token>``, as
    Discord's "Copy Webhook URL" gives it). Raises :class:`NotAWebhook`.

    >>> webhook_parts("https://discord.com/api/webhooks/123456789012345678/abc-DEF_1")
    (123456789012345678, 'abc-DEF_1')
    """
    try:
        parts = yarl.URL(url).parts
    except ValueError:
        parts = ()
    if "webhooks" not in parts:
        raise NotAWebhook(url)
    after = parts[parts.index("webhooks") + 1 :]
    if len(after) < 2 or not after[0].isdigit() or not after[1]:
        raise NotAWebhook(url)
    return int(after[0]), after[1]


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

    def __init__(
        self,
        url: str,
        *,
        interval_s: float = 60.0,
        name: str = "Flaming Pyramids",
        redact: Callable[[str], str] = str,
    ) -> None:
        super().__init__(level=logging.ERROR)
        self.webhook_id, self.webhook_token = webhook_parts(url)
        self.interval_s = interval_s
        self.username = name
        self.redact = redact
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._webhook: discord.Webhook | None = None
        self.posted = 0

    # --- logging side (any thread) --------------------------------------------------------------

    def emit(self, record: logging.LogRecord) -> None:
        if record.name in OWN_LOGGERS or self._loop is None or self._queue is None:
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
        self._webhook = discord.Webhook.partial(
            self.webhook_id, self.webhook_token, session=self._session
        )
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
        self._webhook = None
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
        text = without_tiles(self.redact(text))
        if len(text) > MAX_CONTENT:
            text = text[: MAX_CONTENT - 1] + "…"
        webhook = self._webhook
        if webhook is None:
            return
        try:
            await webhook.send(
                text, username=self.username, allowed_mentions=discord.AllowedMentions.none()
            )
            self.posted += 1
        except discord.HTTPException as e:
            log.warning(
                "the error webhook answered %s %s: errors are only in the log",
                e.status,
                e.response.reason,
            )
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            log.warning("cannot post to the error webhook (%s): errors are only in the log", e)

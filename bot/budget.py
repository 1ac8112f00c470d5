"""Pacing the bot's own REST calls under Discord's global budget (50 requests per second).

discord.py only reacts to a global rate limit once Discord answered 429, and gives up after a
few retries: a burst (many games starting at once, each sending three hands) would lose
messages. The show side (:mod:`bot.show.outbox`) therefore takes a token from a :class:`Budget`
before every call that counts against the global budget (channel messages, direct messages,
edits), most urgent first: the picture somebody waits for, then lobby messages and notices, then
hands. Interaction responses are exempt from the global limit and are never paced.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, Final

PICTURE: Final = 0
"""The channel message of a move (someone is waiting for it)."""
NOTICE: Final = 1
"""Lobby messages, notices, reminders."""
HAND: Final = 2
"""A hand by direct message."""
GLOBAL_RATE: Final = 40.0
"""Requests per second one bot token may spend in all (Discord allows 50: some is kept in hand
for discord.py's own retries and the gateway's start-up calls)."""
GLOBAL_BURST: Final = 5
"""Calls one bot token may make at once before the pacing starts."""


class Budget:
    """A token bucket: ``rate`` calls per second on average, at most ``burst`` at once; waiting
    callers are served by priority (lower first), then in arrival order."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: int = GLOBAL_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._updated = time.monotonic()
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.granted = 0
        """Tokens handed out so far (calls let through)."""

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._updated) * self.rate)
        self._updated = now

    async def acquire(self, priority: int = NOTICE) -> None:
        """Wait until this call may go out."""
        self._refill()
        if not self._waiters and self._tokens >= 1:
            self._tokens -= 1
            self.granted += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._order), fut))
        self._schedule()
        await fut

    def _schedule(self) -> None:
        if self._timer is not None or not self._waiters:
            return
        delay = max(0.0, (1 - self._tokens) / self.rate)
        self._timer = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self._timer = None
        self._refill()
        while self._waiters and self._tokens >= 1:
            _, _, fut = heapq.heappop(self._waiters)
            if fut.done():  # the caller gave up (cancelled)
                continue
            self._tokens -= 1
            self.granted += 1
            fut.set_result(None)
        self._schedule()

    @property
    def waiting(self) -> int:
        """Callers waiting for a token."""
        return sum(1 for _, _, f in self._waiters if not f.done())


_priority: ContextVar[int] = ContextVar("rest_priority", default=NOTICE)


@contextlib.contextmanager
def priority(level: int) -> Iterator[None]:
    """The REST calls made inside this block are paced with priority ``level``."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


_prepaid: ContextVar[bool] = ContextVar("rest_prepaid", default=False)


def share(shard_ids: Sequence[int] | None, shard_count: int | None) -> float:
    """This process's part of the token's global budget: the fraction of the shards it runs
    (all of it when it runs every shard)."""
    if not shard_ids or not shard_count:
        return 1.0
    return min(1.0, len(shard_ids) / shard_count)


def for_process(shard_ids: Sequence[int] | None, shard_count: int | None) -> Budget:
    """The budget of a process running ``shard_ids`` of ``shard_count`` shards: its share of
    the rate and of the burst, so that the processes together never exceed either."""
    part = share(shard_ids, shard_count)
    return Budget(GLOBAL_RATE * part, max(1, round(GLOBAL_BURST * part)))


@contextlib.asynccontextmanager
async def paid(budget: Budget, level: int) -> AsyncIterator[None]:
    """Wait for a token now, before taking anything that others wait for (a message's lock):
    the next REST call made inside the block spends it instead of waiting again."""
    await budget.acquire(level)
    token = _prepaid.set(True)
    try:
        yield
    finally:
        _prepaid.reset(token)


Request = Callable[..., Awaitable[Any]]


def pace(http: Any, budget: Budget) -> None:
    """Make every call of discord.py's HTTP client ``http`` (each counts against the global
    budget) wait for a token of ``budget`` first, with the priority of :func:`priority`."""
    request: Request = http.request

    async def paced(route: Any, **kwargs: Any) -> Any:
        if _prepaid.get():
            _prepaid.set(False)  # the token of :func:`paid` pays for this one call
        else:
            await budget.acquire(_priority.get())
        return await request(route, **kwargs)

    http.request = paced

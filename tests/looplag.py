"""How late the running event loop is: the measure the benchmarks take of a bot process's
responsiveness while they load it (``bench/thinking.py``, ``bench/analysis.py``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


@contextlib.asynccontextmanager
async def loop_lag(period_s: float = 0.01) -> AsyncIterator[list[float]]:
    """While the block runs, a timer of ``period_s`` on the running loop again and again; the
    list it yields fills with how late each one fired, in milliseconds (a loop that answers at
    once is late by about 0)."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    stop = asyncio.Event()

    async def tick() -> None:
        while not stop.is_set():
            t = loop.time()
            await asyncio.sleep(period_s)
            lags.append((loop.time() - t - period_s) * 1000)

    ticker = asyncio.ensure_future(tick())
    try:
        yield lags
    finally:
        stop.set()
        await ticker

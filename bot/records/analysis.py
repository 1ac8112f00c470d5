"""Working out the turning points of played matches, in the background.

One job: take a match with a result and no analysis (any bot process may: a claim in the store
gives each match to one process at a time, :class:`data.store.Analyses`), have every decision of
it judged by the coach in a process of its own (``python -m engine.ai review``:
:mod:`engine.ai.review`), renew the claim while that process works, and keep what it found, once.
The records cog runs :meth:`Analyser.run` every few seconds, as it rates matches; nothing here
knows Discord.

Why a process of its own, with the lowest priority (``nice`` 19): reviewing is minutes of pure
Python on a busy day. In a thread it would hold the interpreter's lock against the event loop
that serves the tables (every click waits its turn for the lock: a 10 ms timer of the loop fired
5 ms late at the median with the review in a thread, the interpreter's switch interval, against
0.1 ms with it in a process: ``bench/analysis.py --in thread``). In a process of its own with
``nice`` 19 it takes only the processor time the tables leave: on a machine with a core to
spare (the bot's process needs less than one), the whole of it; on a saturated one, little, and
the analysis waits rather than the players (``bench/analysis.py`` beside ``bench/load.py``,
docs/performance.md). A review is one short-lived process per match, started with the match's
log on its standard input and printing one line per decision as it goes: nothing to keep alive
between matches, and stopping it is ending it.

A stop (the bot shutting down) ends the review and releases the claim: the next process to look
(this one after its restart, or another) takes the match up again at once. A process that dies
leaves its claim to run out (:data:`LEASE_S`). Either way the match is analysed once: the first
analysis saved is kept (:meth:`data.store.Analyses.save_analysis`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import sys
from collections.abc import Callable
from typing import Final

from data.store import CorruptRecord, NotFound, Store
from engine.ai.review import REVIEW_BUDGET, Budget, Review
from engine.model import EngineError

log = logging.getLogger(__name__)

ANALYSE_WITHIN_S: Final = 7 * 86_400.0
"""How long after its end a match is still analysed: a process that was stopped for a while
catches up on the last week; older matches (those played before the turning points, say) are
left alone."""
LEASE_S: Final = 60.0
"""How long a claim on a match's analysis lasts unless renewed (a process that dies holding one
leaves the match to the others after this long)."""
RENEW_EVERY_S: Final = LEASE_S / 4
"""How often the claim is renewed while the review goes on."""
NICE: Final = 19
"""How much lower the review process's priority is than the bot's (``nice``, 0 to 19)."""
EXIT_BAD_INPUT: Final = 2
"""The review's exit status for a match whose log does not replay (:mod:`engine.ai.cli`)."""


class LostClaim(Exception):
    """Another process holds the match's claim now (this one's ran out): the work is theirs."""


class Analyser:
    """Works out the turning points of the matches waiting for them (see the module)."""

    def __init__(
        self,
        store: Store,
        owner: str,
        clock: Callable[[], float],
        budget: Budget = REVIEW_BUDGET,
        *,
        nice: int = NICE,
    ) -> None:
        self.store = store
        self.analyses = store.analyses()
        self.owner = owner
        self.clock = clock
        self.budget = budget
        self.nice = nice
        self._closing = False
        self._worker: asyncio.subprocess.Process | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    async def run(self) -> int:
        """Analyse the matches waiting for it, the last ended first, until there is none (or
        the bot stops); how many were analysed."""
        done = 0
        while not self._closing:
            self._idle.clear()
            try:
                now = self.clock()
                table_id = await self.analyses.claim_analysis(
                    self.owner, now, LEASE_S, now - ANALYSE_WITHIN_S
                )
                if table_id is None:
                    break
                done += await self._analyse(table_id)
            finally:
                self._idle.set()
        return done

    async def _analyse(self, table_id: int) -> bool:
        """Review the claimed match and keep what was found; whether it was kept here."""
        if self._closing:  # stopped while claiming it
            await self._release(table_id)
            return False
        try:
            reviews = await self._reviews(table_id)
        except LostClaim:
            log.warning("table %s: its analysis was taken over by another process", table_id)
            return False
        except Exception:
            if self._closing:
                await self._release(table_id)
                return False
            # Its claim runs out and counts as one attempt: tried again, a few times at most.
            log.exception("table %s: could not work out its turning points", table_id)
            return False
        saved = await self.analyses.save_analysis(table_id, reviews, self.clock())
        if reviews is None:
            log.warning("table %s: its log does not replay; no turning points", table_id)
        else:
            log.info("table %s: turning points worked out (%s decisions)", table_id, len(reviews))
        return saved

    async def _release(self, table_id: int) -> None:
        try:
            await self.analyses.release_analysis(table_id, self.owner)
        except Exception:
            log.exception("table %s: could not release its analysis", table_id)

    async def _reviews(self, table_id: int) -> list[Review] | None:
        """Every decision of the match reviewed (None: the match cannot be analysed)."""
        try:
            table = await self.store.get_table(table_id)
            entries = await self.store.action_log(table_id)
        except (CorruptRecord, NotFound) as e:
            log.warning("table %s: cannot be analysed: %s", table_id, e)
            return None
        if table.initial_state is None:
            return None
        actions = [
            {**entry.action, **({} if entry.seat is None else {"player": entry.seat})}
            for entry in entries
        ]
        match = json.dumps({**table.initial_state, "actions": actions}).encode()
        worker = await asyncio.create_subprocess_exec(
            *self._command(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self._worker = worker
        try:
            return await self._read(table_id, worker, match)
        finally:
            self._worker = None
            if worker.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    worker.kill()
                await worker.wait()

    def _command(self) -> list[str]:
        b = self.budget
        budget = "inf" if math.isinf(b.time_budget_s) else repr(b.time_budget_s)
        return [
            sys.executable, "-m", "engine.ai", "review", "-",
            "--node-limit", str(b.node_limit), "--deals", str(b.deals),
            "--time-budget", budget, "--nice", str(self.nice),
        ]  # fmt: skip

    async def _read(
        self, table_id: int, worker: asyncio.subprocess.Process, match: bytes
    ) -> list[Review] | None:
        """Feed the match to the review process and read its lines, renewing the claim as they
        come; the reviews, or None for a match whose log does not replay."""
        assert worker.stdin is not None and worker.stdout is not None
        assert worker.stderr is not None
        worker.stdin.write(match)
        await worker.stdin.drain()
        worker.stdin.close()
        lines: list[bytes] = []
        errors = asyncio.ensure_future(worker.stderr.read())
        reading = asyncio.ensure_future(_lines(worker.stdout, lines))
        try:
            while True:
                done, _ = await asyncio.wait({reading}, timeout=RENEW_EVERY_S)
                if done:
                    break
                now = self.clock()
                if not await self.analyses.renew_analysis(table_id, self.owner, now, now + LEASE_S):
                    raise LostClaim
            status = await worker.wait()
            said = (await errors).decode(errors="replace").strip()
        finally:
            for task in (reading, errors):
                task.cancel()
        if status == EXIT_BAD_INPUT:
            log.warning("table %s: %s", table_id, said)
            return None
        if status != 0:
            raise RuntimeError(f"the review stopped with status {status}: {said[-300:]}")
        try:
            return [Review.from_dict(json.loads(line)) for line in lines]
        except (EngineError, ValueError) as e:
            raise RuntimeError(f"the review printed what is not a review: {e}") from e

    async def close(self) -> None:
        """Stop: end the review under way, if any, and wait until its claim is released."""
        self._closing = True
        worker = self._worker
        if worker is not None and worker.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                worker.terminate()
        await self._idle.wait()


async def _lines(stream: asyncio.StreamReader, into: list[bytes]) -> None:
    """Read ``stream`` to its end, a line at a time, into ``into``."""
    while line := await stream.readline():
        into.append(line)


__all__ = ["ANALYSE_WITHIN_S", "LEASE_S", "NICE", "Analyser", "LostClaim"]

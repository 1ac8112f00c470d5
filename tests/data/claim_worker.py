"""One of several processes due to send the same reminders, for the timer-claim tests.

``python -m tests.data.claim_worker URL GO WORKER [lease]`` opens the store ``URL`` names (a
SQLite file or a PostgreSQL database), creates ``GO`` + ``.ready<WORKER>``, waits until the file
``GO`` exists, then reads the tables whose reminder is due and claims each one with
``set_timers(expected_timers=...)``, printing ``won <table id>`` for each claim that succeeded.
With ``lease``, it claims them as the bot's timer loop does instead: ``claim_timers`` a few at
a time until none is left. Of all the workers exactly one must win each table.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from data import open_store
from data.store import VersionConflict
from tests.data.helpers import NOW

DUE = NOW + 1800


async def main(url: str, go: Path, worker: int, lease: bool) -> None:
    store = open_store(url)
    await store.open()
    try:
        go.with_name(f"{go.name}.ready{worker}").touch()
        while not go.exists():
            time.sleep(0.001)
        won: list[int] = []
        while lease and (found := await store.claim_timers(DUE, f"worker {worker}", 30.0, 3)):
            won.extend(t.id for t in found)
        for table in [] if lease else await store.due_timers(DUE):
            try:
                await store.set_timers(
                    table.id,
                    table.version,
                    table.deadline,
                    DUE + 1800,
                    expected_timers=(table.deadline, table.reminder_at),
                )
            except VersionConflict:
                continue
            won.append(table.id)
        print("\n".join(f"won {t}" for t in won), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), "lease" in sys.argv[4:]))

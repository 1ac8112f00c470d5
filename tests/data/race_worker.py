"""One of several processes racing to play the same game, for the concurrency tests.

``python -m tests.data.race_worker DB TABLE WORKER GO`` works out the whole game from the
table's initial state (every worker finds the same moves: the generator is seeded with the table
id), creates the file ``GO`` + ``.ready<WORKER>``, waits until the file ``GO`` exists, then tries
every move in turn at its expected version, printing ``won <version>`` or ``lost <version>``.
Exactly one worker must win each version.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

from data.sqlite import SqliteStore
from data.store import VersionConflict
from engine import Game
from tests.data.helpers import NOW, random_move


async def main(path: str, table_id: int, worker: int, go: Path) -> None:
    async with SqliteStore(path) as store:
        table = await store.get_table(table_id)
        assert table.initial_state is not None
        game = Game.from_dict(table.initial_state)
        rnd = random.Random(table_id)
        moves = []
        while game.pending is not None:
            seat, action = random_move(game, rnd)
            moves.append((seat, action, game.to_dict(), game.pending is None))
        go.with_name(f"{go.name}.ready{worker}").touch()
        while not go.exists():
            time.sleep(0.001)
        lines = []
        for i, (seat, action, state, over) in enumerate(moves):
            version = table.version + i
            try:
                await store.apply_action(
                    table_id,
                    version,
                    seat=seat,
                    user_id=worker,
                    action=action,
                    state=state,
                    deadline=None,
                    reminder_at=None,
                    now=NOW,
                    status="finished" if over else None,
                )
                lines.append(f"won {version + 1}")
            except VersionConflict:
                lines.append(f"lost {version + 1}")
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])))

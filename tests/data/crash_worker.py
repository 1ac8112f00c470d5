"""A bot stand-in for the crash tests: plays random games through the store until it is killed.

``python -m tests.data.crash_worker DB SEED [GAMES]`` restores the open games from ``DB`` (as the
bot does at start), keeps ``GAMES`` games going at once (one asyncio task each, one store), and
after every ``apply_action`` that returned prints ``committed <table> <version>`` (flushed), so
the test knows exactly which moves were acknowledged before the SIGKILL.
"""

from __future__ import annotations

import asyncio
import random
import sys

from data.sqlite import SqliteStore
from data.store import Table, TableOptions
from engine import Game
from tests.data.helpers import NOW, random_move, seats

MAX_MOVES = 20_000  # a safety stop if nobody kills us


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def keep_playing(
    store: SqliteStore, channel: int, rnd: random.Random, budget: list[int]
) -> None:
    table = await store.open_table_in_channel(channel)
    while budget[0] > 0:
        if table is None or table.status not in ("lobby", "playing"):
            players = rnd.randint(2, 4)
            table = await store.create_table(
                1, channel, 1001, TableOptions(rounds=1), seats(players), NOW
            )
        if table.status == "lobby":
            game = Game.new(len(table.seats), rnd.randrange(1 << 30), fire_die=rnd.random() < 0.5)
            table = await store.start_game(
                table.id, table.version, table.seats, game.to_dict(), None, None, NOW
            )
        assert table.state is not None
        game = Game.from_dict(table.state)
        while game.pending is not None and budget[0] > 0:
            seat, action = random_move(game, rnd)
            over = game.pending is None
            table = await store.apply_action(
                table.id,
                table.version,
                seat=seat,
                user_id=table.seats[seat].user_id,
                action=action,
                state=game.to_dict(),
                deadline=None,
                reminder_at=None,
                now=NOW,
                status="finished" if over else None,
            )
            say(f"committed {table.id} {table.version}")
            budget[0] -= 1
        table = None


async def main(path: str, seed: int, games: int) -> None:
    rnd = random.Random(seed)
    async with SqliteStore(path) as store:
        open_now: list[Table] = await store.open_tables()
        say(f"started with {len(open_now)} open tables")
        budget = [MAX_MOVES]
        await asyncio.gather(
            *(keep_playing(store, ch, random.Random(rnd.random()), budget) for ch in range(games))
        )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 4))

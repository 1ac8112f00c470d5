"""Helpers shared by the data tests and their subprocesses: real engine games through a store."""

from __future__ import annotations

import random
from typing import Any

from data.store import Seat, Store, Table, TableOptions
from engine import Game

NOW = 1_700_000_000.0


def seats(n: int) -> tuple[Seat, ...]:
    """``n`` seats: people with user ids 1001, 1002..., the last one a computer if n > 2."""
    out = [Seat(1001 + i, f"player{i}") for i in range(n)]
    if n > 2:
        out[-1] = Seat(None, "Robot", "easy")
    return tuple(out)


async def start_table(
    store: Store,
    channel_id: int,
    *,
    players: int = 3,
    seed: int = 1,
    guild_id: int = 77,
    **options: Any,
) -> tuple[Table, Game]:
    """A lobby in ``channel_id``, started with a freshly dealt engine game."""
    table = await store.create_table(
        guild_id, channel_id, 1001, TableOptions(rounds=1, **options), seats(players), NOW
    )
    game = Game.new(
        players, seed, curse=options.get("curse", False), fire_die=options.get("fire_die", False)
    )
    table = await store.start_game(
        table.id, table.version, table.seats, game.to_dict(), NOW + 3600, NOW + 1800, NOW
    )
    return table, game


def random_move(game: Game, rnd: random.Random) -> tuple[int, dict[str, Any]]:
    """A random legal move: (the deciding seat, the engine action dict). Applies it to ``game``."""
    assert game.pending is not None
    player = game.pending.player
    action = rnd.choice(game.legal_actions())
    game.apply(action, player)
    return player, action.to_dict()


async def play(
    store: Store, table: Table, game: Game, rnd: random.Random, moves: int | None = None
) -> Table:
    """Play ``moves`` random moves (default: to the end) through ``store.apply_action``."""
    done = 0
    while game.pending is not None and (moves is None or done < moves):
        seat, action = random_move(game, rnd)
        over = game.pending is None
        table = await store.apply_action(
            table.id,
            table.version,
            seat=seat,
            user_id=table.seats[seat].user_id,
            action=action,
            state=game.to_dict(),
            deadline=None if over else NOW + 3600 + done,
            reminder_at=None,
            now=NOW + done,
            status="finished" if over else None,
        )
        done += 1
    return table


async def move(
    store: Store,
    table: Table,
    seat: int | None,
    action: dict[str, Any],
    state: dict[str, Any],
    *,
    user_id: int | None = 1,
    version: int | None = None,
) -> Table:
    """``store.apply_action`` with no timers, at the table's version unless ``version`` is given."""
    return await store.apply_action(
        table.id,
        table.version if version is None else version,
        seat=seat,
        user_id=user_id,
        action=action,
        state=state,
        deadline=None,
        reminder_at=None,
        now=NOW,
    )

"""``python -m data bench``: how fast the SQLite store commits moves, and how fast it starts.

Measured on real database files in a temporary folder:

- committed moves per second and the p50/p99 commit latency (from calling ``apply_action`` to its
  return, i.e. after ``COMMIT``) for one game played move after move, and for 200 games played at
  once (one asyncio task per game, one store);
- database bytes per finished game (state, initial state, action log, results);
- the time to open a database holding 10,000 open games and load them all (``open_tables()``).

The games are real engine games with random legal moves, worked out before the clock starts, so
the figures are the store's own (the bot also spends engine time on each move).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from data.rows import dumps
from data.sqlite import SqliteStore
from data.store import Seat, Table, TableOptions
from engine import Game

NOW = 1_700_000_000.0


@dataclass(frozen=True)
class Script:
    """A game worked out in advance: the dealt state, then (seat, action, state after) per move."""

    players: int
    initial: dict[str, Any]
    moves: list[tuple[int, dict[str, Any], dict[str, Any]]]
    finished: bool


def make_script(seed: int, max_moves: int | None) -> Script:
    """A random game of 2-4 players (with the options varying), up to ``max_moves`` moves."""
    rnd = random.Random(seed)
    players = rnd.randint(2, 4)
    game = Game.new(players, seed, curse=rnd.random() < 0.5, fire_die=rnd.random() < 0.5)
    initial = game.to_dict()
    moves: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    while game.pending is not None and (max_moves is None or len(moves) < max_moves):
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        moves.append((seat, action.to_dict(), game.to_dict()))
    return Script(players, initial, moves, game.pending is None)


def seats_for(players: int, base: int) -> tuple[Seat, ...]:
    return tuple(Seat(base + i, f"player {i}") for i in range(players))


async def start(store: SqliteStore, channel: int, script: Script) -> Table:
    table = await store.create_table(
        1, channel, 1, TableOptions(), seats_for(script.players, channel), NOW
    )
    return await store.start_game(
        table.id, table.version, table.seats, script.initial, NOW + 86400, NOW + 43200, NOW
    )


async def play_script(
    store: SqliteStore,
    table: Table,
    script: Script,
    latencies: list[float],
    pause: tuple[random.Random, float] | None = None,
) -> Table:
    """Apply the script's moves in order, timing each commit; with ``pause=(rnd, mean)``, wait
    a random time (exponential, ``mean`` seconds) before each move, as players think."""
    clock = time.perf_counter
    last = len(script.moves) - 1
    for i, (seat, action, state) in enumerate(script.moves):
        over = script.finished and i == last
        if pause is not None:
            await asyncio.sleep(pause[0].expovariate(1 / pause[1]))
        t0 = clock()
        table = await store.apply_action(
            table.id,
            table.version,
            seat=seat,
            user_id=table.seats[seat].user_id,
            action=action,
            state=state,
            deadline=None if over else NOW + 86400 + i,
            reminder_at=None if over else NOW + 43200 + i,
            now=NOW + i,
            status="finished" if over else None,
        )
        latencies.append(clock() - t0)
    return table


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench_one_game(path: Path, scripts: list[Script], sync: str) -> dict[str, float]:
    latencies: list[float] = []
    async with SqliteStore(path, synchronous=sync) as store:
        t0 = time.perf_counter()
        for i, script in enumerate(scripts):
            table = await start(store, 10 + i, script)
            await play_script(store, table, script, latencies)
        elapsed = time.perf_counter() - t0
    return {
        "actions_per_second_1_game": len(latencies) / elapsed,
        "commit_p50_ms_1_game": pct(latencies, 0.5) * 1000,
        "commit_p99_ms_1_game": pct(latencies, 0.99) * 1000,
    }


async def bench_many_games(path: Path, scripts: list[Script], sync: str) -> dict[str, float]:
    latencies: list[float] = []
    async with SqliteStore(path, synchronous=sync) as store:
        tables = [await start(store, 1000 + i, s) for i, s in enumerate(scripts)]
        t0 = time.perf_counter()
        await asyncio.gather(
            *(play_script(store, t, s, latencies) for t, s in zip(tables, scripts, strict=True))
        )
        elapsed = time.perf_counter() - t0
    n = len(scripts)
    return {
        f"actions_per_second_{n}_games": len(latencies) / elapsed,
        f"commit_p50_ms_{n}_games": pct(latencies, 0.5) * 1000,
        f"commit_p99_ms_{n}_games": pct(latencies, 0.99) * 1000,
        f"commit_max_ms_{n}_games": max(latencies) * 1000,
    }


async def bench_paced(
    path: Path, scripts: list[Script], sync: str, moves_per_s: float
) -> dict[str, float]:
    """The same games, but each moving at random moments: ``moves_per_s`` for all of them
    together, well below what the store can take, so the latency is the commit's own."""
    latencies: list[float] = []
    rnd = random.Random(5)
    mean = len(scripts) / moves_per_s
    async with SqliteStore(path, synchronous=sync) as store:
        tables = [await start(store, 1000 + i, s) for i, s in enumerate(scripts)]
        await asyncio.gather(
            *(
                play_script(store, t, s, latencies, (random.Random(rnd.random()), mean))
                for t, s in zip(tables, scripts, strict=True)
            )
        )
    n = len(scripts)
    return {
        f"paced_moves_per_second_{n}_games": moves_per_s,
        f"commit_p50_ms_{n}_games_paced": pct(latencies, 0.5) * 1000,
        f"commit_p99_ms_{n}_games_paced": pct(latencies, 0.99) * 1000,
    }


def used_bytes(path: Path) -> int:
    """Bytes of the database's pages in use, after moving the WAL into the file."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    return int((pages - free) * size)


async def bench_size(folder: Path, scripts: list[Script]) -> dict[str, float]:
    path = folder / "size.db"
    async with SqliteStore(path):
        pass
    empty = used_bytes(path)
    moves = 0
    async with SqliteStore(path) as store:
        for i, script in enumerate(scripts):
            table = await play_script(store, await start(store, 50 + i, script), script, [])
            await store.end_table(table.id, table.version, "finished", NOW, {"bench": True})
            moves += len(script.moves)
    return {
        "bytes_per_finished_game": (used_bytes(path) - empty) / len(scripts),
        "moves_per_finished_game": moves / len(scripts),
    }


def fill(path: Path, games: int, scripts: list[Script]) -> None:
    """Write ``games`` open games straight into the file (as the store would have): a dealt
    state, some moves in the log, the state after them."""
    rows: list[tuple[Any, ...]] = []
    log: list[tuple[Any, ...]] = []
    for i in range(games):
        script = scripts[i % len(scripts)]
        table_id = i + 1
        seats = dumps([s.to_dict() for s in seats_for(script.players, 10_000 + i)])
        state = script.moves[-1][2] if script.moves else script.initial
        start_version = 2
        version = start_version + len(script.moves)
        rows.append(
            (table_id, 1, 100_000 + i, 1, "playing", "{}", seats, version, dumps(state),
             dumps(script.initial), start_version, NOW + 86400 + i, NOW + 43200 + i, NOW, NOW)
        )  # fmt: skip
        log.extend(
            (table_id, start_version + 1 + k, seat, None, dumps(action), NOW + k)
            for k, (seat, action, _) in enumerate(script.moves)
        )
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, status, options, seats, "
            "version, state, initial_state, start_version, deadline, reminder_at, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany(
            "INSERT INTO actions (table_id, version, seat, user_id, action, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            log,
        )
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def bench_load(folder: Path, games: int, scripts: list[Script]) -> dict[str, float]:
    path = folder / "load.db"
    async with SqliteStore(path):
        pass
    fill(path, games, scripts)
    t0 = time.perf_counter()
    store = SqliteStore(path)
    await store.open()
    tables = await store.open_tables()
    elapsed = time.perf_counter() - t0
    await store.close()
    if len(tables) != games:
        raise RuntimeError(f"loaded {len(tables)} games of {games}")
    moves = sum(len(scripts[i % len(scripts)].moves) for i in range(games))
    return {f"load_{games}_games_s": elapsed, "load_log_rows": moves}


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    rnd = random.Random(args.seed)
    seeds = [rnd.randrange(1 << 30) for _ in range(args.games)]
    report: dict[str, Any] = {"synchronous": args.synchronous}
    with tempfile.TemporaryDirectory(prefix="fp-bench-", dir=args.dir) as tmp:
        folder = Path(tmp)
        whole = [make_script(s, None) for s in seeds[: max(args.finished_games, 4)]]
        report |= await bench_one_game(folder / "one.db", whole[:4], args.synchronous)
        many = [make_script(s, args.moves) for s in seeds]
        # The scripts are the bench's own baggage (hundreds of thousands of objects): keep the
        # garbage collector's full passes over them out of the commit latencies.
        gc.collect()
        gc.freeze()
        report |= await bench_many_games(folder / "many.db", many, args.synchronous)
        paced = [Script(s.players, s.initial, s.moves[:20], False) for s in many]
        report |= await bench_paced(folder / "paced.db", paced, args.synchronous, args.paced)
        del many
        gc.unfreeze()
        report |= await bench_size(folder, whole[: args.finished_games])
        mid = [make_script(s, rnd.randint(5, 60)) for s in seeds[:50]]
        report |= await bench_load(folder, args.load_games, mid)
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", type=int, default=200, help="games played at once (200)")
    parser.add_argument("--moves", type=int, default=60, help="moves per game at once (60)")
    parser.add_argument(
        "--paced",
        type=float,
        default=1000.0,
        help="moves per second of all the games together in the paced run (1000)",
    )
    parser.add_argument(
        "--finished-games",
        type=int,
        default=20,
        help="games played out for the size (20; the file grows by whole pages, so a few "
        "games tell little)",
    )
    parser.add_argument(
        "--load-games", type=int, default=10_000, help="open games loaded at start (10000)"
    )
    parser.add_argument(
        "--synchronous", default="NORMAL", choices=["NORMAL", "FULL"], help="SQLite synchronous"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="folder for the database files")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures; returns the exit status."""
    report = asyncio.run(_bench(args))
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    n = args.games
    print(f"SQLite store, synchronous={report['synchronous']}")
    print(
        f"  1 game:    {report['actions_per_second_1_game']:8.0f} commits/s   "
        f"p50 {report['commit_p50_ms_1_game']:.2f} ms   p99 {report['commit_p99_ms_1_game']:.2f} ms"
    )
    print(
        f"  {n} games: {report[f'actions_per_second_{n}_games']:8.0f} commits/s   "
        f"p50 {report[f'commit_p50_ms_{n}_games']:.2f} ms   "
        f"p99 {report[f'commit_p99_ms_{n}_games']:.2f} ms   "
        f"max {report[f'commit_max_ms_{n}_games']:.2f} ms"
    )
    print(
        f"  {n} games, {report[f'paced_moves_per_second_{n}_games']:.0f} moves/s in all: "
        f"p50 {report[f'commit_p50_ms_{n}_games_paced']:.2f} ms   "
        f"p99 {report[f'commit_p99_ms_{n}_games_paced']:.2f} ms"
    )
    print(
        f"  size:      {report['bytes_per_finished_game']:8.0f} bytes per finished game "
        f"({report['moves_per_finished_game']:.0f} moves on average)"
    )
    g = args.load_games
    print(
        f"  start-up:  {report[f'load_{g}_games_s']:8.2f} s to open and load {g} games "
        f"({report['load_log_rows']} logged moves)"
    )
    return 0

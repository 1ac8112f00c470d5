"""``python bench/store.py [--store sqlite|postgres] [--json]``: how fast a store commits moves,
and how fast it starts.

Measured on real databases (SQLite files in a temporary folder; for PostgreSQL a throwaway
server the bench starts from the system's binaries, or the empty database ``--url`` names):

- committed moves per second and the p50/p99 commit latency (from calling ``apply_action`` to its
  return, i.e. after ``COMMIT``) for one game played move after move, and for 200 games played
  flat out at once (one asyncio task per game, one store);
- the p50/p99 commit latency of 1,000 open games moving at random moments, 1,000 moves a second
  in all;
- database bytes per finished game (state, initial state, action log, results);
- the time to open a database holding 10,000 open games and load them all (``open_tables()``).

The games are real engine games with random legal moves, worked out before the clock starts, so
the figures are the store's own (the bot also spends engine time on each move).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from data import postgres_settings  # noqa: E402
from data.postgres import PostgresStore  # noqa: E402
from data.rows import dumps  # noqa: E402
from data.sqlite import SqliteStore  # noqa: E402
from data.store import Seat, Store, Table, TableOptions  # noqa: E402
from engine import Game  # noqa: E402
from tests.pgserver import PgServer  # noqa: E402

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


async def start(store: Store, channel: int, script: Script) -> Table:
    table = await store.create_table(
        1, channel, 1, TableOptions(), seats_for(script.players, channel), NOW
    )
    return await store.start_game(
        table.id, table.version, table.seats, script.initial, NOW + 86400, NOW + 43200, NOW
    )


async def play_script(
    store: Store,
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


Row = tuple[Any, ...]


@contextlib.asynccontextmanager
async def opened(store: Store) -> AsyncIterator[Store]:
    """The store, open; a PostgreSQL store with every connection of its pool already made (a
    bot's pool is warm long before its thousandth move; the bench times commits, not
    connecting)."""
    await store.open()
    if isinstance(store, PostgresStore):
        await asyncio.gather(*(store.count_rows("tables") for _ in range(store.pool_max * 2)))
    try:
        yield store
    finally:
        await store.close()


class Target:
    """Where the bench's games go: a fresh database per figure, on one backend."""

    name = ""

    def store(self) -> Store:
        """A store object on the current database (not opened)."""
        raise NotImplementedError

    async def fresh(self, label: str) -> None:
        """Start the next figure on an empty database (with the schema)."""
        raise NotImplementedError

    async def used_bytes(self) -> int:
        """Bytes the current database's games take."""
        raise NotImplementedError

    async def fill(self, games: int, scripts: list[Script]) -> None:
        """Write ``games`` open games straight into the database, as the store would have."""
        raise NotImplementedError

    def close(self) -> None:
        """Remove whatever the bench made."""


def open_games(games: int, scripts: list[Script]) -> tuple[list[Row], list[Row], list[Row]]:
    """Rows of ``games`` open games (tables, initial states, action log; JSON as text): a
    dealt state, some moves in the log, the state after them."""
    tables: list[Row] = []
    initial: list[Row] = []
    log: list[Row] = []
    options = dumps(TableOptions().to_dict())
    for i in range(games):
        script = scripts[i % len(scripts)]
        table_id = i + 1
        seats = dumps([s.to_dict() for s in seats_for(script.players, 10_000 + i)])
        state = script.moves[-1][2] if script.moves else script.initial
        start_version = 2
        version = start_version + len(script.moves)
        tables.append(
            (table_id, 1, 100_000 + i, 1, "playing", options, seats, version, dumps(state),
             start_version, NOW + 86400 + i, NOW + 43200 + i, NOW, NOW, table_id)
        )  # fmt: skip
        initial.append((table_id, dumps(script.initial)))
        log.extend(
            (table_id, start_version + 1 + k, seat, None, dumps(action), NOW + k)
            for k, (seat, action, _) in enumerate(script.moves)
        )
    return tables, initial, log


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options, seats, version, state, start_version, "
    "deadline, reminder_at, created_at, updated_at, number"
)


class SqliteTarget(Target):
    """A new SQLite file per figure, in a temporary folder."""

    name = "sqlite"

    def __init__(self, folder: Path, synchronous: str) -> None:
        self.folder = folder
        self.synchronous = synchronous
        self.path = folder / "none.db"

    def store(self) -> Store:
        return SqliteStore(self.path, synchronous=self.synchronous)

    async def fresh(self, label: str) -> None:
        self.path = self.folder / f"{label}.db"
        async with SqliteStore(self.path):
            pass

    async def used_bytes(self) -> int:
        """Bytes of the database's pages in use, after moving the WAL into the file."""
        with sqlite3.connect(self.path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            free = conn.execute("PRAGMA freelist_count").fetchone()[0]
            size = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        return int((pages - free) * size)

    async def fill(self, games: int, scripts: list[Script]) -> None:
        tables, initial, log = open_games(games, scripts)
        with sqlite3.connect(self.path) as conn:
            conn.executemany(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES ({', '.join('?' * 15)})", tables
            )
            conn.executemany("INSERT INTO initial_states (table_id, state) VALUES (?, ?)", initial)
            conn.executemany(
                "INSERT INTO actions (table_id, version, seat, user_id, action, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                log,
            )
            conn.commit()
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()


class PostgresTarget(Target):
    """One PostgreSQL database, emptied before each figure: a throwaway server of the bench's
    own (see :mod:`tests.pgserver`), or the empty database ``--url`` names."""

    name = "postgres"
    _TABLES = (
        "analyses, result_players, results, actions, initial_states, messages, departures, "
        "dm_failures, timer_claims, player_prefs, guild_settings, tables"
    )

    def __init__(self, url: str | None) -> None:
        self.server: PgServer | None = None
        if url is None:
            self.server = PgServer.start()
            url = self.server.create_database("bench")
        self.url = url
        self.settings = postgres_settings(os.environ)

    def store(self) -> Store:
        return PostgresStore(self.url, **self.settings)

    async def _sql(self, *statements: str) -> list[Any]:
        conn = await asyncpg.connect(self.url)
        try:
            out: list[Any] = []
            for sql in statements:
                out = list(await conn.fetch(sql))
            return out
        finally:
            await conn.close()

    async def fresh(self, label: str) -> None:
        async with PostgresStore(self.url, pool_min=1, pool_max=1) as store:
            if label == "first" and await store.count_rows("tables"):
                raise RuntimeError(
                    "the bench needs an empty database: it empties it between its figures"
                )
        await self._sql(f"TRUNCATE {self._TABLES}", "VACUUM FULL", "ANALYZE")

    async def used_bytes(self) -> int:
        """Bytes of the tables, their indexes and their TOAST, compacted (``VACUUM FULL``: the
        row versions moves left behind are space autovacuum gives back to later moves)."""
        rows = await self._sql(
            "VACUUM FULL",
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'",
        )
        return int(rows[0][0])

    async def fill(self, games: int, scripts: list[Script]) -> None:
        tables, initial, log = open_games(games, scripts)
        conn = await asyncpg.connect(self.url)
        try:
            async with conn.transaction():
                await conn.copy_records_to_table(
                    "tables", records=tables, columns=_TABLE_COLUMNS.split(", ")
                )
                await conn.copy_records_to_table(
                    "initial_states", records=initial, columns=["table_id", "state"]
                )
                await conn.copy_records_to_table(
                    "actions",
                    records=log,
                    columns=["table_id", "version", "seat", "user_id", "action", "at"],
                )
            await conn.execute("VACUUM ANALYZE")
        finally:
            await conn.close()

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()


async def bench_one_game(target: Target, scripts: list[Script]) -> dict[str, float]:
    latencies: list[float] = []
    await target.fresh("one")
    async with opened(target.store()) as store:
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


async def bench_many_games(target: Target, scripts: list[Script]) -> dict[str, float]:
    latencies: list[float] = []
    await target.fresh("many")
    async with opened(target.store()) as store:
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
    target: Target, scripts: list[Script], moves_per_s: float
) -> dict[str, float]:
    """Open games each moving at random moments: ``moves_per_s`` for all of them together,
    well below what the store can take, so the latency is the commit's own."""
    latencies: list[float] = []
    rnd = random.Random(5)
    mean = len(scripts) / moves_per_s
    await target.fresh("paced")
    async with opened(target.store()) as store:
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


async def bench_size(target: Target, scripts: list[Script]) -> dict[str, float]:
    await target.fresh("size")
    empty = await target.used_bytes()
    moves = 0
    async with opened(target.store()) as store:
        for i, script in enumerate(scripts):
            table = await play_script(store, await start(store, 50 + i, script), script, [])
            await store.end_table(table.id, table.version, "finished", NOW, {"bench": True})
            moves += len(script.moves)
    return {
        "bytes_per_finished_game": (await target.used_bytes() - empty) / len(scripts),
        "moves_per_finished_game": moves / len(scripts),
    }


async def bench_load(target: Target, games: int, scripts: list[Script]) -> dict[str, float]:
    await target.fresh("load")
    await target.fill(games, scripts)
    t0 = time.perf_counter()
    store = target.store()
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
    seeds = [rnd.randrange(1 << 30) for _ in range(max(args.games, args.paced_games))]
    report: dict[str, Any] = {"store": args.store}
    with tempfile.TemporaryDirectory(prefix="fp-bench-", dir=args.dir) as tmp:
        target: Target
        if args.store == "postgres":
            target = PostgresTarget(args.url)
            report["pool_max"] = target.settings["pool_max"]
        else:
            target = SqliteTarget(Path(tmp), args.synchronous)
            report["synchronous"] = args.synchronous
        try:
            await target.fresh("first")
            whole = [make_script(s, None) for s in seeds[: max(args.finished_games, 4)]]
            report |= await bench_one_game(target, whole[:4])
            many = [make_script(s, args.moves) for s in seeds[: args.games]]
            paced = [make_script(s, args.paced_moves) for s in seeds[: args.paced_games]]
            # The scripts are the bench's own baggage (hundreds of thousands of objects): keep
            # the garbage collector's full passes over them out of the commit latencies.
            gc.collect()
            gc.freeze()
            report |= await bench_many_games(target, many)
            report |= await bench_paced(target, paced, args.paced)
            del many, paced
            gc.unfreeze()
            report |= await bench_size(target, whole[: args.finished_games])
            mid = [make_script(s, rnd.randint(5, 60)) for s in seeds[:50]]
            report |= await bench_load(target, args.load_games, mid)
        finally:
            target.close()
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--store", default="sqlite", choices=["sqlite", "postgres"], help="backend (sqlite)"
    )
    parser.add_argument(
        "--url",
        default=None,
        help="postgres: an EMPTY database to use (it is emptied between figures); default: a "
        "throwaway server of the bench's own, from the system's PostgreSQL binaries",
    )
    parser.add_argument("--games", type=int, default=200, help="games played flat out (200)")
    parser.add_argument("--moves", type=int, default=60, help="moves per game flat out (60)")
    parser.add_argument(
        "--paced-games", type=int, default=1000, help="open games in the paced run (1000)"
    )
    parser.add_argument(
        "--paced-moves", type=int, default=20, help="moves per game in the paced run (20)"
    )
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
    parser.add_argument("--dir", default=None, help="folder for the SQLite files")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures; returns the exit status."""
    report = asyncio.run(_bench(args))
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    n, p = args.games, args.paced_games
    if args.store == "sqlite":
        print(f"SQLite store, synchronous={report['synchronous']}")
    else:
        print(f"PostgreSQL store, a pool of up to {report['pool_max']} connections")
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
        f"  {p} games, {report[f'paced_moves_per_second_{p}_games']:.0f} moves/s in all: "
        f"p50 {report[f'commit_p50_ms_{p}_games_paced']:.2f} ms   "
        f"p99 {report[f'commit_p99_ms_{p}_games_paced']:.2f} ms"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python bench/store.py", description=(__doc__ or "").split("\n")[0]
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

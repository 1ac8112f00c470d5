"""Records figures on a server with 100,000 finished matches, on SQLite and on PostgreSQL.

    python bench/records.py                       # both stores, 100,000 matches, a table
    python bench/records.py --store sqlite --matches 20000 --json

The history is generated in bulk (finished tables with their results, 2 to 4 seats among
``--players`` people and the three computer levels, some mayhem in their facts), rated by the
recomputation, then measured as a player meets it:

- rating update: a real match (played with random legal moves through the store) rated as it
  ends, replay of its log included;
- ``/fp stats``: one player's record, rank and favourite opening; then the same with its card
  drawn (``stats_with_card``: what the player waits for, Discord's round trip aside);
- leaderboard page: a page of ten from the index; then the same with its card;
- history: the server's and one player's latest five matches;
- replay: a step of a 400-move match built from the log (engine only, then with its picture),
  and the animated summary (build time and size).

Medians (and the worst) over ``--samples`` tries, in milliseconds. No figure is asserted: they
depend on the machine. Cards and pictures are drawn in English: they are timed, never read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.records.replay import MatchReplay  # noqa: E402
from bot.show import recordtexts as show  # noqa: E402
from data import open_store  # noqa: E402
from data.records import Records, SeatFacts, records_for  # noqa: E402
from data.rows import dumps  # noqa: E402
from data.store import LoggedAction, Seat, Store, TableOptions  # noqa: E402
from engine import Game  # noqa: E402
from i18n import ENGLISH  # noqa: E402
from render import render_turn  # noqa: E402
from render.account import narrate  # noqa: E402
from render.records import render_card  # noqa: E402
from render.summary import Moment, render_summary  # noqa: E402
from render.tilesleft import TilesLeft  # noqa: E402

GUILD = 424242
T0 = 1_700_000_000.0
TILES = ("R40", "Y30", "B20", "G10", "R6", "Y4", "B2", "G2")


def seats_of(rnd: random.Random, players: int) -> list[Seat]:
    n = rnd.choice((2, 3, 3, 4))
    chosen = rnd.sample(range(players), n)
    out = [Seat(10_000 + p, f"Player {p}") for p in chosen]
    if rnd.random() < 0.3:
        level = rnd.choice(("easy", "normal", "hard"))
        out[-1] = Seat(None, f"Computer {n}", level)
    return out


def generated_rows(
    matches: int, players: int, first_id: int
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Rows of ``tables``, ``results`` and ``result_players`` for ``matches`` finished matches,
    rated in order (``rated_seq``), with facts."""
    rnd = random.Random(7)
    tables, results, players_rows = [], [], []
    for i in range(matches):
        tid = first_id + i
        at = T0 + 60 * i
        seats = seats_of(rnd, players)
        totals = [rnd.randrange(0, 15) for _ in seats]
        best = min(totals)
        winners = [k for k, t in enumerate(totals) if t == best]
        seats_json = dumps([s.to_dict() for s in seats])
        facts = {
            "seats": [
                SeatFacts(
                    total=t,
                    collapses=rnd.randrange(3),
                    fires=rnd.randrange(2),
                    explosions=rnd.randrange(2),
                    curses=rnd.randrange(2),
                    tiles_taken=rnd.randrange(6),
                    cursed=rnd.randrange(2),
                    opening=rnd.choice(TILES),
                ).to_dict()
                for t in totals
            ],
            "moves": 60,
        }
        tables.append(
            (tid, GUILD, 5000 + i % 20, 10_000, "finished", "{}", seats_json, 10, at, at, i + 1)
        )
        results.append(
            (tid, GUILD, 5000 + i % 20, at, seats_json, dumps(totals), dumps(winners), "{}",
             i + 1, dumps(facts))
        )  # fmt: skip
        for k, s in enumerate(seats):
            players_rows.append((tid, k, s.user_id, s.name, s.ai, totals[k], int(k in winners)))
    return tables, results, players_rows


TABLE_COLS = (
    "id, guild_id, channel_id, host_id, status, options, seats, version, created_at, updated_at, "
    "number"
)
RESULT_COLS = (
    "table_id, guild_id, channel_id, finished_at, seats, scores, winners, data, rated_seq, facts"
)
PLAYER_COLS = "table_id, seat, user_id, name, ai, score, won"


async def fill(store: Store, url: str, matches: int, players: int) -> None:
    tables, results, players_rows = generated_rows(matches, players, 1_000_000)
    if url.startswith("sqlite"):
        from data.sqlite import SqliteStore

        assert isinstance(store, SqliteStore)

        def op(conn: Any) -> None:
            for name, cols, rows in (
                ("tables", TABLE_COLS, tables),
                ("results", RESULT_COLS, results),
                ("result_players", PLAYER_COLS, players_rows),
            ):
                marks = ", ".join("?" * len(cols.split(", ")))
                conn.executemany(f"INSERT INTO {name} ({cols}) VALUES ({marks})", rows)
            conn.execute(
                "INSERT INTO rating_seqs (guild_id, seq) VALUES (?, ?)", (GUILD, len(results))
            )

        await store._db.write(op)
    else:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction():
                await conn.copy_records_to_table(
                    "tables",
                    records=[(*t[:5], "{}", t[6], *t[7:]) for t in tables],
                    columns=TABLE_COLS.split(", "),
                )
                await conn.copy_records_to_table(
                    "results", records=results, columns=RESULT_COLS.split(", ")
                )
                await conn.copy_records_to_table(
                    "result_players",
                    records=[(*p[:6], bool(p[6])) for p in players_rows],
                    columns=PLAYER_COLS.split(", "),
                )
                await conn.execute(
                    "INSERT INTO rating_seqs (guild_id, seq) VALUES ($1, $2)", GUILD, len(results)
                )
            await conn.execute("ANALYZE")
        finally:
            await conn.close()


async def real_match(store: Store, channel: int, seed: int) -> int:
    """A 3-player match played to the end through the store (random legal moves)."""
    rnd = random.Random(seed)
    seats = (Seat(10_001, "Player 1"), Seat(10_002, "Player 2"), Seat(None, "Computer 3", "hard"))
    table = await store.create_table(GUILD, channel, 10_001, TableOptions(curse=True), seats, T0)
    game = Game.new(3, seed, curse=True)
    table = await store.start_game(table.id, table.version, seats, game.to_dict(), None, None, T0)
    while game.pending is not None:
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        over = game.pending is None
        table = await store.apply_action(
            table.id, table.version, seat=seat, user_id=seats[seat].user_id,
            action=action.to_dict(), state=game.to_dict(), deadline=None, reminder_at=None,
            now=time.time(), status="finished" if over else None,
        )  # fmt: skip
    await store.end_table(
        table.id, table.version, "finished", time.time(),
        {"scores": list(game.scores), "winners": game.winners()},
    )  # fmt: skip
    return table.id


def long_match(moves: int) -> tuple[dict[str, Any], list[LoggedAction]]:
    """A match of at least ``moves`` log entries (6 players, several rounds, random play)."""
    for seed in range(1, 200):
        rnd = random.Random(seed)
        game = Game.new(6, seed, curse=True, fire_die=True, rounds=10)
        initial = game.to_dict()
        log: list[LoggedAction] = []
        while game.pending is not None or not game.match_over:
            if game.pending is None:
                from engine import NextRound

                action: Any = NextRound()
                seat = None
            else:
                seat = game.pending.player
                action = rnd.choice(game.legal_actions())
            game.apply(action, seat)
            log.append(LoggedAction(1, len(log) + 2, seat, None, action.to_dict(), T0))
            if len(log) >= moves and game.pending is not None and game.pending.kind == "play":
                break
        if len(log) >= moves:
            return initial, log
    raise RuntimeError("no seed gave a match that long")


def ms(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(samples) * 1000, 2),
        "max_ms": round(max(samples) * 1000, 2),
    }


async def timed(fn: Callable[[], Awaitable[Any]], samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        t = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t)
    return out


async def stats_with_card(rec: Records, key: str) -> None:
    """``/fp stats`` as its player waits for it: the record, then its card drawn off the loop."""
    stats = await rec.player_stats(GUILD, key)
    if stats is not None:
        title, rows = show.stats_title(stats, ENGLISH), show.stats_rows(stats, ENGLISH)
        await asyncio.to_thread(render_card, title, rows, "Flaming Pyramids")


async def board_with_card(rec: Records, offset: int) -> None:
    """A leaderboard page as its reader waits for it: the page, then its card."""
    board = await rec.leaderboard(GUILD, offset, 10)
    if board.entries:
        title, rows = show.board_title(board, ENGLISH), show.board_rows(board, lang=ENGLISH)
        await asyncio.to_thread(render_card, title, rows, show.board_subtitle(ENGLISH))


async def measure(url: str, matches: int, players: int, samples: int) -> dict[str, Any]:
    store = open_store(url)
    await store.open()
    try:
        rec = records_for(store)
        t = time.perf_counter()
        await fill(store, url, matches, players)
        filled = time.perf_counter() - t
        t = time.perf_counter()
        applied = await rec.recompute(GUILD)
        recomputed = time.perf_counter() - t
        rng = random.Random(3)
        rating: list[float] = []
        for i in range(samples):
            tid = await real_match(store, 9000 + i, 100 + i)
            t = time.perf_counter()
            assert await rec.rate_match(tid)
            rating.append(time.perf_counter() - t)
        keys = [f"u:{10_000 + rng.randrange(players)}" for _ in range(samples)]
        it = iter(keys * 2)
        stats = await timed(lambda: rec.player_stats(GUILD, next(it)), samples)
        stats_card = await timed(lambda: stats_with_card(rec, next(it)), samples)
        pages = iter(range(samples * 2))
        board = await timed(lambda: rec.leaderboard(GUILD, 10 * (next(pages) % 10), 10), samples)
        board_card = await timed(lambda: board_with_card(rec, 10 * (next(pages) % 10)), samples)
        history = await timed(lambda: rec.history(GUILD, None, 5), samples)
        mine = await timed(lambda: rec.history(GUILD, 10_000 + rng.randrange(players), 5), samples)
        top = await rec.leaderboard(GUILD, 0, 1)
    finally:
        await store.close()
    return {
        "matches": applied,
        "fill_s": round(filled, 1),
        "recompute_s": round(recomputed, 1),
        "rating_update": ms(rating),
        "stats": ms(stats),
        "stats_with_card": ms(stats_card),
        "leaderboard_page": ms(board),
        "leaderboard_page_with_card": ms(board_card),
        "history_server": ms(history),
        "history_player": ms(mine),
        "top_player": top.entries[0].name if top.entries else None,
    }


def replay_figures(moves: int, samples: int) -> dict[str, Any]:
    initial, log = long_match(moves)
    t = time.perf_counter()
    replay = MatchReplay(initial, log)
    built = time.perf_counter() - t
    rnd = random.Random(5)
    steps = [rnd.randrange(replay.count) for _ in range(samples)]
    engine_times, picture_times = [], []
    names = [f"Player {i}" for i in range(replay.players)]
    for i in steps:
        t = time.perf_counter()
        step = replay.step(i)
        engine_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        if step.before is not None:
            render_turn(step.before, list(step.events), step.after, names, lang=ENGLISH)
        picture_times.append(time.perf_counter() - t)
    moments = [replay.step(i) for i in replay.moments(14)]
    frames = [
        Moment(
            m.after,
            f"Step {m.index + 1}",
            narrate(m.events, names, ENGLISH, viewer=None) or "The deal",
        )
        for m in moments
    ]
    end = moments[-1]
    if end.hands is not None and end.piles is not None:
        left = tuple(TilesLeft(h, p) for h, p in zip(end.hands, end.piles, strict=True))
        frames.append(Moment(end.after, "Tiles left", "Every player's tiles.", left))
    t = time.perf_counter()
    gif = render_summary(frames, names, lang=ENGLISH)
    summary_s = time.perf_counter() - t
    return {
        "moves": len(log),
        "steps": replay.count,
        "replay_built_ms": round(built * 1000, 1),
        "step_engine": ms(engine_times),
        "step_with_picture": ms([a + b for a, b in zip(engine_times, picture_times, strict=True)]),
        "summary_frames": len(frames),
        "summary_s": round(summary_s, 2),
        "summary_bytes": len(gif),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/records.py", description=__doc__.split("\n")[0])
    p.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    p.add_argument("--matches", type=int, default=100_000)
    p.add_argument("--players", type=int, default=300, help="people in the server")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--moves", type=int, default=400, help="log entries of the replayed match")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out: dict[str, Any] = {}

    def shown(section: str, figures: dict[str, Any]) -> None:
        out[section] = figures
        if not args.json:
            print(f"{section}:")
            for key, value in figures.items():
                print(f"  {key}: {value}")
            sys.stdout.flush()

    shown("replay", replay_figures(args.moves, args.samples))
    with tempfile.TemporaryDirectory() as tmp:
        if args.store in ("sqlite", "both"):
            url = f"sqlite:///{Path(tmp) / 'records.db'}"
            shown("sqlite", asyncio.run(measure(url, args.matches, args.players, args.samples)))
        if args.store in ("postgres", "both"):
            from tests.pgserver import PgServer

            server = PgServer.start()
            try:
                url = server.create_database("records")
                shown(
                    "postgres",
                    asyncio.run(measure(url, args.matches, args.players, args.samples)),
                )
            finally:
                server.stop()
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

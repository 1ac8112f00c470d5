"""Load test: N tables playing whole games at once, through clicks, against the local fake Discord.

The bot runs as ``python -m bot`` in its own process (so it does not share a core with the fake);
this process runs the fake Discord and the simulated players. Every table has three players who
open the table with ``/fp new``, join, start, and then play to the end: each decision is made
after a short "think time" by clicking the buttons a person would click (a tile in their hand by
direct message, which turns that screen into the spot step, then a spot; a fall direction; Done
on the turn played, which waits for it through the table's undo window).

It prints interactions per second, the time from a click to its acknowledgement and from a
decisive click (the spot, the fall) to the next picture in the game's thread (p50/p95/p99), REST
calls per move, errors, the peak memory and CPU time of the bot's process, and the CPU time of
the turning points' reviews it ran for the games that finished while the others played
(``turning_points_cpu_s``: those of the last games start after the run; the bot's other work is
all in its own process; ``--turning-points off`` runs none). ``--json``
prints one JSON object instead. ``--rate-limits`` makes the fake apply Discord's default budget (50
requests per second globally, per-route buckets, and one bucket per channel for creating and editing
messages, 5 per 5 seconds). The fake checks every payload as Discord does: ``refused_payloads``
counts what it refused (each one is also an error).

``--processes N --store postgres`` runs the bot as N processes over one PostgreSQL database (a
throwaway server started for the run), as a sharded bot runs: ``max(N, 4)`` shards split among
them in runs of consecutive ids, the first process taking the odd ones (2/1/1 for three), one
server per shard with the tables dealt round them. Hands by direct message, and so most clicks,
reach the process of shard 0, as on Discord. The figures then add each process's CPU time and
peak memory (``bot_cpu_s`` and ``bot_peak_rss_mib`` being their sums), the PostgreSQL server's
CPU time, and the 429 answers split into the global limit's
(``global_429``, shared by every process of the bot) and the per-route buckets' (``route_429``).

A run's length is set by its longest game (think time times decisions). ``kill -USR1 <pid>``
prints to standard error how many tables finished and where each other table waits.

    python bench/load.py --tables 200
    python bench/load.py --tables 200 --rate-limits --json
    python bench/load.py --processes 3 --store postgres --tables 1000 --rate-limits

Games are dealt from a short starting position (two tiles in hand, one in the pile) so that
each one lasts about ten decisions; ``--deal seeded`` deals full 45-tile games instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, Message, Sharding  # noqa: E402
from tests.fakediscord.models import Channel, Interaction  # noqa: E402
from tests.pgserver import PgServer  # noqa: E402

MENTION = re.compile(r"<@!?(\d+)>")
TIMEOUT = 120.0

SHORT_DEAL: dict[str, Any] = {
    # Found by playing random legal moves with the engine over many small deals: about ten
    # decisions on average, at most about twenty.
    "players": 3,
    "pyramid": {"0,0": "G4", "0,2": "R40", "0,4": "M200", "0,6": "Y60"},
    "hands": [["R10", "G2"], ["B30", "B120"], ["R60", "G10"]],
    "piles": [["R2"], ["G40"], ["G30"]],
    "active": 0,
}


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


class Watch:
    """Wake-ups by channel: the fake's message creation and edits set the events registered for
    that channel (a table's channel and its players' DMs), so hundreds of waiting players do not
    all wake at every change of the fake's state."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.events: dict[int, list[asyncio.Event]] = defaultdict(list)
        self.created_at: dict[int, float] = {}
        state = fake.state
        create, edit = state.create_message, state.edit_message
        loop = asyncio.get_running_loop()

        def create_message(channel: Channel, *args: Any, **kwargs: Any) -> Message:
            msg = create(channel, *args, **kwargs)
            self.created_at[msg.id] = loop.time()
            for event in self.events.get(channel.id, ()):
                event.set()
            return msg

        def edit_message(msg: Message, *args: Any, **kwargs: Any) -> Message:
            out = edit(msg, *args, **kwargs)
            for event in self.events.get(msg.channel.id, ()):
                event.set()
            return out

        state.create_message = create_message  # type: ignore[method-assign]
        state.edit_message = edit_message  # type: ignore[method-assign]

    def register(self, event: asyncio.Event, *channel_ids: int) -> None:
        for cid in channel_ids:
            self.events[cid].append(event)

    @staticmethod
    async def until(
        event: asyncio.Event, predicate: Any, what: str, timeout: float = TIMEOUT
    ) -> Any:
        """Wait until ``predicate()`` is truthy, re-checking it whenever ``event`` is set."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            event.clear()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.5))


@dataclass
class Stats:
    """What the simulated players measured."""

    to_picture: list[float] = field(default_factory=list)
    move_times: list[float] = field(default_factory=list)
    moves: int = 0
    hands_by_button: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    play_started: float | None = None
    play_ended: float = 0.0


def is_picture(m: Message, bot_id: int) -> bool:
    return (
        m.author.id == bot_id
        and m.ephemeral_for is None
        and any(a.filename in ("pyramid.png", "pyramid.gif") for a in m.attachments)
    )


def buttons_with(m: Message, action: str) -> list[str]:
    return [b["label"] for b in m.buttons() if f":{action}:" in (b.get("custom_id") or "")]


class LoadTable:
    """Three simulated players at one table."""

    def __init__(
        self,
        fake: FakeDiscord,
        watch: Watch,
        channel: Channel,
        users: list[FakeUser],
        stats: Stats,
        think: float,
        rng: random.Random,
    ) -> None:
        self.fake = fake
        self.watch = watch
        self.channel = channel
        self.users = {u.id: u for u in users}
        self.host = users[0]
        self.stats = stats
        self.think = think
        self.rng = rng
        self.table_id: int | None = None
        self.place_id = channel.id  # the game's thread once it has one
        self.bot_id = fake.bot.id
        self.event = asyncio.Event()
        dms = [fake.state.dm_channel(u.account).id for u in users]
        watch.register(self.event, channel.id, *dms)

    def until(self, predicate: Any, what: str, timeout: float = TIMEOUT) -> Any:
        return self.watch.until(self.event, predicate, what, timeout)

    def messages(self, channel_id: int) -> list[Message]:
        return self.fake.state.channel_messages.get(channel_id, [])

    def newest_game(self, newer_than: int) -> Message | None:
        for m in reversed(self.messages(self.place_id)):
            if m.id <= newer_than:
                return None
            if is_picture(m, self.bot_id):
                return m
        return None

    async def pause(self) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def click(self, user: FakeUser, message: Message, label: str) -> Interaction:
        ix = await user.click(message, label, timeout=TIMEOUT)
        await ix.wait_acknowledged(TIMEOUT)
        return ix

    async def run(self) -> None:
        try:
            await self._run()
        except Exception as err:  # reported, not raised: the other tables go on
            self.stats.errors.append(f"{self.channel.name}: {type(err).__name__}: {err}")

    async def _run(self) -> None:
        ix = await self.host.slash("fp new", self.channel)
        await ix.wait_acknowledged(TIMEOUT)

        def lobby() -> Message | None:
            for m in reversed(self.messages(self.channel.id)):
                lobby_menu = any(
                    str(s.get("custom_id") or "").startswith("fps:") for s in m.selects()
                )
                if m.author.id == self.bot_id and lobby_menu:
                    return m
            return None

        msg: Message = await self.until(lobby, "the lobby")
        for user in list(self.users.values())[1:]:
            before = len(msg.revisions)
            await self.click(user, msg, "Join")
            await self.until(lambda b=before: len(msg.revisions) > b, "the lobby update")
        await self.click(self.host, msg, "Start")
        thread = await self.until(lambda: msg.thread, "the game's thread")
        self.watch.register(self.event, thread.id)
        self.place_id = thread.id
        if self.stats.play_started is None:
            self.stats.play_started = time.perf_counter()
        game = await self.next_game(0)
        while "The match is over" not in game.content:
            game = await self.decide(game)
        self.stats.finished += 1
        self.stats.play_ended = time.perf_counter()

    async def next_game(self, newer_than: int) -> Message:
        """The newest picture message that asks a person to decide (or ends the match)."""

        def ready() -> Message | None:
            m = self.newest_game(newer_than)
            if m is None:
                return None
            if "The match is over" in m.content or MENTION.search(m.content):
                return m
            return None

        found: Message = await self.until(ready, "a picture")
        return found

    def dm_hand(self, user: FakeUser) -> Message | None:
        """The newest hand of this table in the user's DMs."""
        dm = self.fake.state.dm_channels.get(user.id)
        if dm is None or self.table_id is None:
            return None
        prefix = f"fp:{self.table_id}:"
        for m in reversed(self.messages(dm.id)):
            ours = any((b.get("custom_id") or "").startswith(prefix) for b in m.buttons())
            if ours and buttons_with(m, "play"):
                return m
        return None

    async def button_hand(self, user: FakeUser, game: Message) -> Message:
        """The hand through the My hand button (when no DM came, or it was out of date)."""
        self.stats.hands_by_button += 1
        ix = await self.click(user, game, "My hand")
        found: Message = await self.until(
            lambda: next((m for m in ix.followups if not m.loading), None), "My hand"
        )
        return found

    async def decide(self, game: Message) -> Message:
        if self.table_id is None:
            for b in game.buttons():
                cid = b.get("custom_id") or ""
                if cid.startswith("fp:"):
                    self.table_id = int(cid.split(":")[1])
        found = MENTION.search(game.content)
        assert found, f"nobody to decide: {game.content!r}"
        user = self.users[int(found.group(1))]
        await self.pause()
        if "Fall left" in game.labels():
            revisions = len(game.revisions)
            ix = await self.click(user, game, self.rng.choice(["Fall left", "Fall right"]))
            return await self.measured(ix, game, revisions)
        try:
            hand = await self.until(lambda: self.dm_hand(user), "a hand by DM", timeout=3.0)
        except TimeoutError:  # not delivered (yet): a person would press My hand
            hand = await self.button_hand(user, game)
        for _ in range(3):
            # The tile turns this same screen into the spot step (or, if the hand was out of
            # date, into the newest hand); the spot is then pressed on it.
            tiles = buttons_with(hand, "play")
            if not tiles:
                raise AssertionError(
                    f"{user.name} has no tile to press: {hand.content!r} {hand.labels()}; "
                    f"table: {game.content!r} {game.labels()}"
                )
            try:
                ix = await self.click(user, hand, self.rng.choice(tiles))
            except AssertionError:  # the hand message was replaced under the click
                hand = await self.button_hand(user, game)
                continue
            # The answer to the tile is an edit through the click's token (a hand edited by
            # the bot meanwhile for another reason is not it).
            answer = await self.until(
                lambda i=ix: next(iter(i.edited or i.followups), None), "the spot step"
            )
            hand = answer
            spots = buttons_with(hand, "spot")
            if spots:
                await self.pause()
                ix = await self.click(user, hand, self.rng.choice(spots))
                return await self.measured(ix, game)
        raise AssertionError(f"{user.name} could not play: {hand.content!r}")

    async def measured(
        self, ix: Interaction, game: Message, revisions: int | None = None
    ) -> Message:
        """Wait for the decision's picture: a new message, or for a fall (``revisions``: the
        turn's message had that many revisions when clicked) that same message edited."""

        def shown() -> tuple[Message, float] | None:
            picture = self.newest_game(game.id)
            if picture is not None:
                return picture, self.watch.created_at.get(picture.id, ix.created_at)
            if revisions is not None and len(game.revisions) > revisions:
                return game, game.revisions[revisions].at
            # A fall after the player's own placement is asked on the screen they clicked
            # (the thread shows the turn once it is done).
            screen = next(iter(ix.edited or ix.followups), None)
            if screen is not None and not screen.loading and buttons_with(screen, "fall"):
                return screen, -1.0
            # The turn played waits there for Undo or Done (the table's undo window).
            if screen is not None and not screen.loading and buttons_with(screen, "done"):
                return screen, -2.0
            return None

        picture, at = await self.until(shown, "the next picture")
        if at == -2.0:  # Done: the turn is handed on now (measured from this click)
            done = buttons_with(picture, "done")[0]
            return await self.measured(
                await self.click(self.users[ix.user.id], picture, done), game
            )
        if at < 0:  # the fall, on the player's own screen
            await self.pause()
            user = ix.user
            nxt = await self.click(
                self.users[user.id], picture, self.rng.choice(buttons_with(picture, "fall"))
            )
            return await self.measured(nxt, game)
        self.stats.to_picture.append(at - ix.created_at)
        self.stats.move_times.append(at)
        self.stats.moves += 1
        if picture is game:
            return await self.next_game(game.id - 1)
        return await self.next_game(game.id)


def peak_rate(times: list[float], window: float = 10.0) -> float:
    """The most events per second seen in any ``window``-second stretch."""
    ordered = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(ordered):
        while ordered[lo] < t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best / window


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (0 if unknown)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot_memory(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of a process in KiB, from /proc (0 if unknown)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    values = dict(
        (line.split(":")[0], int(line.split()[1])) for line in text.splitlines() if "kB" in line
    )
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def children(pid: int) -> list[int]:
    """The child processes of ``pid``."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def ended_children_cpu(pid: int) -> float:
    """CPU time of a process's children that ended (the bot's turning points reviews)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds_with_children(pid: int) -> float:
    """CPU time of a process, of its children that ended, and of its living children (a
    PostgreSQL server: the postmaster and its backends); 0 if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ended = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return cpu_seconds(pid) + ended + sum(cpu_seconds(c) for c in children(pid))


def shard_split(processes: int) -> tuple[int, list[str]]:
    """``SHARD_COUNT`` and each process's ``SHARD_IDS`` for ``processes`` processes: at least
    four shards, consecutive ids per process, the first processes taking one more shard when
    they do not divide evenly (so the first one, which runs shard 0 and every direct message,
    is never the smallest).

    >>> shard_split(3)
    (4, ['0-1', '2', '3'])
    >>> shard_split(2)
    (4, ['0-1', '2-3'])
    >>> shard_split(5)
    (5, ['0', '1', '2', '3', '4'])
    """
    count = max(processes, 4)
    base, extra = divmod(count, processes)
    ids: list[str] = []
    first = 0
    for i in range(processes):
        n = base + (1 if i < extra else 0)
        last = first + n - 1
        ids.append(str(first) if n == 1 else f"{first}-{last}")
        first = last + 1
    return count, ids


@dataclass
class BotRun:
    """One bot process of the run, with what was measured of it."""

    shard_ids: str | None
    proc: BotProcess
    peak_kib: int = 0
    writers_peak_kib: int = 0
    cpu0: float = 0.0
    writers: list[int] = field(default_factory=list)
    writers_cpu0: float = 0.0
    reviews_cpu0: float = 0.0

    @property
    def pid(self) -> int:
        return self.proc.pid or 0

    def sample(self) -> None:
        self.peak_kib = max(self.peak_kib, bot_memory(self.pid)[1])
        self.writers_peak_kib = max(
            self.writers_peak_kib, sum(bot_memory(c)[1] for c in children(self.pid))
        )

    def start_clock(self) -> None:
        self.writers = children(self.pid)
        self.cpu0 = cpu_seconds(self.pid)
        self.writers_cpu0 = sum(cpu_seconds(c) for c in self.writers)
        self.reviews_cpu0 = ended_children_cpu(self.pid)

    def reviews_cpu(self) -> float:
        """CPU seconds of the turning points' reviews that ended since :meth:`start_clock`."""
        return ended_children_cpu(self.pid) - self.reviews_cpu0

    def cpu(self) -> tuple[float, float]:
        """CPU seconds since :meth:`start_clock`: the process's, its writer processes'."""
        writers = sum(cpu_seconds(c) for c in self.writers) - self.writers_cpu0
        return cpu_seconds(self.pid) - self.cpu0, writers


async def start_bots(
    fake: FakeDiscord, env: dict[str, str], processes: int, shard_count: int | None
) -> list[BotRun]:
    """Start the bot's processes and wait until every shard is connected and the commands are
    registered."""
    module = os.environ.get("FP_LOAD_BOT_MODULE", "bot")
    if shard_count is None:
        proc = BotProcess(fake, module, env=env, cwd=REPO)
        await proc.start(timeout=60)
        bots = [BotRun(None, proc)]
    else:
        _, ids = shard_split(processes)
        bots = [
            BotRun(i, BotProcess(fake, module, env=dict(env, SHARD_IDS=i), cwd=REPO)) for i in ids
        ]
        await asyncio.gather(*(b.proc.start(wait_ready=False) for b in bots))
        every = {(i, shard_count) for i in range(shard_count)}

        def connected() -> bool:
            for b in bots:
                if not b.proc.running:
                    raise RuntimeError(f"bot process {b.shard_ids} ended:\n{b.proc.output}")
            return {s.shard_key for s in fake.gateway.connected_sessions} == every

        await fake.wait_for(connected, 60.0, "every shard connected")
    await fake.wait_for_commands("fp", timeout=60)
    return bots


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="fp-load-"))
    pg: PgServer | None = None
    if args.store == "postgres":
        pg = await asyncio.to_thread(PgServer.start)
    try:
        return await run_with(args, tmp, pg)
    finally:
        if pg is not None:
            await asyncio.to_thread(pg.stop)


async def run_with(args: argparse.Namespace, tmp: Path, pg: PgServer | None) -> dict[str, Any]:
    sharded = args.processes > 1
    shard_count = shard_split(args.processes)[0] if sharded else None
    sharding = Sharding(recommended_shards=shard_count) if shard_count else None
    fake = FakeDiscord(rate_limits=bool(args.rate_limits), sharding=sharding)
    await fake.start()
    watch = Watch(fake)
    if shard_count is None:
        guilds = [fake.create_guild("Load test")]
    else:
        # One server per shard, the tables dealt round them: every process hosts tables, and
        # the hands by direct message of all of them are clicked in shard 0's process.
        guilds = [
            fake.create_guild(f"Load test {s}", shard=(s, shard_count)) for s in range(shard_count)
        ]
    rng = random.Random(args.seed)
    guild_of = [guilds[i % len(guilds)] for i in range(args.tables)]
    channels = [fake.create_text_channel(guild_of[i], f"table-{i}") for i in range(args.tables)]
    players = [
        [fake.create_user(f"p{i}{c}", guilds=[guild_of[i]]) for c in "abc"]
        for i in range(args.tables)
    ]
    env = {
        "DATABASE_URL": f"sqlite:///{tmp / 'load.db'}",
        "LOG_LEVEL": "WARNING",
        "FP_TEST_MODE": "1",
        "FP_AI_TIME_BUDGET": "0.05",
        "TURNING_POINTS": args.turning_points,
    }
    if pg is not None:
        env["DATABASE_URL"] = await asyncio.to_thread(pg.create_database, "load")
    if shard_count is not None:
        env["SHARD_COUNT"] = str(shard_count)
    if args.deal == "short":
        (tmp / "deal.json").write_text(json.dumps(SHORT_DEAL))
        env["FP_TEST_STATE_FILE"] = str(tmp / "deal.json")
    bots = await start_bots(fake, env, args.processes, shard_count)
    pg_pid = pg.process.pid if pg is not None and pg.process is not None else None

    def sample() -> None:
        for b in bots:
            b.sample()

    async def sample_memory() -> None:
        while True:
            sample()
            await asyncio.sleep(1.0)

    sampler = asyncio.create_task(sample_memory())
    stats = Stats()
    first_request = len(fake.requests)
    first_interaction = len(fake.interactions)
    first_hit = len(fake.limiter.hits) if fake.limiter is not None else 0
    tables = [
        LoadTable(
            fake, watch, channels[i], players[i], stats, args.think, random.Random(rng.random())
        )
        for i in range(args.tables)
    ]

    async def staggered(i: int, table: LoadTable) -> None:
        await asyncio.sleep(args.ramp * i / max(1, args.tables))
        await table.run()

    running: list[asyncio.Task[None]] = []

    def report_waits() -> None:
        # kill -USR1 <pid>: where each unfinished table waits, for a run that seems stuck.
        print(f"{stats.finished} tables finished, {stats.moves} moves", file=sys.stderr)
        for i, task in enumerate(running):
            if task.done():
                continue
            where: list[str] = []
            coro: Any = task.get_coro()
            while coro is not None:
                frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
                if frame is not None:
                    where.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
                coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            print(f"table-{i}: " + " > ".join(where), file=sys.stderr)

    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, report_waits)
    started = time.perf_counter()
    for b in bots:
        b.start_clock()
    own_cpu0 = time.process_time()
    pg_cpu0 = cpu_seconds_with_children(pg_pid) if pg_pid else 0.0
    running += [asyncio.create_task(staggered(i, t)) for i, t in enumerate(tables)]
    await asyncio.gather(*running)
    wall = time.perf_counter() - started
    cpus = [b.cpu() for b in bots]
    reviews_cpu = sum(b.reviews_cpu() for b in bots)
    own_cpu = time.process_time() - own_cpu0
    pg_cpu = cpu_seconds_with_children(pg_pid) - pg_cpu0 if pg_pid else 0.0
    sample()
    sampler.cancel()
    interactions = fake.interactions[first_interaction:]
    requests = fake.requests[first_request:]
    hits = fake.limiter.hits[first_hit:] if fake.limiter is not None else []
    for b in bots:
        await b.proc.stop()
    await fake.stop()
    if args.bot_log:
        Path(args.bot_log).write_text("".join(b.proc.output for b in bots))

    acks = [ix.ack_latency for ix in interactions if ix.ack_latency is not None]
    failed = [ix for ix in interactions if ix.failed]
    http_errors = [
        r for r in requests if r.status is not None and r.status >= 400 and r.status != 429
    ]
    limited = [r for r in requests if r.status == 429]
    refused = fake.refusals  # what Discord would have refused (invalid payloads, ...)
    bot_errors = [
        (f"[{b.shard_ids}] " if b.shard_ids else "") + line
        for b in bots
        for line in b.proc.output.splitlines()
        if " ERROR " in line or "Traceback" in line
    ]
    play_time = (stats.play_ended or time.perf_counter()) - (stats.play_started or started)
    moves = max(1, stats.moves)
    interaction_routes = ("/interactions/", "/webhooks/")
    counted = [r for r in requests if not any(p in r.route for p in interaction_routes)]
    errors = len(stats.errors) + len(failed) + len(http_errors) + len(bot_errors)
    result: dict[str, Any] = {
        "tables": args.tables,
        "finished": stats.finished,
        "rate_limits": bool(args.rate_limits),
        "think_s": args.think,
        "moves": stats.moves,
        "hands_by_my_hand_button": stats.hands_by_button,
        "interactions": len(interactions),
        "interactions_per_s": round(len(interactions) / max(wall, 1e-9), 1),
        "moves_per_s": round(stats.moves / max(wall, 1e-9), 1),
        "peak_moves_per_s_10s": round(peak_rate(stats.move_times), 1),
        "wall_s": round(wall, 1),
        "play_s": round(play_time, 1),
        "ack_p50_ms": round(percentile(acks, 50) * 1000, 1),
        "ack_p95_ms": round(percentile(acks, 95) * 1000, 1),
        "ack_p99_ms": round(percentile(acks, 99) * 1000, 1),
        "move_p50_ms": round(percentile(stats.to_picture, 50) * 1000, 1),
        "move_p95_ms": round(percentile(stats.to_picture, 95) * 1000, 1),
        "move_p99_ms": round(percentile(stats.to_picture, 99) * 1000, 1),
        "rest_calls_per_move": round(len(requests) / moves, 2),
        "rest_calls_per_move_global_budget": round(len(counted) / moves, 2),
        "rate_limited_429": len(limited),
        "rate_limited_by_route": dict(
            sorted(Counter(f"{r.method} {r.route.split(' ', 1)[1]}" for r in limited).items())
        ),
        "global_429": sum(1 for h in hits if h.is_global),
        "route_429": sum(1 for h in hits if not h.is_global),
        "refused_payloads": len(refused),
        "errors": errors,
        "error_details": {
            "tables": stats.errors[:10],
            "failed_interactions": len(failed),
            "refused": [r.reason for r in refused[:10]],
            "http_errors": [
                f"{r.method} {r.route} {r.status} {r.error_code}" for r in http_errors[:10]
            ],
            "bot_log": bot_errors[:10],
        },
        "bot_peak_rss_mib": round(sum(b.peak_kib for b in bots) / 1024, 1),
        "writer_peak_rss_mib": round(sum(b.writers_peak_kib for b in bots) / 1024, 1),
        "bot_cpu_s": round(sum(c[0] for c in cpus), 1),
        "writer_cpu_s": round(sum(c[1] for c in cpus), 1),
        "turning_points": args.turning_points,
        "turning_points_cpu_s": round(reviews_cpu, 1),
        "fake_and_players_cpu_s": round(own_cpu, 1),
        "mean_move_ms": round(statistics.fmean(stats.to_picture) * 1000, 1)
        if stats.to_picture
        else 0.0,
    }
    if pg is not None or sharded:
        result["store"] = args.store
        result["processes"] = args.processes
        result["shard_count"] = shard_count or 1
        result["per_process"] = [
            {
                "shard_ids": b.shard_ids or "all",
                "cpu_s": round(cpu, 2),
                "peak_rss_mib": round(b.peak_kib / 1024, 1),
            }
            for b, (cpu, _) in zip(bots, cpus, strict=True)
        ]
        result["postgres_cpu_s"] = round(pg_cpu, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables playing at once")
    parser.add_argument(
        "--think", type=float, default=8.0, help="mean seconds a player takes per decision"
    )
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which the tables start"
    )
    parser.add_argument("--rate-limits", action="store_true", help="Discord's default budget")
    parser.add_argument("--deal", choices=("short", "seeded"), default="short")
    parser.add_argument("--seed", type=int, default=1, help="the players' random choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, the shards split among them (2 or more need --store postgres)",
    )
    parser.add_argument(
        "--store",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the games' database (postgres: a throwaway server started for the run)",
    )
    parser.add_argument("--bot-log", help="write the bot's output to this file")
    parser.add_argument(
        "--turning-points",
        choices=("on", "off"),
        default="on",
        help="whether the bot works out the finished matches' turning points meanwhile",
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.processes > 1 and args.store != "postgres":
        parser.error("--processes 2 or more needs --store postgres (one database they all share)")
    os.environ.setdefault("PYTHONHASHSEED", "0")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:34} {value}")
    return 0 if result["errors"] == 0 and result["finished"] == args.tables else 1


if __name__ == "__main__":
    sys.exit(main())

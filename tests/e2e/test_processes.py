"""The bot as three ``python -m bot`` processes over one PostgreSQL database, shards split 2/1/1
of 4 (``0-1``, ``2`` and ``3``), against a fake Discord that routes each server's events to the
shard that owns it and direct messages, with their clicks, to shard 0.

Any process serves any click and any timer of any table from the database alone: a server's
clicks reach the process of its shard, a hand shown by DM is clicked in the process of shard 0,
and the three processes poll the same timers. The processes start once for the whole module;
each test plays in a server of its own, on the shard it is about.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.show.handtexts import OUT_OF_DATE_HAND
from data.postgres import PostgresStore
from data.store import LoggedAction
from tests.fakediscord import BotProcess, FakeDiscord, Interaction, Sharding
from tests.pgserver import PgServer

from .driver import TIMEOUT, TableDriver, answer, is_final, is_players_turn, shows_hand

pytestmark = pytest.mark.asyncio(loop_scope="module")

SHARDS = 4
PROCESSES = ("0-1", "2", "3")
"""``SHARD_IDS`` of each process: the first one runs shard 0, where direct messages arrive."""

SHORT = {
    # Two players, two tiles each: Alice's yellow 40 on yellow 2 and red 4 is too heavy (she
    # chooses its fall), and the match ends a few decisions later.
    "players": 2,
    "pyramid": {"0,0": "Y2", "0,2": "R4"},
    "hands": [["Y40", "B2"], ["R2", "G2"]],
    "piles": [[], []],
    "active": 0,
}
FALL_PASSED = (
    # A click on a fall button whose moment has passed, as a player reads it: the fall was made
    # before the click was read, or while it was being applied.
    "That fall has already been decided.",
    "That moment has passed: somebody acted first. Nothing was changed.",
    "That moment has passed: the game has moved on.",
)
TURN_LIMIT_S = 300
"""The turn limit of the tables whose timers a test makes due (the reminder comes at half)."""
_names = itertools.count(1)


@dataclass
class Cluster:
    """The fake Discord, the three bot processes and their database."""

    fake: FakeDiscord
    procs: dict[str, BotProcess]
    store: PostgresStore
    folder: Path
    clock_offset: float = 0.0

    def deal(self, state: dict[str, Any]) -> None:
        """The next game started with Start, in any process, is dealt ``state``."""
        tmp = self.folder / "state.tmp"
        tmp.write_text(json.dumps(state))
        tmp.replace(self.folder / "state.json")

    def advance_clock(self, seconds: float) -> None:
        """Move the clock of every bot process ``seconds`` forward (never back)."""
        self.clock_offset += seconds
        tmp = self.folder / "clock.tmp"
        tmp.write_text(str(self.clock_offset))
        tmp.replace(self.folder / "clock")

    def table_in(self, shard: int, *, dms_open: bool = True) -> TableDriver:
        """A new server on ``shard`` with a #games channel and two members, alice and bob; a
        driver for a table there."""
        n = next(_names)
        guild = self.fake.create_guild(f"Club {n} on shard {shard}", shard=(shard, SHARDS))
        channel = self.fake.create_text_channel(guild, "games")
        users = [
            self.fake.create_user(name, guilds=[guild], dms_open=dms_open)
            for name in ("alice", "bob")
        ]
        return TableDriver(self.fake, channel, {u.id: u for u in users})

    async def wait_all_connected(self) -> None:
        """Until every shard is connected and every running process says it is ready."""
        fake = self.fake

        def connected() -> bool:
            shards = {s.shard_key for s in fake.gateway.connected_sessions}
            return shards == {(i, SHARDS) for i in range(SHARDS)}

        await fake.wait_for(connected, 60.0, "every shard connected")
        async with asyncio.timeout(60):
            while not all(
                p.output.count(f"on shards {ids.replace('-', ',')} of {SHARDS}") >= p.starts
                for ids, p in self.procs.items()
            ):
                for p in self.procs.values():
                    assert p.running, p.output
                await asyncio.sleep(0.05)


@pytest.fixture(scope="module")
def cluster_db(pg_server: PgServer, pg_template: str) -> Iterator[str]:
    """A migrated PostgreSQL database for the module's processes."""
    name = f"procs{os.getpid()}"
    yield pg_server.create_database(name, template=pg_template)
    pg_server.psql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(
    cluster_db: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Cluster]:
    folder = tmp_path_factory.mktemp("processes")
    fake = FakeDiscord(sharding=Sharding(recommended_shards=SHARDS, max_concurrency=2))
    await fake.start()
    store = PostgresStore(cluster_db, pool_min=1, pool_max=2)
    await store.open()
    env = {
        "DATABASE_URL": cluster_db,
        "SHARD_COUNT": str(SHARDS),
        "FP_TEST_MODE": "1",
        "FP_TIMER_INTERVAL": "0.1",
        "FP_CLOCK_FILE": str(folder / "clock"),
        "FP_TEST_STATE_FILE": str(folder / "state.json"),
        "FP_AI_TIME_BUDGET": "0.05",
        "LOG_LEVEL": "INFO",
    }
    procs = {ids: BotProcess(fake, "bot", env=dict(env, SHARD_IDS=ids)) for ids in PROCESSES}
    cluster = Cluster(fake, procs, store, folder)
    cluster.advance_clock(0)
    cluster.deal(SHORT)
    try:
        await asyncio.gather(*(p.start(wait_ready=False) for p in procs.values()))
        await cluster.wait_all_connected()
        yield cluster
        for p in procs.values():
            assert "Traceback" not in p.output, p.output
        fake.assert_healthy()
        fake.assert_no_refusals()
    finally:
        for p in procs.values():
            await p.kill()
        await store.close()
        await fake.stop()


@pytest.fixture
def cluster_ok(cluster: Cluster) -> Iterator[Cluster]:
    """The cluster, checked after each test: no interaction failed."""
    yield cluster
    cluster.fake.assert_no_failed_interactions()


# --- reading the log ---------------------------------------------------------------------------


async def log_of(cluster: Cluster, table: TableDriver) -> list[LoggedAction]:
    """The table's action log, read from the database (the table named by its players' clicks)."""
    ids = {
        int(cid.split(":")[1])
        for ix in table.interactions
        if (cid := str(ix.data.get("custom_id") or "")).startswith("fp:")
    }
    assert len(ids) == 1, ids
    return await cluster.store.action_log(ids.pop())


Move = tuple[int, str]
"""A move as (user id, its action in the log's terms as JSON text)."""


def move_of(ix: Interaction) -> Move | None:
    """The move a click asks for, if it asks for one: the spot of a tile, or a fall."""
    parts = str(ix.data.get("custom_id") or "").split(":")
    if len(parts) != 5:
        return None
    kind, arg = parts[3], parts[4]
    if kind == "spot":
        tile, _, at = arg.partition("@")
        return ix.user.id, json.dumps({"play": tile, "at": at}, sort_keys=True)
    if kind == "fall":
        return ix.user.id, json.dumps({"fall": arg}, sort_keys=True)
    return None


def clicked(log: list[LoggedAction]) -> Counter[Move]:
    """The moves of the log that a person made (not the bot for them)."""
    return Counter(
        (a.user_id, json.dumps(a.action, sort_keys=True)) for a in log if a.user_id is not None
    )


def moves_asked(table: TableDriver, *, answered_only: bool) -> Counter[Move]:
    """The moves the players' acknowledged clicks asked for (only those that got an answer)."""
    out: Counter[Move] = Counter()
    for ix in table.interactions:
        move = move_of(ix)
        if move is not None and ix.acknowledged and (answered(table.fake, ix) or not answered_only):
            out[move] += 1
    return out


def answers(fake: FakeDiscord, ix: Interaction) -> list[str]:
    """The texts the bot answered a click with, in order: through its response, then every
    message it sent or edited through the click's token."""
    path = f"/webhooks/{ix.application_id}/{ix.token}"
    texts = [str(c.data.get("content") or "") for c in ix.callbacks if c.type in (4, 7)]
    for r in fake.requests:
        if r.ok and r.method in ("POST", "PATCH") and path in r.path:
            texts.append(str((r.body or {}).get("content") or ""))
    return texts


async def all_answered(table: TableDriver) -> None:
    """Until every click of the table got its answer (the last edits may still be on the way
    when the picture of a move is already shown)."""
    await table.fake.wait_for(
        lambda: all(answered(table.fake, ix) for ix in table.interactions),
        TIMEOUT,
        "an answer to every click",
    )


def answered(fake: FakeDiscord, ix: Interaction) -> bool:
    """Whether a click got an answer the player sees: a message or an edit in the interaction
    response itself, or sent later through its token (an acknowledgement that only defers is
    not an answer)."""
    return bool(answers(fake, ix))


def timed_out(log: list[LoggedAction], seat: int) -> list[LoggedAction]:
    """The moves made for ``seat`` by the bot (nobody clicked them)."""
    return [a for a in log if a.seat == seat and a.user_id is None]


# --- tests -------------------------------------------------------------------------------------


async def test_games_in_servers_on_different_shards_are_played_to_the_end_by_clicks(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    # Shard 1 is run by the first process, shard 3 by the third; on shard 3 the players' DMs
    # are closed, so every click of that game is in its server (the hands shown privately
    # there), while on shard 1 the hands come by DM.
    tables = [cluster.table_in(1), cluster.table_in(3, dms_open=False)]

    async def play(table: TableDriver) -> None:
        alice, bob = table.users.values()
        await table.open(alice, bob)
        final = await table.play_to_the_end(await table.start(alice), max_steps=20)
        assert is_final(final)
        assert final.labels() == ["Rematch"]

    await asyncio.gather(*(play(t) for t in tables))
    for table in tables:
        log = await log_of(cluster, table)
        assert log and all(a.user_id is not None for a in log if a.seat is not None)
        await all_answered(table)
        assert clicked(log) == moves_asked(table, answered_only=True)
    dm_clicks = [ix for ix in tables[1].interactions if ix.channel.type == 1]
    assert dm_clicks == []  # the shard-3 game was played in its own server only


async def test_a_hand_shown_by_dm_is_played_through_shard_0_for_a_server_on_shard_3(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    table = cluster.table_in(3)
    alice, bob = table.users.values()
    await table.open(alice, bob)
    game = await table.start(alice)
    hand = await table.hand_for(alice, game, turn=True)
    assert hand.channel == alice.dm_channel  # a DM: its clicks arrive on shard 0
    falling = await table.play(alice, game)  # a tile, then its spot, on the DM screen
    assert "Fall left" in falling.labels()
    clicks = table.interactions[-2:]
    assert [ix.channel for ix in clicks] == [alice.dm_channel] * 2
    await all_answered(table)
    log = await log_of(cluster, table)
    assert [(a.user_id, a.action) for a in log] == [(alice.id, {"play": "Y40", "at": "1,1"})]
    # Her hand names the server it is played in, also as shown by a process without that server.
    guild = table.channel.guild
    assert guild is not None
    shown = [r.content for m in alice.dms() for r in m.revisions if "at table" in r.content]
    assert len(shown) >= 2  # her turn (sent by the server's process), her fall (by shard 0's)
    assert all(f" on {guild.name}" in content for content in shown), shown


async def test_a_hand_shown_by_another_process_links_to_the_newest_picture(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    table = cluster.table_in(3)
    alice, bob = table.users.values()
    await table.open(alice, bob)
    game = await table.start(alice)
    falling = await table.play(alice, game)  # shown by shard 0's process (a DM click)
    bobs_turn = await table.fall(alice, falling)  # shown by shard 3's (a click in the server)
    await all_answered(table)
    # Bob opens the spot step of a tile on his DM hand and goes back: shard 0's process shows
    # his hand again, with its link to the table's newest picture, which it did not post.
    hand = await table.hand_for(bob, bobs_turn, turn=True)
    before = len(hand.revisions)
    await table.click(bob, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "Bob's spot step")
    before = len(hand.revisions)
    await table.click(bob, hand, "Back")
    await table.screen_after(hand, before, "Bob's hand again")
    assert table.latest_game().id == bobs_turn.id
    links = [b["url"] for b in hand.buttons() if b.get("label") == "Go to the table"]
    assert len(links) == 1 and links[0].endswith(f"/{bobs_turn.channel.id}/{bobs_turn.id}")


async def test_the_turn_dm_tells_every_move_since_the_last_whichever_process_showed_it(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    table = cluster.table_in(3)
    alice, bob = table.users.values()
    await table.open(alice, bob)
    game = await table.start(alice)
    falling = await table.play(alice, game)  # shown by shard 0's process (a DM click)
    await table.fall(alice, falling)  # shown by shard 3's (a click in the server)
    turn = await bob.wait_for_dm(lambda m: "Since your last move" in m.content, timeout=TIMEOUT)
    # Both moves, told as one turn (replayed from the table's log, whichever process sends it).
    told = (
        "Since your last move:\n> Alice played yellow 40.\n"
        "> Yellow 40 collapsed (too heavy for the two tiles below): "
    )
    assert told in turn.content and "\n> Yellow 40 fell left.\n" in turn.content


@pytest.mark.parametrize("dm_first", [False, True], ids=["channel-first", "dm-first"])
async def test_a_channel_click_and_a_dm_click_for_one_decision_at_once_apply_it_once(
    cluster_ok: Cluster, dm_first: bool
) -> None:
    cluster = cluster_ok
    table = cluster.table_in(3)
    alice, bob = table.users.values()
    await table.open(alice, bob)
    game = await table.start(alice)
    screen = await table.play(alice, game)  # her fall, asked on her DM screen
    await all_answered(table)
    assert "Fall right" in screen.labels()
    # /fp status in the thread shows the table with the fall's buttons too: the same decision
    # on a message in shard 0's reach and on one in shard 3's.
    falling = await answer(await table.slash(bob, "fp status"))
    assert "Fall left" in falling.labels()
    if dm_first:
        in_dm, in_channel = await asyncio.gather(
            alice.click(screen, "Fall right"), alice.click(falling, "Fall left")
        )
    else:
        in_channel, in_dm = await asyncio.gather(
            alice.click(falling, "Fall left"), alice.click(screen, "Fall right")
        )
    table.interactions += [in_channel, in_dm]
    after = await table.settled_game(falling.id)
    assert TableDriver.decider(after) == bob.id
    await all_answered(table)

    log = await log_of(cluster, table)
    falls = [a.action for a in log if "fall" in a.action]
    assert len(falls) == 1, log
    assert len([m for m in table.game_messages() if m.id > falling.id]) == 1
    if falls == [{"fall": "left"}]:  # the status copy folds nothing: the turn is posted
        # The channel's click won: her DM screen is closed with the turn's account, or (if
        # the DM click got there first) says its moment passed, with no fall to choose.
        await cluster.fake.wait_for(
            lambda: screen.settled and not screen.buttons(), TIMEOUT, "closed"
        )
        assert "fell left" in screen.content or screen.content.startswith(OUT_OF_DATE_HAND)
    else:
        assert falls == [{"fall": "right"}]  # the DM's click won
        lost = await answer(in_channel)
        assert lost.ephemeral
        assert lost.content in FALL_PASSED
    await cluster.fake.wait_for(
        lambda: screen.settled and "Fall right" not in screen.labels(), TIMEOUT, "the DM screen"
    )


async def test_a_due_reminder_and_deadline_polled_by_three_processes_are_acted_on_once(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    table = cluster.table_in(2)
    alice, bob = table.users.values()
    await table.open(alice, bob, time_limit=TURN_LIMIT_S)
    game = await table.start(alice)

    cluster.advance_clock(TURN_LIMIT_S / 2 + 10)
    await alice.wait_for_dm(lambda m: "⏳" in m.content, timeout=TIMEOUT)
    cluster.advance_clock(TURN_LIMIT_S)
    # Her turn is played for her (one post, by one process); then Bob plays by a click,
    # long after every process has looked at the timers again.
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == bob.id
    assert [m.id for m in table.game_messages() if game.id < m.id] == [nxt.id]
    await table.step(nxt)

    log = await log_of(cluster, table)
    # One play made for her (with the fall it may bring, also hers), then Bob's click.
    assert [a.user_id for a in log] == [None] * (len(log) - 1) + [bob.id]
    assert ["play" in a.action for a in timed_out(log, 0)][:1] == [True]
    assert len([a for a in timed_out(log, 0) if "play" in a.action]) == 1
    # One reminder, by the way her turn came (a direct message), none in the channel.
    assert not [m for m in table.bot_messages() if "⏳" in m.content]
    assert len([m for m in alice.dms() if "⏳" in m.content]) == 1


async def test_a_killed_process_loses_nothing_its_timers_are_served_and_its_games_go_on(
    cluster_ok: Cluster,
) -> None:
    cluster = cluster_ok
    third = cluster.procs["3"]
    table = cluster.table_in(3)
    alice, bob = table.users.values()
    await table.open(alice, bob, time_limit=TURN_LIMIT_S)
    game = await table.start(alice)
    falling = await table.play(alice, game)  # by DM, through shard 0
    bobs_turn = await table.fall(alice, falling)  # in the server, through shard 3
    assert TableDriver.decider(bobs_turn) == bob.id

    await third.kill()  # mid-game, with Bob to play
    assert (3, SHARDS) not in {s.shard_key for s in cluster.fake.gateway.connected_sessions}
    # Bob's turn runs out while shard 3 is offline: another process plays it for him and
    # shows it in the server's thread (posting needs the API, not the shard's connection).
    cluster.advance_clock(TURN_LIMIT_S + 10)
    due = time.perf_counter()
    alices_turn = await table.settled_game(bobs_turn.id)
    served = time.perf_counter() - due  # for the report (never asserted: wall-clock time)
    print(f"a due timer of the killed process's table shown by another after {served:.2f} s")
    assert TableDriver.decider(alices_turn) == alice.id
    # Bob's seat (1) played by the game itself, no person: his time ran out.
    assert [(a.seat, a.user_id) for a in (await log_of(cluster, table))[-1:]] == [(1, None)]
    # Alice's turn comes by DM and is played through shard 0, still without shard 3.
    bobs_next = await table.play(alice, alices_turn)
    assert TableDriver.decider(bobs_next) == bob.id  # each still holds tiles

    await third.start(wait_ready=False)
    await cluster.wait_all_connected()
    # Back: its server's clicks are served again, and the game is played to the end.
    latest = await table.settled_game()
    copy = await answer(await table.click(alice, latest, "My hand"))
    assert copy.ephemeral and shows_hand(copy) and not is_players_turn(copy)
    final = await table.play_to_the_end(latest, max_steps=20)
    assert is_final(final)

    log = await log_of(cluster, table)
    assert timed_out(log, 1) and not timed_out(log, 0)  # Bob's turn only was played for him
    # Every click that got an answer is in the log, and the log has no move nobody asked for.
    assert moves_asked(table, answered_only=True) <= clicked(log)
    assert clicked(log) <= moves_asked(table, answered_only=False)

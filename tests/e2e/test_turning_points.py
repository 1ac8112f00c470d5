"""A replay's **Turning points**, as players read them: worked out in the background once a match
ends, shown privately, a player's own moves to them alone and the computers' moves to everyone,
with a button to each move's replay step; in English and French; and a restart in the middle of
the work neither loses it nor does it twice."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.app import Bot
from bot.names import COMPUTER_NAMES
from bot.records.analysis import LEASE_S
from bot.show.texts import table_name
from data import open_store
from data.model import MatchAnalysis
from engine import Play
from engine.ai.review import Budget
from i18n import catalogs
from tests.fakediscord import BotProcess, FakeUser, Message
from tests.fakediscord.fixtures import StartBot, StartBotProcess, World

from .conftest import MakeBot, bot_config
from .driver import TIMEOUT, TableDriver, answer, is_final
from .test_restart_and_time import process_env, set_clock

BLUNDER = {
    # Alice plays first, and her first tile is blue 2: on yellow 30 and red 10 it collapses and
    # sends both under her pile, where yellow 40 or red 6 would have fit (the driver plays the
    # first tile of a hand on spot A).
    "players": 2,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["B2", "Y40", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
    "piles": [["B10", "G10"], ["Y10", "G20"]],
    "active": 0,
}


def write_deal(tmp_path: Path) -> str:
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps(BLUNDER))
    return str(path)


async def stored_analysis(db_url: str, table_id: int) -> MatchAnalysis | None:
    store = open_store(db_url)
    await store.open()
    try:
        return await store.analyses().analysis(table_id, 0.0)
    finally:
        await store.close()


async def analysed(db_url: str, table_id: int) -> MatchAnalysis:
    """The match's analysis, once the bot has kept it."""
    found = await until(lambda: stored_analysis(db_url, table_id), "done")
    assert found is not None
    return found


async def until(
    read: Callable[[], Awaitable[MatchAnalysis | None]], state: str
) -> MatchAnalysis | None:
    """What ``read`` gives once the analysis is in ``state`` (waited for, within TIMEOUT)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        got = await read()
        if got is not None and got.state == state:
            return got
        assert time.monotonic() < deadline, f"the analysis is not {state}: {got!r}"
        await asyncio.sleep(0.1)


async def match_against_the_computer(table: TableDriver, alice: FakeUser) -> Message:
    """Alice against a hard computer, from the deal above, to the end."""
    await table.open(alice)
    await table.add_computer(alice, "hard")
    game = await table.start(alice)
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final)
    return final


async def turning_points_of(
    user: FakeUser, table: TableDriver, command: str = "fp replay", **options: object
) -> Message:
    """``user`` opens the match's replay and presses Turning points (in their language)."""
    ix = await user.slash(command, table.channel, **options)
    replay = await answer(ix)
    assert replay.ephemeral
    label = next(b["label"] for b in replay.buttons() if ":rec:turn:" in b.get("custom_id", ""))
    shown = await answer(await user.click(replay, label))
    assert shown.ephemeral
    return shown


async def test_a_player_sees_their_own_costly_moves_and_the_computers_and_jumps_to_one(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_deal(tmp_path))
    await match_against_the_computer(table, world.alice)
    table_id = table.table_id()
    analysis = await analysed(db_url, table_id)
    first = analysis.reviews[0]
    assert first.entry == 0 and first.played == Play("B2", (1, 1)) and first.kept_off >= 0.5
    assert first.best in (Play("Y40", (1, 1)), Play("R6", (1, 1)))

    shown = await turning_points_of(world.alice, table, match=1)
    text = shown.content
    lines = text.splitlines()
    assert lines[0] == (
        "**Turning points of table #1**: the moves that cost the most, judged by the expert "
        "from what the player could see at the time."
    )
    mine = [r for r in analysis.reviews if r.seat == 0]
    agreed = sum(r.best == r.played for r in mine)
    assert (
        f"**Your moves**: the expert agrees with {agreed} of your {len(mine)} decisions." in lines
    )
    best = "yellow 40" if first.best == Play("Y40", (1, 1)) else "red 6"
    kept = f"{first.kept_off:.1f}"
    costly = sorted((r.kept_off for r in mine if r.kept_off >= 0.5), reverse=True)
    blunder = (
        "Turn 1 (step 2): you played blue 2 on yellow 30 and red 10 (2 tiles to your pile); "
        f"the expert would have played {best} on yellow 30 and red 10 (it fits). "
        f"About **{kept} tiles** kept off your pile by your next turn, on average."
    )
    rank = costly.index(first.kept_off) + 1
    assert f"{rank}. {blunder}" in lines
    # The computer's moves are everyone's: its heading follows Alice's moves.
    theirs = [r for r in analysis.reviews if r.seat == 1]
    heading = [ln for ln in lines if ln.startswith(f"**{COMPUTER_NAMES[0]}**")]
    assert len(heading) == 1 and f"of their {len(theirs)} decision" in heading[0]
    assert lines.index(heading[0]) > lines.index(f"{rank}. {blunder}")
    assert "Bob" not in text and len(text) <= 2000
    # A button per move told, to its replay step, in a new private message.
    steps = [int(n) for n in re.findall(r"\(step (\d+)\)", text)]
    assert shown.labels() == [f"Step {n}" for n in sorted(set(steps))]
    jump = await answer(await world.alice.click(shown, "Step 2"))
    assert jump.ephemeral and "**Replay of table #1** · step 2 of " in jump.content
    assert "Alice played blue 2." in jump.content
    world.fake.assert_no_failed_interactions()


async def test_someone_who_did_not_play_sees_only_the_computers_moves_in_french(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_deal(tmp_path))
    await match_against_the_computer(table, world.alice)
    analysis = await analysed(db_url, table.table_id())
    theirs = [r for r in analysis.reviews if r.seat == 1]

    shown = await turning_points_of(world.bob, table, match=1)
    assert "**Your moves**" not in shown.content and "you played" not in shown.content
    assert "blue 2" not in shown.content  # nothing of Alice's hand
    assert [ln for ln in shown.content.splitlines() if ln.startswith(f"**{COMPUTER_NAMES[0]}**")]

    world.carol.locale = "fr"
    french = await turning_points_of(world.carol, table, "fp revoir", partie=1)
    text = french.content
    fr = catalogs.language("fr")
    assert text.startswith(f"**Tournants de la {table_name(1, lang=fr)}**\u00a0: les coups qui ")
    assert "vous avez" not in text and "bleu 2" not in text
    heading = [ln for ln in text.splitlines() if ln.startswith(f"**{COMPUTER_NAMES[0]}**")]
    assert len(heading) == 1 and f"sur {len(theirs)}" in heading[0]
    assert all(label.startswith("Étape ") for label in french.labels())
    world.fake.assert_no_failed_interactions()


async def test_in_a_match_of_people_each_sees_their_own_and_a_spectator_nothing(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_deal(tmp_path))
    await table.open(world.alice, world.bob)
    final = await table.play_to_the_end(await table.start(world.alice), max_steps=100)
    assert is_final(final)
    analysis = await analysed(db_url, table.table_id())
    bobs = [r for r in analysis.reviews if r.seat == 1]

    alice = await turning_points_of(world.alice, table, match=1)
    assert "**Your moves**" in alice.content and "Bob" not in alice.content
    assert "you played blue 2 on yellow 30 and red 10" in alice.content
    bob = await turning_points_of(world.bob, table, match=1)
    assert f"of your {len(bobs)} decision" in bob.content
    assert "blue 2" not in bob.content and "Alice" not in bob.content
    carol = await turning_points_of(world.carol, table, match=1)
    assert carol.content == (
        "Turning points show each player their own moves, and everyone the computers' moves: "
        "table #1 had no computer player."
    )
    assert not carol.buttons()
    world.fake.assert_no_failed_interactions()


async def test_a_restart_in_the_middle_of_the_work_neither_loses_it_nor_does_it_twice(
    world: World, start_bot: StartBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    # A process that does not work out turning points: the match waits for them.
    quiet = bot_config(db_url, test_state_file=write_deal(tmp_path), turning_points=False)
    runner = await start_bot(Bot(quiet))
    await match_against_the_computer(table, world.alice)
    table_id = table.table_id()
    waiting = await turning_points_of(world.alice, table, match=1)
    assert waiting.content == (
        "Turning points of table #1 are being worked out (ready within a minute)."
    )
    assert await stored_analysis(db_url, table_id) is None
    # A slow one claims the match, and is stopped in the middle of the work.
    slow = bot_config(db_url, turning_budget=Budget(node_limit=10**7, deals=64))
    await runner.restart(Bot(slow))

    await until(lambda: stored_analysis(db_url, table_id), "working")
    await runner.stop()
    rows = await _rows(db_url, table_id)
    assert rows == [(None, 0.0, 0, None)]  # released: no owner, no attempt counted, not done
    # The next start takes it up at once and keeps it, once.
    await runner.restart(Bot(bot_config(db_url)))
    analysis = await analysed(db_url, table_id)
    assert analysis.reviews and analysis.reviews[0].played == Play("B2", (1, 1))
    [(owner, _, attempts, done_at)] = await _rows(db_url, table_id)
    assert owner is None and attempts == 1 and done_at is not None
    shown = await turning_points_of(world.alice, table, match=1)
    assert shown.content.startswith("**Turning points of table #1**")
    world.fake.assert_no_failed_interactions()


async def _rows(db_url: str, table_id: int) -> list[tuple[object, ...]]:
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        found = conn.execute(
            "SELECT owner, claimed_until, attempts, done_at FROM analyses WHERE table_id = ?",
            (table_id,),
        ).fetchall()
    conn.close()
    return [tuple(r) for r in found]


async def test_a_bot_killed_in_the_middle_of_the_work_leaves_it_to_the_next_once_its_claim_ran_out(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
) -> None:
    env = process_env(
        tmp_path,
        db_url,
        FP_TEST_STATE_FILE=write_deal(tmp_path),
        FP_TURNING_NODE_LIMIT="4000",  # long enough to be killed in the middle of it
        FP_TURNING_DEALS="48",
    )
    proc: BotProcess = await start_bot_process("bot", env=env)
    await match_against_the_computer(table, world.alice)
    table_id = table.table_id()
    await until(lambda: stored_analysis(db_url, table_id), "working")
    await proc.kill()  # like a crash: the claim stays until it runs out
    [(owner, _, attempts, done_at)] = await _rows(db_url, table_id)
    assert owner is not None and attempts == 1 and done_at is None
    # Started again a minute later (its clock moved on past the claim), quickly this time.
    set_clock(tmp_path, LEASE_S + 1)
    proc.extra_env.update(FP_TURNING_NODE_LIMIT="60", FP_TURNING_DEALS="3")
    await proc.start()
    analysis = await analysed(db_url, table_id)
    assert analysis.reviews[0].played == Play("B2", (1, 1))
    [(owner, _, attempts, done_at)] = await _rows(db_url, table_id)
    assert owner is None and attempts == 2 and done_at is not None  # taken up once more, kept
    shown = await turning_points_of(world.alice, table, match=1)
    assert "you played blue 2 on yellow 30 and red 10" in shown.content
    assert "Traceback" not in proc.output

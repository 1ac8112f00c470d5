"""Replays and exports of finished matches: rebuilt by the engine from the stored deal and action
log, equal to the stored final state for every finished game of a generated database (SQLite and
PostgreSQL), and exported as a scenario file that ``python -m engine run`` replays to it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import TableError, Why
from bot.records.replay import CHECKPOINT_EVERY, MatchReplay
from bot.records.results import ReplayShown
from bot.records.service import RecordsService
from bot.show import recordtexts
from data.store import Seat, Store, TableOptions
from engine import Game, view
from engine.scenario import scenario_output
from i18n import ENGLISH
from tests.data.test_records import PEOPLE, finished_match, lineup, match_with_leavers

GUILD = 77


async def generated(store: Store, count: int) -> list[int]:
    """``count`` finished matches of 2 to 4 seats (curses on), played with random legal moves."""
    return [await finished_match(store, 500 + i, 900 + i, lineup(i)) for i in range(count)]


async def test_every_replay_ends_on_the_stored_final_state(backend_store: Store) -> None:
    ids = await generated(backend_store, 6)
    for tid in ids:
        table = await backend_store.get_table(tid)
        assert table.initial_state is not None and table.state is not None
        replay = MatchReplay(table.initial_state, await backend_store.action_log(tid))
        assert replay.final == table.state
        last = replay.step(replay.count - 1)
        assert last.last and last.after == view(Game.from_dict(table.state), None)
        # Each step starts where the one before it ended (checkpoints change nothing).
        for i in range(1, replay.count):
            assert replay.step(i).before == replay.step(i - 1).after


async def test_only_the_last_step_lays_down_every_players_remaining_tiles(
    backend_store: Store,
) -> None:
    """The match is over at the last step: it holds every player's hand and pile as the stored
    final state has them (as a board game ends with the hands shown); no earlier step holds
    any."""
    [tid] = await generated(backend_store, 1)
    table = await backend_store.get_table(tid)
    assert table.initial_state is not None and table.state is not None
    replay = MatchReplay(table.initial_state, await backend_store.action_log(tid))
    last = replay.step(replay.count - 1)
    final = Game.from_dict(table.state)
    assert last.hands == tuple(tuple(h) for h in final.hands)
    assert last.piles == tuple(tuple(p) for p in final.piles)
    assert any(last.hands) or any(last.piles)
    for i in range(replay.count - 1):
        step = replay.step(i)
        assert step.hands is None and step.piles is None, i


def test_a_step_is_the_same_built_from_a_checkpoint_or_from_the_deal() -> None:
    game = Game.new(3, 4, curse=True)
    initial = game.to_dict()
    import random

    from data.store import LoggedAction

    rnd = random.Random(4)
    log = []
    while game.pending is not None:
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        log.append(LoggedAction(1, len(log) + 2, seat, None, action.to_dict(), 0.0))
    assert len(log) > 2 * CHECKPOINT_EVERY
    replay = MatchReplay(initial, log)
    plain = MatchReplay(initial, log)
    plain._checkpoints = {0: initial}  # no checkpoint: everything from the deal
    for i in range(replay.count):
        assert replay.step(i) == plain.step(i)


async def test_an_export_runs_through_the_engine_cli_to_the_stored_final_state(
    backend_store: Store, tmp_path: Path
) -> None:
    ids = await generated(backend_store, 3)
    service = RecordsService(backend_store)
    for tid in ids:
        table = await backend_store.get_table(tid)
        player = next(s.user_id for s in table.seats if s.user_id is not None)
        exported = await service.export(GUILD, tid, player)
        assert exported.number == table.number
        path = tmp_path / f"match-{tid}.json"
        path.write_text(json.dumps(exported.scenario))
        out = subprocess.run(
            [sys.executable, "-m", "engine", "run", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        final = Game.from_dict(table.state or {})
        want = scenario_output(final, [])
        got = json.loads(out.stdout)
        for key in ("players", "options", "pyramid", "hands", "piles", "removed", "active"):
            assert got[key] == want[key], key
        assert got["pending"] is None


async def test_replays_and_exports_are_refused_where_they_do_not_belong(
    backend_store: Store,
) -> None:
    [tid] = await generated(backend_store, 1)
    service = RecordsService(backend_store)
    with pytest.raises(TableError) as other_server:
        await service.step(GUILD + 1, tid, 0)
    assert other_server.value.why is Why.MATCH_ELSEWHERE
    with pytest.raises(TableError) as stranger:
        await service.export(GUILD, tid, 999)
    assert stranger.value.why is Why.EXPORT_PLAYERS_ONLY
    with pytest.raises(TableError) as missing:
        await service.step(GUILD, 1, 0)
    assert missing.value.why is Why.NO_MATCH
    seats = (Seat(1000, "A"), Seat(1001, "B"))
    lobby = await backend_store.create_table(GUILD, 1, 1000, TableOptions(), seats, 0.0)
    with pytest.raises(TableError) as open_table:
        await service.step(GUILD, lobby.id, 0)
    assert open_table.value.why is Why.MATCH_UNFINISHED
    # A step out of range is the nearest step, never an error.
    assert (await service.step(GUILD, tid, 10**4)).step.last


async def test_a_match_stopped_after_its_first_move_replays_to_where_it_stopped(
    backend_store: Store,
) -> None:
    tid, game = await match_with_leavers(backend_store, 600, 9, tuple(PEOPLE[:3]), stop_after=9)
    service = RecordsService(backend_store)
    last = await service.step(GUILD, tid, 10**4)
    assert last.stopped and last.step.last
    assert last.step.after.standings == game.standings() != tuple(game.scores)
    text = recordtexts.step_text(last, lang=ENGLISH).content
    assert "The match stopped here, before its end. Tiles left (lower is better): " in text
    assert "The match is over" not in text
    [entry] = await service.history(GUILD, None)
    line = recordtexts.history_line(1, entry, lang=ENGLISH)
    assert "**stopped** before its end (" in line and "winner" not in line
    # A game aborted before its first move has nothing to replay.
    seats = (Seat(1000, "A"), Seat(1001, "B"))
    table = await backend_store.create_table(GUILD, 601, 1000, TableOptions(), seats, 0.0)
    dealt = Game.new(2, 1)
    table = await backend_store.start_game(
        table.id, table.version, seats, dealt.to_dict(), None, None, 0.0
    )
    await backend_store.end_table(table.id, table.version, "aborted", 1.0)
    with pytest.raises(TableError) as nothing:
        await service.step(GUILD, table.id, 0)
    assert nothing.value.why is Why.MATCH_UNFINISHED


async def test_the_leaderboard_pages_after_rating_what_finished_and_stays_in_range(
    backend_store: Store,
) -> None:
    # Ten people each play three 2-seat matches: a board of two pages (ten a page).
    people = [Seat(3000 + i, f"P{i}") for i in range(12)]
    n = 0
    for rnd in range(3):
        for i in range(0, 12, 2):
            pair = (people[i], people[(i + 1 + 2 * rnd) % 12])
            await finished_match(backend_store, 700 + n, 1000 + n, pair)
            n += 1
    service = RecordsService(backend_store)
    first = await service.leaderboard(GUILD, 0)  # rates the 18 finished matches first
    assert first.total == 12 and len(first.entries) == 10 and first.first_rank == 1
    second = await service.leaderboard(GUILD, 1)
    assert len(second.entries) == 2 and second.first_rank == 11
    assert [e.ordinal for e in first.entries + second.entries] == sorted(
        (e.ordinal for e in first.entries + second.entries), reverse=True
    )
    beyond = await service.leaderboard(GUILD, 99)  # a forged page: the last one
    assert beyond == second
    assert await service.catch_up() == 0  # nothing left to rate


@pytest.mark.parametrize(
    ("alice", "bob", "played", "told"),
    [
        (1, None, "Alice played green 10.", "a computer player chose for Bob"),
        (1, 2, "Alice played green 10.", "Bob chose"),
        (None, 2, "A computer player played green 10 for Alice.", "Bob chose"),
    ],
)
def test_a_replay_tells_a_move_a_computer_made_for_a_person_as_the_computers(
    alice: int | None, bob: int | None, played: str, told: str
) -> None:
    """Alice's curse passes the fall of blue 30 to Bob. A decision logged without its person
    (their time ran out, or they were away) is told as a computer player's: Alice's tile, or
    Bob's fall; a decision of their own, as theirs."""
    from data.model import LoggedAction, Table
    from engine import Fall, Play
    from tests.e2e.test_told_truly import TWO_PLAYER_CURSE

    game = Game.from_dict(TWO_PLAYER_CURSE)
    initial = game.to_dict()
    log = []
    for seat, user, action in [(0, alice, Play("G10", (1, 1))), (1, bob, Fall("left"))]:
        game.apply(action, seat)
        log.append(LoggedAction(1, len(log) + 2, seat, user, action.to_dict(), 0.0))
    seats = (Seat(1, "Alice"), Seat(2, "Bob"))
    table = Table(
        1, GUILD, 10, 1, "aborted", TableOptions(curse=True), seats, 3, game.to_dict(),
        initial, None, None, 0.0, 0.0, number=12,
    )  # fmt: skip
    step = MatchReplay(initial, log, seats).step(1)
    story = recordtexts.step_story(ReplayShown(table, step), ["Alice", "Bob"], ENGLISH)
    lines = story.splitlines()
    assert lines[0] == played and f"Blue 30 fell left ({told})." in lines

"""A damaged row is reported for its own table only; everything else keeps working."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from data.store import CorruptRecord, Table, TableOptions
from engine import Game
from tests.data.helpers import NOW, move, play, random_move, start_table


def tamper(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(sql, params)
    conn.close()


async def three_games(store: SqliteStore) -> list[tuple[Table, Game]]:
    out = []
    for ch in (1, 2, 3):
        table, game = await start_table(store, ch, seed=ch)
        table = await play(store, table, game, random.Random(ch), moves=8)
        out.append((table, game))
    return out


@pytest.mark.parametrize(
    ("column", "value", "problem"),
    [
        ("state", "{not json", "unreadable state JSON"),
        ("state", '{"players": 3}', "not a valid game state"),
        ("state", "[1, 2]", "state is not a JSON object"),
        ("seats", '[{"nom": "x"}]', "bad seat"),
        ("options", "null", "options is not a JSON object"),
        ("status", "exploded", "unknown status"),
    ],
)
async def test_unreadable_columns(
    store: SqliteStore,
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
    column: str,
    value: str,
    problem: str,
) -> None:
    games = await three_games(store)
    bad, _ = games[1]
    tamper(db_path, f"UPDATE tables SET {column} = ? WHERE id = ?", value, bad.id)
    with pytest.raises(CorruptRecord, match=problem) as err:
        await store.get_table(bad.id)
    assert err.value.table_id == bad.id
    assert err.value.version == bad.version
    with caplog.at_level(logging.WARNING, logger="data"):
        opened = await store.open_tables()
    if problem == "not a valid game state":
        # Start-up reads every open game but leaves the engine's checks to get_table and check.
        assert [t.id for t in opened] == [t.id for t, _ in games]
    else:
        if column != "status":  # an unknown status is not an open one
            assert f"skipping table {bad.id}" in caplog.text
        assert [t.id for t in opened] == [games[0][0].id, games[2][0].id]
    problems = await store.check()
    assert [p.table_id for p in problems] == [bad.id]
    # The other games go on as if nothing happened.
    table, game = games[2]
    await play(store, table, game, random.Random(9), moves=3)


async def test_a_damaged_table_is_reported_once_not_at_every_listing(
    store: SqliteStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Timers list the open tables every few seconds: a damaged one is a warning once."""
    games = await three_games(store)
    bad, _ = games[0]
    tamper(db_path, "UPDATE tables SET state = 'garbage' WHERE id = ?", bad.id)
    with caplog.at_level(logging.DEBUG, logger="data"):
        for _ in range(3):
            opened = await store.open_tables()
            assert [t.id for t in opened] == [games[1][0].id, games[2][0].id]
    skips = [r for r in caplog.records if f"skipping table {bad.id}" in r.getMessage()]
    assert [r.levelno for r in skips] == [logging.WARNING, logging.DEBUG, logging.DEBUG]


async def test_a_corrupt_game_can_be_aborted(store: SqliteStore, db_path: Path) -> None:
    table, _ = await start_table(store, 5)
    tamper(db_path, "UPDATE tables SET state = 'garbage' WHERE id = ?", table.id)
    with pytest.raises(CorruptRecord) as err:
        await store.open_table_in_channel(5)
    assert err.value.version is not None
    ended = await store.end_table(table.id, err.value.version, "aborted", NOW)
    assert ended.status == "aborted"
    assert await store.open_table_in_channel(5) is None
    await store.create_table(77, 5, 1, TableOptions(), (), NOW)


async def test_moves_on_a_corrupt_table_fail_alone(store: SqliteStore, db_path: Path) -> None:
    (good, game), (bad, bad_game), _ = await three_games(store)
    tamper(db_path, "UPDATE tables SET options = '{' WHERE id = ?", bad.id)
    rnd = random.Random(4)
    seat, action = random_move(game, rnd)
    bad_seat, bad_action = random_move(bad_game, rnd)
    import asyncio

    outcome = await asyncio.gather(
        move(store, good, seat, action, game.to_dict()),
        move(store, bad, bad_seat, bad_action, bad_game.to_dict()),
        return_exceptions=True,
    )
    assert isinstance(outcome[0], Table) and outcome[0].version == good.version + 1
    assert isinstance(outcome[1], CorruptRecord)
    assert len(await store.action_log(bad.id)) == 8  # nothing written


async def test_version_gap(store: SqliteStore, db_path: Path) -> None:
    games = await three_games(store)
    bad, _ = games[0]
    tamper(
        db_path, "DELETE FROM actions WHERE table_id = ? AND version = ?", bad.id, bad.version - 3
    )
    with pytest.raises(CorruptRecord, match="version gap"):
        await store.get_table(bad.id)
    assert [t.id for t in await store.open_tables()] == [games[1][0].id, games[2][0].id]
    [problem] = await store.check()
    assert problem.table_id == bad.id
    assert f"missing version {bad.version - 3}" in problem.problem


async def test_log_behind_the_table(store: SqliteStore, db_path: Path) -> None:
    games = await three_games(store)
    bad, _ = games[0]
    tamper(db_path, "DELETE FROM actions WHERE table_id = ? AND version = ?", bad.id, bad.version)
    with pytest.raises(CorruptRecord, match="action log ends at version"):
        await store.get_table(bad.id)
    [problem] = await store.check()
    assert "action log ends at version" in problem.problem


async def test_state_that_does_not_replay(store: SqliteStore, db_path: Path) -> None:
    """A valid state that is not what the log gives: readable, but check reports it."""
    games = await three_games(store)
    bad, _ = games[0]
    _, other = games[1]
    import json

    tamper(db_path, "UPDATE tables SET state = ? WHERE id = ?", json.dumps(other.to_dict()), bad.id)
    assert (await store.get_table(bad.id)).state == other.to_dict()
    [problem] = await store.check()
    assert problem.table_id == bad.id
    assert "differs from the replay of 8 actions" in problem.problem


async def test_unreadable_action(store: SqliteStore, db_path: Path) -> None:
    games = await three_games(store)
    bad, _ = games[2]
    tamper(
        db_path,
        "UPDATE actions SET action = '{\"play\":' WHERE table_id = ? AND version = ?",
        bad.id,
        bad.version - 1,
    )
    with pytest.raises(CorruptRecord, match="unreadable action"):
        await store.action_log(bad.id)
    [problem] = await store.check()
    assert problem.table_id == bad.id


async def test_illegal_action_in_the_log(store: SqliteStore, db_path: Path) -> None:
    games = await three_games(store)
    bad, _ = games[2]
    tamper(
        db_path,
        'UPDATE actions SET action = \'{"fall":"up"}\' WHERE table_id = ? AND version = ?',
        bad.id,
        bad.version - 5,
    )
    [problem] = await store.check()
    assert "does not replay" in problem.problem


async def test_unreadable_initial_state(store: SqliteStore, db_path: Path) -> None:
    """The dealt state (its own table since migration 0003) is read like every other column."""
    games = await three_games(store)
    bad, _ = games[1]
    tamper(db_path, "UPDATE initial_states SET state = '{' WHERE table_id = ?", bad.id)
    with pytest.raises(CorruptRecord, match="unreadable initial state JSON"):
        await store.get_table(bad.id)
    assert [t.id for t in await store.open_tables()] == [games[0][0].id, games[2][0].id]
    [problem] = await store.check()
    assert problem.table_id == bad.id
    table, game = games[2]
    await play(store, table, game, random.Random(9), moves=3)


async def test_missing_initial_state(store: SqliteStore, db_path: Path) -> None:
    """Without its dealt state a game still plays from its stored state, but it can no longer
    be replayed: check says so, for that table only."""
    games = await three_games(store)
    bad, _ = games[0]
    tamper(db_path, "DELETE FROM initial_states WHERE table_id = ?", bad.id)
    got = await store.get_table(bad.id)
    assert got.initial_state is None and got.version == bad.version
    [problem] = await store.check()
    assert problem.table_id == bad.id
    assert "no initial state" in problem.problem

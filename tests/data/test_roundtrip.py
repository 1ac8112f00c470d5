"""Every record goes in and comes back out the same, through a real SQLite file."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from data.store import (
    ChannelBusy,
    GuildSettings,
    NotFound,
    PlayerPrefs,
    Seat,
    TableDefaults,
    TableOptions,
    VersionConflict,
)
from engine import Game, replay
from engine.game import PUBLIC_RECORD_KEYS
from tests.data.helpers import NOW, move, play, random_move, seats, start_table


async def test_lobby_round_trip(store: SqliteStore) -> None:
    options = TableOptions(curse=True, rounds=3, max_seats=4, thread=False)
    created = await store.create_table(5, 6, 7, options, seats(2), NOW)
    assert created.status == "lobby"
    assert created.version == 1
    assert created.state is None and created.initial_state is None
    got = await store.get_table(created.id)
    assert got == created
    assert got.options == options
    assert got.seats == (Seat(1001, "player0"), Seat(1002, "player1"))
    assert await store.open_table_in_channel(6) == created
    assert await store.open_table_in_channel(999) is None


async def test_lobby_updates_bump_the_version(store: SqliteStore) -> None:
    t = await store.create_table(5, 6, 7, TableOptions(rounds=1), (Seat(7, "host"),), NOW)
    t2 = await store.update_lobby(
        t.id, t.version, seats=(Seat(7, "host"), Seat(None, "Robot", "hard")), now=NOW + 1
    )
    assert t2.version == t.version + 1
    assert t2.seats[1] == Seat(None, "Robot", "hard")
    assert t2.updated_at == NOW + 1
    t3 = await store.update_lobby(t.id, t2.version, options=TableOptions(rounds=2), now=NOW + 2)
    assert t3.options == TableOptions(rounds=2)
    assert await store.get_table(t.id) == t3
    with pytest.raises(VersionConflict):
        await store.update_lobby(t.id, t2.version, options=TableOptions(rounds=5), now=NOW + 3)
    assert (await store.get_table(t.id)).options == TableOptions(rounds=2)
    t4 = await store.update_lobby(t.id, t3.version, status="cancelled", now=NOW + 4)
    assert t4.status == "cancelled"
    assert await store.open_table_in_channel(6) is None
    assert await store.open_tables() == []


async def test_one_open_table_per_channel(store: SqliteStore) -> None:
    t = await store.create_table(5, 6, 7, TableOptions(), (), NOW)
    with pytest.raises(ChannelBusy) as err:
        await store.create_table(5, 6, 8, TableOptions(), (), NOW)
    assert err.value.table_id == t.id
    other = await store.create_table(5, 60, 8, TableOptions(), (), NOW)
    assert other.id != t.id
    await store.update_lobby(t.id, t.version, status="cancelled", now=NOW)
    again = await store.create_table(5, 6, 8, TableOptions(), (), NOW)
    assert again.id not in (t.id, other.id)


async def test_game_round_trip(store: SqliteStore) -> None:
    table, game = await start_table(store, 10, players=3, seed=4, curse=True, fire_die=True)
    assert table.status == "playing"
    assert table.state == game.to_dict()
    assert table.initial_state == game.to_dict()
    assert table.deadline == NOW + 3600 and table.reminder_at == NOW + 1800
    initial = game.to_dict()
    table = await play(store, table, game, random.Random(1), moves=20)
    got = await store.get_table(table.id)
    assert got == table
    assert got.state == game.to_dict()
    assert got.initial_state == initial
    assert Game.from_dict(got.state) == game
    log = await store.action_log(table.id)
    assert [a.version for a in log] == list(range(3, 23))
    assert all(a.table_id == table.id for a in log)
    rebuilt, _ = replay(initial, [dict(a.action, player=a.seat) for a in log])
    assert rebuilt == game
    assert await store.check() == []


async def test_moves_answer_with_what_the_row_holds(store: SqliteStore, db_path: Path) -> None:
    """A move's answer is built from what start_game (and later writes) stored, not from the
    caller's objects: changing the tables a call returned changes nothing stored or answered."""
    lobby = await store.create_table(77, 10, 1001, TableOptions(rounds=1), seats(2), NOW)
    await store.set_message(lobby.id, "lobby", 555)
    game = Game.new(2, 9)
    dealt = game.to_dict()
    table = await store.start_game(
        lobby.id, lobby.version, lobby.seats, game.to_dict(), NOW + 3600, NOW + 1800, NOW
    )
    table.messages["lobby"] = 1
    seat, action = random_move(game, random.Random(1))
    moved = await move(store, table, seat, action, game.to_dict())
    assert moved.options == TableOptions(rounds=1)
    assert moved.messages == {"lobby": 555}
    assert moved.initial_state == dealt
    assert moved.seats == lobby.seats
    assert await store.get_table(table.id) == moved
    # The dealt state is stored once, in its own table.
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT table_id, state FROM initial_states").fetchall()
        [(old,)] = conn.execute("SELECT initial_state FROM tables").fetchall()
    conn.close()
    assert [(t, json.loads(s)) for t, s in rows] == [(table.id, dealt)]
    assert old is None


async def test_action_log_records_who_and_when(store: SqliteStore) -> None:
    table, game = await start_table(store, 10, players=2)
    seat, action = random_move(game, random.Random(2))
    table = await store.apply_action(
        table.id,
        table.version,
        seat=seat,
        user_id=4242,
        action=action,
        state=game.to_dict(),
        deadline=None,
        reminder_at=None,
        now=NOW + 5,
    )
    [entry] = await store.action_log(table.id)
    assert (entry.version, entry.seat, entry.user_id, entry.action, entry.at) == (
        table.version,
        seat,
        4242,
        action,
        NOW + 5,
    )
    assert table.deadline is None


async def test_finished_game_and_results(store: SqliteStore) -> None:
    table, game = await start_table(store, 10, players=3, seed=9)
    table = await play(store, table, game, random.Random(3))
    assert table.status == "finished"
    assert await store.open_tables() == []
    assert await store.open_table_in_channel(10) is None
    [result] = await store.results()
    assert result["table_id"] == table.id
    assert result["scores"] == game.scores
    assert result["winners"] == game.winners()
    assert result["seats"] == [s.to_dict() for s in table.seats]
    # The bot may attach its own record once the last move has finished the match.
    ended = await store.end_table(table.id, table.version, "finished", NOW + 99, {"mvp": 0})
    assert ended.version == table.version + 1
    [result] = await store.results(guild_id=77)
    assert result["results"] == {"mvp": 0}
    assert result["finished_at"] == NOW + 99
    assert await store.results(guild_id=78) == []
    assert await store.check() == []


async def test_end_table_closes_and_frees_the_channel(store: SqliteStore) -> None:
    table, game = await start_table(store, 10)
    table = await play(store, table, game, random.Random(4), moves=3)
    ended = await store.end_table(table.id, table.version, "aborted", NOW + 10)
    assert ended.status == "aborted"
    assert ended.deadline is None and ended.reminder_at is None
    assert await store.results() == []
    with pytest.raises(NotFound):
        await store.end_table(table.id, ended.version, "aborted", NOW + 11)
    new = await store.create_table(77, 10, 1, TableOptions(), (), NOW)
    assert new.id != table.id
    assert await store.check() == []


async def test_timers(store: SqliteStore) -> None:
    a, _ = await start_table(store, 1)
    b, _ = await start_table(store, 2)
    await store.create_table(77, 3, 1, TableOptions(), (), NOW)  # a lobby without timers
    await store.set_timers(a.id, a.version, NOW + 10, NOW + 5)
    await store.set_timers(b.id, b.version, NOW + 100, None)
    assert (await store.get_table(a.id)).version == a.version  # timers do not bump
    assert [t.id for t in await store.due_timers(NOW + 4)] == []
    assert [t.id for t in await store.due_timers(NOW + 5)] == [a.id]
    assert [t.id for t in await store.due_timers(NOW + 100)] == [a.id, b.id]
    with pytest.raises(VersionConflict):
        await store.set_timers(a.id, a.version - 1, None, None)
    # Claiming a reminder: only the process that saw the current timers wins.
    await store.set_timers(a.id, a.version, NOW + 10, NOW + 8, expected_timers=(NOW + 10, NOW + 5))
    with pytest.raises(VersionConflict):
        await store.set_timers(
            a.id, a.version, NOW + 10, NOW + 9, expected_timers=(NOW + 10, NOW + 5)
        )
    assert (await store.get_table(a.id)).reminder_at == NOW + 8


async def test_messages(store: SqliteStore) -> None:
    t = await store.create_table(5, 6, 7, TableOptions(), (), NOW)
    assert await store.get_messages(t.id) == {}
    await store.set_message(t.id, "lobby", 2**62 + 1)
    await store.set_message(t.id, "hand:1001", 555)
    await store.set_message(t.id, "hand:1001", 556)
    assert await store.get_messages(t.id) == {"lobby": 2**62 + 1, "hand:1001": 556}
    assert (await store.get_table(t.id)).messages == {"lobby": 2**62 + 1, "hand:1001": 556}
    with pytest.raises(NotFound):
        await store.set_message(t.id + 1, "status", 1)


async def test_prefs_and_settings(store: SqliteStore) -> None:
    assert await store.get_prefs(1) == PlayerPrefs(1)
    await store.set_prefs(PlayerPrefs(1, "channel"))
    assert await store.get_prefs(1) == PlayerPrefs(1, "channel")
    await store.set_prefs(PlayerPrefs(1, "dm"))
    assert await store.get_prefs(1) == PlayerPrefs(1, "dm")

    assert await store.get_guild_settings(9) == GuildSettings(9)
    settings = GuildSettings(9, 3600, 600, TableDefaults(curse=True, rounds=3))
    await store.set_guild_settings(settings)
    assert await store.get_guild_settings(9) == settings
    assert await store.get_guild_settings(10) == GuildSettings(10)


async def test_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound):
        await store.get_table(12345)
    with pytest.raises(NotFound):
        await store.action_log(12345)
    with pytest.raises(NotFound):
        await store.apply_action(
            12345,
            1,
            seat=0,
            user_id=1,
            action={},
            state={},
            deadline=None,
            reminder_at=None,
            now=NOW,
        )
    lobby = await store.create_table(5, 6, 7, TableOptions(), (), NOW)
    with pytest.raises(NotFound):  # a lobby takes no moves
        await move(store, lobby, 0, {"die": "roll"}, {})


async def test_survives_reopening(db_path: Path) -> None:
    async with SqliteStore(db_path) as s:
        table, game = await start_table(s, 10)
        table = await play(s, table, game, random.Random(5), moves=10)
        await s.set_message(table.id, "status", 1)
    async with SqliteStore(db_path) as s:
        assert await s.open_tables() == [dataclasses.replace(table, messages={"status": 1})]
        assert (await s.get_table(table.id)).state == game.to_dict()


async def test_a_game_saved_before_the_public_record_plays_on(
    store: SqliteStore, db_path: Path
) -> None:
    """States saved before the engine kept its record of seen tiles load, play on, and pass the
    check (the record is not part of the rules' state)."""
    table, game = await start_table(store, 10, players=3, seed=4)
    table = await play(store, table, game, random.Random(1), moves=10)
    assert table.initial_state is not None
    old_state, old_initial = (
        {k: v for k, v in d.items() if k not in PUBLIC_RECORD_KEYS}
        for d in (table.state, table.initial_state)
    )
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET state = ? WHERE id = ?", (json.dumps(old_state), table.id))
        conn.execute(
            "UPDATE initial_states SET state = ? WHERE table_id = ?",
            (json.dumps(old_initial), table.id),
        )
    conn.close()
    assert await store.check() == []
    got = await store.get_table(table.id)
    game = Game.from_dict(got.state)
    assert game.seen_in_hands == [[], [], []]
    table = await play(store, got, game, random.Random(2), moves=10)
    assert set(PUBLIC_RECORD_KEYS) <= set(table.state)  # kept from now on
    assert await store.check() == []

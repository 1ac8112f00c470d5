"""The store's contract where several store objects meet one database, or a row is damaged:
each test runs on SQLite and PostgreSQL alike (two store objects are two connections to one
file, or two connection pools to one server)."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from data import migrate as sqlite_migrate
from data import pgmigrate
from data.store import (
    ChannelBusy,
    CorruptRecord,
    NotFound,
    PlayerPrefs,
    PlayerReach,
    SchemaTooNew,
    Seat,
    Store,
    Table,
    TableOptions,
    VersionConflict,
)
from engine import Game
from tests.conftest import Backend

NOW = 1_700_000_000.0
SEATS = (Seat(11, "ann"), Seat(12, "bob"), Seat(None, "Robot", "easy"))


async def started(store: Store, channel: int, seed: int = 1) -> tuple[Table, Game]:
    table = await store.create_table(77, channel, 11, TableOptions(rounds=1), SEATS, NOW)
    game = Game.new(3, seed)
    table = await store.start_game(
        table.id, table.version, SEATS, game.to_dict(), NOW + 3600, NOW + 1800, NOW
    )
    return table, game


async def one_move(
    store: Store, table: Table, game: Game, rnd: random.Random, at: float = NOW
) -> Table:
    assert game.pending is not None
    seat = game.pending.player
    action = rnd.choice(game.legal_actions())
    game.apply(action, seat)
    return await store.apply_action(
        table.id,
        table.version,
        seat=seat,
        user_id=SEATS[seat].user_id,
        action=action.to_dict(),
        state=game.to_dict(),
        deadline=at + 3600,
        reminder_at=at + 1800,
        now=at,
    )


async def test_table_ids_start_from_the_creation_time_so_a_new_database_never_reuses_them(
    store: Store,
) -> None:
    table = await store.create_table(1, 2, 3, TableOptions(), SEATS, NOW)
    # Milliseconds since 1970 at any time after this code was written, and still JSON-safe.
    assert 1_700_000_000_000 < table.id < 2**53


async def test_discord_ids_and_times_come_back_exactly(store: Store) -> None:
    big = 2**63 - 1
    seats = (Seat(big, "max"), Seat(1_234_567_890_123_456_789, "snow"))
    at = 1_763_900_000.123456
    table = await store.create_table(big, big - 1, big - 2, TableOptions(), seats, at)
    await store.set_message(table.id, "lobby", big - 3)
    game = Game.new(2, 3)
    table = await store.start_game(
        table.id, table.version, seats, game.to_dict(), at + 0.000001, at + 0.5, at
    )
    back = await store.get_table(table.id)
    assert (back.guild_id, back.channel_id, back.host_id) == (big, big - 1, big - 2)
    assert back.seats == seats
    assert back.messages == {"lobby": big - 3}
    assert (back.deadline, back.reminder_at, back.created_at) == (at + 0.000001, at + 0.5, at)


async def test_two_stores_writing_at_the_same_version_one_wins_and_the_other_writes_nothing(
    backend_db: Backend, store: Store
) -> None:
    other = backend_db.new_store()
    await other.open()
    try:
        table, game = await started(store, 10)
        rnd = random.Random(5)
        for _ in range(20):
            assert game.pending is not None
            seat = game.pending.player
            action = rnd.choice(game.legal_actions())
            game.apply(action, seat)
            attempts = [
                s.apply_action(
                    table.id,
                    table.version,
                    seat=seat,
                    user_id=None,
                    action=action.to_dict(),
                    state=game.to_dict(),
                    deadline=None,
                    reminder_at=None,
                    now=NOW,
                )
                for s in (store, other)
            ]
            outcomes = await asyncio.gather(*attempts, return_exceptions=True)
            won = [o for o in outcomes if isinstance(o, Table)]
            lost = [o for o in outcomes if isinstance(o, VersionConflict)]
            assert (len(won), len(lost)) == (1, 1), outcomes
            table = won[0]
        log = await other.action_log(table.id)
        assert [a.version for a in log] == list(range(table.version - 19, table.version + 1))
        assert await other.check() == []
    finally:
        await other.close()


async def test_of_stores_opening_tables_in_one_channel_at_once_exactly_one_succeeds(
    backend_db: Backend, store: Store
) -> None:
    others = [backend_db.new_store() for _ in range(3)]
    for s in others:
        await s.open()
    try:
        for channel in range(100, 105):
            outcomes = await asyncio.gather(
                *(
                    s.create_table(1, channel, 11, TableOptions(), SEATS, NOW)
                    for s in (store, *others)
                ),
                return_exceptions=True,
            )
            won = [o for o in outcomes if isinstance(o, Table)]
            busy = [o for o in outcomes if isinstance(o, ChannelBusy)]
            assert len(won) == 1 and len(busy) == 3, outcomes
            assert {b.table_id for b in busy} == {won[0].id}
    finally:
        for s in others:
            await s.close()


async def test_of_two_stores_claiming_a_due_timer_exactly_one_acts(
    backend_db: Backend, store: Store
) -> None:
    other = backend_db.new_store()
    await other.open()
    try:
        tables = [(await started(store, 200 + i, seed=i))[0] for i in range(10)]
        due = NOW + 1800  # every reminder is due
        wins: dict[int, int] = {}
        for _round in range(3):
            seen = {
                id(s): {t.id: t for t in await s.due_timers(due + _round * 1800)}
                for s in (store, other)
            }

            async def claim(s: Store, table: Table) -> int:
                try:
                    await s.set_timers(
                        table.id,
                        table.version,
                        table.deadline,
                        (table.reminder_at or 0) + 1800,
                        expected_timers=(table.deadline, table.reminder_at),
                    )
                except VersionConflict:
                    return 0
                return 1

            claims = [claim(s, seen[id(s)][t.id]) for t in tables for s in (store, other)]
            results = await asyncio.gather(*claims)
            for i, t in enumerate(tables):
                wins[t.id] = wins.get(t.id, 0) + results[2 * i] + results[2 * i + 1]
                assert results[2 * i] + results[2 * i + 1] == 1
        assert set(wins.values()) == {3}
        after = await other.get_table(tables[0].id)
        assert after.reminder_at == NOW + 1800 * 4
        assert after.version == tables[0].version  # a claim bumps no version
    finally:
        await other.close()


async def claims_of_processes(
    backend_db: Backend, tmp_path: Path, workers: int, *mode: str
) -> list[int]:
    """The table ids each of ``workers`` OS processes (``tests.data.claim_worker``) won, let
    go at the same instant."""
    root = Path(__file__).resolve().parents[2]
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.data.claim_worker",
                backend_db.url,
                str(go),
                str(w),
                *mode,
            ],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
        for w in range(workers)
    ]
    ready = [go.with_name(f"{go.name}.ready{w}") for w in range(workers)]
    while not all(r.exists() for r in ready):
        if any(p.poll() is not None for p in procs):
            # The others wait for the go file forever: stop them before reading their output.
            for p in procs:
                p.kill()
            raise AssertionError([p.communicate(timeout=30) for p in procs])
        await asyncio.sleep(0.01)
    go.touch()
    claims: list[int] = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        claims += [int(t) for t in out.split()[1::2]]
    return claims


async def test_of_two_processes_due_to_send_the_same_reminders_exactly_one_sends_each(
    backend_db: Backend, store: Store, tmp_path: Path
) -> None:
    tables = [(await started(store, 700 + i, seed=i))[0] for i in range(30)]
    claims = await claims_of_processes(backend_db, tmp_path, 2)
    assert sorted(claims) == sorted(t.id for t in tables)  # each one claimed, once
    after = await store.get_table(tables[0].id)
    assert after.reminder_at == NOW + 3600 and after.version == tables[0].version


async def test_of_three_processes_claiming_due_timers_each_table_goes_to_exactly_one(
    backend_db: Backend, store: Store, tmp_path: Path
) -> None:
    tables = [(await started(store, 800 + i, seed=i))[0] for i in range(30)]
    claims = await claims_of_processes(backend_db, tmp_path, 3, "lease")
    assert sorted(claims) == sorted(t.id for t in tables)  # each one claimed, once


async def test_a_damaged_row_is_reported_for_its_table_only(
    backend_db: Backend, store: Store
) -> None:
    rnd = random.Random(2)
    good, good_game = await started(store, 300)
    bad, bad_game = await started(store, 301, seed=2)
    for _ in range(5):
        good = await one_move(store, good, good_game, rnd)
        bad = await one_move(store, bad, bad_game, rnd)
    # (JSONB holds only JSON: the damage both backends can hold is JSON that is not a state)
    await backend_db.sql("UPDATE tables SET state = ? WHERE id = ?", '"garbage"', bad.id)

    assert [t.id for t in await store.open_tables()] == [good.id]
    with pytest.raises(CorruptRecord) as err:
        await store.get_table(bad.id)
    assert err.value.table_id == bad.id and err.value.version == bad.version
    assert (await store.get_table(good.id)).state == good_game.to_dict()
    good = await one_move(store, good, good_game, rnd)  # the other game plays on
    problems = await store.check()
    assert {p.table_id for p in problems} == {bad.id}

    closed = await store.end_table(bad.id, err.value.version, "aborted", NOW)
    assert closed.status == "aborted"
    assert await store.open_table_in_channel(301) is None


async def test_seats_that_are_not_a_list_damage_their_table_only(
    backend_db: Backend, store: Store
) -> None:
    a = await store.create_table(1, 400, 11, TableOptions(), SEATS, NOW)
    b = await store.create_table(1, 401, 11, TableOptions(), SEATS, NOW)
    await backend_db.sql("UPDATE tables SET seats = ? WHERE id = ?", '"nobody"', a.id)
    assert [t.id for t in await store.open_tables()] == [b.id]
    with pytest.raises(CorruptRecord, match="seats"):
        await store.open_table_in_channel(400)


async def test_a_database_newer_than_the_code_is_refused_and_left_alone(
    backend_db: Backend, store: Store
) -> None:
    latest = (
        pgmigrate.latest_version()
        if backend_db.name == "postgres"
        else sqlite_migrate.latest_version()
    )
    await store.create_table(1, 500, 11, TableOptions(), SEATS, NOW)
    await backend_db.sql(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
        latest + 1,
        "from_the_future",
        NOW,
    )
    later = backend_db.new_store()
    with pytest.raises(SchemaTooNew, match=f"version {latest + 1}"):
        await later.open()
    await later.close()
    rows = await backend_db.sql("SELECT count(*) FROM tables")
    assert rows[0][0] == 1


async def test_departures_dm_failures_and_shown_versions_are_kept_without_a_version_bump(
    store: Store,
) -> None:
    table, _ = await started(store, 600)
    await store.record_departure(table.id, 1, 12, NOW, "B")
    await store.record_departure(table.id, 1, 99, NOW + 1, "x")  # the first record stays
    firsts = await asyncio.gather(*(store.note_dm_failed(table.id, 11) for _ in range(5)))
    await store.mark_shown(table.id, 4)
    await store.mark_shown(table.id, 3)  # never backwards
    back = await store.get_table(table.id)
    assert sorted(firsts) == [False, False, False, False, True]
    assert back.departed == {1: 12}
    assert back.dm_failed == frozenset({11})
    assert back.shown_version == 4
    assert back.version == table.version


async def test_writes_about_a_table_that_does_not_exist_say_not_found(store: Store) -> None:
    missing: list[Any] = [
        store.set_message(1, "lobby", 5),
        store.record_departure(1, 0, 5, NOW, "x"),
        store.get_table(1),
        store.action_log(1),
        store.end_table(1, 1, "aborted", NOW),
        store.set_timers(1, 1, None, None),
    ]
    for call in missing:
        with pytest.raises(NotFound):
            await call


async def test_a_game_in_its_thread_frees_the_channel_for_the_next_lobby(store: Store) -> None:
    first, _ = await started(store, 6)
    assert first.thread_id is None and first.place_id == 6
    await store.set_thread(first.id, 600)
    moved = await store.get_table(first.id)
    assert moved.thread_id == 600 and moved.place_id == 600
    assert moved.version == first.version  # where it lives is not a move
    assert await store.open_table_in_channel(600) == moved  # commands typed in the thread
    assert await store.open_table_in_channel(6) is None
    second = await store.create_table(77, 6, 12, TableOptions(), (), NOW)
    assert await store.open_table_in_channel(6) == second
    with pytest.raises(ChannelBusy) as err:
        await store.set_thread(second.id, 600)  # a thread hosts one table
    assert err.value.table_id == first.id
    with pytest.raises(ChannelBusy):
        await store.create_table(77, 600, 12, TableOptions(), (), NOW)
    await store.end_table(moved.id, moved.version, "aborted", NOW)
    with pytest.raises(NotFound):
        await store.set_thread(moved.id, 601)
    assert await store.open_table_in_channel(600) is None


async def test_direct_message_choices_are_kept_per_player(store: Store) -> None:
    assert await store.get_prefs(1) == PlayerPrefs(1)
    assert PlayerPrefs(1).dm_on_turn and PlayerPrefs(1).reminders
    quiet = PlayerPrefs(1, "dm", dm_on_turn=False, reminders=False)
    await store.set_prefs(quiet)
    assert await store.get_prefs(1) == quiet
    await store.set_prefs(PlayerPrefs(1, "channel", dm_on_turn=True, reminders=False))
    assert await store.get_prefs(1) == PlayerPrefs(1, "channel", True, False)
    assert await store.get_prefs(2) == PlayerPrefs(2)


async def test_a_refused_direct_message_is_kept_per_player_for_every_store_until_cleared(
    store: Store, other: Store
) -> None:
    assert await store.dm_refused_at(11) is None
    await store.note_dm_refused(11, NOW)
    assert await other.dm_refused_at(11) == NOW  # another process sees it
    await other.note_dm_refused(11, NOW + 86_400)
    await store.note_dm_refused(11, NOW + 5)  # an older refusal noted late never moves it back
    assert await store.dm_refused_at(11) == NOW + 86_400
    assert await store.dm_refused_at(12) is None
    await store.set_prefs(PlayerPrefs(11, "channel"))  # choices do not touch it
    assert await other.dm_refused_at(11) == NOW + 86_400
    assert await other.clear_dm_refused(11) is True
    assert await store.clear_dm_refused(11) is False
    assert await store.dm_refused_at(11) is None


async def test_the_reach_of_several_players_is_their_preferences_and_refusals_in_one_read(
    store: Store, other: Store
) -> None:
    assert await store.get_reach([]) == {}
    big = 2**63 - 1  # a Discord id as large as they come
    await store.set_prefs(PlayerPrefs(11, "channel", dm_on_turn=False, language="fr"))
    await store.note_dm_refused(12, NOW)
    await store.note_dm_refused(big, NOW + 1)
    await store.set_prefs(PlayerPrefs(13, "dm", reminders=False))
    await store.note_dm_refused(13, NOW + 2)
    reach = await other.get_reach([11, 12, 13, 14, big, 12])  # another process sees it all
    assert reach == {
        11: PlayerReach(PlayerPrefs(11, "channel", dm_on_turn=False, language="fr")),
        12: PlayerReach(PlayerPrefs(12), NOW),
        13: PlayerReach(PlayerPrefs(13, "dm", reminders=False), NOW + 2),
        14: PlayerReach(PlayerPrefs(14)),
        big: PlayerReach(PlayerPrefs(big), NOW + 1),
    }
    for user_id, one in reach.items():  # the same as the reads of one player's each
        assert one == PlayerReach(
            await store.get_prefs(user_id), await store.dm_refused_at(user_id)
        )


async def test_open_tables_are_counted_lobbies_and_games_but_not_finished_ones(
    store: Store,
) -> None:
    assert await store.open_table_count() == 0
    lobby = await store.create_table(1, 500, 11, TableOptions(), SEATS, NOW)
    await started(store, 501)
    ended = await store.create_table(1, 502, 11, TableOptions(), SEATS, NOW)
    await store.end_table(ended.id, ended.version, "aborted", NOW)
    assert await store.open_table_count() == 2
    assert lobby.status == "lobby"

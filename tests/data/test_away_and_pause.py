"""The store's contract for stepping away (``/fp away``) and pausing a game (``/fp pause``), on
SQLite and PostgreSQL alike: absences are kept per server and player, across store objects
(processes), and a table's read carries those of its seated people; a pause lives in the
table's row with its timers, written without a version bump, once by one of two processes."""

from __future__ import annotations

import asyncio
import random

import pytest

from data.store import Absence, NotFound, Pause, Store, VersionConflict
from tests.data.helpers import NOW, play, start_table

GUILD = 77
ANN, BOB = 1001, 1002  # seated at the helpers' tables (the third seat is a computer)


async def test_an_absence_is_kept_per_server_and_player_and_read_with_every_table_they_sit_at(
    store: Store, other: Store
) -> None:
    table, game = await start_table(store, 500)
    elsewhere, _ = await start_table(store, 501, guild_id=88)
    assert (await store.get_table(table.id)).absences == {}

    await store.set_away(GUILD, ANN, NOW + 3600)
    assert await other.absence(GUILD, ANN) == Absence(NOW + 3600, False, 0)
    assert await other.absence(88, ANN) is None  # another server: not away there
    assert (await other.get_table(table.id)).absences == {ANN: Absence(NOW + 3600, False, 0)}
    assert (await other.get_table(elsewhere.id)).absences == {}
    # Someone who does not sit at the table is not read with it.
    await store.set_away(GUILD, 4242, NOW + 3600)
    assert set((await other.get_table(table.id)).absences) == {ANN}
    # The open tables (what a restart reads) and a due timer's table carry it too.
    [opened] = [t for t in await other.open_tables() if t.id == table.id]
    assert opened.absences == {ANN: Absence(NOW + 3600, False, 0)}

    # A move's answer carries it (the move's own read of the row).
    moved = await play(store, table, game, random.Random(3), moves=1)
    assert moved.absences == {ANN: Absence(NOW + 3600, False, 0)}

    assert await other.end_away(GUILD, ANN) == Absence(NOW + 3600, False, 0)
    assert await store.end_away(GUILD, ANN) is None  # already back: nothing to end
    assert (await store.get_table(table.id)).absences == {}


async def test_time_outs_in_a_row_are_counted_and_set_away_once_by_one_of_two_processes(
    store: Store, other: Store
) -> None:
    assert await store.count_timeout(GUILD, BOB) == 1
    assert await other.count_timeout(GUILD, BOB) == 2
    assert await store.absence(GUILD, BOB) == Absence(None, False, 2)
    assert not await store.away_after_timeouts(GUILD, BOB, NOW + 99, 3)  # not three yet

    both = await asyncio.gather(
        store.away_after_timeouts(GUILD, BOB, NOW + 99, 2),
        other.away_after_timeouts(GUILD, BOB, NOW + 99, 2),
    )
    assert sorted(both) == [False, True]
    assert await store.absence(GUILD, BOB) == Absence(NOW + 99, True, 0)

    # Counting time-outs at once from two processes counts each.
    counts = await asyncio.gather(*(s.count_timeout(GUILD, 5) for s in (store, other) * 3))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    # An own decision ends it all: the count starts again.
    assert await other.end_away(GUILD, 5) == Absence(None, False, 6)
    assert await store.count_timeout(GUILD, 5) == 1


async def test_choosing_to_be_away_replaces_an_automatic_away_and_clears_the_count(
    store: Store,
) -> None:
    await store.count_timeout(GUILD, ANN)
    await store.set_away(GUILD, ANN, NOW + 50)
    assert await store.absence(GUILD, ANN) == Absence(NOW + 50, False, 0)
    await store.count_timeout(GUILD, ANN)
    await store.count_timeout(GUILD, ANN)
    assert await store.away_after_timeouts(GUILD, ANN, NOW + 70, 2)
    assert await store.absence(GUILD, ANN) == Absence(NOW + 70, True, 0)
    await store.set_away(GUILD, ANN, NOW + 80)
    assert await store.absence(GUILD, ANN) == Absence(NOW + 80, False, 0)


async def test_a_pause_is_kept_in_the_row_with_its_timers_without_a_version_bump(
    store: Store, other: Store
) -> None:
    table, _ = await start_table(store, 510)
    pause = Pause(ANN, "ann", "dinner, back soon", NOW + 10, NOW + 7200, table.version, 3590.0)
    await store.set_pause(
        table.id,
        table.version,
        pause,
        NOW + 7200,
        None,
        expected_timers=(table.deadline, table.reminder_at),
    )
    paused = await other.get_table(table.id)
    assert (paused.pause, paused.deadline, paused.reminder_at) == (pause, NOW + 7200, None)
    assert paused.version == table.version
    # The pause's end is the table's deadline: the timer loop of any process finds it due.
    assert table.id not in [t.id for t in await other.due_timers(NOW + 7199)]
    assert table.id in [t.id for t in await other.due_timers(NOW + 7200)]

    # Two processes resuming at once: one does, the other finds the timers changed.
    results = await asyncio.gather(
        *(
            s.set_pause(
                table.id,
                table.version,
                None,
                NOW + 9000,
                None,
                expected_timers=(NOW + 7200, None),
            )
            for s in (store, other)
        ),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "VersionConflict"]
    resumed = await store.get_table(table.id)
    assert (resumed.pause, resumed.deadline, resumed.reminder_at) == (None, NOW + 9000, None)


async def test_a_pause_is_refused_at_another_version_or_on_a_table_not_playing(
    store: Store,
) -> None:
    table, _ = await start_table(store, 520)
    pause = Pause(ANN, "ann", "", NOW, NOW + 60, table.version)
    timers = (table.deadline, table.reminder_at)
    with pytest.raises(VersionConflict):
        await store.set_pause(
            table.id, table.version + 1, pause, NOW + 60, None, expected_timers=timers
        )
    lobby = await store.create_table(GUILD, 521, ANN, table.options, table.seats, NOW)
    with pytest.raises(NotFound):
        await store.set_pause(
            lobby.id, lobby.version, pause, NOW + 60, None, expected_timers=(None, None)
        )
    assert (await store.get_table(table.id)).pause is None


async def test_the_open_tables_of_a_server_where_a_player_sits_are_found(store: Store) -> None:
    here, _ = await start_table(store, 530)
    there, _ = await start_table(store, 531)
    await start_table(store, 532, guild_id=88)  # another server
    lobby = await store.create_table(GUILD, 533, ANN, here.options, here.seats, NOW)
    closed = await store.create_table(GUILD, 534, ANN, here.options, here.seats, NOW)
    await store.end_table(closed.id, closed.version, "cancelled", NOW)
    assert await store.seated_tables(GUILD, ANN) == [here.id, there.id, lobby.id]
    assert await store.seated_tables(GUILD, 4242) == []

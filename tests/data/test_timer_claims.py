"""``Store.claim_timers``: of several bot processes polling the same timers, exactly one acts on
each due table; a claim whose holder stopped runs out after its lease and another process takes
the table over; a claim never hides a timer for longer than its lease. Each test runs on SQLite
and PostgreSQL alike, two store objects standing for two processes on one database."""

from __future__ import annotations

import asyncio

from data.store import Store, Table
from tests.data.helpers import NOW, start_table

REMINDER = NOW + 1800  # start_table's reminder time (its deadline is an hour after NOW)
LEASE = 30.0


async def tables(store: Store, n: int, first_channel: int = 500) -> list[Table]:
    return [(await start_table(store, first_channel + i, seed=i))[0] for i in range(n)]


def ids(found: list[Table]) -> list[int]:
    return [t.id for t in found]


async def test_two_processes_claiming_together_take_each_due_table_exactly_once(
    store: Store, other: Store
) -> None:
    due = ids(await tables(store, 24))
    claimed: list[list[int]] = []
    for _round in range(4):
        found = await asyncio.gather(
            *(
                s.claim_timers(REMINDER, f"process {i}", LEASE, 5)
                for i, s in enumerate((store, other, store, other))
            )
        )
        claimed.extend(ids(f) for f in found)
    every = [t for got in claimed for t in got]
    assert sorted(every) == due  # each due table once, none twice, none left
    assert all(len(got) <= 5 for got in claimed)
    assert await store.claim_timers(REMINDER, "process 4", LEASE, 100) == []


async def test_a_table_is_claimed_only_once_its_timer_is_due(store: Store) -> None:
    [table] = await tables(store, 1)
    assert await store.claim_timers(REMINDER - 1, "a", LEASE, 10) == []
    [claimed] = await store.claim_timers(REMINDER, "a", LEASE, 10)
    assert claimed.id == table.id
    assert (claimed.version, claimed.deadline, claimed.reminder_at) == (
        table.version,
        table.deadline,
        table.reminder_at,
    )
    assert claimed.state == table.state


async def test_a_claim_hides_the_timer_from_other_processes_for_its_lease_and_no_longer(
    store: Store, other: Store
) -> None:
    [table] = await tables(store, 1)
    assert ids(await store.claim_timers(REMINDER, "a", LEASE, 10)) == [table.id]
    assert await other.claim_timers(REMINDER + LEASE - 0.5, "b", LEASE, 10) == []
    # "a" stopped without releasing it: at the end of the lease "b" takes the table over...
    assert ids(await other.claim_timers(REMINDER + LEASE, "b", LEASE, 10)) == [table.id]
    # ...and holds it now, against "a" too.
    assert await store.claim_timers(REMINDER + LEASE + 1, "a", LEASE, 10) == []
    assert ids(await store.claim_timers(REMINDER + 2 * LEASE, "a", LEASE, 10)) == [table.id]


async def test_a_released_claim_lets_the_next_poll_take_the_table_at_once(
    store: Store, other: Store
) -> None:
    [table] = await tables(store, 1)
    await store.claim_timers(REMINDER, "a", LEASE, 10)
    await store.release_timers(table.id, "a")
    assert ids(await other.claim_timers(REMINDER, "b", LEASE, 10)) == [table.id]


async def test_only_the_holder_releases_its_claim(store: Store, other: Store) -> None:
    [table] = await tables(store, 1)
    await store.claim_timers(REMINDER, "a", LEASE, 10)
    await other.release_timers(table.id, "b")  # "b" holds nothing here: nothing happens
    assert await other.claim_timers(REMINDER, "b", LEASE, 10) == []
    # "b" took the table over after "a"'s lease ran out: "a"'s late release leaves it to "b".
    await other.claim_timers(REMINDER + LEASE, "b", LEASE, 10)
    await store.release_timers(table.id, "a")
    assert await store.claim_timers(REMINDER + LEASE + 1, "a", LEASE, 10) == []


async def test_a_claim_takes_the_lowest_ids_up_to_its_limit(store: Store) -> None:
    due = ids(await tables(store, 5))
    assert ids(await store.claim_timers(REMINDER, "a", LEASE, 2)) == due[:2]
    assert ids(await store.claim_timers(REMINDER, "a", LEASE, 2)) == due[2:4]
    assert ids(await store.claim_timers(REMINDER, "a", LEASE, 2)) == due[4:]


async def test_a_closed_table_is_never_claimed(store: Store) -> None:
    [table] = await tables(store, 1)
    await store.end_table(table.id, table.version, "aborted", NOW)
    assert await store.claim_timers(REMINDER + 10 * LEASE, "a", LEASE, 10) == []


async def test_a_claimed_table_moved_on_meanwhile_is_claimed_again_once_due(
    store: Store, other: Store
) -> None:
    [table] = await tables(store, 1)
    await store.claim_timers(REMINDER, "a", LEASE, 10)
    await store.set_timers(table.id, table.version, table.deadline, REMINDER + 5)
    await store.release_timers(table.id, "a")
    assert await other.claim_timers(REMINDER + 4, "b", LEASE, 10) == []
    [again] = await other.claim_timers(REMINDER + 5, "b", LEASE, 10)
    assert again.reminder_at == REMINDER + 5

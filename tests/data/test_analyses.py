"""The turning points' analyses on both stores (:class:`data.store.Analyses`): each match with a
result is claimed by one process at a time, the one that ended last first; a claim runs out,
is renewed or released; the analysis is kept once and read back, and a damaged one is reported,
never read as something else."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from data.analyses import MAX_ATTEMPTS
from data.store import CorruptRecord, Store, Table, TableOptions, TableStatus
from engine import Game
from engine.ai.review import Review
from engine.model import Fall, Play
from tests.conftest import Backend

from .helpers import NOW, play, seats

LEASE = 60.0
SINCE = NOW - 7 * 86_400
REVIEWS = (
    Review(0, 0, Play("B40", (1, 3)), Play("G6", (0, 6)), 2.25, 3.0, 0.0),
    Review(1, 0, Fall("left"), Fall("left"), 0.0, 1.0, 1.0),
    Review(5, 2, Play("Y2", (0, -2)), Play("Y2", (0, -2)), 0.0, 0.0, 0.0),
)


async def ended(
    store: Store, channel: int, at: float, *, status: TableStatus = "finished"
) -> Table:
    """A match played to its end (or stopped, ``status="aborted"``) at ``at``."""
    table = await store.create_table(77, channel, 1001, TableOptions(), seats(3), NOW)
    game = Game.new(3, channel)
    table = await store.start_game(
        table.id, table.version, table.seats, game.to_dict(), None, None, NOW
    )
    table = await play(
        store, table, game, random.Random(channel), moves=None if status == "finished" else 5
    )
    results = {"scores": list(game.standings())}
    return await store.end_table(table.id, table.version, status, at, results)


async def test_the_match_that_ended_last_is_claimed_by_one_process(
    store: Store, other: Store
) -> None:
    first = await ended(store, 1, NOW + 10)
    last = await ended(store, 2, NOW + 20)
    stopped = await ended(store, 3, NOW + 15, status="aborted")
    await store.create_table(77, 4, 1001, TableOptions(), seats(2), NOW)  # a lobby: no result
    mine, theirs = store.analyses(), other.analyses()
    claims = await asyncio.gather(
        mine.claim_analysis("a", NOW + 30, LEASE, SINCE),
        theirs.claim_analysis("b", NOW + 30, LEASE, SINCE),
    )
    assert sorted(claims) == sorted([last.id, stopped.id])  # one each, the last ended first
    assert await mine.claim_analysis("a", NOW + 30, LEASE, SINCE) == first.id
    assert await mine.claim_analysis("a", NOW + 30, LEASE, SINCE) is None  # all claimed
    for table in (first, last, stopped):
        found = await mine.analysis(table.id, NOW + 31)
        assert found is not None and found.state == "working" and found.reviews == ()


async def test_a_match_that_ended_before_the_window_is_not_claimed(store: Store) -> None:
    old = await ended(store, 1, NOW - 8 * 86_400)
    analyses = store.analyses()
    assert await analyses.claim_analysis("a", NOW, LEASE, SINCE) is None
    assert await analyses.analysis(old.id, NOW) is None


async def test_a_claim_runs_out_unless_renewed_and_another_process_takes_it(
    store: Store, other: Store
) -> None:
    table = await ended(store, 1, NOW)
    mine, theirs = store.analyses(), other.analyses()
    assert await mine.claim_analysis("a", NOW, LEASE, SINCE) == table.id
    assert await theirs.claim_analysis("b", NOW + LEASE - 1, LEASE, SINCE) is None
    assert await mine.renew_analysis(table.id, "a", NOW + LEASE - 1, NOW + 2 * LEASE)
    assert await theirs.claim_analysis("b", NOW + LEASE + 1, LEASE, SINCE) is None  # renewed
    assert not await theirs.renew_analysis(table.id, "b", NOW + LEASE + 1, NOW + 3 * LEASE)
    # "a" stops renewing (its process died): once the claim ran out, "b" takes it over.
    late = NOW + 2 * LEASE
    assert await theirs.claim_analysis("b", late, LEASE, SINCE) == table.id
    assert not await mine.renew_analysis(table.id, "a", late + 1, late + LEASE)
    found = await mine.analysis(table.id, late + 1)
    assert found is not None and found.state == "working"


async def test_an_analysis_is_kept_once_and_read_back(store: Store, other: Store) -> None:
    table = await ended(store, 1, NOW)
    mine, theirs = store.analyses(), other.analyses()
    assert await mine.claim_analysis("a", NOW, LEASE, SINCE) == table.id
    assert await mine.save_analysis(table.id, REVIEWS, NOW + 5)
    # A process whose claim overlapped saves too: the first analysis stays, once.
    assert not await theirs.save_analysis(table.id, REVIEWS[:1], NOW + 6)
    assert not await theirs.save_analysis(table.id, None, NOW + 7)
    found = await theirs.analysis(table.id, NOW + 8)
    assert found is not None and found.state == "done" and found.reviews == REVIEWS
    # Done: never claimed again, whoever asks and however late.
    assert await theirs.claim_analysis("b", NOW + 10 * LEASE, LEASE, SINCE) is None
    assert not await mine.renew_analysis(table.id, "a", NOW + 9, NOW + LEASE)


async def test_an_empty_analysis_and_one_that_cannot_be_made_are_kept_as_such(
    store: Store,
) -> None:
    done, failed = await ended(store, 1, NOW), await ended(store, 2, NOW + 1)
    analyses = store.analyses()
    assert await analyses.save_analysis(done.id, (), NOW + 5)
    assert await analyses.save_analysis(failed.id, None, NOW + 5)
    found = await analyses.analysis(done.id, NOW + 6)
    assert found is not None and found.state == "done" and found.reviews == ()
    gone = await analyses.analysis(failed.id, NOW + 6)
    assert gone is not None and gone.state == "failed" and gone.reviews == ()
    assert await analyses.claim_analysis("a", NOW + 6, LEASE, SINCE) is None


async def test_a_released_claim_is_taken_at_once_and_not_counted(
    store: Store, other: Store
) -> None:
    table = await ended(store, 1, NOW)
    mine, theirs = store.analyses(), other.analyses()
    for i in range(MAX_ATTEMPTS + 2):  # restarts in the middle of the work, one after another
        owner = f"process {i}"
        assert await mine.claim_analysis(owner, NOW + i, LEASE, SINCE) == table.id
        await theirs.release_analysis(table.id, "someone else")  # not theirs: nothing happens
        assert await theirs.claim_analysis("b", NOW + i, LEASE, SINCE) is None
        await mine.release_analysis(table.id, owner)
    assert await theirs.claim_analysis("b", NOW + 10, LEASE, SINCE) == table.id
    assert await theirs.save_analysis(table.id, REVIEWS, NOW + 11)
    found = await mine.analysis(table.id, NOW + 12)
    assert found is not None and found.state == "done"


async def test_an_analysis_that_keeps_failing_is_given_up(store: Store) -> None:
    table = await ended(store, 1, NOW)
    analyses = store.analyses()
    at = NOW
    for _ in range(MAX_ATTEMPTS):  # each claim runs out: the process working on it died
        assert await analyses.claim_analysis("a", at, LEASE, SINCE) == table.id
        during = await analyses.analysis(table.id, at + 1)
        assert during is not None and during.state == "working"
        at += LEASE
    assert await analyses.claim_analysis("a", at, LEASE, SINCE) is None
    found = await analyses.analysis(table.id, at)
    assert found is not None and found.state == "failed"


@pytest.mark.parametrize("stored", ['{"not": "a list"}', '[{"entry": 0}]', "[1, 2]"])
async def test_a_damaged_analysis_is_reported_for_its_match(
    store: Store, backend_db: Backend, stored: str
) -> None:
    table = await ended(store, 1, NOW)
    fine = await ended(store, 2, NOW)
    analyses = store.analyses()
    assert await analyses.save_analysis(table.id, REVIEWS, NOW + 1)
    assert await analyses.save_analysis(fine.id, REVIEWS, NOW + 1)
    cast = "" if backend_db.sqlite_file is not None else "::jsonb"
    await backend_db.sql(
        f"UPDATE analyses SET reviews = ?{cast} WHERE table_id = ?", stored, table.id
    )
    with pytest.raises(CorruptRecord, match="unreadable analysis") as err:
        await analyses.analysis(table.id, NOW + 2)
    assert err.value.table_id == table.id
    found = await analyses.analysis(fine.id, NOW + 2)
    assert found is not None and found.reviews == REVIEWS


async def test_unreadable_json_in_a_sqlite_file_is_reported_too(
    store: Store, backend_db: Backend, db_path: Path
) -> None:
    """(PostgreSQL keeps only JSON in a JSONB column.)"""
    table = await ended(store, 1, NOW)
    assert await store.analyses().save_analysis(table.id, REVIEWS, NOW + 1)
    await backend_db.sql(
        "UPDATE analyses SET reviews = ? WHERE table_id = ?", "[{not json", table.id
    )
    with pytest.raises(CorruptRecord, match="unreadable analysis"):
        await store.analyses().analysis(table.id, NOW + 2)

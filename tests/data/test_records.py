"""Records on both stores: rated once per match, recomputed equal to the incremental ratings,
and the aggregates behind /fp stats (the rating itself: ``tests/rating``)."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from data import open_store
from data.records import records_for
from data.store import Seat, Store, TableOptions, TableStatus
from engine import Game
from rating import MIN_MATCHES, MODEL, PlayerRecord, person_key

from .helpers import NOW, play, random_move

GUILD = 77


# --- the stores ------------------------------------------------------------------------------


async def finished_match(
    store: Store,
    channel: int,
    seed: int,
    seats: tuple[Seat, ...],
    *,
    guild_id: int = GUILD,
    hints: bool = False,
) -> int:
    """A match played to the end with random legal moves and recorded as the bot does (at a
    practice table with ``hints``)."""
    options = TableOptions(curse=True, hints=hints)
    table = await store.create_table(
        guild_id, channel, seats[0].user_id or 1, options, seats, NOW + seed
    )
    game = Game.new(len(seats), seed, curse=True)
    table = await store.start_game(
        table.id, table.version, seats, game.to_dict(), None, None, NOW + seed
    )
    table = await play(store, table, game, random.Random(seed))
    results = {"scores": list(game.scores), "winners": game.winners()}
    await store.end_table(table.id, table.version, "finished", NOW + seed + 1, results)
    return table.id


PEOPLE = [Seat(1000 + i, f"P{i}") for i in range(5)]


def lineup(i: int) -> tuple[Seat, ...]:
    """Different tables of 2 to 4 seats, with a computer now and then."""
    n = 2 + i % 3
    chosen = [PEOPLE[(i + k) % len(PEOPLE)] for k in range(n)]
    if i % 4 == 0:
        chosen[-1] = Seat(None, "Computer 1", "hard")
    return tuple(chosen)


async def test_a_finished_match_is_rated_once_whoever_asks(store: Store, other: Store) -> None:
    tid = await finished_match(store, 1, 1, lineup(1))
    mine, theirs = records_for(store), records_for(other)
    done = await asyncio.gather(mine.rate_match(tid), theirs.rate_match(tid), mine.rate_match(tid))
    assert sorted(done) == [False, False, True]
    assert await mine.rate_pending() == 0
    records = await mine.all_records(GUILD)
    assert sorted(r.player for r in records) == sorted(
        person_key(s.user_id or 0) for s in lineup(1)
    )
    assert all(r.matches == 1 for r in records)


async def test_matches_are_rated_once_by_processes_catching_up_together(
    store: Store, other: Store
) -> None:
    for i in range(6):
        await finished_match(store, 10 + i, 100 + i, lineup(i))
    counts = await asyncio.gather(
        records_for(store).rate_pending(), records_for(other).rate_pending()
    )
    assert sum(counts) == 6
    records = await records_for(store).all_records(GUILD)
    appearances = sum(len({s.user_id or s.ai for s in lineup(i)}) for i in range(6))
    assert sum(r.matches for r in records) == appearances


async def test_recomputed_ratings_equal_the_incremental_ones(store: Store) -> None:
    for i in range(8):
        await finished_match(store, 20 + i, 200 + i, lineup(i))
        await records_for(store).rate_pending()  # as the bot does after each match
    rec = records_for(store)
    incremental = await rec.all_records(GUILD)
    assert await rec.recompute(GUILD) == 8
    assert await rec.all_records(GUILD) == incremental
    hard = next(r for r in incremental if r.player == "ai:hard")
    assert hard.matches == 2 and hard.name == "Computer (hard)"


async def test_stats_rank_the_player_among_those_with_enough_matches(store: Store) -> None:
    for i in range(9):
        await finished_match(store, 40 + i, 300 + i, lineup(i))
    rec = records_for(store)
    assert await rec.rate_pending() == 9
    board = await rec.leaderboard(GUILD, 0, 3)
    everyone = await rec.all_records(GUILD)
    eligible = sorted(
        (r for r in everyone if r.matches >= MIN_MATCHES), key=lambda r: (-r.ordinal, r.player)
    )
    assert board.total == len(eligible) and board.first_rank == 1
    assert list(board.entries) == eligible[:3]
    second = await rec.leaderboard(GUILD, 3, 3)
    assert list(second.entries) == eligible[3:6] and second.first_rank == 4
    top = eligible[0]
    stats = await rec.player_stats(GUILD, top.player)
    assert stats is not None and stats.rank == 1 and stats.record == top
    assert stats.ranked_players == len(eligible)
    assert stats.favourite_opening is not None
    assert await rec.player_stats(GUILD, "u:1") is None
    assert await rec.player_stats(GUILD + 1, top.player) is None  # per server


async def test_history_lists_a_servers_or_a_players_matches_newest_first(store: Store) -> None:
    ids = [await finished_match(store, 60 + i, 400 + i, lineup(i)) for i in range(5)]
    other_server = await finished_match(store, 70, 500, lineup(1), guild_id=GUILD + 1)
    rec = records_for(store)
    everything = await rec.history(GUILD, None, 10)
    assert [e.table_id for e in everything] == ids[::-1]
    assert other_server not in [e.table_id for e in everything]
    p0 = PEOPLE[0].user_id
    mine = await rec.history(GUILD, p0, 10)
    assert [e.table_id for e in mine] == [
        tid for i, tid in reversed(list(enumerate(ids))) if p0 in [s.user_id for s in lineup(i)]
    ]
    page2 = await rec.history(GUILD, None, 2, before=everything[1].finished_at)
    assert [e.table_id for e in page2] == [e.table_id for e in everything[2:4]]


async def test_tables_closed_before_their_first_move_are_never_rated(store: Store) -> None:
    lobby = await store.create_table(GUILD, 80, 1000, TableOptions(), lineup(1), NOW)
    await store.end_table(lobby.id, lobby.version, "cancelled", NOW)
    table = await store.create_table(GUILD, 81, 1000, TableOptions(), lineup(1), NOW)
    game = Game.new(3, 1)
    table = await store.start_game(
        table.id, table.version, table.seats, game.to_dict(), None, None, NOW
    )
    await store.end_table(table.id, table.version, "aborted", NOW)
    rec = records_for(store)
    assert await rec.rate_pending() == 0
    assert await rec.rate_match(table.id) is False
    assert await rec.all_records(GUILD) == []


async def test_a_practice_match_rates_nobody_and_stays_in_the_history(store: Store) -> None:
    """A table with hints on (its players could ask the expert at every decision) changes no
    record: it is marked rated at once, writes no rating, and a recomputation leaves it out;
    it is still a match of the history."""
    rated = await finished_match(store, 90, 600, lineup(1))
    practice = await finished_match(store, 91, 601, lineup(1), hints=True)
    rec = records_for(store)
    assert await rec.rate_pending() == 2
    assert await rec.rate_match(practice) is False  # marked rated: never looked at again
    records = await rec.all_records(GUILD)
    assert records and all(r.matches == 1 for r in records)  # the other match only
    assert await rec.recompute(GUILD) == 2
    assert await rec.all_records(GUILD) == records
    assert [e.table_id for e in await rec.history(GUILD, None, 10)] == [practice, rated]


# --- matches that people left, and matches stopped before their end ------------------------


async def match_with_leavers(
    store: Store,
    channel: int,
    seed: int,
    seats: tuple[Seat, ...],
    *,
    leave: tuple[tuple[int, float], ...] = (),
    stop_after: int | None = None,
) -> tuple[int, Game]:
    """A match of random legal moves, recorded as the bot records it. The people of ``leave``
    (``(seat, when)``) leave after the first move, and a computer plays their seats on from the
    next move; with ``stop_after``, the match is aborted after that many moves and recorded
    with its standings (else it is played to the end). Returns the table's id and the game as
    it ended."""
    table = await store.create_table(
        GUILD, channel, seats[0].user_id or 1, TableOptions(curse=True), seats, NOW + seed
    )
    game = Game.new(len(seats), seed, curse=True)
    table = await store.start_game(
        table.id, table.version, seats, game.to_dict(), None, None, NOW + seed
    )
    rnd = random.Random(seed)
    table = await play(store, table, game, rnd, 1)
    now = list(seats)
    for seat, at in leave:
        user_id = now[seat].user_id
        assert user_id is not None
        await store.record_departure(table.id, seat, user_id, at, now[seat].name)
        now[seat] = Seat(None, f"{now[seat].name} (computer)", "easy")
    moves = 1
    while game.pending is not None and (stop_after is None or moves < stop_after):
        seat, action = random_move(game, rnd)
        table = await store.apply_action(
            table.id,
            table.version,
            seat=seat,
            user_id=now[seat].user_id,
            action=action,
            state=game.to_dict(),
            deadline=None,
            reminder_at=None,
            now=NOW + seed,
            seats=tuple(now),
            status="finished" if game.pending is None else None,
        )
        moves += 1
    status: TableStatus = "finished"
    results = {"scores": list(game.scores), "winners": game.winners()}
    if stop_after is not None:
        status = "aborted"
        results = {"scores": list(game.standings()), "winners": [], "rounds": game.rounds}
    await store.end_table(table.id, table.version, status, NOW + seed + 1, results)
    return table.id, game


def expected_mu(places: list[int]) -> list[float]:
    """openskill's new mu of fresh players at these places."""
    r = MODEL.rating
    return [new.mu for (new,) in MODEL.rate([[r()] for _ in places], ranks=places)]


def places_of(totals: list[int]) -> list[int]:
    ranked = sorted(set(totals))
    return [ranked.index(t) + 1 for t in totals]


async def test_a_match_aborted_after_its_first_move_is_rated_by_its_standings(
    store: Store,
) -> None:
    seats = tuple(PEOPLE[:3])
    _, game = await match_with_leavers(store, 90, 5, seats, stop_after=9)
    standings = list(game.standings())
    assert game.pending is not None and standings != list(game.scores)  # stopped mid-round
    rec = records_for(store)
    assert await rec.rate_pending() == 1
    got = {r.player: r for r in await rec.all_records(GUILD)}
    assert sorted(got) == sorted(person_key(s.user_id or 0) for s in seats)
    want = expected_mu(places_of(standings))
    for seat, total, mu in zip(seats, standings, want, strict=True):
        r = got[person_key(seat.user_id or 0)]
        assert (r.matches, r.tiles_left) == (1, total)
        assert r.mu == pytest.approx(mu)
        assert r.wins == int(total == min(standings))  # first when it stopped: a win
    assert await rec.rate_pending() == 0


async def test_the_people_who_left_are_rated_last_the_earliest_last(store: Store) -> None:
    seats = tuple(PEOPLE[:4])
    # Seat 2 leaves first, seat 1 later; seats 0 and 3 play to the end.
    _, game = await match_with_leavers(store, 91, 3, seats, leave=((2, NOW + 10), (1, NOW + 20)))
    assert game.match_over
    seated = places_of([game.scores[0], game.scores[3]])
    last = max(seated)
    places = [seated[0], last + 1, last + 2, seated[1]]
    rec = records_for(store)
    assert await rec.rate_pending() == 1
    got = {r.player: r for r in await rec.all_records(GUILD)}
    assert sorted(got) == sorted(person_key(s.user_id or 0) for s in seats)  # no stand-in
    # Their seats show "P1 (computer)" and "P2 (computer)" by the end: rated as they sat.
    assert [got[person_key(s.user_id or 0)].name for s in seats] == ["P0", "P1", "P2", "P3"]
    for seat, mu, place in zip(seats, expected_mu(places), places, strict=True):
        r = got[person_key(seat.user_id or 0)]
        assert r.mu == pytest.approx(mu)
        assert r.wins == int(place == 1)


async def test_a_match_closed_when_its_last_person_left_is_rated_with_them_last(
    store: Store,
) -> None:
    seats = (PEOPLE[0], PEOPLE[1], Seat(None, "Max", "hard"))
    # Both people leave after the first move, the second one closes the table.
    await match_with_leavers(
        store, 92, 4, seats, leave=((1, NOW + 10), (0, NOW + 20)), stop_after=1
    )
    rec = records_for(store)
    assert await rec.rate_pending() == 1
    got = {r.player: r for r in await rec.all_records(GUILD)}
    want = expected_mu([1, 2, 3])  # the computer, then P0 (left last), then P1
    assert [got[k].mu for k in ("ai:hard", "u:1000", "u:1001")] == pytest.approx(want)
    assert [got[k].wins for k in ("ai:hard", "u:1000", "u:1001")] == [1, 0, 0]
    assert {got[k].name for k in ("u:1000", "u:1001")} == {"P0", "P1"}


async def test_the_best_person_wins_when_the_computer_in_a_leavers_seat_finishes_first(
    store: Store,
) -> None:
    seats = tuple(PEOPLE[:3])
    _, game = await match_with_leavers(store, 93, 7, seats, leave=((1, NOW + 10),))
    assert game.winners() == [1]  # the computer in P1's seat won (this seed, checked once)
    best = 0 if game.scores[0] < game.scores[2] else 2
    rec = records_for(store)
    await rec.rate_pending()
    stats = await rec.player_stats(GUILD, person_key(seats[best].user_id or 0))
    assert stats is not None and (stats.record.wins, stats.record.streak) == (1, 1)
    board = await rec.leaderboard(GUILD, 0, 3, min_matches=1)
    assert board.entries[0].player == stats.record.player  # first in the rating too
    assert sum(r.wins for r in await rec.all_records(GUILD)) == 1


async def test_recomputed_ratings_equal_the_incremental_ones_after_leavers_and_aborts(
    store: Store,
) -> None:
    computer = Seat(None, "Max", "hard")
    matches: list[dict[str, Any]] = [
        {"seats": tuple(PEOPLE[:3])},
        {"seats": tuple(PEOPLE[1:4]), "leave": ((0, NOW + 5),)},
        {"seats": tuple(PEOPLE[:4]), "stop_after": 12},
        {"seats": (*PEOPLE[2:4], computer), "leave": ((1, NOW + 7),), "stop_after": 20},
        {"seats": (PEOPLE[4], computer), "leave": ((0, NOW + 3),), "stop_after": 3},
        {"seats": tuple(PEOPLE[:5]), "leave": ((4, NOW + 2), (0, NOW + 9))},
        {"seats": (PEOPLE[0], PEOPLE[3]), "stop_after": 2},
    ]
    rec = records_for(store)
    for i, m in enumerate(matches):
        await match_with_leavers(store, 100 + i, 20 + i, **m)
        assert await rec.rate_pending() == 1  # as the bot does after each match
    incremental = await rec.all_records(GUILD)
    assert await rec.recompute(GUILD) == len(matches)
    assert await rec.all_records(GUILD) == incremental
    by_player = {r.player: r for r in incremental}
    assert by_player["u:1004"].matches == 2  # the match P4 left, and the one they closed
    assert by_player["ai:hard"].matches == 2


async def test_history_lists_the_stopped_matches_and_those_a_player_left(store: Store) -> None:
    await match_with_leavers(store, 110, 1, tuple(PEOPLE[:3]))
    _, stopped = await match_with_leavers(
        store, 111, 2, tuple(PEOPLE[1:4]), leave=((0, NOW + 5),), stop_after=6
    )
    rec = records_for(store)
    newest, older = await rec.history(GUILD, None, 10)
    assert (newest.stopped, older.stopped) == (True, False)
    assert list(newest.scores or ()) == list(stopped.standings()) and newest.winners == ()
    assert older.winners != ()
    # P1 left the stopped match before it ended: it is theirs too (their seat shows a computer).
    assert newest.seats[0].user_id is None
    assert [e.table_id for e in await rec.history(GUILD, PEOPLE[1].user_id, 10)] == [
        newest.table_id,
        older.table_id,
    ]
    assert [e.table_id for e in await rec.history(GUILD, PEOPLE[0].user_id, 10)] == [older.table_id]


def test_the_ratings_command_rates_pending_matches_and_recomputes_them_equal(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"

    async def fill() -> list[PlayerRecord]:
        store = open_store(url)
        await store.open()
        try:
            for i in range(4):
                await finished_match(store, 30 + i, 600 + i, lineup(i))
            rec = records_for(store)
            await rec.rate_pending()
            return await rec.all_records(GUILD)
        finally:
            await store.close()

    incremental = asyncio.run(fill())
    out = subprocess.run(
        [sys.executable, "-m", "data", "ratings", url, "--recompute"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "rated 0 finished matches that were not rated yet",
        "recomputed the ratings from 4 stored results",
    ]

    async def read() -> list[PlayerRecord]:
        store = open_store(url)
        await store.open()
        try:
            return await records_for(store).all_records(GUILD)
        finally:
            await store.close()

    assert asyncio.run(read()) == incremental

"""Records on both stores: ratings with openskill's Plackett-Luce model, rated once per match,
recomputed equal to the incremental ratings, and the aggregates behind /fp stats."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

from data import open_store
from data.records import (
    MIN_MATCHES,
    MODEL,
    MatchFacts,
    PlayerRecord,
    SeatFacts,
    computer_key,
    match_facts,
    person_key,
    rate,
    rated_seats,
    records_for,
)
from data.store import Seat, Store, TableOptions
from engine import Game

from .helpers import NOW, play

GUILD = 77


def test_the_model_gives_the_documented_example_of_openskill() -> None:
    # openskill's README ("Limited Example"): two teams of two fresh players, the first wins.
    r = MODEL.rating
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert a.mu == b.mu and x.mu == y.mu
    # openskill's ordinal: mu - 3 sigma (the README's "Ranks" example: 43.07, 2.42 -> 35.81).
    assert round(MODEL.rating(mu=43.07, sigma=2.42).ordinal(), 2) == 35.81
    assert PlayerRecord(1, "u:1", "x", mu=43.07, sigma=2.42).ordinal == pytest.approx(35.81)


def _seat_facts(*totals: int) -> MatchFacts:
    return MatchFacts(tuple(SeatFacts(total=t) for t in totals))


def test_a_match_is_rated_as_openskill_rates_its_places_lowest_total_first() -> None:
    seats = (Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy"), Seat(4, "Di"))
    facts = _seat_facts(9, 0, 5, 2)  # places 4, 1, 3, 2
    rated = rated_seats(seats, [1], {}, facts)
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    r = MODEL.rating
    expected = MODEL.rate([[r()], [r()], [r()], [r()]], ranks=[4.0, 1.0, 3.0, 2.0])
    for uid, (want,) in zip((1, 2, 3, 4), expected, strict=True):
        got = new[person_key(uid)]
        assert (got.mu, got.sigma) == (want.mu, want.sigma)
    assert [new[person_key(u)].wins for u in (1, 2, 3, 4)] == [0, 1, 0, 0]
    assert new[person_key(2)].streak == 1 and new[person_key(2)].tiles_left == 0
    assert new[person_key(1)].tiles_left == 9


def test_tied_totals_share_a_place_and_move_equally() -> None:
    seats = (Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy"))
    rated = rated_seats(seats, [0, 1], {}, _seat_facts(2, 2, 7))
    assert [s.place for s in rated] == [1, 1, 2]
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    assert new["u:1"].mu == new["u:2"].mu > new["u:3"].mu


def test_a_person_who_left_is_rated_last_and_the_computer_in_their_seat_not_at_all() -> None:
    # Seat 1 was Bob's; he left and a computer finished the match for him, and won.
    seats = (Seat(1, "Ann"), Seat(None, "Computer 1", "normal"), Seat(3, "Cy"))
    rated = rated_seats(seats, [1], {1: 2}, _seat_facts(4, 0, 6))
    assert [(s.player, s.place, s.won) for s in rated] == [
        ("u:1", 1, False),
        ("u:3", 2, False),
        ("u:2", 3, False),
    ]


def test_a_computer_is_rated_as_one_pseudo_player_per_level() -> None:
    seats = (Seat(1, "Ann"), Seat(None, "Computer 1", "hard"), Seat(None, "Computer 2", "hard"))
    rated = rated_seats(seats, [2], {}, _seat_facts(5, 3, 1))
    assert [(s.player, s.name, s.place) for s in rated] == [
        (computer_key("hard"), "Computer (hard)", 1),
        ("u:1", "Ann", 3),
    ]


def test_the_facts_count_the_public_mayhem_of_a_replayed_match() -> None:
    # RULES 5.1 (a collapse sends the supports to the player's pile): a short game with one.
    rnd = random.Random(5)
    game = Game.new(3, 11, curse=True)
    initial = game.to_dict()
    from data.store import LoggedAction

    log = []
    while game.pending is not None:
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        log.append(LoggedAction(1, len(log) + 2, seat, None, action.to_dict(), NOW))
    facts = match_facts(initial, log, None)
    assert [f.total for f in facts.seats] == list(game.scores)
    assert all(f.opening is not None for f in facts.seats)
    mayhem = sum(f.collapses + f.fires + f.explosions + f.curses for f in facts.seats)
    taken = sum(f.tiles_taken for f in facts.seats)
    assert mayhem > 0 and taken > 0  # this seed's random play has mayhem (checked once)
    assert facts.moves == len(log)


# --- the stores ------------------------------------------------------------------------------


async def finished_match(
    store: Store, channel: int, seed: int, seats: tuple[Seat, ...], *, guild_id: int = GUILD
) -> int:
    """A match played to the end with random legal moves and recorded as the bot does."""
    table = await store.create_table(
        guild_id, channel, seats[0].user_id or 1, TableOptions(curse=True), seats, NOW + seed
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


async def test_cancelled_and_aborted_tables_are_never_rated(store: Store) -> None:
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

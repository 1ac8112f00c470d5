"""Rating, pure: openskill's Plackett-Luce model on a match's places (lowest total first, ties
sharing a place, leavers last), who is rated for each seat, and the public facts of a replayed
match."""

from __future__ import annotations

import random
from typing import Any

import pytest

from data.store import LoggedAction, Seat
from engine import Game, Play
from rating import (
    MODEL,
    RATING_START,
    Departure,
    MatchFacts,
    PlayerRecord,
    SeatFacts,
    computer_key,
    match_facts,
    person_key,
    rate,
    rated_seats,
    shown_rating,
)

GUILD = 77
NOW = 1_700_000_000.0


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


def test_a_new_player_reads_the_starting_rating_and_one_lost_match_never_makes_it_negative() -> (
    None
):
    """The rating players read starts at 1000 (the conservative estimate mu - 3 sigma is 0 for
    a new player), and a newcomer who finishes last of six in their first match reads a little
    less, not a negative number (the issue's "-1.8")."""
    assert RATING_START == 1000
    assert PlayerRecord(GUILD, "u:1", "Ann").rating == 1000
    seats = tuple(Seat(i, f"P{i}") for i in range(1, 7))
    new = {
        r.player: r
        for r in rate({}, rated_seats(seats, [], _seat_facts(0, 1, 2, 3, 4, 5)), GUILD, NOW)
    }
    last, first = new[person_key(6)], new[person_key(1)]
    assert last.ordinal < 0 < first.ordinal
    assert 900 < last.rating < 1000 < first.rating
    # The newcomer: mu 22.4, sigma 8.1, "Rating (mu - 3 sigma): -1.9".
    assert shown_rating(22.4, 8.1) == 962


def test_the_shown_rating_orders_players_as_the_leaderboard_sorts_them() -> None:
    """The leaderboard sorts by mu - 3 sigma; the rating it shows is the same order, in whole
    points (20 a point of the model's skill), and 0 at the very least."""
    rnd = random.Random(3)
    pairs = [(rnd.uniform(-30, 60), rnd.uniform(0.5, 25 / 3)) for _ in range(500)]
    by_ordinal = sorted(pairs, key=lambda p: p[0] - 3 * p[1])
    shown = [shown_rating(mu, sigma) for mu, sigma in by_ordinal]
    assert shown == sorted(shown) and min(shown) >= 0
    assert shown_rating(30.0, 1.0) - shown_rating(20.0, 1.0) == 200
    assert shown_rating(-60.0, 5.0) == 0


def _seat_facts(*totals: int) -> MatchFacts:
    return MatchFacts(tuple(SeatFacts(total=t) for t in totals))


def test_a_match_is_rated_as_openskill_rates_its_places_lowest_total_first() -> None:
    seats = (Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy"), Seat(4, "Di"))
    facts = _seat_facts(9, 0, 5, 2)  # places 4, 1, 3, 2
    rated = rated_seats(seats, [], facts)
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    r = MODEL.rating
    expected = MODEL.rate([[r()], [r()], [r()], [r()]], ranks=[4.0, 1.0, 3.0, 2.0])
    for uid, (want,) in zip((1, 2, 3, 4), expected, strict=True):
        got = new[person_key(uid)]
        assert (got.mu, got.sigma) == (want.mu, want.sigma)
    assert [new[person_key(u)].wins for u in (1, 2, 3, 4)] == [0, 1, 0, 0]
    assert new[person_key(2)].streak == 1 and new[person_key(2)].tiles_left == 0
    assert new[person_key(1)].tiles_left == 9


def test_tied_totals_share_a_place_and_the_win_and_move_equally() -> None:
    seats = (Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cy"))
    rated = rated_seats(seats, [], _seat_facts(2, 2, 7))
    assert [(s.place, s.won) for s in rated] == [(1, True), (1, True), (2, False)]
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    assert new["u:1"].mu == new["u:2"].mu > new["u:3"].mu
    assert [new[k].wins for k in ("u:1", "u:2", "u:3")] == [1, 1, 0]


def test_a_person_who_left_is_rated_last_and_the_computer_in_their_seat_not_at_all() -> None:
    # Seat 1 was Bob's; he left and a computer finished the match for him, and won: Ann, the
    # best placed person, is first in the rating, and the win is hers.
    seats = (Seat(1, "Ann"), Seat(None, "Bob (computer)", "normal"), Seat(3, "Cy"))
    rated = rated_seats(seats, [Departure(1, 2, NOW, "Bob")], _seat_facts(4, 0, 6))
    assert [(s.player, s.place, s.won) for s in rated] == [
        ("u:1", 1, True),
        ("u:3", 2, False),
        ("u:2", 3, False),
    ]
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    assert (new["u:1"].wins, new["u:1"].streak, new["u:2"].wins) == (1, 1, 0)
    assert "ai:normal" not in new
    assert new["u:2"].name == "Bob"  # as he sat, not as the computer in his seat


def test_a_departure_kept_without_a_name_rates_the_person_under_their_seats_name() -> None:
    seats = (Seat(1, "Ann"), Seat(None, "Bob (computer)", "normal"))
    rated = rated_seats(seats, [Departure(1, 2, NOW, None)], _seat_facts(4, 0))
    assert [(s.player, s.name) for s in rated] == [("u:1", "Ann"), ("u:2", "Bob (computer)")]


def test_people_who_left_come_last_the_earliest_last() -> None:
    seats = tuple(Seat(10 + i, f"P{i}") for i in range(5))
    # P1 left first, P3 and P4 later at the same moment; P0 and P2 played to the end.
    left = [
        Departure(3, 13, NOW + 50, "P3"),
        Departure(1, 11, NOW + 10, "P1"),
        Departure(4, 14, NOW + 50, "P4"),
    ]
    rated = rated_seats(seats, left, _seat_facts(6, 0, 2, 9, 1))
    assert [(s.player, s.place) for s in rated] == [
        ("u:12", 1),  # P2 has fewer tiles left (2) than P0 (6), whatever the leavers had
        ("u:10", 2),
        ("u:13", 3),  # P3 and P4 left together: they share a place
        ("u:14", 3),
        ("u:11", 4),  # P1 left first: last
    ]
    assert [s.player for s in rated if s.won] == ["u:12"]
    new = {r.player: r for r in rate({}, rated, GUILD, NOW)}
    assert new["u:12"].mu > new["u:10"].mu > new["u:13"].mu == new["u:14"].mu > new["u:11"].mu


def test_a_person_who_left_never_wins_even_when_everyone_else_left_earlier() -> None:
    # Everyone left; Ann last: she is placed first of the two, but a leaver wins nothing.
    seats = (Seat(None, "Ann (computer)", "easy"), Seat(2, "Bob"))
    left = [Departure(1, 2, NOW, "Bob"), Departure(0, 1, NOW + 5, "Ann")]
    rated = rated_seats(seats, left, _seat_facts(3, 8))
    assert [(s.player, s.place, s.won) for s in rated] == [("u:1", 1, False), ("u:2", 2, False)]


def test_the_computer_a_person_left_alone_with_is_rated_first_and_wins() -> None:
    # Ann left a match against the hard computer: the table closed, and she is rated below it.
    seats = (Seat(1, "Ann"), Seat(None, "Max", "hard"))
    rated = rated_seats(seats, [Departure(0, 1, NOW, "Ann")], _seat_facts(2, 11))
    assert [(s.player, s.place, s.won) for s in rated] == [("ai:hard", 1, True), ("u:1", 2, False)]


def test_a_match_with_no_known_totals_has_no_winner() -> None:
    seats = (Seat(1, "Ann"), Seat(2, "Bob"))
    rated = rated_seats(seats, [], MatchFacts((SeatFacts(), SeatFacts())))
    assert [(s.place, s.won) for s in rated] == [(1, False), (1, False)]


def test_a_computer_is_rated_as_one_pseudo_player_per_level() -> None:
    seats = (Seat(1, "Ann"), Seat(None, "Computer 1", "hard"), Seat(None, "Computer 2", "hard"))
    rated = rated_seats(seats, [], _seat_facts(5, 3, 1))
    assert [(s.player, s.name, s.place) for s in rated] == [
        (computer_key("hard"), "Computer (hard)", 1),
        ("u:1", "Ann", 3),
    ]


def test_the_facts_count_the_public_mayhem_of_a_replayed_match() -> None:
    # RULES 5.1 (a collapse sends the supports to the player's pile): a short game with one.
    rnd = random.Random(5)
    game = Game.new(3, 11, curse=True)
    initial = game.to_dict()
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


def test_a_turn_a_computer_played_for_a_person_counts_for_nobody_in_their_facts() -> None:
    # Ann (seat 0) places yellow 40 on yellow 2 and red 4: it collapses (RULES 5.1). Logged
    # without her user id, the computer placed it for her (her clock ran out, or she was away).
    game = Game.from_dict(
        {
            "players": 2,
            "pyramid": {"0,0": "Y2", "0,2": "R4"},
            "hands": [["Y40", "B2"], ["R2", "G2"]],
            "piles": [["R20"], ["G20"]],
            "active": 0,
        }
    )
    initial = game.to_dict()
    moves: list[tuple[int, Any]] = []
    while game.pending is not None and game.pending.player == 0:
        p = game.pending
        action = Play("Y40", p.spots[0]) if p.kind == "play" else game.legal_actions()[0]
        game.apply(action, 0)
        moves.append((0, action.to_dict()))

    def logged(user_id: int | None) -> list[LoggedAction]:
        return [
            LoggedAction(1, 2 + i, seat, user_id, action, NOW)
            for i, (seat, action) in enumerate(moves)
        ]

    own = match_facts(initial, logged(1), None, people=(0, 1)).seats[0]
    assert (own.collapses, own.opening) == (1, "Y40") and own.tiles_taken > 0
    for_her = match_facts(initial, logged(None), None, people=(0, 1)).seats[0]
    assert (for_her.collapses, for_her.tiles_taken, for_her.opening) == (0, 0, None)
    # A computer's own seat keeps its facts (and a log read without the seats, as before).
    assert match_facts(initial, logged(None), None, people=(1,)).seats[0].collapses == 1
    assert match_facts(initial, logged(None), None).seats[0].collapses == 1

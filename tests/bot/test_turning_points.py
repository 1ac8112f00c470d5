"""A match's turning points, below Discord: who may see which moves (:mod:`bot.records.turning`),
the background work that finds them (:mod:`bot.records.analysis`) on both stores, what the
records service answers before, during and after it, and their words in English and French."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace
from typing import Any

import pytest

from bot.errors import TableError, Why
from bot.records.analysis import ANALYSE_WITHIN_S, Analyser
from bot.records.replay import MatchReplay
from bot.records.results import TurningGroup, TurningPoint, TurningShown, TurningState
from bot.records.service import RecordsService
from bot.records.turning import MIN_KEPT_OFF, MOST, turning_points
from bot.show import turningtexts
from data.rows import dumps
from data.store import LoggedAction, Seat, Store, Table, TableOptions
from engine import Fall, Game, Play
from engine.ai.review import Budget, Review, decisions, review
from i18n import ENGLISH, catalogs
from tests.ai.test_review import played_match
from tests.conftest import Backend
from tests.data.helpers import NOW, play

from .test_french_texts import french

FRENCH = catalogs.language("fr")
ANN, BEN, CAROL = 1001, 1002, 1003
BUDGET = Budget(node_limit=30, deals=2)


def a_match(
    seats: tuple[Seat, ...], *, stand_in: frozenset[int] = frozenset()
) -> tuple[Table, MatchReplay, list[Review]]:
    """A 3-player match of two rounds as a table keeps it: each person's decisions logged with
    their user id (those in ``stand_in``, log entries a computer played in their place, with
    none), and a review for every decision whose cost grows with its entry, the expert agreeing
    with every fifth."""
    start, log = played_match(5)

    def decider(i: int, seat: int | None) -> int | None:
        return None if seat is None or i in stand_in else seats[seat].user_id

    entries = [
        LoggedAction(1, i + 1, seat, decider(i, seat), action, NOW + i)
        for i, (seat, action) in enumerate(log)
    ]
    replay = MatchReplay(start, entries)
    reviews = []
    for d in decisions(start, log):
        agree = d.entry % 5 == 0
        other: Play | Fall = Fall("left") if d.action == Fall("right") else Fall("right")
        best = d.action if agree else other
        cost = 0.0 if agree else d.entry / 40
        reviews.append(Review(d.entry, d.seat, d.action, best, cost, 1.0, 0.0))
    table = a_table(seats, start, rounds=2)
    return table, replay, reviews


def a_table(seats: tuple[Seat, ...], initial: dict[str, Any], rounds: int = 1) -> Table:
    """A finished table numbered 4 on server 77, as the store reads it back."""
    return Table(
        1, 77, 5, ANN, "finished", TableOptions(rounds=rounds), seats, 10, None, initial,
        None, None, NOW, NOW, number=4,
    )  # fmt: skip


PEOPLE_AND_COMPUTER = (Seat(ANN, "Ann"), Seat(BEN, "Ben"), Seat(None, "Bolt", "hard"))


def expected(reviews: list[Review], keep: Any) -> list[Review]:
    mine = [r for r in reviews if keep(r)]
    costly = [r for r in mine if r.kept_off >= MIN_KEPT_OFF]
    return sorted(costly, key=lambda r: (-r.kept_off, r.entry))[:MOST]


def test_a_player_sees_their_own_costliest_moves_and_the_computers() -> None:
    table, replay, reviews = a_match(PEOPLE_AND_COMPUTER, stand_in=frozenset({1, 4}))
    shown = turning_points(table, replay, reviews, ANN)
    assert shown.state == "ready" and shown.rounds == 2
    mine, bolt = shown.groups
    assert (mine.seat, mine.mine, bolt.seat, bolt.mine) == (0, True, 2, False)
    anns = [r for r in reviews if r.seat == 0 and r.entry not in (1, 4)]
    assert mine.decisions == len(anns)
    assert mine.agreed == sum(r.best == r.played for r in anns)
    want = expected(anns, lambda r: True)
    assert [p.kept_off for p in mine.points] == [r.kept_off for r in want] and len(want) == MOST
    assert [p.played for p in mine.points] == [r.played for r in want]
    bolts = [r for r in reviews if r.seat == 2]
    assert bolt.decisions == len(bolts) and [p.kept_off for p in bolt.points] == [
        r.kept_off for r in expected(bolts, lambda r: True)
    ]
    # Where each move is: its replay step, round and turn, and the tiles it was put on.
    for p, r in zip(mine.points, want, strict=True):
        assert (p.step, p.round, p.turn) == replay.place(r.entry)
        step = replay.step(p.step)
        assert step.before is not None and any(e.kind in ("placed", "fell") for e in step.events)
        game = replay.game_before(r.entry)
        if isinstance(p.played, Play) and p.played.at is not None and p.played.at[0] > 0:
            (row, x) = p.played.at
            assert p.played_on == (game.pyramid[(row - 1, x - 1)], game.pyramid[(row - 1, x + 1)])
    assert any(p.round == 2 for p in [*mine.points, *bolt.points])


def test_a_move_the_computer_made_in_a_persons_place_is_nobodys() -> None:
    bens_entries = [i for i, seat in enumerate(s for s, _ in played_match(5)[1]) if seat == 1]
    stand_in = frozenset(bens_entries[::2])
    table, replay, reviews = a_match(PEOPLE_AND_COMPUTER, stand_in=stand_in)
    [ben, bolt] = turning_points(table, replay, reviews, BEN).groups
    assert ben.mine and ben.decisions == len(bens_entries) - len(stand_in)
    assert not {p.step for p in ben.points} & {replay.place(e)[0] for e in stand_in}
    assert bolt.decisions == sum(1 for r in reviews if r.seat == 2)


def test_someone_who_did_not_play_sees_the_computers_moves_only() -> None:
    table, replay, reviews = a_match(PEOPLE_AND_COMPUTER)
    [bolt] = turning_points(table, replay, reviews, CAROL).groups
    assert bolt.seat == 2 and not bolt.mine
    # A match of people only has nothing for them.
    people = (Seat(ANN, "Ann"), Seat(BEN, "Ben"), Seat(CAROL + 1, "Dee"))
    table, replay, reviews = a_match(people)
    assert turning_points(table, replay, reviews, CAROL) == TurningShown(table, "players_only")


def test_a_seat_left_to_a_computer_is_nobodys_but_the_leavers_own_moves_are_theirs() -> None:
    log = played_match(5)[1]
    bens = [i for i, (seat, _) in enumerate(log) if seat == 1]
    after = frozenset(bens[len(bens) // 2 :])  # Ben left half way: a computer played on
    seats = (Seat(ANN, "Ann"), Seat(None, "Ben (computer)", "easy"), Seat(None, "Bolt", "hard"))
    table, replay, reviews = a_match((Seat(ANN, "Ann"), Seat(BEN, "Ben"), seats[2]), stand_in=after)
    table = replace(table, seats=seats, departed={1: BEN})
    ben = turning_points(table, replay, reviews, BEN)
    assert [g.seat for g in ben.groups] == [1, 2] and ben.groups[0].mine
    assert ben.groups[0].decisions == len(bens) - len(after)
    carol = turning_points(table, replay, reviews, CAROL)
    assert [g.seat for g in carol.groups] == [2]  # not the seat Ben left


# --- the words ---------------------------------------------------------------------------------


def test_tiles_are_counted_as_each_language_counts_a_decimal() -> None:
    assert turningtexts.tiles(2.31, ENGLISH) == "2.3 tiles"
    assert turningtexts.tiles(1.0, ENGLISH) == "1.0 tiles"
    assert turningtexts.tiles(2, ENGLISH, tenths=False) == "2 tiles"
    assert turningtexts.tiles(1, ENGLISH, tenths=False) == "1 tile"
    assert turningtexts.tiles(1.46, FRENCH) == "1,5 tuile"  # French: singular below 2
    assert turningtexts.tiles(0.5, FRENCH) == "0,5 tuile"
    assert turningtexts.tiles(2.3, FRENCH) == "2,3 tuiles"
    assert turningtexts.tiles(1.5, ENGLISH, tenths=False) == "1.5 tiles"


def point(**changes: Any) -> TurningPoint:
    base = TurningPoint(
        step=14, round=2, turn=9, played=Play("B40", (1, 3)), best=Play("G6", (0, 8)),
        kept_off=2.31, now=2.0, best_now=0.0, played_on=("R20", "Y30"), best_on=(),
    )  # fmt: skip
    return replace(base, **changes)


def test_a_costly_move_is_told_with_where_what_and_how_many_tiles() -> None:
    line = turningtexts.point_line(point(), None, 2, ENGLISH)
    assert line == (
        "Round 2, turn 9 (step 15): you played blue 40 on red 20 and yellow 30 (2 tiles to your "
        "pile); the expert would have played green 6 in the bottom row (it fits). About "
        "**2.3 tiles** kept off your pile by your next turn, on average."
    )
    fall = point(played=Fall("left"), best=Fall("right"), played_on=("G60",), now=1.0, best_now=0.0)
    assert turningtexts.point_line(fall, "Bolt", 1, ENGLISH) == (
        "Turn 9 (step 15): Bolt let green 60 fall left (1 tile to their pile); the expert would "
        "have let it fall right (nothing to their pile). About **2.3 tiles** kept off their pile "
        "by their next turn, on average."
    )
    said = turningtexts.point_line(point(), None, 2, FRENCH)
    assert said.startswith("Manche 2, tour 9 (étape 15)\u00a0: vous avez posé le bleu")
    assert "l'expert aurait posé le vert" in said and "à la base (stable)" in said
    assert said.endswith(
        "En moyenne, **2,3 tuiles** de moins sous votre pioche à votre prochain tour."
    )
    french(said)
    slid = turningtexts.point_line(fall, "Bolt", 1, FRENCH)
    assert "Bolt a fait glisser le vert" in slid and "l'aurait fait glisser à droite" in slid
    french(slid)


def group(seat: int, mine: bool, points: int) -> TurningGroup:
    costs = [3.0 - i / 10 for i in range(points)]
    return TurningGroup(seat, mine, 40, 25, tuple(point(kept_off=c) for c in costs))


def test_a_long_message_leaves_out_the_computers_cheapest_moves_never_the_readers() -> None:
    computers = [Seat(None, f"Computer number {i}", "hard") for i in range(1, 6)]
    table = a_table((Seat(ANN, "Ann"), *computers), {})
    groups = (group(0, True, 3), *(group(i, False, 3) for i in range(1, 6)))
    shown = TurningShown(table, "ready", groups)
    for lang in (ENGLISH, FRENCH):
        text = turningtexts.turning_text(shown, lang)
        assert len(text.content) <= 2000
        assert text.content.count("you played") + text.content.count("vous avez posé") == 3
        told = len(text.points)
        assert 3 < told < 18
        left = 18 - told
        assert f"({left} moves of the computers are left out to fit.)" in text.content or (
            f"({left} coups des ordinateurs ne sont pas montrés, faute de place.)" in text.content
        )


STATES: tuple[TurningState, ...] = ("working", "unavailable", "players_only")


def test_before_and_without_turning_points_the_message_says_why() -> None:
    table = a_table((), {})
    said = {s: turningtexts.turning_text(TurningShown(table, s), ENGLISH).content for s in STATES}
    assert said["working"] == (
        "Turning points of table #4 are being worked out (ready within a minute)."
    )
    assert said["unavailable"].startswith("Turning points are not available for table #4")
    for state in STATES:
        shown = turningtexts.turning_text(TurningShown(table, state), FRENCH)
        assert shown.points == () and shown.content != said[state]
        french(shown.content)


# --- the background work and the service, on both stores ---------------------------------------


async def finished(
    store: Store, channel: int, seed: int, seats: tuple[Seat, ...], at: float
) -> int:
    """A match of random legal moves from a short deal, recorded as the bot records it, ended
    at ``at``."""
    table = await store.create_table(77, channel, ANN, TableOptions(), seats, at)
    game = Game.from_dict({**SHORT[len(seats)], "active": seed % len(seats)})
    table = await store.start_game(table.id, table.version, seats, game.to_dict(), None, None, at)
    table = await play(store, table, game, random.Random(seed))
    await store.end_table(table.id, table.version, "finished", at, {"scores": list(game.scores)})
    return table.id


SHORT: dict[int, dict[str, Any]] = {
    2: {
        "players": 2,
        "pyramid": {"0,0": "Y30", "0,2": "R10"},
        "hands": [["B2", "Y40", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
        "piles": [["B10", "G10"], ["Y10", "G20"]],
    },
    3: {
        "players": 3,
        "pyramid": {"0,0": "G4", "0,2": "R40", "0,4": "M200", "0,6": "Y60"},
        "hands": [["R10", "G2"], ["B30", "B120"], ["R60", "G10"]],
        "piles": [["R2"], ["G40"], ["G30"]],
    },
}
"""Short deals: a dozen decisions or so."""


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_the_analyser_works_out_each_match_once_as_the_engine_reviews_it(
    store: Store, backend_db: Backend
) -> None:
    clock = Clock(NOW + 100)
    first = await finished(store, 1, 3, PEOPLE_AND_COMPUTER[:2], NOW)
    last = await finished(store, 2, 4, PEOPLE_AND_COMPUTER[:2], NOW + 50)
    other = backend_db.new_store()  # another bot process on the same database
    await other.open()
    mine = Analyser(store, "a", clock, BUDGET, nice=0)
    theirs = Analyser(other, "b", clock, BUDGET, nice=0)
    try:
        done = await asyncio.gather(mine.run(), theirs.run())
    finally:
        await other.close()
    assert sum(done) == 2  # each match once, whoever took it
    for table_id in (first, last):
        analysis = await store.analyses().analysis(table_id, clock.now)
        assert analysis is not None and analysis.state == "done"
        table = await store.get_table(table_id)
        log = await store.action_log(table_id)
        assert table.initial_state is not None
        found = decisions(table.initial_state, [(e.seat, e.action) for e in log])
        assert list(analysis.reviews) == [review(d, BUDGET) for d in found]
    assert await mine.run() == 0  # nothing left


async def test_a_match_whose_log_does_not_replay_is_kept_as_unavailable(
    store: Store, backend_db: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock(NOW + 100)
    table_id = await finished(store, 1, 3, PEOPLE_AND_COMPUTER[:2], NOW)
    # Another deal than the one played: the tiles played are not the hands dealt.
    other = Game.new(2, 99).to_dict()
    cast = "" if backend_db.sqlite_file is not None else "::jsonb"
    await backend_db.sql(
        f"UPDATE initial_states SET state = ?{cast} WHERE table_id = ?", dumps(other), table_id
    )
    fresh = backend_db.new_store()  # nothing of the first deal kept in its memory
    await fresh.open()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.records.analysis"):
            assert await Analyser(fresh, "a", clock, BUDGET, nice=0).run() == 1
        analysis = await fresh.analyses().analysis(table_id, clock.now)
    finally:
        await fresh.close()
    assert analysis is not None and analysis.state == "failed"
    assert "its log does not replay; no turning points" in caplog.text


async def test_the_service_says_working_then_unavailable_or_ready(store: Store) -> None:
    clock = Clock(NOW + 100)
    table_id = await finished(store, 1, 3, PEOPLE_AND_COMPUTER, NOW)
    service = RecordsService(store, clock=clock)
    assert (await service.turning_points(77, table_id, ANN)).state == "working"
    assert (await service.turning_points(77, table_id, CAROL)).state == "working"  # a computer
    with pytest.raises(TableError) as refused:
        await service.turning_points(78, table_id, ANN)
    assert refused.value.why is Why.MATCH_ELSEWHERE
    clock.now = NOW + ANALYSE_WITHIN_S + 1  # never analysed, and now too old to be
    assert (await service.turning_points(77, table_id, ANN)).state == "unavailable"
    assert await store.analyses().save_analysis(table_id, [], clock.now)
    ready = await service.turning_points(77, table_id, ANN)
    assert ready.state == "ready" and [g.seat for g in ready.groups] == [0, 2]
    assert ready.groups[0].decisions == 0 and ready.groups[0].points == ()


async def test_the_service_says_unavailable_for_an_analysis_that_failed_or_does_not_read(
    store: Store, backend_db: Backend
) -> None:
    clock = Clock(NOW + 100)
    failed = await finished(store, 1, 3, PEOPLE_AND_COMPUTER, NOW)
    damaged = await finished(store, 2, 4, PEOPLE_AND_COMPUTER, NOW)
    people = await finished(store, 3, 5, (Seat(ANN, "Ann"), Seat(BEN, "Ben")), NOW)
    service = RecordsService(store, clock=clock)
    assert await store.analyses().save_analysis(failed, None, clock.now)
    assert await store.analyses().save_analysis(damaged, [], clock.now)
    cast = "" if backend_db.sqlite_file is not None else "::jsonb"
    damage = f"UPDATE analyses SET reviews = ?{cast} WHERE table_id = ?"
    await backend_db.sql(damage, '{"no": 1}', damaged)
    assert (await service.turning_points(77, failed, ANN)).state == "unavailable"
    assert (await service.turning_points(77, damaged, BEN)).state == "unavailable"
    # Someone who did not play a match of people is told so, analysed or not.
    assert (await service.turning_points(77, people, CAROL)).state == "players_only"

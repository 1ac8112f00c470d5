"""Which falls a computer player chose for a person (``bot/service/chosen.py``): read from the
action log, a fall of someone else's turn logged without its person; nothing when the log does
not end with the turn told."""

from __future__ import annotations

from bot.service.chosen import chosen_falls, played_for_a_person, someone_else_fell
from data.model import LoggedAction, Seat, Table
from data.store import TableOptions
from engine import Fall, Game, Play
from tests.e2e.test_told_truly import TWO_PLAYER_CURSE

CURSED = TWO_PLAYER_CURSE
"""Alice's green 10 on yellow 10 and red 10 is cursed: Bob chooses where blue 30 falls."""


def played(bob: int | None, bob_seat: Seat) -> tuple[Table, Game, list[LoggedAction]]:
    game = Game.from_dict(CURSED)
    log = []
    for seat, user, action in [(0, 1, Play("G10", (1, 1))), (1, bob, Fall("left"))]:
        game.apply(action, seat)
        log.append(LoggedAction(1, len(log) + 2, seat, user, action.to_dict(), 0.0))
    table = Table(
        1, 1, 10, 1, "playing", TableOptions(curse=True), (Seat(1, "Alice"), bob_seat), 3,
        game.to_dict(), CURSED, None, None, 0.0, 0.0, number=1,
    )  # fmt: skip
    return table, game, log


def test_a_fall_logged_without_its_person_is_the_computers() -> None:
    table, game, log = played(None, Seat(2, "Bob"))
    turn = game.turn_events
    assert someone_else_fell(turn)
    assert chosen_falls(table, turn, log) == {("B30", (1, 3))}


def test_a_fall_of_its_person_or_of_a_computer_seat_is_theirs() -> None:
    table, game, log = played(2, Seat(2, "Bob"))
    assert chosen_falls(table, game.turn_events, log) == frozenset()
    table, game, log = played(None, Seat(None, "Computer", "hard"))
    assert chosen_falls(table, game.turn_events, log) == frozenset()


def test_a_log_that_does_not_end_with_the_turn_told_says_nothing() -> None:
    table, game, log = played(None, Seat(2, "Bob"))
    extra = LoggedAction(1, 4, 1, None, {"fall": "right"}, 0.0)
    assert chosen_falls(table, game.turn_events, [*log, extra]) == frozenset()
    assert chosen_falls(table, game.turn_events, log[:1]) == frozenset()


def test_only_a_turn_where_someone_else_chose_a_fall_needs_the_log() -> None:
    game = Game.from_dict(dict(CURSED, options={"curse": False, "fire_die": False}))
    game.apply(Play("G10", (1, 1)))  # no curse: nothing falls
    assert not someone_else_fell(game.turn_events)
    own = Game.from_dict(
        {"players": 2, "pyramid": {"0,0": "Y10", "0,2": "R10"}, "hands": [["B120"], ["G2"]],
         "piles": [["R20"], ["G20"]], "active": 0}
    )  # fmt: skip
    own.apply(Play("B120", (1, 1)))  # too heavy: it collapses, and Alice chooses its fall
    own.apply(Fall("left"))
    assert any(e.kind == "fell" for e in own.turn_events)
    assert not someone_else_fell(own.turn_events)


def test_a_tile_logged_without_its_person_was_played_by_a_computer() -> None:
    people = (Seat(1, "Alice"), Seat(2, "Bob"))
    computer = (Seat(None, "Computer", "hard"), Seat(2, "Bob"))

    def logged(user: int | None, action: dict[str, str]) -> LoggedAction:
        return LoggedAction(1, 2, 0, user, action, 0.0)

    assert played_for_a_person(people, logged(None, {"play": "G10"}))
    assert not played_for_a_person(people, logged(1, {"play": "G10"}))  # her own
    assert not played_for_a_person(computer, logged(None, {"play": "G10"}))  # a computer's seat
    assert not played_for_a_person(people, logged(None, {"fall": "left"}))  # not a tile

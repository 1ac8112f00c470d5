"""Computer players' names: short, distinct at their table from each other and from the people
there, whatever comes and goes; the level stays beside the seat, not in the name."""

from __future__ import annotations

from bot.names import COMPUTER_NAMES
from bot.service import TableService
from data.store import Seat

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, lobby, play_tile, state


def names(board_seats: tuple[Seat, ...]) -> list[str]:
    return [s.name for s in board_seats]


def distinct(seats: tuple[Seat, ...]) -> bool:
    folded = [s.name.casefold() for s in seats]
    return len(set(folded)) == len(folded)


async def add(service: TableService, table_id: int, level: str) -> tuple[Seat, ...]:
    board = await service.board_of(table_id)
    return (await service.add_ai(table_id, board.version, ALICE, level)).table.seats


async def test_computers_of_different_levels_get_different_short_names(
    service: TableService,
) -> None:
    t = await lobby(service, ALICE)
    seats = await add(service, t, "hard")
    seats = await add(service, t, "easy")
    seats = await add(service, t, "hard")
    computers = [s for s in seats if s.ai is not None]
    assert [s.name for s in computers] == list(COMPUTER_NAMES[:3])
    assert [s.ai for s in computers] == ["hard", "easy", "hard"]
    assert all(len(s.name) <= 8 and "(" not in s.name for s in computers)
    assert distinct(seats)


async def test_names_stay_distinct_after_one_leaves_and_another_comes(
    service: TableService,
) -> None:
    t = await lobby(service, ALICE)
    for level in ("easy", "normal", "hard"):
        seats = await add(service, t, level)
    board = await service.remove_ai(t, (await service.board_of(t)).version, ALICE)
    assert len(board.table.seats) == 3
    seats = await add(service, t, "normal")
    seats = await add(service, t, "easy")
    assert len(seats) == 5 and distinct(seats)
    # Those seated before keep their names: nobody is renamed under the players' eyes.
    assert names(seats)[:3] == names(board.table.seats)


async def test_a_computer_never_takes_a_persons_name_and_gives_way_to_one_who_joins(
    service: TableService,
) -> None:
    board = await service.new_table(GUILD, CHANNEL, ALICE, COMPUTER_NAMES[0].upper())
    seats = await add(service, board.table_id, "hard")
    assert seats[1].name == COMPUTER_NAMES[1]
    board = await service.join(board.table_id, BOB, COMPUTER_NAMES[1])
    seats = board.table.seats
    assert [s.user_id for s in seats] == [ALICE, None, BOB]
    assert seats[1].ai == "hard" and seats[1].name == COMPUTER_NAMES[2]
    assert distinct(seats)


async def test_a_rematch_renames_computers_kept_under_the_old_long_names(
    service: TableService,
) -> None:
    t = await lobby(service, ALICE, BOB)
    version = (await service.board_of(t)).version
    old = (*(await service.board_of(t)).table.seats, Seat(None, "Computer 1 (hard)", "hard"))
    await service.store.update_lobby(t, version, seats=old, now=0.0)
    s = state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], ["G20"], ["B10"]])
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    await play_tile(service, t, ALICE, "Y40", hand.digest)
    finished = await service.board_of(t)
    assert finished.table.status == "finished"
    # The old name still reads and shows as it was stored.
    assert finished.names == (f"user{ALICE}", f"user{BOB}", "Computer 1 (hard)")
    board = await service.rematch(t, BOB, "Bolt")
    assert [(s.user_id, s.name, s.ai) for s in board.table.seats] == [
        (BOB, "Bolt", None),
        (None, COMPUTER_NAMES[1], "hard"),
    ]
    await service.join(board.table_id, CAROL, "Carol")

"""Games that stop before their end: aborted by the host, or closed when the last person left.
After the first move the table keeps its standings as the match's result and the records rate
it (the people who left last); before it, the table closes unrated. On both stores."""

from __future__ import annotations

from bot.records.service import RecordsService
from bot.service import LeftGame, TableService
from data.records import person_key

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, play_tile, state


async def started(service: TableService, s: dict[str, object], *users: int) -> int:
    t = await lobby(service, *users)
    await service.start_from_state(t, users[0], dict(s))
    return t


async def test_a_game_aborted_after_its_first_move_is_rated_by_its_standings(
    service: TableService,
) -> None:
    t = await started(service, state(), ALICE, BOB, CAROL)
    hand = await service.hand(t, ALICE)
    # Alice plays Y40 on 1,1 and draws her last tile: 2 tiles left; Bob and Carol have 3.
    await play_tile(service, t, ALICE, "Y40", hand.digest)
    board = await service.abort(CHANNEL, ALICE, may_manage=False)
    assert board.table.status == "aborted"
    [result] = await service.store.results(GUILD)
    assert (result["table_id"], result["scores"], result["winners"]) == (t, [2, 3, 3], [])
    records = RecordsService(service.store)
    assert await records.catch_up() == 1
    alice = await records.stats(GUILD, person_key(ALICE))
    bob = await records.stats(GUILD, person_key(BOB))
    assert alice is not None and bob is not None
    assert (alice.record.matches, alice.record.wins, alice.record.tiles_left) == (1, 1, 2)
    assert (bob.record.matches, bob.record.wins, bob.record.tiles_left) == (1, 0, 3)
    assert alice.record.mu > bob.record.mu
    [entry] = await records.history(GUILD, BOB)
    assert entry.table_id == t and entry.stopped


async def test_a_table_closed_before_its_first_move_is_not_rated(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    await service.abort(CHANNEL, ALICE, may_manage=False)  # a lobby
    t = await started(service, state(), ALICE, BOB, CAROL)
    board = await service.abort(CHANNEL, ALICE, may_manage=False)  # dealt, nothing played
    assert board.table.id == t and board.table.status == "aborted"
    t = await started(service, state(), ALICE, BOB, CAROL)
    await service.leave(CHANNEL, ALICE)
    await service.leave(CHANNEL, BOB)
    closed = await service.leave(CHANNEL, CAROL)  # everyone left before the first move
    assert isinstance(closed, LeftGame) and closed.closed
    assert await service.store.results(GUILD) == []
    records = RecordsService(service.store)
    assert await records.catch_up() == 0
    assert await records.stats(GUILD, person_key(ALICE)) is None


async def test_a_game_closed_by_its_last_person_leaving_is_rated_with_the_leavers_last(
    service: TableService, clock: ManualClock
) -> None:
    two = state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]], piles=[["R20"], ["G20"]])
    t = await started(service, two, ALICE, BOB)
    hand = await service.hand(t, ALICE)
    await play_tile(service, t, ALICE, "Y40", hand.digest)  # Alice: 2 tiles left, Bob 3
    left = await service.leave(CHANNEL, ALICE)
    assert isinstance(left, LeftGame) and not left.closed
    clock.advance(60)
    closed = await service.leave(CHANNEL, BOB)
    assert isinstance(closed, LeftGame) and closed.closed
    [result] = await service.store.results(GUILD)
    assert result["table_id"] == t and result["scores"] == [2, 3]
    records = RecordsService(service.store)
    assert await records.catch_up() == 1
    alice = await records.stats(GUILD, person_key(ALICE))
    bob = await records.stats(GUILD, person_key(BOB))
    assert alice is not None and bob is not None
    assert alice.record.matches == bob.record.matches == 1
    # Alice had fewer tiles left, but she left first: she is last.
    assert bob.record.mu > alice.record.mu
    assert alice.record.wins == bob.record.wins == 0  # a person who left wins nothing

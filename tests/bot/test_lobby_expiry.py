"""A lobby nobody starts closes a day after it opened, through the table's deadline (kept in
the store, so it holds across restarts); lobbies opened before lobbies expired get that day."""

from __future__ import annotations

from bot.service import LOBBY_TTL_S, LobbyExpired, Step, TableService
from data.store import Store

from .conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    START,
    ManualClock,
    lobby,
    make_service,
    play_tile,
    state,
)


async def due(service: TableService) -> list[int]:
    return await service.claim_due("test", 30.0, 20)


async def test_a_lobby_expires_a_day_after_it_opened(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB)
    board = await service.board_of(t)
    assert board.table.deadline == START + LOBBY_TTL_S
    assert board.table.reminder_at is None

    clock.advance(LOBBY_TTL_S - 1)
    assert await due(service) == []
    clock.advance(1)
    assert await due(service) == [t]
    (outcome,) = await service.run_timers(t)
    assert isinstance(outcome, LobbyExpired)
    assert outcome.board.table.status == "cancelled"
    assert outcome.board.prompt.kind == "closed"
    stored = await store.get_table(t)
    assert stored.status == "cancelled" and stored.deadline is None
    # Handled once: nothing is due any more, and a second run shows nothing.
    await service.release_due(t, "test")
    assert await due(service) == []
    assert await service.run_timers(t) == []
    # The channel is free for a new table.
    again = await service.new_table(GUILD, CHANNEL, BOB, "bob")
    assert again.table_id != t


async def test_joining_does_not_move_the_expiry_and_a_start_replaces_it(
    service: TableService, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE)
    clock.advance(3600)
    board = await service.join(t, BOB, "bob")
    assert board.table.deadline == START + LOBBY_TTL_S
    step = await service.start(t, board.version, ALICE)
    assert isinstance(step, Step)
    turn_limit = step.board.table.options.turn_limit_s
    assert step.board.table.deadline == START + 3600 + turn_limit
    # A day after the lobby opened, the running game is not closed.
    clock.advance(LOBBY_TTL_S - 3600)
    for outcome in await service.run_timers(t):
        assert not isinstance(outcome, LobbyExpired)
    assert (await service.board_of(t)).table.status == "playing"


async def test_a_lobby_without_an_expiry_gets_one_from_when_it_opened(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE, BOB)
    opened = await store.get_table(t)
    await store.set_timers(t, opened.version, None, None)  # as an older version left it
    clock.advance(600)
    assert await service.give_lobbies_deadlines() == [t]
    assert (await store.get_table(t)).deadline == START + LOBBY_TTL_S
    assert await service.give_lobbies_deadlines() == []  # once


async def test_an_old_lobby_past_its_day_expires_at_the_next_look(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    t = await lobby(service, ALICE)
    await store.set_timers(t, (await store.get_table(t)).version, None, None)
    clock.advance(3 * LOBBY_TTL_S)
    restarted = make_service(store, clock)  # a new process on the same store
    assert await restarted.give_lobbies_deadlines() == [t]
    assert await due(restarted) == [t]
    (outcome,) = await restarted.run_timers(t)
    assert isinstance(outcome, LobbyExpired)


async def test_a_rematch_lobby_expires_too(service: TableService, clock: ManualClock) -> None:
    s = state(players=2, hands=[["Y40"], ["R2", "G2"]], piles=[[], ["G20"]])
    t = await lobby(service, ALICE, BOB)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(step, Step) and step.board.table.status == "finished"
    clock.advance(600)
    again = await service.rematch(t, BOB, "bob")
    assert again.table.deadline == clock() + LOBBY_TTL_S
    clock.advance(LOBBY_TTL_S)
    (outcome,) = await service.run_timers(again.table_id)
    assert isinstance(outcome, LobbyExpired)

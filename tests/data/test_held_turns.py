"""The store's contract for a turn held back for its undo window (``hold_turn``, ``undo_turn``,
``hand_on``), on SQLite and PostgreSQL alike: nothing of the turn reaches the state or the
action log until it is handed on; Undo puts the table back as it was; no move is written over a
held turn; and of an Undo and a hand-on racing from two store objects (two processes), exactly
one happens."""

from __future__ import annotations

import asyncio

import pytest

from data.store import (
    HeldTurn,
    LoggedAction,
    NotFound,
    Store,
    Table,
    VersionConflict,
)
from engine import Fall, Game, Play
from tests.conftest import Backend

from .test_contract import NOW, SEATS, started


def first_play(game: Game) -> Play:
    play = game.legal_actions()[0]
    assert isinstance(play, Play)
    return play


def held_turn(
    table: Table, game: Game, *actions: dict[str, object], token: str = "a1b2c3d4"
) -> HeldTurn:
    assert game.pending is not None
    seat = game.pending.player
    return HeldTurn(
        seat=seat,
        user_id=SEATS[seat].user_id or 0,
        actions=tuple(dict(a) for a in actions),
        at=tuple(NOW + 1 + i for i in range(len(actions))),
        token=token,
        until=NOW + 31,
        deadline=table.deadline,
        reminder_at=table.reminder_at,
    )


async def hold_first_play(store: Store, table: Table, game: Game) -> tuple[Table, HeldTurn, Game]:
    """The pending player's first legal tile held back: the table, the held turn and the game
    it would make."""
    play = first_play(game)
    held = held_turn(table, game, play.to_dict())
    after = game.copy()
    after.apply(play)
    table = await store.hold_turn(
        table.id, table.version, held, replacing=None, deadline=NOW + 31, reminder_at=None, now=NOW
    )
    return table, held, after


async def test_a_held_turn_changes_the_version_and_timers_only_and_undo_puts_all_back(
    store: Store,
) -> None:
    table, game = await started(store, 10)
    before = await store.get_table(table.id)
    held_table, held, _ = await hold_first_play(store, table, game)
    assert held_table.version == before.version + 1
    assert held_table.held == held
    assert held_table.state == before.state
    assert (held_table.deadline, held_table.reminder_at) == (NOW + 31, None)
    assert await store.action_log(table.id) == []
    # Read back by every reader, and the check sees no gap: the held decision is counted.
    assert (await store.get_table(table.id)).held == held
    assert [t.held for t in await store.open_tables()] == [held]
    assert await store.check() == []
    undone = await store.undo_turn(table.id, held_table.version, held.token, now=NOW + 2)
    assert undone.held is None
    assert (undone.version, undone.state) == (before.version, before.state)
    assert (undone.deadline, undone.reminder_at) == (before.deadline, before.reminder_at)
    assert await store.action_log(table.id) == []
    assert await store.check() == []


async def test_no_move_is_written_over_a_held_turn(store: Store) -> None:
    table, game = await started(store, 11)
    held_table, _, after = await hold_first_play(store, table, game)
    with pytest.raises(VersionConflict):
        await store.apply_action(
            table.id,
            held_table.version,
            seat=0,
            user_id=None,
            action=first_play(game).to_dict(),
            state=after.to_dict(),
            deadline=None,
            reminder_at=None,
            now=NOW,
        )
    assert (await store.get_table(table.id)).held == held_table.held


async def test_handing_on_logs_the_held_decisions_numbered_on_and_writes_the_state(
    store: Store,
) -> None:
    table, game = await started(store, 12)
    # Find a first tile whose turn goes on with a fall of its player, if the deal has one;
    # else the one tile is the turn.
    play = first_play(game)
    turn = game.copy()
    turn.apply(play)
    actions: list[dict[str, object]] = [play.to_dict()]
    held_table, held, _ = await hold_first_play(store, table, game)
    if turn.pending is not None and turn.pending.kind == "fall":
        turn.apply(Fall("left"))
        actions.append(Fall("left").to_dict())
        more = held_turn(table, game, *actions)
        held_table = await store.hold_turn(
            table.id,
            held_table.version,
            more,
            replacing=held.token,
            deadline=table.deadline,
            reminder_at=table.reminder_at,
            now=NOW + 2,
        )
        held = more
    base = table.version
    assert held_table.version == base + len(actions)
    seat = held.seat
    logged = [
        LoggedAction(table.id, base + 1 + i, seat, held.user_id, a, held.at[i])
        for i, a in enumerate(actions)
    ]
    handed = await store.hand_on(
        table.id,
        held_table.version,
        held.token,
        actions=logged,
        state=turn.to_dict(),
        deadline=NOW + 7200,
        reminder_at=NOW + 3600,
        now=NOW + 40,
    )
    assert handed.held is None and handed.version == base + len(actions)
    assert handed.state == turn.to_dict()
    assert (handed.deadline, handed.reminder_at) == (NOW + 7200, NOW + 3600)
    assert [(a.version, a.seat, a.action) for a in await store.action_log(table.id)] == [
        (a.version, a.seat, a.action) for a in logged
    ]
    assert await store.check() == []
    # Handed on, it is gone: neither an Undo nor a second hand-on finds it.
    with pytest.raises(VersionConflict):
        await store.undo_turn(table.id, handed.version, held.token, now=NOW + 41)
    with pytest.raises(VersionConflict):
        await store.hand_on(
            table.id,
            handed.version,
            held.token,
            actions=logged,
            state=turn.to_dict(),
            deadline=None,
            reminder_at=None,
            now=NOW + 41,
        )


async def test_a_hand_on_numbered_wrong_is_refused_and_changes_nothing(store: Store) -> None:
    table, game = await started(store, 13)
    held_table, held, after = await hold_first_play(store, table, game)
    wrong = [LoggedAction(table.id, held_table.version + 1, held.seat, None, held.actions[0], NOW)]
    with pytest.raises(ValueError):
        await store.hand_on(
            table.id,
            held_table.version,
            held.token,
            actions=wrong,
            state=after.to_dict(),
            deadline=None,
            reminder_at=None,
            now=NOW,
        )
    assert (await store.get_table(table.id)).held == held
    assert await store.action_log(table.id) == []


async def test_a_held_turn_is_changed_only_by_the_token_and_version_it_was_read_with(
    store: Store,
) -> None:
    table, game = await started(store, 14)
    held_table, held, _ = await hold_first_play(store, table, game)
    with pytest.raises(VersionConflict):  # another turn than the one held
        await store.undo_turn(table.id, held_table.version, "ffffffff", now=NOW)
    with pytest.raises(VersionConflict):  # read before the turn was held
        await store.undo_turn(table.id, table.version, held.token, now=NOW)
    with pytest.raises(VersionConflict):  # a turn held over one already held
        await store.hold_turn(
            table.id, held_table.version, held, replacing=None, deadline=None, reminder_at=None,
            now=NOW,
        )  # fmt: skip
    with pytest.raises(NotFound):
        await store.undo_turn(table.id + 999, 1, held.token, now=NOW)


async def test_closing_a_table_forgets_its_held_turn(store: Store) -> None:
    table, game = await started(store, 15)
    held_table, _, _ = await hold_first_play(store, table, game)
    closed = await store.end_table(table.id, held_table.version, "aborted", NOW + 5)
    assert closed.held is None and closed.status == "aborted"


@pytest.mark.parametrize("rounds", range(6))
async def test_of_an_undo_and_a_hand_on_from_two_stores_at_once_exactly_one_happens(
    backend_db: Backend, store: Store, rounds: int
) -> None:
    other = backend_db.new_store()
    await other.open()
    try:
        table, game = await started(store, 20 + rounds, seed=rounds + 1)
        held_table, held, after = await hold_first_play(store, table, game)
        logged = [
            LoggedAction(
                table.id, held_table.version, held.seat, held.user_id, held.actions[0], NOW
            )
        ]
        undo = store.undo_turn(table.id, held_table.version, held.token, now=NOW + 30)
        hand_on = other.hand_on(
            table.id,
            held_table.version,
            held.token,
            actions=logged,
            state=after.to_dict(),
            deadline=NOW + 7200,
            reminder_at=None,
            now=NOW + 31,
        )
        pair = [undo, hand_on] if rounds % 2 else [hand_on, undo]
        outcomes = await asyncio.gather(*pair, return_exceptions=True)
        won = [o for o in outcomes if isinstance(o, Table)]
        lost = [o for o in outcomes if isinstance(o, VersionConflict)]
        assert (len(won), len(lost)) == (1, 1), outcomes
        now = await store.get_table(table.id)
        log = await store.action_log(table.id)
        assert now.held is None
        if now.version == table.version:  # undone: as it was
            assert now.state == table.state and log == []
        else:  # handed on: the turn is in the log once
            assert now.state == after.to_dict()
            assert [a.action for a in log] == [held.actions[0]]
        assert await store.check() == []
    finally:
        await other.close()

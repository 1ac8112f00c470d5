"""Kept messages never go backwards: an edit made from an older move that reaches Discord after
one made from a newer move (as when two bot processes serve one table) is dropped."""

from __future__ import annotations

from bot.kept import Kept
from bot.show.channel import lobby_message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    card_text,
    is_players_turn,
    stored_table,
    table_of,
    turn_notices,
)
from .test_full_game import SHORT_SEED


async def test_a_hand_edit_from_an_older_move_arriving_late_is_dropped(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    bot = await run_bot(seed=SHORT_SEED)
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    table_id = table_of(game)
    assert table_id is not None
    first, waiting = (
        (world.alice, world.bob)
        if table.decider(game) == world.alice.id
        else (world.bob, world.alice)
    )
    await table.hand_for(waiting, game)
    older = await bot.service.hand(table_id, waiting.id)
    assert not older.your_turn
    game = await table.play(first, game)
    hand = await table.hand_for(waiting, game, turn=True)  # edited: now it is their turn
    await world.fake.wait_for(
        lambda: any(m.settled for m in turn_notices(waiting)),
        TIMEOUT,
        "the DM that tells the turn",
    )
    newer = await bot.service.hand(table_id, waiting.id)
    assert newer.version > older.version
    revisions, content, dms = len(hand.revisions), hand.content, len(waiting.dms())

    await bot.desk.show.hands.deliver(older)  # the older move's edit, late

    assert len(hand.revisions) == revisions
    assert hand.content == content and is_players_turn(hand)
    assert len(waiting.dms()) == dms  # nor sent anew
    await bot.desk.show.hands.deliver(newer)  # what the message shows already: no edit either
    assert len(hand.revisions) == revisions


async def test_the_lobby_card_is_not_put_back_by_a_late_edit_of_an_older_lobby(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    bot = await run_bot()
    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None
    alone = await bot.service.board_of(table_id)  # the lobby with alice alone
    before = len(lobby.revisions)
    await table.click(world.bob, lobby, "Join")
    await world.fake.wait_for(
        lambda: len(lobby.revisions) > before and lobby.settled, TIMEOUT, "bob in the lobby"
    )
    shown = card_text(lobby)
    seated = [seat.user_id for seat in (await stored_table(db_url, table_id)).seats]
    assert seated == [world.alice.id, world.bob.id] and "Bob" in shown
    revisions = len(lobby.revisions)
    outbox = bot.desk.show.outbox
    message = outbox.message(lobby.channel.id, lobby.id)

    edited = await outbox.edit_kept(
        table_id, Kept.LOBBY, alone.version, message, lobby_message(alone)
    )

    assert not edited
    assert len(lobby.revisions) == revisions and card_text(lobby) == shown

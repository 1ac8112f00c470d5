"""Kept messages never go backwards: an edit made from an older move that reaches Discord after
one made from a newer move (as when two bot processes serve one table) is dropped, and a screen
its player's click closed is never edited again."""

from __future__ import annotations

from bot.kept import Kept
from bot.show.channel import lobby_message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    card_text,
    stored_table,
    table_of,
    turn_notices,
)
from .test_full_game import SHORT_SEED


async def test_a_screen_closed_by_its_players_click_is_never_edited_again(
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
    older = await bot.service.hand(table_id, waiting.id)  # a hand that begins nothing
    screen = await table.hand_for(first, game, turn=True)
    game = await table.play(first, game)
    await world.fake.wait_for(
        lambda: screen.settled and not screen.buttons(), TIMEOUT, "the screen closed"
    )
    revisions, content = len(screen.revisions), screen.content
    hands = bot.desk.show.hands

    # A late closing (as a process that did not see the click would send): nothing is sent.
    await hands.retire(table_id, first.id, screen.channel.id, "late")
    assert len(screen.revisions) == revisions and screen.content == content
    # A waiting player's hand, delivered late, sends nothing: only a decision brings a screen.
    await world.fake.wait_for(lambda: turn_notices(waiting), TIMEOUT, "the next screen")
    dms = len(waiting.dms())
    await hands.deliver(older)
    assert len(waiting.dms()) == dms


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

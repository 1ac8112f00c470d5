"""The turn as its player meets it, end to end: what each player sees after an abort, and after
a fall decided on a private screen in the channel."""

from __future__ import annotations

from pathlib import Path

from bot.show import answertexts, handtexts
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    card_text,
    lobby_controls,
    stored_table,
)
from .test_decisions import COLLAPSE, begin, private_answer


async def test_an_abort_mid_game_closes_the_lobby_card_the_screens_and_the_private_hands(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    lobby = table.lobby()
    game = await table.start(world.alice)
    table_id = table.table_id()
    # Alice's turn: her screen in DMs; Bob looks at his hand privately in the thread.
    screen = await table.hand_for(world.alice, game, turn=True)
    assert screen.channel.is_dm and button_actions(screen)
    bobs = await answer(await table.click(world.bob, game, "My hand"))
    assert bobs.ephemeral and button_actions(bobs)
    await world.fake.wait_for(lambda: lobby.settled, TIMEOUT, "the lobby card")

    ix = await table.slash(world.alice, "fp abort")
    assert await private_answer(ix) == answertexts.ABORT_DONE

    # Everything a finished match closes says so, with no live button left anywhere.
    await world.fake.wait_for(
        lambda: screen.settled and not screen.buttons(), TIMEOUT, "her screen closed"
    )
    assert handtexts.CLOSED in screen.content and not screen.images()
    await world.fake.wait_for(
        lambda: bobs.settled and not button_actions(bobs), TIMEOUT, "his private hand closed"
    )
    assert handtexts.CLOSED in bobs.content
    await world.fake.wait_for(
        lambda: lobby.settled and "Aborted" in card_text(lobby), TIMEOUT, "the lobby card"
    )
    assert lobby_controls(lobby) == []
    assert (await stored_table(db_url, table_id)).status == "aborted"
    # The game's message keeps no button, and the channel is told who closed the table.
    await world.fake.wait_for(lambda: game.settled and not game.buttons(), TIMEOUT, "the game")
    assert any("aborted" in m.content for m in table.bot_messages())

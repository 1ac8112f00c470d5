"""Names people can read, as players see them through Discord: the table by its number on the
server ("table #1", never the long id that button ids carry), computers by short names of their
own with the level beside them in the lobby's seat list."""

from __future__ import annotations

from pathlib import Path

from bot.names import COMPUTER_NAMES
from bot.show import texts
from i18n import ENGLISH
from tests.fakediscord import Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TIMEOUT, TableDriver, button_actions, card_text, stored_table, table_of


async def test_players_read_table_1_and_short_computer_names_in_the_thread_pictures_and_dms(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str, tmp_path: Path
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    for level, seated in (("hard", 3), ("easy", 4)):
        await table.add_computer(world.alice, level)
        await world.fake.wait_for(
            lambda n=seated: lobby.settled and len(_seat_lines(lobby)) == n,
            TIMEOUT,
            "a computer seated",
        )
    seat_lines = _seat_lines(lobby)
    assert seat_lines[2].startswith(f"3. {COMPUTER_NAMES[0]} ") and seat_lines[2].endswith("hard")
    assert seat_lines[3].startswith(f"4. {COMPUTER_NAMES[1]} ") and seat_lines[3].endswith("easy")
    game = await table.start(world.alice)
    table_id = table_of(game)
    assert table_id is not None
    record = await stored_table(db_url, table_id)
    assert record.number == 1
    assert [s.name for s in record.seats][2:] == list(COMPUTER_NAMES[:2])
    assert [s.ai for s in record.seats][2:] == ["hard", "easy"]
    # The thread, the lobby card and the game's messages name the table by its number.
    thread = table.thread()
    assert thread is not None and thread.name == texts.thread_name(1, lang=ENGLISH)
    assert "table #1" in card_text(lobby) and str(table_id) not in card_text(lobby)
    first = table.game_messages()[-1]
    assert "table #1 begins" in first.content and str(table_id) not in first.content
    # The first player's screen, in direct messages (read away from the server), names the
    # table and its place.
    starter = table.users[table.decider(game) or 0]
    for user in (starter,):
        await world.fake.wait_for(lambda u=user: u.dms() != [], TIMEOUT, "a screen by DM")
        for dm in user.dms():
            assert str(table_id) not in dm.content
        hand = next(m for m in user.dms() if m.revisions[0].attachments)
        assert "table #1" in hand.content and f"<#{thread.id}>" in hand.content
    # What they read and see is kept to be looked at.
    said = [f"thread: {thread.name}", card_text(lobby), first.content]
    said += [f"DM to {u.name}: {m.content}" for u in (world.alice, world.bob) for m in u.dms()]
    (tmp_path / "read.txt").write_text("\n\n".join(said))
    moved = await table.play(starter, game)
    for name, message in (("start", game), ("after-move", moved)):
        for i, image in enumerate(message.images()):
            (tmp_path / f"{name}-{i}.png").write_bytes(image.data)
    assert ("rematch", "") not in button_actions(moved)


def _seat_lines(lobby: Message) -> list[str]:
    """The lobby card's seat list, one line per seat."""
    text = card_text(lobby)
    if "**Seats" not in text:
        return []
    return [line for line in text.split("**Seats", 1)[1].splitlines()[1:] if line[:1].isdigit()]

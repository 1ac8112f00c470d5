"""What players read of a table: its short number on the server ("table #2"), never its long id,
in the thread's name, the pictures' titles and the direct messages; computers by their short
names, with their level beside them in the lobby's seat list only."""

from __future__ import annotations

from bot.service import TableService
from bot.show import answertexts, handtexts, lobbytexts, texts, turntexts
from i18n import ENGLISH

from .conftest import ALICE, BOB, CHANNEL, GUILD, lobby, state


async def test_the_second_table_of_a_server_is_table_2_everywhere_players_read(
    service: TableService,
) -> None:
    await service.new_table(GUILD, CHANNEL + 1, BOB, "Bob")
    t = await lobby(service, ALICE, BOB)
    board = await service.board_of(t)
    assert board.number == 2
    version = board.version
    board = await service.add_ai(t, version, ALICE, "hard")
    step = await service.start_from_state(
        t, ALICE, state(pyramid={"0,0": "Y2", "0,2": "R4"}, active=1)
    )
    board = step.board
    hand = next(h for h in step.hands if h.user_id == BOB)
    said = {
        "thread": texts.thread_name(board.number, lang=ENGLISH),
        "title": turntexts.picture_title(board, lang=ENGLISH),
        "start": turntexts.step_content(step, lang=ENGLISH),
        "status": turntexts.board_content(board, lang=ENGLISH, spectator=False),
        "hand": handtexts.hand_content(hand, guild_name="Pyramid Club", lang=ENGLISH),
        "turn DM": handtexts.hand_content(hand, since=("Bob played red 2.",), lang=ENGLISH),
        "reminder DM": handtexts.reminder_dm(board, lang=ENGLISH),
        "reminder": turntexts.reminder_channel(board, BOB, lang=ENGLISH),
        "aborted": turntexts.aborted(board, "Alice", lang=ENGLISH, by=None),
        "open": answertexts.table_open(
            board.number, "https://discord.com/channels/1/2/3", lang=ENGLISH
        ),
    }
    for where, text in said.items():
        assert "table #2" in text.casefold(), where
        assert str(t) not in text, where
    assert said["thread"] == "Flaming Pyramids · table #2"
    assert said["title"] == "Flaming Pyramids · table #2"
    # A direct message is read away from the server: it names the channel (and the server).
    assert f"<#{hand.channel_id}>" in said["turn DM"] and "Pyramid Club" in said["hand"]
    assert f"<#{board.channel_id}>" in said["reminder DM"]


async def test_the_lobby_lists_a_computers_level_beside_its_short_name(
    service: TableService,
) -> None:
    t = await lobby(service, ALICE)
    board = await service.board_of(t)
    board = await service.add_ai(t, board.version, ALICE, "hard")
    board = await service.add_ai(t, board.version, ALICE, "easy")
    seats = lobbytexts.lobby_seats(board, lang=ENGLISH).splitlines()[1:]
    assert seats[1].startswith("2. Bolt ") and seats[1].endswith(" hard")
    assert seats[2].startswith("3. Cog ") and seats[2].endswith(" easy")
    # Sentences name the computer only.
    assert board.names[1:] == ("Bolt", "Cog")

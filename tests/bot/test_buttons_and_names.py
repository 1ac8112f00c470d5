"""What a button id may say, where a button may be used, and how player names are shown: a forged
or out-of-range id is not ours, a button counts only in its table's channel (or a seated player's
direct messages), and a name keeps its letters but cannot format, ping or turn a line around."""

from __future__ import annotations

import pytest

from bot import names, views
from bot.errors import NotYourDecision
from data.sqlite import SqliteStore

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, make_service, state

# --- names ----------------------------------------------------------------------------------------

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_names_lose_control_and_direction_characters_and_keep_the_rest() -> None:
    assert names.clean("\u202eAnn\u2066a" + BIDI + "\x00\n") == "Anna"
    assert names.clean("Léa 🔥 McBride") == "Léa 🔥 McBride"  # case and emoji as written


def test_a_name_in_text_cannot_format_ping_or_turn_the_line() -> None:
    shown = views.esc("**bold**\u202e @everyone")
    assert shown == "\\*\\*bold\\*\\* @\u200beveryone"
    assert not set(BIDI) & set(shown)


async def test_a_refusal_naming_a_player_quotes_the_name_for_the_reply(
    store: SqliteStore, clock: ManualClock
) -> None:
    service = make_service(store, clock)
    board = await service.new_table(GUILD, CHANNEL, ALICE, "**bold**\u202eevil")
    for u, name in ((BOB, "Bob"), (CAROL, "Carol")):
        await service.join(board.table_id, u, name)
    await service.start_from_state(board.table_id, ALICE, state())
    hand = await service.hand(board.table_id, BOB)
    with pytest.raises(NotYourDecision) as refused:
        await service.play(board.table_id, BOB, "R2", hand.digest)
    assert refused.value.message.startswith("It is **bold**evil's turn")  # as the player wrote it
    assert refused.value.worded(views.esc).startswith("It is \\*\\*bold\\*\\*evil's turn")

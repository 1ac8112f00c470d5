"""What a button id may say, where a button may be used, and how player names are shown: a forged
or out-of-range id is not ours, a button counts only in its table's channel (or a seated player's
direct messages), and a name keeps its letters but cannot format, ping or turn a line around."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import names
from bot.components import MAX_ID, ButtonId
from bot.errors import NotYourDecision, Stale, Why
from bot.service import TableService
from bot.show import texts, words
from bot.tablebuttons import BUTTONS
from bot.unclaimed import template_of
from data.sqlite import SqliteStore
from i18n import ENGLISH

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, ManualClock, make_service, state

# --- custom ids -----------------------------------------------------------------------------------

VALID_ARGS = {
    "join": [""],
    "hand": [""],
    "next": [""],
    "ai": ["easy", "hard"],
    "mode": ["dm", "channel"],
    "fall": ["left", "right"],
    "play": ["M200.ffffffff", "Y2.0a1b2c3d"],
    "spot": ["B100@12,-30", "G6@0,0"],
    "more": ["G6.3", "R4.0"],
}


@given(
    table=st.integers(1, MAX_ID),
    version=st.integers(0, MAX_ID),
    action_arg=st.sampled_from([(a, x) for a, xs in VALID_ARGS.items() for x in xs]),
)
def test_custom_ids_in_range_round_trip_and_fit(
    table: int, version: int, action_arg: tuple[str, str]
) -> None:
    action, arg = action_arg
    bid = ButtonId(table, version, action, arg)
    cid = bid.encode()
    assert len(cid) <= 100
    assert ButtonId.decode(cid) == bid


@pytest.mark.parametrize(
    "custom_id",
    [
        "fp:12345678901234567890:3:join:",  # a 20-digit table id overflows the store
        f"fp:{MAX_ID + 1}:3:join:",
        "fp:0:3:join:",
        f"fp:7:{MAX_ID + 1}:fall:left",
        "fp:7:3:mode:sms",  # an unknown hand mode
        "fp:7:3:mode:",
        "fp:7:3:ai:master",  # no such computer level
        "fp:7:3:fall:up",
        "fp:7:3:join:now",
        "fp:7:3:play:X9.0a1b2c3d",  # no such tile
        "fp:7:3:play:Y2.zz",
        "fp:7:3:spot:Y2@1",
        "fp:7:3:spot:Y2@1,99999",
        "fp:7:3:more:Y2.x",
        "fp:7:3:explode:",
    ],
)
def test_custom_ids_out_of_range_are_not_ours(custom_id: str) -> None:
    assert ButtonId.decode(custom_id) is None


def test_an_out_of_range_button_cannot_be_made() -> None:
    with pytest.raises(ValueError, match="bad custom id"):
        ButtonId(7, 3, "mode", "sms").encode()


@pytest.mark.parametrize(
    "custom_id",
    [
        *(f"fp:7:3:{action}:{args[0]}" for action, args in VALID_ARGS.items()),
        "fp:7:3:explode:",  # an action no button has
        "fp:7:3:mode:sms",  # out of range: its button answers that it is out of date
        "fps:7:3:ai",
    ],
)
def test_every_id_of_ours_fits_exactly_one_kind(custom_id: str) -> None:
    # discord.py hands a click to every kind whose template fits: two would answer it twice.
    fits = [k for k in BUTTONS if template_of(k).fullmatch(custom_id)]
    assert len(fits) == 1, fits


# --- where a button counts ------------------------------------------------------------------------


async def test_a_button_counts_only_in_its_tables_channel(service: TableService) -> None:
    board = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    t = board.table_id
    await service.check_place(t, GUILD, CHANNEL, BOB)  # anyone, in the table's channel
    for guild, channel in ((GUILD + 1, CHANNEL), (GUILD, CHANNEL + 1), (GUILD + 1, 99)):
        with pytest.raises(Stale) as refused:
            await service.check_place(t, guild, channel, BOB)
        assert refused.value.why is Why.MISPLACED_BUTTON


async def test_a_direct_message_button_counts_only_for_a_seated_player(
    service: TableService,
) -> None:
    board = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.join(board.table_id, BOB, "Bob")
    await service.check_place(board.table_id, None, 555, BOB)
    with pytest.raises(Stale) as refused:
        await service.check_place(board.table_id, None, 556, DAVE)
    assert refused.value.why is Why.MISPLACED_BUTTON


# --- names ----------------------------------------------------------------------------------------

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_names_lose_control_and_direction_characters_and_keep_the_rest() -> None:
    assert names.clean("\u202eAnn\u2066a" + BIDI + "\x00\n") == "Anna"
    assert names.clean("Léa 🔥 McBride") == "Léa 🔥 McBride"  # case and emoji as written


def test_a_name_in_text_cannot_format_ping_or_turn_the_line() -> None:
    shown = texts.esc("**bold**\u202e @everyone")
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
    assert (refused.value.decision, refused.value.owner) == ("play", "**bold**evil")  # as written
    assert words.refusal(refused.value, texts.esc, lang=ENGLISH).startswith(
        "It is \\*\\*bold\\*\\*evil's turn"
    )


async def test_a_seated_name_keeps_its_words_apart_and_loses_its_controls(
    service: TableService,
) -> None:
    board = await service.new_table(GUILD, CHANNEL, ALICE, "Ann\tMarie\n\u202e Smith\x00")
    assert board.names == ("Ann Marie Smith",)
    board = await service.join(board.table_id, BOB, "\u202e\u2066\u2069")
    assert board.names[1] == "player"

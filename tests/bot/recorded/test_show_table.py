"""One object per open table on the show side (:mod:`bot.show.table`): whichever way a table
ends, nothing of it is kept afterwards: no owed post, no turn message, no screen, no hand
waiting, no loop."""

from __future__ import annotations

import asyncio

import pytest

from bot.desk import Desk
from bot.errors import NotShown
from bot.service import LOBBY_TTL_S
from bot.show import endtexts, handtexts
from bot.show.table import TableShow
from data.store import TableDefaults
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, state
from tests.bot.recorded.conftest import settle, spot, started
from tests.bot.recorded.recording import Click, RecordingOutbox, next_id
from tests.bot.recorded.test_followups import with_a_computer

WON = state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], ["G20"], ["B10"]])
"""Alice wins the match with her next move."""


def gone(desk: Desk, t: int) -> None:
    """Nothing of table ``t`` is kept on the show side."""
    assert t not in desk.show.tables
    assert not desk.show.channel.owes(t)
    assert desk.show.screens.live(t) == []
    assert not desk.show.channel.is_turn_message(t, 0)
    assert t not in desk.show.tables  # reading made nothing


async def with_a_live_screen(desk: Desk, t: int) -> Click:
    """Bob opens his hand privately at ``t``: a screen kept with the table."""
    click = Click(BOB, guild_id=GUILD, channel_id=CHANNEL, message_id=next_id())
    await desk.open_hand(click, t)
    kept = desk.show.tables.get(t)
    assert kept is not None and BOB in kept.screens and kept.newest is not None
    return click


async def test_the_end_of_a_match_closes_its_table(desk: Desk, outbox: RecordingOutbox) -> None:
    t = await started(desk, WON, ALICE, BOB, CAROL)
    bobs = await with_a_live_screen(desk, t)
    await spot(desk, t, ALICE, "Y40")
    await settle(desk)
    assert (await desk.service.board_of(t)).prompt.kind == "over"
    assert bobs.edits[-1].content == endtexts.MATCH_OVER
    gone(desk, t)


async def test_a_match_whose_last_move_is_owed_closes_once_the_channel_has_it(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, WON, ALICE, BOB, CAROL)
    outbox.refusing.add(CHANNEL)
    with pytest.raises(NotShown):
        await spot(desk, t, ALICE, "Y40")
    await asyncio.sleep(0.05)  # the end of the match shown on the screens (Tables.end)
    kept = desk.show.tables.get(t)
    assert kept is not None and kept.ending and kept.owed is not None  # only the owed move
    assert (kept.screens, kept.hands, kept.turn_message) == ({}, {}, None)
    posted = len(outbox.posts_in(CHANNEL))
    outbox.refusing.clear()
    await settle(desk)
    assert len(outbox.posts_in(CHANNEL)) == posted + 1
    gone(desk, t)


async def test_abort_closes_the_table(desk: Desk, outbox: RecordingOutbox) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    bobs = await with_a_live_screen(desk, t)
    game = outbox.posts_in(CHANNEL)[-1]  # the game's first post, asking Alice to play
    assert f"<@{ALICE}>, your turn" in game.content
    await desk.abort(CHANNEL, ALICE, "Alice", may_manage=True)
    await settle(desk)
    notice = outbox.posts_in(CHANNEL)[-1]
    assert "Alice" in notice.content and notice.message.pings == (BOB, CAROL)  # once each
    assert bobs.edits[-1].content == handtexts.CLOSED
    # The game's post keeps what it said but its question, and no button.
    closed = outbox.edits_of(game.id)[-1]
    assert closed.fields["view"] is None and closed.content
    assert closed.content == game.content.rsplit("\n", 1)[0]
    gone(desk, t)


async def test_the_last_person_leaving_closes_the_table_and_stops_its_computers(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await with_a_computer(desk)
    await spot(desk, t, ALICE, "Y40")
    await desk.leave(CHANNEL, ALICE, "Alice", t)
    await settle(desk)
    gone(desk, t)


async def test_a_cancelled_lobby_leaves_nothing(desk: Desk, outbox: RecordingOutbox) -> None:
    _, card = await desk.new_table(GUILD, CHANNEL, ALICE, "user11", TableDefaults())
    t = (await desk.service.table_in_channel(CHANNEL)).id
    version = (await desk.service.board_of(t)).version
    click = Click(ALICE, guild_id=GUILD, channel_id=CHANNEL, message_id=card.id)
    await desk.lobby(click, t, version, "cancel", "user11")
    assert click.edits  # the card says so
    gone(desk, t)


async def test_an_expired_lobby_leaves_nothing(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    await desk.new_table(GUILD, CHANNEL, ALICE, "user11", TableDefaults())
    t = (await desk.service.table_in_channel(CHANNEL)).id
    clock.advance(LOBBY_TTL_S)
    await desk.run_timers(t)
    gone(desk, t)


async def test_stopping_closes_every_table_and_cancels_their_loops(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    await with_a_live_screen(desk, t)
    outbox.refusing.add(CHANNEL)
    with pytest.raises(NotShown):
        await spot(desk, t, ALICE, "Y40")
    kept = desk.show.tables.get(t)
    assert kept is not None and kept.retrying is not None  # the owed move is retried...
    retrying = kept.retrying
    await desk.close()
    assert retrying.cancelled()  # ...until the process stops
    gone(desk, t)


def test_a_closed_table_cancels_its_loops_but_not_the_one_closing_it() -> None:
    async def run() -> None:
        kept = TableShow(1)
        waiting = asyncio.Event()
        kept.advancing = asyncio.ensure_future(waiting.wait())

        async def closing() -> None:
            kept.close()
            await asyncio.sleep(0)  # still running: not cancelled by its own close

        advancing = kept.advancing
        retrying = kept.retrying = asyncio.ensure_future(closing())
        await retrying
        assert not retrying.cancelled() and advancing.cancelled()
        assert kept.empty()

    asyncio.run(run())

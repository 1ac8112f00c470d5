"""What breaks show (issue 31), against a recording outbox: a player away gets nothing while a
computer plays their turn, the channel says so and pings nobody; the clock setting a player away
is told once in the channel and once by direct message, with the button that brings them back;
a pause and its end are told in the channel, without a ping."""

from __future__ import annotations

from bot.awaybutton import custom_id
from bot.desk import Desk
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, state
from tests.bot.recorded.conftest import settle, spot, started
from tests.bot.recorded.recording import RecordingOutbox, dm_of

DAY = 24 * 3600


async def test_an_away_players_turn_is_played_at_once_with_nothing_sent_to_them(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    await desk.away(GUILD, BOB, DAY)
    await settle(desk)
    before = len(outbox.sent)
    await spot(desk, t, ALICE, "Y40")
    await settle(desk)
    new = outbox.sent[before:]
    assert not [s for s in new if s.channel_id == dm_of(BOB)]
    moves = [s for s in new if s.channel_id == CHANNEL]
    assert [m.message.pings for m in moves] == [(), ()]  # Carol is told by her screen
    assert "user12 is away: a computer player plays their turn…" in moves[0].content
    assert moves[1].content.startswith(
        "💤 user12 is away: a computer player (normal) made this move"
    )
    assert [s.channel_id for s in new if s.channel_id != CHANNEL] == [dm_of(CAROL)]


async def test_the_clock_setting_a_player_away_is_told_once_to_the_table_and_to_them(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    for _ in range(2):  # Alice's clock runs out twice in a row
        while (await desk.service.board_of(t)).prompt.user_id != ALICE:
            clock.advance(DAY + 1)  # (the others' too, once each)
            await desk.run_timers(t)
            await settle(desk)
        clock.advance(DAY + 1)
        await desk.run_timers(t)
        await settle(desk)
    told = [s for s in outbox.posts_in(CHANNEL) if "in a row" in s.content]
    assert len(told) == 1 and told[0].message.pings == ()
    assert told[0].content.startswith("💤 user11's time ran out on 2 decisions in a row")
    [dm] = [s for s in outbox.posts_in(dm_of(ALICE)) if "in a row" in s.content]
    assert "**The Server**" in dm.content
    view = dm.message.view
    assert view is not None
    assert next(getattr(i, "custom_id", None) for i in view.children) == custom_id(GUILD)


async def test_a_pause_and_its_end_are_told_in_the_channel(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    before = len(outbox.sent)
    board = await desk.pause(CHANNEL, ALICE, "Ann", "tea", 3600, manage=False)
    assert board.pause is not None
    clock.advance(3600)
    await desk.run_timers(t)
    await settle(desk)
    paused, resumed = [s for s in outbox.sent[before:] if s.channel_id == CHANNEL]
    assert paused.content.startswith("⏸️ Ann paused the game until <t:")
    assert paused.content.splitlines()[0].endswith(": tea")
    assert resumed.content.startswith("▶️ The pause is over: every clock moved on by 1 hour")
    assert "<@11>, your turn" in resumed.content and resumed.message.pings == ()

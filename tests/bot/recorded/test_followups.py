"""What follows a change (:mod:`bot.followups`), against a recording outbox: the computer
players' turns, the timers' outcomes, the other players' private screens."""

from __future__ import annotations

from bot.desk import Desk
from bot.service import LOBBY_TTL_S
from data.store import TableDefaults
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, state
from tests.bot.recorded.conftest import settle, spot, started
from tests.bot.recorded.recording import Click, RecordingOutbox, dm_of, next_id

TWO = state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]], piles=[["R20"], ["G20"]])
"""Two players, the first to decide first."""


async def with_a_computer(desk: Desk) -> int:
    """Alice and a computer player, Alice to decide first; the table's id."""
    t = await lobby(desk.service, ALICE)
    await desk.service.add_ai(t, (await desk.service.board_of(t)).version, ALICE, "normal")
    step = await desk.service.start_from_state(t, ALICE, dict(TWO))
    async with desk.locks.table(t):
        await desk.follow.show(step, clicker=ALICE)
    await settle(desk)
    return t


async def test_a_computer_players_turn_follows_a_persons_move(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await with_a_computer(desk)
    posted = len(outbox.posts_in(CHANNEL))
    await spot(desk, t, ALICE, "Y40")
    await settle(desk)
    alices, computers = outbox.posts_in(CHANNEL)[posted:]
    assert alices.content.startswith("user11 played yellow 40.")
    assert "<@11>" in computers.content  # the computer played; Alice's turn again
    assert (await desk.service.board_of(t)).prompt.user_id == ALICE
    kept = desk.show.tables.get(t)
    assert kept is not None and kept.advancing is None  # the loop ended with its turn


async def test_a_reminder_then_the_clock_plays_for_the_absent_player(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    t = await lobby(desk.service, ALICE, BOB, CAROL, turn_limit_s=3600, reminder_s=600)
    step = await desk.service.start_from_state(t, ALICE, state())
    async with desk.locks.table(t):
        await desk.follow.show(step)
    await settle(desk)
    dms, posts = len(outbox.posts_in(dm_of(ALICE))), len(outbox.posts_in(CHANNEL))

    clock.advance(3600 - 600 + 1)
    await desk.run_timers(t)
    await settle(desk)
    [reminder] = outbox.posts_in(dm_of(ALICE))[dms:]
    assert (
        reminder.content.startswith("⏳ Your decision at table #1")
        and "a computer player will make it for you <t:" in reminder.content
    )
    assert outbox.posts_in(CHANNEL)[posts:] == []

    clock.advance(600)
    await desk.run_timers(t)
    await settle(desk)
    [timed_out] = outbox.posts_in(CHANNEL)[posts:]
    assert "<@12>" in timed_out.content  # Bob's turn now
    assert (await desk.service.board_of(t)).prompt.user_id == BOB
    # Her screen says that her time ran out and a computer decided: not a move she made.
    [screen] = outbox.posts_in(dm_of(ALICE))[:1]
    closed = outbox.edits_of(screen.id)[-1].content.splitlines()
    assert closed[0] == "⏰ Your time ran out: a computer player decided for you."
    # Then the turn as posted, told to her ("You played", not her name).
    assert closed[1] == "You played yellow 40." and "user11" not in "\n".join(closed)
    assert "user11 played yellow 40." in timed_out.content


async def test_a_lobby_that_expires_says_so_on_its_card(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    _, card = await desk.new_table(GUILD, CHANNEL, ALICE, "user11", TableDefaults())
    [posted] = outbox.posts_in(CHANNEL)
    assert posted.id == card.id
    table_id = (await desk.service.table_in_channel(CHANNEL)).id
    clock.advance(LOBBY_TTL_S)
    await desk.run_timers(table_id)
    [expired] = outbox.edits_of(card.id)
    assert expired.fields["view"] is not None  # the card, telling that nobody started it
    assert table_id not in desk.show.tables


async def test_the_other_players_live_screens_are_brought_up_to_date(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    bobs = Click(BOB, guild_id=GUILD, channel_id=CHANNEL, message_id=next_id())
    await desk.open_hand(bobs, t)  # "My hand": Bob's private screen
    [opened] = bobs.answers
    assert desk.show.screens.live(t) == [BOB]

    await spot(desk, t, ALICE, "Y40")
    await settle(desk)
    [refreshed] = bobs.edits  # through the token of the click that opened it
    assert refreshed.message_id == opened.id
    assert refreshed.content.startswith("🔥 **Your turn** at table #1")  # Bob decides now
    assert refreshed.fields["view"] is not None

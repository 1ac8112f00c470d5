"""A turn held back for its undo window, shown by the show side against a recording outbox:
nothing goes out while it is held; once its window runs out, the turn's post and the next
player's screen go out, and the held screen in direct messages is closed through the token of
the click that showed it (no request against the global limit), or by an edit when this process
did not show it."""

from __future__ import annotations

from bot.desk import Desk
from bot.service import SpotChoice
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, ManualClock, lobby, state
from tests.bot.recorded.conftest import settle
from tests.bot.recorded.recording import Click, RecordingOutbox, dm_of

WINDOW = 30


async def held_in_dm(desk: Desk, outbox: RecordingOutbox) -> tuple[int, int, Click]:
    """Alice's yellow 40, played from her screen in direct messages at a table with an undo
    window: the table, her screen's id, and the spot's click."""
    t = await lobby(desk.service, ALICE, BOB, CAROL, undo_s=WINDOW)
    step = await desk.service.start_from_state(t, ALICE, state())
    async with desk.locks.table(t):
        await desk.follow.show(step, clicker=ALICE)
    await settle(desk)
    [screen] = outbox.posts_in(dm_of(ALICE))
    hand = await desk.service.hand(t, ALICE)
    choice = await desk.service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    click = Click(ALICE, guild_id=None, channel_id=dm_of(ALICE), message_id=screen.id)
    await desk.spot(click, t, choice.version, "Y40", choice.spots[0][1])
    await settle(desk)
    return t, screen.id, click


async def test_a_held_turn_sends_nothing_and_shows_undo_and_done_on_the_clicked_screen(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    before = len(outbox.sent)
    _, screen, click = await held_in_dm(desk, outbox)
    assert len(outbox.sent) == before + 2  # the game's first post and Alice's screen, no more
    assert outbox.edits_of(screen) == []
    [answer] = click.edits
    assert "**Your turn is played**" in answer.content
    ids = [item.custom_id for item in answer.fields["view"].children if item.custom_id]
    assert [i.split(":")[3] for i in ids] == ["undo", "done"]


async def test_a_window_run_out_closes_the_held_screen_through_its_click(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    t, screen, click = await held_in_dm(desk, outbox)
    sent = len(outbox.sent)
    clock.advance(WINDOW)
    await desk.run_timers(t)
    await settle(desk)
    new = outbox.sent[sent:]
    [move] = [s for s in new if s.channel_id == CHANNEL]
    assert move.content.startswith("user11 played yellow 40.")
    [bob] = [s for s in new if s.channel_id == dm_of(BOB)]
    assert "Your turn" in bob.content
    # Her held screen is closed with the turn's account, through the spot click's token.
    closing = click.edits[-1]
    assert closing.fields["view"] is None and "played yellow 40" in closing.content
    assert outbox.edits_of(screen) == []


async def test_a_held_screen_this_process_did_not_show_is_closed_by_an_edit(
    desk: Desk, outbox: RecordingOutbox, clock: ManualClock
) -> None:
    t, screen, click = await held_in_dm(desk, outbox)
    kept = desk.show.tables.get(t)
    assert kept is not None
    kept.screens.clear()  # as in a process that restarted, or another one
    answers = len(click.edits)
    clock.advance(WINDOW)
    await desk.run_timers(t)
    await settle(desk)
    [closed] = outbox.edits_of(screen)
    assert closed.fields["view"] is None and "played yellow 40" in closed.content
    assert len(click.edits) == answers

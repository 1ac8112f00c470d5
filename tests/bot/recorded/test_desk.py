"""The desk (:mod:`bot.desk`) against a recording outbox: a click goes through the real service
on a real store, and what the show side would send is checked message by message, recipient by
recipient."""

from __future__ import annotations

import pytest

from bot import replies
from bot.desk import Desk
from bot.errors import NotShown, TableError, Why
from bot.kept import Kept
from bot.show import texts, words
from i18n import ENGLISH
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, state
from tests.bot.recorded.conftest import settle, spot, started
from tests.bot.recorded.recording import Click, RecordingOutbox, dm_of, next_id


async def test_a_spot_posts_the_move_and_the_next_screen_and_turns_the_clickers_screen(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    [begins] = outbox.posts_in(CHANNEL)
    assert "begins" in begins.content
    [alice_screen] = outbox.posts_in(dm_of(ALICE))  # Alice decides first: her screen by DM
    assert "Your turn" in alice_screen.content
    assert not outbox.posts_in(dm_of(BOB))  # a waiting hand needs no message
    before = len(outbox.sent)

    click = await spot(desk, t, ALICE, "Y40")
    await settle(desk)

    new = outbox.sent[before:]
    # One message in the channel for the move, nobody pinged (Bob is told by his screen)...
    [move] = [s for s in new if s.channel_id == CHANNEL]
    assert move.content.startswith("user11 played yellow 40.")
    assert "<@12>" in move.content and move.message.pings == ()
    assert move.message.view is not None  # "My hand"
    # ...Bob's screen of his decision in his direct messages...
    [bob_screen] = [s for s in new if s.channel_id == dm_of(BOB)]
    assert "Your turn" in bob_screen.content and "user11 played yellow 40" in bob_screen.content
    assert len(new) == 2
    # ...the clicked screen shows Alice's hand after her move, through the click's answer...
    [answer] = click.edits
    assert answer.content.startswith("✅ You played yellow 40.")
    # ...and her screen in direct messages, whose decision she took elsewhere, is closed.
    [closed] = outbox.edits_of(alice_screen.id)
    assert closed.fields["view"] is None and "played yellow 40" in closed.content
    board = await desk.service.board_of(t)
    assert Kept.BOARD.of(board.table.messages) == move.id
    assert Kept.hand(BOB).of(board.table.messages) == bob_screen.id


async def test_a_spot_in_direct_messages_closes_the_clicked_screen_with_the_turns_account(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    [alice_screen] = outbox.posts_in(dm_of(ALICE))
    hand = await desk.service.hand(t, ALICE)
    choice = await desk.service.play(t, ALICE, "Y40", hand.digest)
    click = Click(ALICE, guild_id=None, channel_id=dm_of(ALICE), message_id=alice_screen.id)
    await desk.spot(click, t, choice.version, "Y40", choice.spots[0][1])  # type: ignore[union-attr]
    await settle(desk)
    [answer] = click.edits
    assert answer.fields["view"] is None and "played yellow 40" in answer.content
    assert not outbox.edits_of(alice_screen.id)  # closed by the click's answer, not by an edit


async def test_a_refusal_reaches_the_funnel_and_is_answered_privately(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    version = (await desk.service.board_of(t)).version
    before = len(outbox.sent)
    click = Click(BOB, guild_id=GUILD, channel_id=CHANNEL, message_id=next_id())
    with pytest.raises(TableError) as refused:
        await desk.spot(click, t, version, "R2", (0, 4))
    async with replies.guarded(click, t, "spot"):  # type: ignore[arg-type]
        await desk.spot(click, t, version, "R2", (0, 4))
    [answer] = click.answers
    assert answer.content == words.refusal(refused.value, texts.esc, ENGLISH)
    assert outbox.sent[before:] == [] and click.edits == []


async def test_a_move_the_channel_refuses_stands_the_clicker_is_told_and_it_is_posted_later(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    outbox.refusing.add(CHANNEL)
    with pytest.raises(NotShown) as refused:
        await spot(desk, t, ALICE, "Y40")
    assert refused.value.why is Why.NOT_SHOWN
    assert desk.show.channel.owes(t)
    assert (await desk.service.board_of(t)).prompt.user_id == BOB  # the move stands
    posted = len(outbox.posts_in(CHANNEL))

    outbox.refusing.clear()  # Discord takes posts again: the follow-ups' retry shows it
    await settle(desk)
    [shown] = outbox.posts_in(CHANNEL)[posted:]
    assert "<@12>" in shown.content
    assert not desk.show.channel.owes(t)

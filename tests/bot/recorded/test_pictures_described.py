"""The show side as a sink: every picture it sends or edits in, the channel's, a player's screen
in their direct messages, a private screen and its spot step, carries the words a screen reader
reads for it (:mod:`render.alttext`): the channel's without any hand, a screen's with its own."""

from __future__ import annotations

from typing import Any

import discord

from bot.desk import Desk
from render import alttext
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, state
from tests.bot.recorded.conftest import settle, started
from tests.bot.recorded.recording import Click, RecordingOutbox, dm_of, next_id


def files_of(fields: dict[str, Any]) -> list[discord.File]:
    return list(fields.get("attachments") or fields.get("files") or [])


async def test_every_picture_the_show_side_sends_is_described(
    desk: Desk, outbox: RecordingOutbox
) -> None:
    t = await started(desk, state(), ALICE, BOB, CAROL)
    bobs = Click(BOB, guild_id=GUILD, channel_id=CHANNEL, message_id=next_id())
    await desk.open_hand(bobs, t)
    hand = await desk.service.hand(t, ALICE)
    alices = Click(ALICE, guild_id=GUILD, channel_id=CHANNEL, message_id=next_id())
    await desk.play(alices, t, "Y40", hand.digest)
    [spots] = files_of(alices.edits[-1].fields)
    choice = await desk.service.play(t, ALICE, "Y40", hand.digest)
    await desk.spot(alices, t, choice.version, "Y40", choice.spots[0][1])
    await settle(desk)

    shown: list[tuple[int, discord.File]] = [
        (s.channel_id, f) for s in [*outbox.sent, *bobs.answers] for f in s.message.files
    ]
    shown += [
        (e.channel_id or 0, f) for e in [*outbox.edits, *alices.edits] for f in files_of(e.fields)
    ]
    names = {f.filename for _, f in shown}
    assert {"pyramid.png", "turn.png", "spots.png"} <= names, names
    for channel, f in shown:
        said = f.description or ""
        assert said and len(said) <= alttext.LIMIT, f.filename
        if f.filename.startswith("pyramid."):
            assert channel == CHANNEL and "Your hand" not in said, said
            assert said.startswith("Flaming Pyramids, table #1.\n") and "\nRow 1: " in said
        else:
            assert "\nYour hand: " in said and "\nRow 1: " in said, said
    bob = next(f for s in bobs.answers for f in s.message.files)
    assert "\nYour hand: red 2 (straw), green 2 (straw); 1 tile in your pile.\n" in (
        bob.description or ""
    )
    assert (spots.description or "").splitlines()[1].startswith("Where do you play yellow 40? ")
    # The screens sent to the players' direct messages too.
    assert {(dm_of(ALICE), "turn.png"), (dm_of(BOB), "turn.png")} <= {
        (c, f.filename) for c, f in shown
    }

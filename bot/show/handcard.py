"""The message that shows one player's hand: its picture, its words, its tile (or fall) buttons
and a link to the table's newest message. Hand messages in direct messages and private screens
in the channel are both made here."""

from __future__ import annotations

import io

import discord

from bot import names as player_names
from bot.service import Hand
from bot.show import buttons, pictures, texts
from bot.show.message import Message
from bot.show.outbox import Outbox


class HandCard:
    """Makes hand messages; remembers each table's newest game message for their links."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.newest: dict[int, int] = {}
        """Per table: the id of its newest game message this process posted."""

    def newest_message(self, hand: Hand) -> int | None:
        """The id of the table's newest game message: the one this process posted last, or the
        one the database knows when another process posted a newer one (ids grow with time)."""
        known = [i for i in (self.newest.get(hand.table_id), hand.board_message_id) if i]
        return max(known, default=None)

    async def message(
        self, hand: Hand, *, mode_button: str | None = None, note: str | None = None
    ) -> Message:
        """A message showing ``hand`` (with ``note`` first, and the button that switches how
        hands are delivered if ``mode_button`` names the mode it switches to)."""
        png = await pictures.hand_png(
            hand.view, player_names.clean(hand.names[hand.seat]), renderer=self.outbox.renderer
        )
        content = texts.hand_content(hand, guild_name=await self.outbox.guild_name(hand.guild_id))
        message = Message(
            content,
            files=[discord.File(io.BytesIO(png), filename="hand.png", description="Your hand")],
            view=buttons.hand_view(
                hand, with_mode=mode_button, message_id=self.newest_message(hand)
            ),
        )
        return message.noted(note, texts.clip)

"""The "I'm back" button: ``fp:away:<guild>:back``, on the private answer to ``/fp away`` and on
the direct message that tells a player the clock set them away.

Away is per server and player, not per table, so the button names the server, not a table (the
game's template, ``fp:<table>:<version>:...``, digits first, never matches it). It ends the
clicker's own absence in that server, whoever clicks: a forged id can only bring its clicker
back. It acts only on the clicker's own private message (a direct message, or a message only they
see); its click goes to the ``Breaks`` cog (:mod:`bot.cogs.breaks`), which acknowledges it and
calls the desk. The id is kept on old messages: its format never changes.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

import discord

from bot import emoji as em
from bot import replies  # the module, as it imports bot.show, which shows this button
from bot.components import PRIVATE, RESTARTING, place_of
from bot.errors import Stale, Why
from bot.languages import clicker_language
from i18n import Language

log = logging.getLogger(__name__)

TEMPLATE: Final = r"fp:away:(?P<guild>[0-9]{1,19}):back"
MAX_GUILD: Final = 2**63 - 1
"""Server ids above this are not Discord's (and would overflow the store's integers)."""


def custom_id(guild_id: int) -> str:
    return f"fp:away:{guild_id}:back"


class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """ "I'm back": the clicker's decisions in the server are theirs again."""

    def __init__(self, guild_id: int, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                emoji=em.AWAY,
                custom_id=custom_id(guild_id),
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BackButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["guild"]), label=label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: Any = interaction.client
        cog = client.get_cog("Breaks")
        if cog is None:
            log.error("the I'm back button used but the Breaks cog is not loaded")
            await interaction.response.send_message(
                clicker_language(interaction).gettext(RESTARTING), ephemeral=True
            )
            return
        async with replies.guarded(interaction, None, "button away back"):
            place = place_of(interaction)
            if place is None or place not in PRIVATE or not 0 < self.guild_id <= MAX_GUILD:
                raise Stale(Why.MISPLACED_BUTTON)
            await cog.back_clicked(interaction, self.guild_id)


def back_view(guild_id: int, lang: Language) -> discord.ui.View:
    """The "I'm back" button, alone in its view."""
    view = discord.ui.View(timeout=None)
    view.add_item(BackButton(guild_id, label=lang.pgettext("button", "I'm back")))
    return view


BUTTONS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (BackButton,)
"""The ``DynamicItem`` kinds the ``Breaks`` cog registers."""

"""Persistent buttons: every custom id says what it means, ``fp:<table>:<version>:<action>:<arg>``.

A button is resolved from the database when it is clicked (a discord.py ``DynamicItem``
registered in ``setup_hook``), so it works after a restart and days later; the version (or, for
a tile, the fingerprint of the hand it was shown with) makes a stale or double click refused
without changing anything.

Actions:

============  =====================================  ==========================================
action        arg                                    meaning
============  =====================================  ==========================================
``join``      -                                      take a seat in the lobby
``leave``     -                                      leave the lobby
``ai``        level (``easy``/``normal``/``hard``)   host: add a computer player
``rmai``      -                                      host: remove the last computer player
``start``     -                                      host: start the game
``cancel``    -                                      host: close the lobby
``hand``      -                                      show my hand (ephemeral)
``play``      ``<tile>.<hand digest>``               play this tile from this hand
``spot``      ``<tile>@<row>,<x>``                   play the chosen tile on this spot
``more``      ``<tile>.<page>``                      another page of spots (more than 20)
``fall``      ``left`` / ``right``                   the pending fall choice
``next``      -                                      start the next round
``mode``      ``dm`` / ``channel``                   how I get my hands from now on
============  =====================================  ==========================================
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger(__name__)

PREFIX = "fp"
TEMPLATE = (
    r"fp:(?P<table>[0-9]{1,20}):(?P<version>[0-9]{1,12}):(?P<action>[a-z]{1,8}):"
    r"(?P<arg>[A-Za-z0-9@,.\-]{0,40})"
)
"""The custom id pattern (at most 3 + 21 + 13 + 9 + 40 = 86 characters, under Discord's 100)."""
ACTIONS = frozenset(
    {
        "join",
        "leave",
        "ai",
        "rmai",
        "start",
        "cancel",
        "hand",
        "play",
        "spot",
        "more",
        "fall",
        "next",
        "mode",
    }
)
MAX_CUSTOM_ID = 100
MAX_LABEL = 80


@dataclass(frozen=True)
class ButtonId:
    """A parsed custom id."""

    table_id: int
    version: int
    action: str
    arg: str = ""

    def encode(self) -> str:
        """The custom id string."""
        cid = f"{PREFIX}:{self.table_id}:{self.version}:{self.action}:{self.arg}"
        if len(cid) > MAX_CUSTOM_ID or not _PATTERN.fullmatch(cid):
            raise ValueError(f"bad custom id {cid!r}")
        return cid

    @classmethod
    def decode(cls, custom_id: str) -> ButtonId | None:
        """Parse a custom id; None if it is not one of ours."""
        m = _PATTERN.fullmatch(custom_id)
        if m is None or m["action"] not in ACTIONS:
            return None
        return cls(int(m["table"]), int(m["version"]), m["action"], m["arg"])


_PATTERN = re.compile(TEMPLATE)


class FpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Any Flaming Pyramids button. Its callback hands the click to the ``Tables`` cog, which
    acknowledges it first and then asks the table service."""

    def __init__(
        self,
        bid: ButtonId,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        if label is not None and len(label) > MAX_LABEL:
            label = label[: MAX_LABEL - 1] + "…"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=bid.encode(),
                disabled=disabled,
                row=row,
            )
        )
        self.bid = bid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FpButton:
        bid = ButtonId(int(match["table"]), int(match["version"]), match["action"], match["arg"])
        if isinstance(item, discord.ui.Button):
            return cls(bid, label=item.label, style=item.style)
        return cls(bid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: Any = interaction.client
        cog: Any = client.get_cog("Tables")
        if cog is None:
            log.error("button %s clicked but the Tables cog is not loaded", self.bid)
            await interaction.response.send_message(
                "The game service is restarting; please try again in a moment.", ephemeral=True
            )
            return
        await cog.on_button(interaction, self.bid)

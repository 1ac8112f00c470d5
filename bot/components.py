"""Persistent buttons: every custom id says what it means, ``fp:<table>:<version>:<action>:<arg>``.

A button is resolved from the database when it is clicked (a discord.py ``DynamicItem``
registered in ``setup_hook``), so it works after a restart and days later; the version (or, for
a tile, the fingerprint of the hand it was shown with) makes a stale or double click refused
without changing anything.

A custom id can be forged (any client can send an interaction with any id), so nothing in it is
trusted: :meth:`ButtonId.decode` accepts only table ids and versions that fit the store
(``1..2**53`` and ``0..2**53``), known actions and the arguments each action takes; anything else
is answered privately as an out-of-date button and changes nothing. Where a button may be
clicked (its table's channel, or a direct message of a player seated there) is checked by the
``Tables`` cog before it acts.

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
``back``      -                                      from the spots back to the tiles
``fall``      ``left`` / ``right``                   the pending fall choice
``next``      -                                      start the next round
``mode``      ``dm`` / ``channel``                   how I get my hands from now on
``rematch``   -                                      a player: a new lobby, same seats/options
============  =====================================  ==========================================
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import discord

from engine.ai import LEVELS
from engine.tiles import is_tile

log = logging.getLogger(__name__)

PREFIX = "fp"
TEMPLATE = (
    r"fp:(?P<table>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<action>[a-z]{1,8}):"
    r"(?P<arg>[A-Za-z0-9@,.\-]{0,40})"
)
"""The custom id pattern (at most 3 + 21 + 21 + 9 + 40 = 94 characters, under Discord's 100).
It is wider than what is valid, so that an id out of range still reaches :class:`FpButton` and
gets an answer."""
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_ID: Final = 2**53
"""Table ids and versions above this are not ours (and would overflow the store's integers)."""
MAX_COORD: Final = 999
OUT_OF_DATE: Final = "This button is out of date or not meant for this place; nothing was changed."

_DIGEST = re.compile(r"[0-9a-f]{8}")
_COORD = re.compile(r"-?[0-9]{1,3}")
_PAGE = re.compile(r"[0-9]{1,2}")


def _tile_and(sep: str, rest: Callable[[str], bool]) -> Callable[[str], bool]:
    def check(arg: str) -> bool:
        tile, found, tail = arg.partition(sep)
        return bool(found) and is_tile(tile) and rest(tail)

    return check


def _spot(where: str) -> bool:
    r, comma, x = where.partition(",")
    return bool(comma) and all(
        _COORD.fullmatch(n) is not None and abs(int(n)) <= MAX_COORD for n in (r, x)
    )


ARGS: Final[dict[str, Callable[[str], bool]]] = {
    **{
        a: (lambda arg: arg == "")
        for a in ("join", "leave", "rmai", "start", "cancel", "hand", "next", "back", "rematch")
    },
    "ai": lambda arg: arg in LEVELS,
    "mode": lambda arg: arg in ("dm", "channel"),
    "fall": lambda arg: arg in ("left", "right"),
    "play": _tile_and(".", lambda d: _DIGEST.fullmatch(d) is not None),
    "spot": _tile_and("@", _spot),
    "more": _tile_and(".", lambda p: _PAGE.fullmatch(p) is not None),
}
"""The actions, and what each accepts as its argument."""
ACTIONS: Final = frozenset(ARGS)


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
        if len(cid) > MAX_CUSTOM_ID or self.decode(cid) != self:
            raise ValueError(f"bad custom id {cid!r}")
        return cid

    def valid(self) -> bool:
        """Whether every part is in its range (see the module's docstring)."""
        check = ARGS.get(self.action)
        return (
            1 <= self.table_id <= MAX_ID
            and 0 <= self.version <= MAX_ID
            and check is not None
            and check(self.arg)
        )

    @classmethod
    def decode(cls, custom_id: str) -> ButtonId | None:
        """Parse a custom id; None if it is not one of ours or anything in it is out of range."""
        m = _PATTERN.fullmatch(custom_id)
        if m is None:
            return None
        bid = cls(int(m["table"]), int(m["version"]), m["action"], m["arg"])
        return bid if bid.valid() else None


_PATTERN = re.compile(TEMPLATE)


class FpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Any Flaming Pyramids button. Its callback hands the click to the ``Tables`` cog, which
    acknowledges it first and then asks the table service. A clicked id that matches the
    template but not :meth:`ButtonId.decode` (``bid`` None, ``custom_id`` given) is answered
    privately and changes nothing."""

    def __init__(
        self,
        bid: ButtonId | None,
        *,
        custom_id: str | None = None,
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
                custom_id=bid.encode() if bid is not None else custom_id,
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
        bid = ButtonId.decode(match.string)
        cid = None if bid is not None else match.string
        if isinstance(item, discord.ui.Button):
            return cls(bid, custom_id=cid, label=item.label, style=item.style)
        return cls(bid, custom_id=cid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.bid is None:
            log.info("refused a button with a custom id out of range: %r", self.custom_id)
            try:
                await interaction.response.send_message(OUT_OF_DATE, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not answer the out-of-range button %r", self.custom_id)
            return
        client: Any = interaction.client
        cog: Any = client.get_cog("Tables")
        if cog is None:
            log.error("button %s clicked but the Tables cog is not loaded", self.bid)
            await interaction.response.send_message(
                "The game service is restarting; please try again in a moment.", ephemeral=True
            )
            return
        await cog.on_button(interaction, self.bid)

"""Persistent buttons: every custom id says what it means, ``fp:<table>:<version>:<action>:<arg>``.

A button is resolved from the database when it is clicked (a discord.py ``DynamicItem``
registered in ``setup_hook``), so it works after a restart and days later; the version (or, for
a tile, the fingerprint of the hand it was shown with) makes a stale or double click refused
without changing anything.

A custom id can be forged (any client can send an interaction with any id), so nothing in it is
trusted: :meth:`ButtonId.decode` accepts only table ids and versions that fit the store
(``1..2**53`` and ``0..2**53``), known actions and the arguments each action takes; anything else
is answered privately as an out-of-date button and changes nothing.

Nor is the message it was clicked on: every action has its places (:data:`PLACES`), checked
from the click alone (:func:`place_of`) before anything is read or acknowledged. A private
screen's action (a tile, a spot, a page, back, a hand mode) acts only on the clicker's own
private screen, a public action only on a public message; anywhere else the click is refused
privately and no message changes. That a public message belongs to the button's table (its
channel or thread, or a direct message of a player seated there) is checked next, from the
database, by the ``Tables`` cog.

Actions:

============  =====================================  ==========================================
action        arg                                    meaning (places: see :data:`PLACES`)
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
``note``      -                                      a heading (disabled): does nothing
``next``      -                                      start the next round
``mode``      ``dm`` / ``channel``                   how I get my hands from now on
``rematch``   -                                      a player: a new lobby, same seats/options
``howto``     -                                      how to play, answered privately
============  =====================================  ==========================================

The lobby's one select menu (the host adds a computer of the level picked) has an id of its
own, ``fps:<table>:<version>:ai`` (:class:`FpSelect`): the level picked is its argument, and the
click goes the same way as the button ``fp:<table>:<version>:ai:<level>`` would.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

import discord

from engine.ai import LEVELS
from engine.tiles import is_tile
from i18n import N_, for_locale

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
RESTARTING: Final = N_("The game service is restarting; please try again in a moment.")
OUT_OF_DATE: Final = N_(
    "This button is out of date or not meant for this place; nothing was changed."
)

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
        for a in (
            "join",
            "leave",
            "rmai",
            "start",
            "cancel",
            "hand",
            "next",
            "back",
            "rematch",
            "howto",
            "note",
        )
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

Place = Literal["public", "dm", "ephemeral"]
"""Where a button was clicked: a message everyone in a server channel or thread sees
(``public``), a message in the clicker's direct messages with the bot (``dm``: Discord delivers
a DM's click only from its one recipient), or a message only the clicker sees (``ephemeral``).
The last two are the clicker's own private screen."""
PUBLIC: Final[frozenset[Place]] = frozenset({"public"})
PRIVATE: Final[frozenset[Place]] = frozenset({"dm", "ephemeral"})

PLACES: Final[dict[str, frozenset[Place]]] = {
    # The lobby card, and the message that ends a match (Rematch): the channel's.
    **{a: PUBLIC for a in ("join", "leave", "ai", "rmai", "start", "cancel", "rematch", "howto")},
    # The board's "Next round" takes its buttons off the clicked message: the channel's only.
    "next": PUBLIC,
    # "My hand" answers with a new private message: on the board, and on the direct message
    # that tells a decider the channel does not show their decision yet.
    "hand": PUBLIC | {"dm"},
    # The fall choice: on the board, on that notice, and on the decider's private screen.
    "fall": PUBLIC | PRIVATE,
    # The heading above a fall choice that is not in the first row: wherever that choice is.
    "note": PUBLIC | PRIVATE,
    # A private screen's steps edit the clicked message: only the clicker's own screen.
    **{a: PRIVATE for a in ("play", "spot", "more", "back", "mode")},
}
"""Where each action may be clicked; anywhere else it is refused and changes nothing."""
assert PLACES.keys() == ARGS.keys()


def place_of(interaction: discord.Interaction[Any]) -> Place | None:
    """Where ``interaction`` was clicked, from the interaction alone (no database read); None
    if it came with no message."""
    message = interaction.message
    if message is None:
        return None
    if message.flags.ephemeral:
        return "ephemeral"
    if interaction.guild_id is None:
        return "dm"
    return "public"


def may_act_here(action: str, interaction: discord.Interaction[Any]) -> bool:
    """Whether a button of ``action`` may act on the message it was clicked on."""
    place = place_of(interaction)
    return place is not None and place in PLACES.get(action, frozenset())


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
        await dispatch(interaction, self.bid, "button", self.custom_id)


async def dispatch(
    interaction: discord.Interaction[Any], bid: ButtonId | None, kind: str, custom_id: str
) -> None:
    """Hand a button or a select (``kind``) to the Tables cog as the button it stands for;
    one out of range (``bid`` None) is answered privately and changes nothing."""
    if bid is None:
        log.info("refused a %s with an id out of range: %r", kind, custom_id)
        try:
            await interaction.response.send_message(
                for_locale(str(interaction.locale)).gettext(OUT_OF_DATE), ephemeral=True
            )
        except discord.HTTPException:
            log.warning("could not answer the out-of-range %s %r", kind, custom_id)
        return
    client: Any = interaction.client
    cog: Any = client.get_cog("Tables")
    if cog is None:
        log.error("%s %s used but the Tables cog is not loaded", kind, bid)
        await interaction.response.send_message(
            for_locale(str(interaction.locale)).gettext(RESTARTING), ephemeral=True
        )
        return
    await cog.on_button(interaction, bid)


SELECT_TEMPLATE = r"fps:(?P<table>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<action>[a-z]{1,8})"
"""The custom id of a select menu: its action takes the option picked as its argument."""
SELECT_ACTIONS: Final = frozenset({"ai"})


def select_id(table_id: int, version: int, action: str) -> str:
    """The custom id of a select menu of ``action`` (see :data:`SELECT_TEMPLATE`)."""
    cid = f"fps:{table_id}:{version}:{action}"
    if action not in SELECT_ACTIONS or re.fullmatch(SELECT_TEMPLATE, cid) is None:
        raise ValueError(f"bad select id {cid!r}")
    return cid


class FpSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A Flaming Pyramids select menu (the lobby's "add a computer"). The option picked
    becomes the argument of the same action as a button's (:class:`ButtonId`), checked the same
    way: an id or a value out of range is answered privately and changes nothing."""

    def __init__(
        self,
        custom_id: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FpSelect:
        return cls(match.string)

    def picked(self, interaction: discord.Interaction[Any]) -> ButtonId | None:
        """The click as the button it stands for; None if anything in it is out of range."""
        m = re.fullmatch(SELECT_TEMPLATE, self.custom_id)
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        if m is None or m["action"] not in SELECT_ACTIONS or not isinstance(values, list):
            return None
        if len(values) != 1 or not isinstance(values[0], str):
            return None
        bid = ButtonId(int(m["table"]), int(m["version"]), m["action"], values[0])
        return bid if bid.valid() else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self.picked(interaction), "select", self.custom_id)

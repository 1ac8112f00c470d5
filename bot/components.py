"""The custom ids of the table's buttons: every one says what it means,
``fp:<table>:<version>:<action>:<arg>``.

The buttons themselves, one class per action, are in :mod:`bot.tablebuttons`: each declares
its action, the argument it takes, the places it may act and how it answers; this module reads
and writes their ids, and knows each action's argument check once its class is defined
(:func:`register`). The ids are kept on old messages: their format never changes.

A button is resolved from the database when it is clicked (a discord.py ``DynamicItem``
registered in ``setup_hook``), so it works after a restart and days later; the version (or, for
a tile, the fingerprint of the hand it was shown with) makes a stale or double click refused
without changing anything.

A custom id can be forged (any client can send an interaction with any id), so nothing in it is
trusted: :meth:`ButtonId.decode` accepts only table ids and versions that fit the store
(``1..2**53`` and ``0..2**53``), known actions and the arguments each action takes; anything else
is answered privately as an out-of-date button and changes nothing. The templates discord.py
matches (:func:`action_template`) are wider than that, so that such an id still reaches its
button and gets that answer.

Nor is the message it was clicked on: every button has its places, checked from the click alone
(:func:`place_of`) before anything is read or acknowledged. A private screen's action (a tile, a
spot, a page, back, a hand mode) acts only on the clicker's own private screen, a public action
only on a public message; anywhere else the click is refused privately and no message changes.
That a public message belongs to the button's table (its channel or thread, or a direct message
of a player seated there) is checked next, from the database, by the desk.

The actions, their arguments and their places are those of the classes of
:mod:`bot.tablebuttons` (listed in its docstring).

The lobby's one select menu (the host adds a computer of the level picked) has an id of its
own, ``fps:<table>:<version>:ai`` (:func:`select_id`): the level picked is its argument, and the
click goes the same way as the button ``fp:<table>:<version>:ai:<level>`` would.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

import discord

from engine.tiles import is_tile
from i18n import N_

PREFIX = "fp"
_TABLE_AND_VERSION = r"fp:(?P<table>[0-9]{1,20}):(?P<version>[0-9]{1,20}):"
_ARG = r"(?P<arg>[A-Za-z0-9@,.\-]{0,40})"
TEMPLATE = _TABLE_AND_VERSION + r"(?P<action>[a-z]{1,8}):" + _ARG
"""The shape of every id of a table's button (at most 3 + 21 + 21 + 9 + 40 = 94 characters,
under Discord's 100)."""
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_ID: Final = 2**53
"""Table ids and versions above this are not ours (and would overflow the store's integers)."""
MAX_COORD: Final = 999
RESTARTING: Final = N_("The game service is restarting; please try again in a moment.")
OUT_OF_DATE: Final = N_(
    "This button is out of date or not meant for this place; nothing was changed."
)

LobbyAction = Literal["join", "leave", "ai", "rmai", "cancel"]
"""The lobby's buttons the desk applies in one way (:meth:`bot.desk.Desk.lobby`)."""


def action_template(action: str) -> str:
    """The template discord.py matches for the buttons of ``action``: its table, version and
    argument as wide as :data:`TEMPLATE` takes them (checked when clicked)."""
    return _TABLE_AND_VERSION + re.escape(action) + ":" + _ARG


# --- what an argument may be -------------------------------------------------------------------

_DIGEST = re.compile(r"[0-9a-f]{8}")
_COORD = re.compile(r"-?[0-9]{1,3}")
_PAGE = re.compile(r"[0-9]{1,2}")


def no_arg(arg: str) -> bool:
    """The check of a button that takes no argument."""
    return arg == ""


def one_of(*words: str) -> Callable[[str], bool]:
    """The check of a button whose argument is one of ``words``."""
    return lambda arg: arg in words


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


tile_and_digest: Final = _tile_and(".", lambda d: _DIGEST.fullmatch(d) is not None)
"""``<tile>.<hand digest>``."""
tile_at_spot: Final = _tile_and("@", _spot)
"""``<tile>@<row>,<x>``."""
tile_and_page: Final = _tile_and(".", lambda p: _PAGE.fullmatch(p) is not None)
"""``<tile>.<page>``."""


def held_token(arg: str) -> bool:
    """The token that names a held turn (8 hex digits: :class:`data.store.HeldTurn`)."""
    return _DIGEST.fullmatch(arg) is not None


ARGS: Final[dict[str, Callable[[str], bool]]] = {}
"""Each action, and what it accepts as its argument: filled as each button's class is defined
(:func:`register`, from :mod:`bot.tablebuttons`)."""


def register(action: str, takes: Callable[[str], bool]) -> None:
    """Make ``action`` an action of ours, taking the arguments ``takes`` accepts."""
    if action in ARGS:
        raise ValueError(f"two buttons of action {action!r}")
    ARGS[action] = takes


# --- where a button was clicked -----------------------------------------------------------------

Place = Literal["public", "dm", "ephemeral"]
"""Where a button was clicked: a message everyone in a server channel or thread sees
(``public``), a message in the clicker's direct messages with the bot (``dm``: Discord delivers
a DM's click only from its one recipient), or a message only the clicker sees (``ephemeral``).
The last two are the clicker's own private screen."""
PUBLIC: Final[frozenset[Place]] = frozenset({"public"})
PRIVATE: Final[frozenset[Place]] = frozenset({"dm", "ephemeral"})


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


# --- ids ---------------------------------------------------------------------------------------


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
        if not ARGS:
            raise RuntimeError("no button is registered: import bot.tablebuttons first")
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
    """Any button of a table, as its id and its class attributes say it: made with its
    table, version and argument (checked: :meth:`ButtonId.encode`), or read from a click.
    What a click goes through is its subclass's, :class:`bot.tablebuttons.TableButton`; a
    subclass of that names its action (``class JoinButton(TableButton, action="join")``),
    which registers it (:func:`register`)."""

    action: ClassVar[str]
    """The id's action: its template, and the name :class:`~bot.components.ButtonId` knows."""
    takes: ClassVar[staticmethod[[str], bool]] = staticmethod(no_arg)
    """Whether a text is an argument it takes (stricter than its template)."""
    places: ClassVar[frozenset[Place]] = PUBLIC
    """Where it may act; anywhere else it is refused and changes nothing."""
    new_answer: ClassVar[bool] = False
    """Answered with a new private message; else the clicked message is edited (or left)."""
    reads_table: ClassVar[bool] = True
    """Its table's place is checked in the database before it acts."""

    def __init_subclass__(cls, *, action: str | None = None) -> None:
        if action is None:  # a base of buttons, of no action
            super().__init_subclass__(template=TEMPLATE)
            return
        super().__init_subclass__(template=action_template(action))
        cls.action = action
        register(action, cls.takes)

    def __init__(
        self,
        table_id: int,
        version: int,
        arg: str = "",
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        clicked_id: str | None = None,
    ) -> None:
        """The button of ``table_id`` at ``version`` with ``arg`` (a ValueError if any is out
        of range); ``clicked_id``: the id of a click, as it came (:meth:`from_custom_id`)."""
        if label is not None and len(label) > MAX_LABEL:
            label = label[: MAX_LABEL - 1] + "…"
        if clicked_id is None:
            self.bid: ButtonId | None = ButtonId(table_id, version, self.action, arg)
            custom_id = self.bid.encode()
        else:
            self.bid, custom_id = ButtonId.decode(clicked_id), clicked_id
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=custom_id,
                disabled=disabled,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FpButton:
        if isinstance(item, discord.ui.Button):
            return cls(0, 0, clicked_id=match.string, label=item.label, style=item.style)
        return cls(0, 0, clicked_id=match.string)


SELECT_TEMPLATE = r"fps:(?P<table>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<action>[a-z]{1,8})"
"""The custom id of a select menu: its action takes the option picked as its argument."""
SELECT_ACTIONS: Final = frozenset({"ai"})


def select_id(table_id: int, version: int, action: str) -> str:
    """The custom id of a select menu of ``action`` (see :data:`SELECT_TEMPLATE`)."""
    cid = f"fps:{table_id}:{version}:{action}"
    if action not in SELECT_ACTIONS or re.fullmatch(SELECT_TEMPLATE, cid) is None:
        raise ValueError(f"bad select id {cid!r}")
    return cid

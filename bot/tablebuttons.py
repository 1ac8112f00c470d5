"""The table's buttons, one class per button: its action (and so its template), the argument
it takes, the places it may act, how it answers, and what it asks of the desk.

Every class is a discord.py ``DynamicItem`` registered in ``setup_hook``; its id is
``fp:<table>:<version>:<action>:<arg>`` (:mod:`bot.components`, which reads and writes ids and
keeps them as old messages have them). What every click goes through is in the base class,
:meth:`TableButton.clicked`, in this order, so that nothing acts where it may not and every
click is answered: an id out of range is answered privately and changes nothing; the place it
was clicked is checked from the click alone (a forged id on the wrong message is refused
privately, and that message is not touched); the click is acknowledged (before any read of the
database, so that an unreachable database is answered, not timed out) with a new private
message or as an edit of the clicked one; the languages it came with are noted; the table's
place is checked in the database; then the button's one method, :meth:`TableButton.act`, calls
the desk (:mod:`bot.desk`). Refusals and failures become private replies in
:func:`bot.replies.guarded`. No game rule lives here.

The buttons, by their ids' actions (old messages keep these ids: an action keeps its meaning):

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
``note``      -                                      a heading (disabled): does nothing
``next``      -                                      start the next round
``mode``      ``dm`` / ``channel``                   how I get my hands from now on
``rematch``   -                                      a player: a new lobby, same seats/options
``howto``     -                                      how to play, answered privately
``quit``      -                                      leave the running game (``/fp leave``'s
                                                     confirmation)
``undo``      held turn's token (8 hex digits)       take back my turn played (undo window)
``done``      held turn's token (8 hex digits)       hand my turn played on now
``hint``      -                                      what the expert would decide (a practice
                                                     table), answered privately
============  =====================================  ==========================================

To add a button: a class here (its action, ``takes``, ``places``, ``new_answer``,
``reads_table`` and ``act``; a new desk method in :class:`TableDesk` too), and its place in a
message (:mod:`bot.show.buttons` or :mod:`bot.show.lobbycard`). It is registered with the
others (:data:`BUTTONS`) and its action becomes one :meth:`bot.components.ButtonId.decode`
knows.

Over 400 lines, as one job: a class per button, each a few lines of the same shape, read and
changed together beside the base class every click goes through and the table above.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Final, Literal, Protocol

import discord

from bot import replies, rules
from bot.components import (
    ARGS,
    OUT_OF_DATE,
    PRIVATE,
    PUBLIC,
    RESTARTING,
    SELECT_ACTIONS,
    SELECT_TEMPLATE,
    TEMPLATE,
    ButtonId,
    FpButton,
    LobbyAction,
    held_token,
    one_of,
    place_of,
    tile_and_digest,
    tile_and_page,
    tile_at_spot,
)
from bot.errors import BadRequest, Stale, Why
from bot.languages import clicker_language
from bot.service import COMPUTER_LEVELS
from bot.show import answertexts, lobbytexts

log = logging.getLogger(__name__)


class TableDesk(Protocol):
    """What the buttons ask of the desk (:class:`bot.desk.Desk`)."""

    async def check_place(
        self, table_id: int, guild_id: int | None, channel_id: int | None, user_id: int
    ) -> None: ...
    async def lobby(
        self, interaction: discord.Interaction[Any], table_id: int, version: int,
        action: LobbyAction, name: str, level: str = "",
    ) -> None: ...  # fmt: skip
    async def start(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None: ...
    async def rematch(self, table_id: int, user_id: int, name: str) -> discord.Message: ...
    async def open_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...
    async def play(
        self, interaction: discord.Interaction[Any], table_id: int, tile: str, digest: str
    ) -> None: ...
    async def newest_screen(
        self, interaction: discord.Interaction[Any], table_id: int, note: str | None = None
    ) -> None: ...
    async def spot(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, tile: str,
        at: tuple[int, int],
    ) -> None: ...  # fmt: skip
    async def more_spots(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, tile: str,
        page: int,
    ) -> None: ...  # fmt: skip
    async def fall(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, direction: str
    ) -> None: ...
    async def next_round(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None: ...
    async def undo(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, token: str
    ) -> None: ...
    async def done(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, token: str
    ) -> None: ...
    async def hint(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> None: ...
    async def set_hand_mode(self, user_id: int, mode: Literal["dm", "channel"]) -> None: ...
    async def leave(self, channel_id: int, user_id: int, name: str, table_id: int) -> None: ...


def display_name(user: discord.abc.User) -> str:
    """The name a person shows in the server (else their user name)."""
    return getattr(user, "display_name", None) or user.name


async def refuse_out_of_date(
    interaction: discord.Interaction[Any], kind: str, custom_id: str
) -> None:
    """The answer to a button or a select (``kind``) whose id is out of range: private, and
    nothing changes."""
    log.info("refused a %s with an id out of range: %r", kind, custom_id)
    try:
        await interaction.response.send_message(
            clicker_language(interaction).gettext(OUT_OF_DATE), ephemeral=True
        )
    except discord.HTTPException:
        log.warning("could not answer the out-of-range %s %r", kind, custom_id)


class TableButton(FpButton):
    """A button of a table: the steps every click goes through (see the module), then
    :meth:`act`. A subclass names its action (``class JoinButton(TableButton, action="join")``)
    and says, as class attributes, what sets it apart (:class:`~bot.components.FpButton`)."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.clicked(interaction)

    async def clicked(self, interaction: discord.Interaction[Any], kind: str = "button") -> None:
        """A click on this button (or a pick of a menu that stands for it: ``kind``)."""
        bid = self.bid
        if bid is None:
            await refuse_out_of_date(interaction, kind, self.custom_id)
            return
        client: Any = interaction.client
        if client.get_cog("Tables") is None:
            log.error("%s %s used but the Tables cog is not loaded", kind, bid)
            await interaction.response.send_message(
                clicker_language(interaction).gettext(RESTARTING), ephemeral=True
            )
            return
        desk: TableDesk = client.desk
        started = time.perf_counter()
        async with replies.guarded(interaction, bid.table_id, f"button {bid.action}"):
            place = place_of(interaction)
            if place is None or place not in self.places:
                log.info(
                    "table %s: button %s refused on a %s message (user %s)",
                    bid.table_id,
                    bid.action,
                    place or "missing",
                    interaction.user.id,
                )
                raise Stale(Why.MISPLACED_BUTTON, table_id=bid.table_id)
            if self.new_answer:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:  # the clicked message is edited (or left as it is)
                await interaction.response.defer()
            # Before the service reads anything: what it answers is in the languages of now.
            await client.note_languages(interaction)
            if self.reads_table:
                await desk.check_place(
                    bid.table_id, interaction.guild_id, interaction.channel_id, interaction.user.id
                )
            await self.act(interaction, desk, bid)
        log.debug(
            "table %s: button %s handled in %.0f ms",
            bid.table_id,
            bid.action,
            (time.perf_counter() - started) * 1000,
        )

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        """What the button does, once the click is acknowledged: it calls the desk."""
        raise NotImplementedError


# --- the lobby card (and the message that ends a match) ----------------------------------------


class JoinButton(TableButton, action="join"):
    """Take a seat in the lobby."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        name = display_name(interaction.user)
        await desk.lobby(interaction, bid.table_id, bid.version, "join", name)


class LeaveButton(TableButton, action="leave"):
    """Give up one's seat in the lobby."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        name = display_name(interaction.user)
        await desk.lobby(interaction, bid.table_id, bid.version, "leave", name)


class AddComputerButton(TableButton, action="ai"):
    """The host adds a computer player of the level its argument names (the lobby's menu
    stands for it: :class:`FpSelect`)."""

    takes = staticmethod(one_of(*COMPUTER_LEVELS))

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        name = display_name(interaction.user)
        await desk.lobby(interaction, bid.table_id, bid.version, "ai", name, bid.arg)


class RemoveComputerButton(TableButton, action="rmai"):
    """The host removes the last computer player."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        name = display_name(interaction.user)
        await desk.lobby(interaction, bid.table_id, bid.version, "rmai", name)


class StartButton(TableButton, action="start"):
    """The host starts the game."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.start(interaction, bid.table_id, bid.version)


class CancelButton(TableButton, action="cancel"):
    """The host closes the lobby."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        name = display_name(interaction.user)
        await desk.lobby(interaction, bid.table_id, bid.version, "cancel", name)


class HowToButton(TableButton, action="howto"):
    """The lobby card's "How to play": a short how-to and the rules, privately."""

    new_answer = True
    reads_table = False  # it reads no table

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        lang = clicker_language(interaction)
        embeds, files = await rules.rules_message(lang)
        await interaction.followup.send(
            lang.gettext(lobbytexts.HOW_TO_PLAY), embeds=embeds, files=files, ephemeral=True
        )


class RematchButton(TableButton, action="rematch"):
    """A player of a finished match: a new lobby with the same seats and options, in its
    channel."""

    new_answer = True

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        # A table already open in the channel is answered by the one place for errors.
        user = interaction.user
        message = await desk.rematch(bid.table_id, user.id, display_name(user))
        await interaction.followup.send(
            answertexts.rematch_open(message.jump_url, clicker_language(interaction)),
            ephemeral=True,
        )


# --- the board in the channel ------------------------------------------------------------------


class HandButton(TableButton, action="hand"):
    """ "My hand": a new private message with the clicker's hand. On the board, and on the
    direct message that tells a decider the channel does not show their decision yet."""

    places = PUBLIC | {"dm"}
    new_answer = True

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.open_hand(interaction, bid.table_id)


class FallButton(TableButton, action="fall"):
    """The pending fall choice: on the board, on the notice that tells a decider, and on the
    decider's private screen."""

    takes = staticmethod(one_of("left", "right"))
    places = PUBLIC | PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.fall(interaction, bid.table_id, bid.version, bid.arg)


class NoteButton(TableButton, action="note"):
    """The heading above a fall choice that is not in the first row, wherever that choice is.
    Shown disabled, so Discord sends no tap of it: acknowledged, nothing else."""

    places = PUBLIC | PRIVATE
    reads_table = False

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        return None


class NextRoundButton(TableButton, action="next"):
    """ "Next round": it takes its buttons off the clicked message, the channel's only."""

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.next_round(interaction, bid.table_id, bid.version)


# --- a player's private screen (its steps edit the clicked message: only one's own) ------------


class PlayButton(TableButton, action="play"):
    """A tile of this hand: the same private message turns into the spot step (or, if this
    player must decide a fall first, the fall choice)."""

    takes = staticmethod(tile_and_digest)
    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        tile, _, digest = bid.arg.partition(".")
        await desk.play(interaction, bid.table_id, tile, digest)


class SpotButton(TableButton, action="spot"):
    """A spot for the chosen tile: the move."""

    takes = staticmethod(tile_at_spot)
    places = PRIVATE
    reads_table = False  # its place is checked with the move itself

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        tile, _, where = bid.arg.partition("@")
        try:
            r, x = (int(n) for n in where.split(","))
        except ValueError:
            raise BadRequest(Why.NO_SUCH_SPOT) from None
        await desk.spot(interaction, bid.table_id, bid.version, tile, (r, x))


class MoreSpotsButton(TableButton, action="more"):
    """Another page of spots (more than fit one)."""

    takes = staticmethod(tile_and_page)
    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        tile, _, page = bid.arg.partition(".")
        number = int(page) if page.isdigit() else 0
        await desk.more_spots(interaction, bid.table_id, bid.version, tile, number)


class BackButton(TableButton, action="back"):
    """From the spot step back to the tiles."""

    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.newest_screen(interaction, bid.table_id)


class UndoButton(TableButton, action="undo"):
    """Take back one's turn played, while its undo window lasts: the table is as it was before
    the tile, and the same private message shows the turn again. Its argument names the held
    turn, so that it never takes back a later one."""

    takes = staticmethod(held_token)
    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.undo(interaction, bid.table_id, bid.version, bid.arg)


class DoneButton(TableButton, action="done"):
    """Hand one's turn played on now, before its undo window ends: the channel, the next
    player and everyone else are told."""

    takes = staticmethod(held_token)
    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.done(interaction, bid.table_id, bid.version, bid.arg)


class HintButton(TableButton, action="hint"):
    """At a practice table, on a player's screen of a decision (a tile, a fall): what the expert
    would decide, and why, in a private answer of its own; the screen stays as it is. Its
    version names the decision: once the game moved on, the screen shows the newest hand."""

    places = PRIVATE

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        await desk.hint(interaction, bid.table_id, bid.version)


class ModeButton(TableButton, action="mode"):
    """How I get my hands from now on (by direct message, or only privately in the channel)."""

    takes = staticmethod(one_of("dm", "channel"))
    places = PRIVATE
    new_answer = True

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        mode: Literal["dm", "channel"] = "dm" if bid.arg == "dm" else "channel"
        await desk.set_hand_mode(interaction.user.id, mode)
        await interaction.followup.send(
            clicker_language(interaction).gettext(answertexts.MODE_CHOSEN[mode]), ephemeral=True
        )


class LeaveMatchButton(TableButton, action="quit"):
    """``/fp leave``'s confirmation in a running game: the seat goes to a computer player. The
    confirmation turns into the answer; a table closed since is refused (the desk's leave), as
    is a second click (no longer seated)."""

    places = PRIVATE - {"dm"}  # the ephemeral answer to the command

    async def act(
        self, interaction: discord.Interaction[Any], desk: TableDesk, bid: ButtonId
    ) -> None:
        user = interaction.user
        assert interaction.channel_id is not None
        await desk.leave(interaction.channel_id, user.id, display_name(user), bid.table_id)
        await interaction.edit_original_response(
            content=answertexts.you_left(True, clicker_language(interaction)), view=None
        )


# --- ids no button takes, and the lobby's menu -------------------------------------------------

OTHER_TEMPLATE: Final = TEMPLATE.replace(
    "(?P<action>", "(?!(?:" + "|".join(map(re.escape, ARGS)) + "):)(?P<action>"
)
"""Every id of the shape of a table's button whose action no button above has."""


class OtherButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OTHER_TEMPLATE):
    """An id of a table's button whose action is none of ours (forged, or of a version that
    had other buttons): answered privately as out of date, as an id out of range is."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OtherButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await refuse_out_of_date(interaction, "button", self.custom_id)


SELECTS: Final[dict[str, type[TableButton]]] = {"ai": AddComputerButton}
"""The button each select menu's pick stands for."""
assert SELECTS.keys() == SELECT_ACTIONS


class FpSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A Flaming Pyramids select menu (the lobby's "add a computer"). The option picked
    becomes the argument of the button it stands for (:data:`SELECTS`), checked the same way: an
    id or a value out of range is answered privately and changes nothing."""

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

    def picked(self, interaction: discord.Interaction[Any]) -> TableButton | None:
        """The click as the button it stands for; None if anything in it is out of range."""
        m = re.fullmatch(SELECT_TEMPLATE, self.custom_id)
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        if m is None or m["action"] not in SELECTS or not isinstance(values, list):
            return None
        if len(values) != 1 or not isinstance(values[0], str):
            return None
        kind = SELECTS[m["action"]]
        bid = ButtonId(int(m["table"]), int(m["version"]), kind.action, values[0])
        return kind(bid.table_id, bid.version, bid.arg) if bid.valid() else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        button = self.picked(interaction)
        if button is None:
            await refuse_out_of_date(interaction, "select", self.custom_id)
            return
        await button.clicked(interaction, "select")


BUTTONS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (
    *TableButton.__subclasses__(),
    OtherButton,
    FpSelect,
)
"""The table's ``DynamicItem`` kinds, registered at start (their templates never overlap: a
click is handed to every kind whose template fits it)."""

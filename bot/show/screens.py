"""Each player's private screen at a table: one message that shows their hand (the board with it),
turns into the spot step when they press a tile (and back), asks their fall choices, and is
brought up to date when a move makes what it shows obsolete.

A private screen is an ephemeral message in the channel, or the screen of a decision in the
player's direct messages (:mod:`bot.show.hands` sends it), that the player clicked or opened.
A click's answer edits the clicked message itself (interaction responses cost nothing of the
global budget). The bot may edit an ephemeral message only through the token of the interaction
that showed it, for 15 minutes (Discord's rule). So each ephemeral screen is remembered with the
interaction that last touched it and when: within that time, every move of the table refreshes
it (new buttons, or none once the match is over); after it, a press on one of its old buttons
is answered with the newest hand. A screen in direct messages changes only by its player's
clicks while it is theirs, and is closed by their last click (or by :mod:`bot.show.hands`).
Edits of one player's screen at one table go one at a time, each showing the newest state
(under the player's screen lock, :meth:`bot.locks.Locks.screen`). What a screen shows comes from
its caller (the desk reads the hand): nothing here asks the table service.

Over 400 lines, as one job: a private screen's every state (hand, spot step, fall choice, over)
and its edits under one lock; the helpers reading a clicked message's buttons come last.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from bot import names
from bot.components import ButtonId
from bot.kept import Kept
from bot.languages import clicker_language
from bot.locks import Locks
from bot.service import Hand, Hint, SpotChoice
from bot.show import buttons, handtexts, hinttexts, pictures, texts, turntexts
from bot.show.handcard import HandCard
from bot.show.ledger import Ledger
from bot.show.message import Message, attachment
from bot.show.table import Edit, Screen, ScreenKind, Tables
from i18n import Language
from render import alttext

log = logging.getLogger(__name__)

TOKEN_LIFETIME_S: Final = 14 * 60.0
"""How long the bot edits a screen through its interaction's token (Discord's limit is 15
minutes; a minute is kept in hand)."""


class Screens:
    """The private screens of every table, and their edits."""

    def __init__(
        self,
        card: HandCard,
        ledger: Ledger,
        locks: Locks,
        clock: Callable[[], float],
        channel: Callable[[int], discord.PartialMessageable],
        tables: Tables,
    ) -> None:
        """The live screens are kept with their table (``tables``)."""
        self.card = card
        self.ledger = ledger
        self.locks = locks
        self._clock = clock
        self._channel = channel
        self.tables = tables

    def _lock(self, key: tuple[int, int]) -> asyncio.Lock:
        return self.locks.screen(*key)

    def _now(self) -> float:
        return self._clock()

    async def _take(self, key: tuple[int, int], screen: Screen) -> None:
        """Make ``screen`` the player's screen; an older one on another message loses its
        buttons (if its token still works). A screen in direct messages is not remembered:
        nothing but its player's clicks changes it while it is theirs to act on, and
        :mod:`bot.show.hands` closes it; but for their turn held back (its undo window), which
        the turn's hand-on closes through its click's token (:meth:`close_held`)."""
        if screen.in_dm:
            kept = self.tables.get(key[0])
            old = kept.screens.get(key[1]) if kept is not None else None
            if screen.kind == "held":
                self.tables.of(key[0]).screens[key[1]] = screen
            elif kept is not None and old is not None and old.in_dm:
                del kept.screens[key[1]]
                self.tables.tidy(key[0])
            return
        open_ = self.tables.of(key[0]).screens
        old = open_.get(key[1])
        open_[key[1]] = screen
        if old is not None and old.in_dm:
            return  # their screen in direct messages stays theirs (hands.py closes it)
        if old is not None and old.message_id != screen.message_id and self._live(old):
            try:
                await old.edit(view=None)
            except discord.HTTPException as err:
                log.debug("table %s: could not retire an older screen: %s", key[0], err)

    async def _on_clicked(
        self, interaction: discord.Interaction[Any], table_id: int, shown: Message
    ) -> tuple[int, Edit]:
        """Show ``shown`` on the clicked message. If that message is gone (the player's turn
        began meanwhile and a new hand message replaced it), on the player's newest hand
        message in their direct messages, or else on a new private message. Returns the
        message's id and how to edit it later."""
        try:
            await interaction.edit_original_response(**shown.to_edit())
            return clicked_id(interaction), interaction.edit_original_response
        except discord.NotFound:
            log.info(
                "table %s: the clicked message is gone; showing the answer elsewhere", table_id
            )
        if interaction.guild_id is None and interaction.channel_id is not None:
            newest = await self.ledger.find(table_id, Kept.hand(interaction.user.id))
            if newest is not None:
                partial = self._channel(interaction.channel_id).get_partial_message(newest)
                shown.reset()
                try:
                    await partial.edit(**shown.to_edit())
                    return newest, partial.edit
                except discord.NotFound:
                    log.info("table %s: the newest hand message is gone too", table_id)
        shown.reset()
        message = await interaction.followup.send(ephemeral=True, wait=True, **_new(shown))
        return message.id, message.edit

    def _live(self, screen: Screen) -> bool:
        return self._now() - screen.opened < TOKEN_LIFETIME_S

    # --- showing on the clicked (or a new) message ---------------------------------------------

    async def open_hand(
        self, interaction: discord.Interaction[Any], hand: Hand, *, note: str | None = None
    ) -> None:
        """Answer a deferred interaction with a new private message showing the hand."""
        key = (hand.table_id, hand.user_id)
        async with self._lock(key):
            lang = clicker_language(interaction)
            shown = await self._hand_message(
                hand,
                note,
                in_dm=interaction.guild_id is None,
                lang=lang,
                fall_row=buttons.fall_row_after(None),
            )
            message = await interaction.followup.send(ephemeral=True, wait=True, **_new(shown))
            in_dm = interaction.guild_id is None
            kind: ScreenKind = "held" if hand.decision == "held" else "hand"
            screen = Screen(message.id, message.edit, self._now(), in_dm, kind, lang=lang)
            screen.shown = (hand.version, hand.decision, hand.digest)
            await self._take(key, screen)

    async def show_hand(
        self, interaction: discord.Interaction[Any], hand: Hand, *, note: str | None = None
    ) -> None:
        """Turn the clicked private message into the hand (tiles, or the fall choice).

        A fall choice comes up in a row other than the tapped button's
        (:func:`bot.show.buttons.fall_choice`), and a message that shows that very choice
        already (the second tap of a double tap) is left as it is. After a tap on a fall the
        hand offers no switch of how hands are delivered: it would sit in the second row,
        where a second tap of a fall asked there lands."""
        key = (hand.table_id, hand.user_id)
        async with self._lock(key):
            await self._show_hand(interaction, hand, note)

    async def _show_hand(
        self, interaction: discord.Interaction[Any], hand: Hand, note: str | None
    ) -> None:
        if hand.decision == "fall" and shows_fall(interaction.message, hand):
            log.debug("table %s: the fall choice is shown already", hand.table_id)
            return
        in_dm = interaction.guild_id is None
        lang = clicker_language(interaction)
        bid, row = tapped(interaction)
        shown = await self._hand_message(
            hand,
            note,
            in_dm=in_dm,
            lang=lang,
            fall_row=buttons.fall_row_after(row),
            # Not after a tap in the rows a second tap of it may land in again.
            mode=bid is None or bid.action not in ("fall", "undo", "done"),
        )
        message_id, edit = await self._on_clicked(interaction, hand.table_id, shown)
        kind: ScreenKind = "held" if hand.decision == "held" else "hand"
        screen = Screen(message_id, edit, self._now(), in_dm, kind, lang=lang)
        screen.shown = (hand.version, hand.decision, hand.digest)
        await self._take((hand.table_id, hand.user_id), screen)

    async def show_over(
        self, interaction: discord.Interaction[Any], table_id: int, text: str
    ) -> None:
        """Turn the clicked private message into the end of the match or of the table
        (``text``, an English note of :mod:`bot.show.texts` shown in the clicker's language; no
        buttons)."""
        lang = clicker_language(interaction)
        async with self._lock((table_id, interaction.user.id)):
            message_id, edit = await self._on_clicked(
                interaction, table_id, Message(handtexts.translated(text, lang))
            )
            screen = Screen(
                message_id,
                edit,
                self._now(),
                interaction.guild_id is None,
                "over",
                lang=lang,
            )
            await self._take((table_id, interaction.user.id), screen)

    async def close_clicked(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        text: str,
        noted: Callable[[Callable[[bool], Awaitable[Any]]], Awaitable[None]],
    ) -> None:
        """Close the clicked screen in direct messages with ``text`` (no buttons, no picture)
        through the click's own answer; ``noted`` runs the edit it is given where the closing
        is recorded (:meth:`bot.show.hands.Hands.closed_by_click`), saying, if it is told so,
        that the database went away after the move was saved
        (:data:`handtexts.SAVED_RECORDS_AWAY`)."""
        lang = clicker_language(interaction)

        async def close(records_away: bool) -> None:
            shown = Message(text)
            if records_away:
                shown = shown.noted(
                    handtexts.translated(handtexts.SAVED_RECORDS_AWAY, lang), texts.clip
                )
            try:
                await interaction.edit_original_response(**shown.to_edit())
            except discord.HTTPException as err:
                log.info("table %s: could not close the clicked screen: %s", table_id, err)

        async with self._lock((table_id, interaction.user.id)):
            await noted(close)
            kept = self.tables.get(table_id)
            held = kept.screens.get(interaction.user.id) if kept is not None else None
            if held is not None and held.in_dm:  # the turn it held back is handed on
                self._drop(table_id, interaction.user.id, held)

    async def show_spots(self, interaction: discord.Interaction[Any], choice: SpotChoice) -> None:
        """Turn the clicked private message into the spot step for the chosen tile; one that
        shows it already (a second tap on that tile) is left as it is."""
        key = (choice.table_id, choice.user_id)
        lang = clicker_language(interaction)
        if shows_spots(interaction.message, choice):
            log.debug(
                "table %s: the spot step of %s is shown already", choice.table_id, choice.tile
            )
            return
        async with self._lock(key):
            drawn = [names.clean(n) for n in choice.names]
            title = turntexts.game_title(choice.table_number, lang)
            chips = pictures.Chips(
                dict(choice.away),
                choice.paused,
                practice=choice.hints,
                computer_chose=choice.computer_chose,
            )
            png = await pictures.spot_png(
                choice.view,
                drawn,
                choice.tile,
                title=title,
                renderer=self.card.outbox.renderer,
                lang=lang,
                chips=chips,
            )
            said = alttext.spots_text(
                choice.view,
                drawn,
                choice.tile,
                choice.previews,
                title=title,
                lang=lang,
                chips=chips,
            )
            file = attachment(png, "spots.png", said)
            in_dm = interaction.guild_id is None
            message_id, edit = await self._on_clicked(
                interaction,
                choice.table_id,
                Message(
                    handtexts.spot_content(choice, lang),
                    files=[file],
                    view=buttons.spot_view(choice, lang=lang),
                ),
            )
            screen = Screen(message_id, edit, self._now(), in_dm, "spots", lang=lang)
            screen.shown = (choice.version, "play", "")
            await self._take(key, screen)

    async def show_hint(self, interaction: discord.Interaction[Any], hint: Hint) -> None:
        """A practice table's hint for the decision of the clicked screen, in a private message
        of its own under it (the answer to a click: no notification); the screen stays as it
        is, its buttons where they were."""
        lang = clicker_language(interaction)
        await interaction.followup.send(hinttexts.hint_line(hint, lang), ephemeral=True)

    async def show_spot_page(
        self, interaction: discord.Interaction[Any], choice: SpotChoice, page: int
    ) -> None:
        """Another page of the spot step on the clicked message: only its buttons change."""
        await interaction.edit_original_response(
            view=buttons.spot_view(choice, page, lang=clicker_language(interaction))
        )

    async def _hand_message(
        self,
        hand: Hand,
        note: str | None,
        *,
        in_dm: bool,
        lang: Language,
        fall_row: int,
        mode: bool = True,
    ) -> Message:
        """The screen's message; on a private message in the channel, the button that switches
        how hands are delivered unless ``mode`` is False."""
        switch = None if in_dm or not mode else ("channel" if hand.dm else "dm")
        return await self.card.message(
            hand, fall_row=fall_row, mode_button=switch, note=note, lang=lang
        )

    # --- keeping screens up to date -------------------------------------------------------------

    def live(self, table_id: int, *, skip: int | None = None) -> list[int]:
        """The players whose screen at the table a move may have made obsolete: live, not over
        (``skip``: the clicker, whose screen their own click updates), not in direct messages
        (a held turn's, which its hand-on closes: :meth:`close_held`). Screens whose token has
        run out are forgotten here."""
        kept = self.tables.get(table_id)
        if kept is None:
            return []
        users = []
        for user_id, screen in list(kept.screens.items()):
            if user_id == skip or screen.kind == "over" or screen.in_dm:
                continue
            if self._live(screen):
                users.append(user_id)
            else:
                del kept.screens[user_id]
        self.tables.tidy(table_id)
        return users

    async def refresh(self, table_id: int, user_id: int, now: Hand | str) -> None:
        """Bring a player's live screen up to date with their hand ``now``, or close it with the
        text ``now`` when the table is over or closed (an English note of
        :mod:`bot.show.texts`, shown in the screen's language)."""
        key = (table_id, user_id)
        async with self._lock(key):
            kept = self.tables.get(table_id)
            screen = kept.screens.get(user_id) if kept is not None else None
            if kept is None or screen is None or screen.kind == "over":
                return
            if not self._live(screen):
                self._drop(table_id, user_id, screen)
                return
            if isinstance(now, str):
                try:
                    await screen.edit(**Message(handtexts.translated(now, screen.lang)).to_edit())
                except discord.HTTPException as err:
                    log.debug("table %s: could not close a screen: %s", table_id, err)
                screen.kind = "over"
                return
            hand = now
            same = (hand.decision, hand.digest) == (screen.shown or (0, "", ""))[1:]
            if screen.kind == "hand" and same:
                return
            unchanged = screen.shown is not None and screen.shown[0] == hand.version
            if screen.kind == "spots" and hand.decision == "play" and unchanged:
                return
            shown = await self._hand_message(
                hand,
                None,
                in_dm=screen.in_dm,
                lang=screen.lang,
                fall_row=buttons.fall_row_after(None),
            )
            try:
                await screen.edit(**shown.to_edit())
            except discord.HTTPException as err:
                log.debug("table %s: could not refresh a screen: %s", table_id, err)
                self._drop(table_id, user_id, screen)
                return
            screen.kind = "hand"
            screen.shown = (hand.version, hand.decision, hand.digest)

    async def close_held(
        self,
        table_id: int,
        user_id: int,
        text: str,
        noted: Callable[[int, Callable[[bool], Awaitable[Any]]], Awaitable[None]],
    ) -> bool:
        """Close the player's screen in direct messages that showed their turn held back, now
        handed on, with ``text`` (no buttons), through the token of the click that showed it
        (no cost to the global budget); ``noted`` runs the edit it is given where the closing
        is recorded (:meth:`bot.show.hands.Hands.closed_by_click`, with the screen's message
        id). False if this process keeps no such screen whose token still works (another
        process showed it, or it restarted since): the caller closes it otherwise."""
        async with self._lock((table_id, user_id)):
            kept = self.tables.get(table_id)
            screen = kept.screens.get(user_id) if kept is not None else None
            if screen is None or not screen.in_dm or screen.kind != "held":
                return False
            self._drop(table_id, user_id, screen)
            if not self._live(screen):
                return False

            async def close(records_away: bool) -> None:
                shown = Message(text)
                if records_away:
                    shown = shown.noted(
                        handtexts.translated(handtexts.SAVED_RECORDS_AWAY, screen.lang), texts.clip
                    )
                try:
                    await screen.edit(**shown.to_edit())
                except discord.HTTPException as err:
                    log.info("table %s: could not close a held turn's screen: %s", table_id, err)

            await noted(screen.message_id, close)
            return True

    def _drop(self, table_id: int, user_id: int, screen: Screen) -> None:
        """Forget ``screen`` (its token ran out, or Discord refused an edit of it)."""
        kept = self.tables.get(table_id)
        if kept is not None and kept.screens.get(user_id) is screen:
            del kept.screens[user_id]
            self.tables.tidy(table_id)


def shows_spots(message: discord.Message | None, choice: SpotChoice) -> bool:
    """Whether ``message`` shows the spot step of ``choice`` (its tile, at its version)."""
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", ()):
            bid = ButtonId.decode(getattr(item, "custom_id", None) or "")
            if (
                bid is not None
                and (bid.table_id, bid.version, bid.action)
                == (choice.table_id, choice.version, "spot")
                and bid.arg.partition("@")[0] == choice.tile
            ):
                return True
    return False


def _buttons_by_row(message: discord.Message | None) -> list[list[str]]:
    """The custom ids of ``message``'s buttons, row by row."""
    if message is None:
        return []
    return [
        [cid for item in getattr(row, "children", ()) if (cid := getattr(item, "custom_id", None))]
        for row in message.components
    ]


def tapped(interaction: discord.Interaction[Any]) -> tuple[ButtonId | None, int | None]:
    """The button a click pressed, and its row in the clicked message as the click carries it
    (None when that message no longer holds it: a second tap after the first changed it)."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if not isinstance(custom_id, str):
        return None, None
    rows = _buttons_by_row(interaction.message)
    row = next((r for r, ids in enumerate(rows) if custom_id in ids), None)
    return ButtonId.decode(custom_id), row


def shows_fall(message: discord.Message | None, hand: Hand) -> bool:
    """Whether ``message`` shows the fall choice of ``hand`` (its buttons, at its version)."""
    wanted = {ButtonId(hand.table_id, hand.version, "fall", d).encode() for d in ("left", "right")}
    return any(wanted & set(ids) for ids in _buttons_by_row(message))


def clicked_id(interaction: discord.Interaction[Any]) -> int:
    """The id of the message whose button was pressed."""
    return interaction.message.id if interaction.message is not None else 0


def _new(shown: Message) -> dict[str, Any]:
    """The keyword arguments of a new private message showing ``shown``."""
    out: dict[str, Any] = {"content": shown.content, "files": shown.files}
    if shown.view is not None:
        out["view"] = shown.view
    return out

"""The buttons of the bot's messages, laid out within Discord's limits (5 buttons a row, 5 rows,
labels of at most 80 characters, custom ids of at most 100), built from service results.

Nothing here decides anything about the game; a button's label is worded here, its custom id
made by its class (:mod:`bot.tablebuttons`).

Over 400 lines, as one job: where a phone's second tap lands on a screen depends on the rows of
the screen the first tap left (the tiles, the spots, a fall choice in one row or the other, Undo
and Done, a Hint), so every message's rows are laid out here, side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

from bot import emoji as em
from bot import tablebuttons as tb  # the module, as it imports bot.show back
from bot.service import Board, Hand, SpotChoice
from bot.show.handtexts import spot_previews, tile_label
from bot.show.texts import jump_url
from engine import View
from i18n import Language
from render.narration import tile_in_text

COLOUR_EMOJI = em.COLOURS


def rematch_view(board: Board, lang: Language) -> discord.ui.View:
    """The Rematch button of a finished match."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        tb.RematchButton(
            board.table_id,
            board.version,
            label=lang.pgettext("button", "Rematch"),
            emoji=em.FIRE,
            style=discord.ButtonStyle.success,
        )
    )
    return view


def leave_view(table_id: int, version: int, lang: Language) -> discord.ui.View:
    """The button of ``/fp leave``'s confirmation in a running game."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        tb.LeaveMatchButton(
            table_id,
            version,
            label=lang.pgettext("button", "Leave the match"),
            style=discord.ButtonStyle.danger,
        )
    )
    return view


# --- the table in the channel ---------------------------------------------------------------------


def board_view(board: Board, lang: Language) -> discord.ui.View | None:
    """The channel message's buttons: My hand, the fall choice, Next round; Rematch on the
    message that ends the match. The fall choice takes turns between the first two rows, one
    fall of the turn after the other (see :func:`fall_choice`): the message is edited from one
    fall to the next, and the one before's buttons are not where the next one's are."""
    p = board.prompt
    if p.kind == "over" and board.table.status == "finished":
        return rematch_view(board, lang)
    if p.kind in ("over", "closed", "lobby"):
        return None
    t, v = board.table_id, board.version
    view = discord.ui.View(timeout=None)
    my_hand = tb.HandButton(t, v, label=lang.pgettext("button", "My hand"), emoji=em.HAND)
    if p.kind == "fall" and p.user_id is not None:
        row = FALL_ROWS[falls_decided(board.view) % len(FALL_ROWS)]
        for item in fall_choice(t, v, p.tile, row=row, beside=[my_hand], lang=lang):
            view.add_item(item)
        return view
    if p.kind == "next_round":
        view.add_item(
            tb.NextRoundButton(
                t,
                v,
                label=lang.pgettext("button", "Next round"),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    my_hand.row = 0
    view.add_item(my_hand)
    return view


FALL_ROWS: Final = (0, 1)
"""The rows a fall choice takes turns in."""


def falls_decided(view: View | None) -> int:
    """How many falls of the turn in progress were decided already."""
    return 0 if view is None else sum(1 for e in view.last_events if e.kind == "fell")


def fall_row_after(tapped_row: int | None) -> int:
    """The row of the fall choice a tap in ``tapped_row`` brings up on a private screen: never
    that row (None: a screen no tap brought up, the first row)."""
    return FALL_ROWS[1] if tapped_row == FALL_ROWS[0] else FALL_ROWS[0]


def fall_choice(
    table_id: int,
    version: int,
    tile: str | None,
    *,
    row: int,
    beside: Sequence[discord.ui.Item[Any]],
    lang: Language,
) -> list[discord.ui.Item[Any]]:
    """Fall left and Fall right in ``row`` (0 or 1), the items ``beside`` after them in the
    same row; in row 1, a heading above them, disabled, asking where ``tile`` falls.

    A phone's second tap lands where the first one was, on whatever the screen shows by then.
    When one fall follows another on the same message, or a tap on a tile brings up the fall
    its player must decide first, the new choice is put in the other row: the second tap lands
    on the disabled heading (Discord sends nothing) or below every button, never on a fall."""
    items: list[discord.ui.Item[Any]] = []
    if row == FALL_ROWS[1]:
        label = (
            lang.pgettext("button", "Where does {tile} fall?").format(tile=tile_in_text(tile, lang))
            if tile
            else lang.pgettext("button", "Where does the tile fall?")
        )
        items.append(
            tb.NoteButton(
                table_id,
                version,
                label=label,
                emoji=COLOUR_EMOJI.get(tile[0]) if tile else None,
                disabled=True,
                row=FALL_ROWS[0],
            )
        )
    for direction, emoji, text in (
        ("left", em.FALL_LEFT, lang.pgettext("button", "Fall left")),
        ("right", em.FALL_RIGHT, lang.pgettext("button", "Fall right")),
    ):
        items.append(
            tb.FallButton(
                table_id,
                version,
                direction,
                label=text,
                emoji=emoji,
                style=discord.ButtonStyle.primary,
                row=row,
            )
        )
    for item in beside:
        item.row = row
        items.append(item)
    return items


def held_choice(
    table_id: int,
    version: int,
    token: str,
    *,
    row: int,
    beside: Sequence[discord.ui.Item[Any]],
    lang: Language,
) -> list[discord.ui.Item[Any]]:
    """Undo and Done of a turn held back (the turn named by ``token``), in ``row`` (0 or 1)
    as :func:`fall_choice` places a fall choice, the items ``beside`` after them; in row 1, a
    heading above them, disabled. The screen turns into this choice after a tap on a spot or
    a fall: a second tap of that one lands on the heading or below every button, never on
    Undo or Done."""
    items: list[discord.ui.Item[Any]] = []
    if row == FALL_ROWS[1]:
        items.append(
            tb.NoteButton(
                table_id,
                version,
                label=lang.pgettext("button", "Your turn is played"),
                emoji=em.PLAYED,
                disabled=True,
                row=FALL_ROWS[0],
            )
        )
    items.append(
        tb.UndoButton(
            table_id,
            version,
            token,
            label=lang.pgettext("button", "Undo"),
            emoji=em.UNDO,
            style=discord.ButtonStyle.secondary,
            row=row,
        )
    )
    items.append(
        tb.DoneButton(
            table_id,
            version,
            token,
            label=lang.pgettext("button", "Done"),
            emoji=em.PLAYED,
            style=discord.ButtonStyle.success,
            row=row,
        )
    )
    for item in beside:
        item.row = row
        items.append(item)
    return items


def table_link(
    guild_id: int,
    channel_id: int,
    message_id: int | None,
    row: int | None = None,
    *,
    lang: Language,
) -> discord.ui.Button[discord.ui.View]:
    """ "Go to the table": to the table's newest board message when known."""
    return discord.ui.Button(
        label=lang.pgettext("button", "Go to the table"),
        style=discord.ButtonStyle.link,
        url=jump_url(guild_id, channel_id, message_id),
        row=row,
    )


def hand_view(
    hand: Hand,
    *,
    fall_row: int,
    with_mode: str | None = None,
    message_id: int | None = None,
    lang: Language,
) -> discord.ui.View:
    """The private screen's buttons: on the player's turn one button per tile (the hand's
    fingerprint in each id; tiles that fit marked), while they must decide a fall the fall
    choice in ``fall_row`` (see :func:`fall_choice`), once their turn is played at a table
    with an undo window Undo and Done in ``fall_row`` (see :func:`held_choice`), else the
    tiles in grey and disabled; a link to the table's newest message (``message_id``, or the
    one the hand knows), and optionally the button that switches how hands are delivered (not
    beside a fall choice: a second tap of a fall in the second row would land on it). At a
    practice table, a tile or a fall to decide has a Hint, last (:func:`hint_button`)."""
    view = discord.ui.View(timeout=None)
    link_to = message_id if message_id is not None else hand.board_message_id
    if hand.decision == "held" and hand.held is not None:
        link = table_link(hand.guild_id, hand.channel_id, link_to, lang=lang)
        for item in held_choice(
            hand.table_id, hand.version, hand.held.token, row=fall_row, beside=[link], lang=lang
        ):
            view.add_item(item)
        return view
    if hand.decision == "fall":
        pending = hand.view.pending
        link = table_link(hand.guild_id, hand.channel_id, link_to, lang=lang)
        # (A second tap of a fall that lands on Hint asks for a hint: it changes nothing.)
        hint = [hint_button(hand.table_id, hand.version, lang)] if hand.hints else []
        for item in fall_choice(
            hand.table_id,
            hand.version,
            pending.tile if pending is not None else None,
            row=fall_row,
            beside=[link, *hint],
            lang=lang,
        ):
            view.add_item(item)
        return view
    for button in tile_buttons(
        hand.table_id,
        hand.version,
        hand.digest,
        hand.view.hand or (),
        hand.fitting,
        playing=hand.decision == "play",
        lang=lang,
    ):
        view.add_item(button)
    view.add_item(table_link(hand.guild_id, hand.channel_id, link_to, row=1, lang=lang))
    if with_mode is not None:
        label = (
            lang.pgettext("button", "Always show my hand here (no DMs)")
            if with_mode == "channel"
            else lang.pgettext("button", "Send my hands by DM")
        )
        view.add_item(tb.ModeButton(hand.table_id, 0, with_mode, label=label, row=1))
    if hand.hints and hand.decision == "play":
        view.add_item(hint_button(hand.table_id, hand.version, lang, row=1))
    return view


def hint_button(
    table_id: int, version: int, lang: Language, row: int | None = None
) -> tb.HintButton:
    """A practice table's Hint of the decision the table waits for at ``version``."""
    label = lang.pgettext("button", "Hint")
    return tb.HintButton(table_id, version, label=label, emoji=em.HINT, row=row)


def tile_buttons(
    table_id: int,
    version: int,
    digest: str,
    tiles: Sequence[str],
    fitting: Sequence[str],
    *,
    playing: bool,
    chosen: str | None = None,
    lang: Language,
) -> list[tb.PlayButton]:
    """A hand's tile buttons, in the first row, one per tile (the hand's fingerprint in each
    id): on the player's turn in colour, the tiles that fit marked; else in grey and disabled
    (a press could only be refused). On the spot step the tile ``chosen`` stands out and the
    others are grey (a tap on one chooses it instead)."""
    found = []
    for tile in list(tiles)[:5]:
        fits = playing and tile in fitting
        if chosen is not None:
            style = discord.ButtonStyle.primary if tile == chosen else discord.ButtonStyle.secondary
        elif fits:
            style = discord.ButtonStyle.success
        else:
            style = discord.ButtonStyle.primary if playing else discord.ButtonStyle.secondary
        found.append(
            tb.PlayButton(
                table_id,
                version,
                f"{tile}.{digest}",
                label=lang.pgettext("button", "{tile} · fits").format(tile=tile_label(tile, lang))
                if fits
                else tile_label(tile, lang),
                emoji=COLOUR_EMOJI.get(tile[0]),
                style=style,
                disabled=not playing,
                row=0,
            )
        )
    return found


SPOTS_PER_PAGE = 15
"""Spot buttons on one message (the last 3 rows of 5)."""


def spot_view(choice: SpotChoice, page: int = 0, *, lang: Language) -> discord.ui.View:
    """The hand's tiles in the first row, where the tile step shows them (the chosen one
    standing out); Back (and "More spots", and a practice table's Hint) in the second; then one
    button per spot, labelled
    like the picture (with what the play would do, in short, when the table shows previews),
    pages of 15 when there are more.

    A phone's second tap on the tile that opened this step lands in the same place, on the same
    tile, and changes nothing; the spots, below every row the tile step and the fall choice
    have, are never under a finger that tapped one of those."""
    view = discord.ui.View(timeout=None)
    for button in tile_buttons(
        choice.table_id,
        choice.version,
        choice.digest,
        choice.view.hand or (),
        choice.fitting,
        playing=True,
        chosen=choice.tile,
        lang=lang,
    ):
        view.add_item(button)
    pages = max(1, -(-len(choice.spots) // SPOTS_PER_PAGE))
    page = page % pages
    first = page * SPOTS_PER_PAGE
    shown = choice.spots[first : first + SPOTS_PER_PAGE]
    said = spot_previews(choice, lang)
    view.add_item(
        tb.BackButton(
            choice.table_id,
            choice.version,
            label=lang.pgettext("button", "Back"),
            row=1,
        )
    )
    if pages > 1:
        view.add_item(
            tb.MoreSpotsButton(
                choice.table_id,
                choice.version,
                f"{choice.tile}.{page + 1}",
                label=lang.pgettext("button", "More spots ({page}/{pages})").format(
                    page=(page + 1) % pages + 1, pages=pages
                ),
                row=1,
            )
        )
    if choice.hints:  # last in Back's row: under no finger that tapped the step before
        view.add_item(hint_button(choice.table_id, choice.version, lang, row=1))
    for i, (label, (r, x)) in enumerate(shown):
        text = said[first + i] if said else ""
        fits = choice.previews is not None and choice.previews[first + i].fits
        view.add_item(
            tb.SpotButton(
                choice.table_id,
                choice.version,
                f"{choice.tile}@{r},{x}",
                label=f"{label} · {text}" if text else label,
                style=discord.ButtonStyle.success
                if fits
                else discord.ButtonStyle.danger
                if said
                else discord.ButtonStyle.primary,
                row=2 + i // 5,
            )
        )
    return view

"""The lobby card: one Components V2 layout (a container of text displays, a section and action
rows) for a table from its lobby to its end.

Open: the heading with "How to play", the seats, where the lobby stands, Join / Leave for
everyone, then the host's own labelled row (Start, Cancel, Remove computer) and the menu that
adds a computer of the level picked. Started: where to follow the game. Finished: the podium
and Rematch. Closed (cancelled, aborted, expired): no controls.

The card never pings anyone, so it can be a V2 message (which has no ``content``); Discord lets
a message become V2 but never go back (``developers/resources/message.mdx``, Edit Message), so
a card an older version posted as an embed becomes this layout at its next edit
(:meth:`bot.show.message.Message.to_edit` empties its content and embeds).
"""

from __future__ import annotations

from typing import Any

import discord

from bot import emoji as em
from bot import tablebuttons as tb  # the module, as it imports bot.show back
from bot.components import select_id
from bot.service import COMPUTER_LEVELS, Board, MatchResult
from bot.show import lobbytexts, texts
from i18n import Language

LayoutView = discord.ui.LayoutView


def how_to_play(board: Board, lang: Language) -> tb.HowToButton:
    """The card's "How to play", for anyone (it answers privately and changes nothing)."""
    return tb.HowToButton(
        board.table_id,
        board.version,
        label=lang.pgettext("button", "How to play"),
        emoji=em.HOW_TO_PLAY,
    )


def lobby_card(
    board: Board,
    results: MatchResult | None = None,
    *,
    expired: bool = False,
    game_link: str | None = None,
    lang: Language,
) -> LayoutView:
    """The card of ``board``'s table as it stands (see the module's docstring), in ``lang``."""
    t = board.table
    t_id, v = board.table_id, board.version
    is_open = t.status == "lobby" and not expired
    heading: discord.ui.Item[Any]
    if is_open or t.status == "playing":
        heading = discord.ui.Section(
            discord.ui.TextDisplay(lobbytexts.lobby_title(board, lang)),
            accessory=how_to_play(board, lang),
        )
    else:
        heading = discord.ui.TextDisplay(lobbytexts.lobby_title(board, lang))
    box: discord.ui.Container[LayoutView] = discord.ui.Container(accent_colour=texts.EMBED_COLOUR)
    box.add_item(heading)
    box.add_item(discord.ui.Separator())
    if results is None:  # (a finished match's podium names every seat)
        box.add_item(discord.ui.TextDisplay(lobbytexts.lobby_seats(board, lang)))
    box.add_item(
        discord.ui.TextDisplay(
            lobbytexts.lobby_status(board, results, expired=expired, game_link=game_link, lang=lang)
        )
    )
    if is_open:
        box.add_item(
            discord.ui.ActionRow(
                tb.JoinButton(
                    t_id,
                    v,
                    label=lang.pgettext("button", "Join"),
                    style=discord.ButtonStyle.success,
                ),
                tb.LeaveButton(t_id, v, label=lang.pgettext("button", "Leave")),
            )
        )
        box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(lang.gettext(lobbytexts.HOST_ROW)))
        host: discord.ui.ActionRow[Any] = discord.ui.ActionRow(
            tb.StartButton(
                t_id,
                v,
                label=lang.pgettext("button", "Start"),
                style=discord.ButtonStyle.primary,
            ),
            tb.CancelButton(
                t_id,
                v,
                label=lang.pgettext("button", "Cancel"),
                style=discord.ButtonStyle.danger,
            ),
        )
        if any(s.ai for s in t.seats):
            host.add_item(
                tb.RemoveComputerButton(t_id, v, label=lang.pgettext("button", "Remove computer"))
            )
        box.add_item(host)
        full = len(t.seats) >= t.options.max_seats
        options = []
        for level in COMPUTER_LEVELS:
            label, said = lobbytexts.computer_option(level, lang)
            options.append(
                discord.SelectOption(label=label, value=level, description=said, emoji=em.COMPUTER)
            )
        box.add_item(
            discord.ui.ActionRow(
                tb.FpSelect(
                    select_id(t_id, v, "ai"),
                    options=options,
                    placeholder=lang.gettext(
                        lobbytexts.TABLE_FULL if full else lobbytexts.ADD_COMPUTER
                    ),
                    disabled=full,
                )
            )
        )
    elif t.status == "playing" and game_link:
        box.add_item(
            discord.ui.ActionRow(
                discord.ui.Button(
                    label=lang.pgettext("button", "Go to the game"),
                    style=discord.ButtonStyle.link,
                    url=game_link,
                )
            )
        )
    elif t.status == "finished" and not expired:
        box.add_item(
            discord.ui.ActionRow(
                tb.RematchButton(
                    t_id,
                    v,
                    label=lang.pgettext("button", "Rematch"),
                    emoji=em.FIRE,
                    style=discord.ButtonStyle.success,
                )
            )
        )
    card = LayoutView(timeout=None)
    card.add_item(box)
    return card

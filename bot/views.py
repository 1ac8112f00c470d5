"""What the bot shows: message texts, embeds and button layouts built from service results.

Nothing here decides anything about the game: the table service says what happened and what
is pending; these functions only lay it out within Discord's limits (5 buttons a row, 5 rows,
labels of at most 80 characters, custom ids of at most 100, messages of at most 2000 characters).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot import emoji as em
from bot import names
from bot.components import ButtonId, FpButton
from bot.narrate import describe_preview, narrate, scores_line
from bot.service import Board, Hand, Prompt, SpotChoice, Step
from data.store import PlayerPrefs, TableOptions
from engine.ai import LEVELS
from engine.tiles import describe

MAX_CONTENT = 2000
COLOUR_EMOJI = em.COLOURS
EMBED_COLOUR = 0xE8590C


MENTION_MARKUP = re.compile(r"<(?=[@#])")
"""The start of Discord's mention markup, ``<@id>``, ``<@&id>``, ``<#id>``, whatever the id."""


def esc(text: str) -> str:
    """A player-chosen name, safe in a message: cleaned of control and bidirectional characters
    (:func:`bot.names.clean`), no markdown, no mentions. Every name put into text goes through
    here, private answers included. discord.py's ``escape_mentions`` leaves ``<@123>`` alone
    (ids shorter than a snowflake), which Discord still shows as a mention: a zero-width space
    after ``<`` breaks the markup."""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(names.clean(text)))
    return MENTION_MARKUP.sub("<\u200b", text)


def names_of(board: Board) -> list[str]:
    return [esc(n) for n in board.names]


def thread_name(table_id: int) -> str:
    """The name of a game's thread."""
    return f"Flaming Pyramids · table {table_id}"


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel (or one of its messages)."""
    url = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{url}/{message_id}" if message_id else url


def duration(seconds: float) -> str:
    """``86400`` -> ``"24 hours"``; ``300`` -> ``"5 minutes"``."""
    s = int(seconds)
    if s % 86400 == 0 and s >= 2 * 86400:
        return f"{s // 86400} days"
    if s % 3600 == 0:
        h = s // 3600
        return f"{h} hour" + ("s" if h != 1 else "")
    m = max(1, s // 60)
    return f"{m} minute" + ("s" if m != 1 else "")


def relative(when: float) -> str:
    """A moment as Discord shows it relative to now, in each reader's language ("in 23 hours")."""
    return f"<t:{int(when)}:R>"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the lobby ------------------------------------------------------------------------------------


def options_line(options: TableOptions) -> str:
    parts = [
        f"curse {'on' if options.curse else 'off'}",
        f"fire die {'on' if options.fire_die else 'off'}",
        f"{options.rounds} round" + ("s" if options.rounds != 1 else ""),
        f"{duration(options.turn_limit_s)} per turn",
        f"up to {options.max_seats} players",
    ]
    if not options.preview:
        parts.append("no previews")
    return " · ".join(parts)


def lobby_embed(board: Board, results: dict[str, Any] | None = None) -> discord.Embed:
    """The lobby message: host, options, seats (or how the lobby ended; once the match is over,
    its ``results``: the winner and the final standings)."""
    t = board.table
    status = {
        "lobby": "Waiting for players",
        "playing": "The game has started",
        "cancelled": "Cancelled by the host",
        "aborted": "Aborted",
        "finished": "Finished",
    }[t.status]
    if t.status == "finished" and results is not None:
        status = f"Finished. {match_result(names_of(board), results)}"
    embed = discord.Embed(
        title=f"Flaming Pyramids — table {t.id}",
        description=f"Host: <@{t.host_id}>\n{options_line(t.options)}\n**{status}**"
        if t.status != "finished" or results is None
        else f"Host: <@{t.host_id}>\n{options_line(t.options)}\n{status}",
        colour=EMBED_COLOUR,
    )
    seats = [
        f"{i + 1}. {esc(s.name)}" + (f" {em.COMPUTER}" if s.ai else "")
        for i, s in enumerate(t.seats)
    ]
    embed.add_field(
        name=f"Seats ({len(t.seats)}/{t.options.max_seats})",
        value="\n".join(seats) or "—",
        inline=False,
    )
    if t.status == "lobby":
        embed.set_footer(text="Join with the button. The host starts with 2 to 6 players.")
    return embed


def rematch_view(board: Board) -> discord.ui.View:
    """The Rematch button of a finished match."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        FpButton(
            ButtonId(board.table_id, board.version, "rematch"),
            label="Rematch",
            emoji=em.FIRE,
            style=discord.ButtonStyle.success,
        )
    )
    return view


def lobby_view(board: Board) -> discord.ui.View | None:
    """Join / Leave / Start / Cancel, and computer players by level; Rematch once the match is
    over; None otherwise."""
    if board.table.status == "finished":
        return rematch_view(board)
    if board.table.status != "lobby":
        return None
    t, v = board.table_id, board.version
    view = discord.ui.View(timeout=None)
    view.add_item(
        FpButton(ButtonId(t, v, "join"), label="Join", style=discord.ButtonStyle.success, row=0)
    )
    view.add_item(FpButton(ButtonId(t, v, "leave"), label="Leave", row=0))
    view.add_item(
        FpButton(ButtonId(t, v, "start"), label="Start", style=discord.ButtonStyle.primary, row=0)
    )
    view.add_item(
        FpButton(ButtonId(t, v, "cancel"), label="Cancel", style=discord.ButtonStyle.danger, row=0)
    )
    for level in LEVELS[:4]:
        view.add_item(
            FpButton(
                ButtonId(t, v, "ai", level),
                label=f"Add computer ({level})",
                emoji=em.COMPUTER,
                row=1,
            )
        )
    if any(s.ai for s in board.table.seats):
        view.add_item(FpButton(ButtonId(t, v, "rmai"), label="Remove computer", row=2))
    return view


# --- the table in the channel ---------------------------------------------------------------------


def picture_title(board: Board) -> str:
    t = board.table
    v = board.view
    if v is None:
        return f"Table {t.id}"
    rounds = f" · round {v.round}/{v.rounds}" if v.rounds > 1 else ""
    # The picture itself says which turn it is ("Turn N" under the headline).
    return f"Flaming Pyramids · table {t.id}{rounds}"


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else f"**{name}**"


def prompt_line(board: Board) -> str:
    """Who decides what now, with a deadline."""
    p: Prompt = board.prompt
    names = names_of(board)
    until = f" (time ends {relative(p.deadline)})" if p.deadline and p.user_id else ""
    if p.kind == "play" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        if p.user_id is None:
            return f"{em.TURN} {who} is thinking…"
        return f"{em.TURN} {who}, your turn: pick a tile in your hand{until}."
    if p.kind == "fall" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        tile = describe(p.tile) if p.tile else "the tile"
        if p.user_id is None:
            return f"{em.TURN} {who} decides where {tile} falls…"
        return (
            f"{em.TURN} {who}, where does {tile} fall? "
            f"Choose **Fall left** or **Fall right**{until}."
        )
    if p.kind == "die":
        return f"{em.FIRE_DIE} The fire die is being rolled…"
    if p.kind == "next_round" and board.view is not None:
        return "The next round starts in a moment, or at once with **Next round**."
    return ""


def step_content(step: Step) -> str:
    """The one message of a move: what happened, scores if a round ended, who is next."""
    board = step.board
    names = names_of(board)
    lines: list[str] = []
    if step.kind == "start":
        lines.append(f"{em.FIRE} **Flaming Pyramids** — table {board.table_id} begins!")
        lines.append("Your hand comes by direct message (or use **My hand**).")
    elif step.kind == "next_round" and board.view is not None:
        lines.append(f"{em.FIRE} Round {board.view.round} of {board.view.rounds} is dealt.")
    if step.timed_out and step.actor is not None:
        lines.append(
            f"{em.TIMED_OUT} {names[step.actor]}'s time ran out: "
            "a computer player made this move for them."
        )
    story = narrate(step.turn_events or step.events, names) if step.kind == "move" else ""
    if story:
        lines.append(story)
    v = board.view
    won = [e for e in step.events if e.kind == "won"]
    if won and v is not None and v.rounds > 1:
        w = won[-1]
        round_scores = scores_line(names, w.scores)
        lines.append(
            f"{em.ROUND_WON} **{names[w.player]}** wins round {v.round}! "
            f"This round: {round_scores}."
        )
        lines.append(f"Match totals: {scores_line(names, v.scores)}.")
    if step.results is not None:
        lines.append(f"{em.MATCH_OVER} **The match is over.** {match_result(names, step.results)}")
    line = prompt_line(board)
    if line:
        lines.append(line)
    return clip("\n".join(lines))


def match_result(names: Sequence[str], results: dict[str, Any]) -> str:
    """Who won a finished match and the final standings, explained: each player's tiles left
    in hand and pile when someone went out (over every round of the match), lowest wins."""
    winners = [names[i] for i in results.get("winners", []) if 0 <= i < len(names)]
    scores = [int(s) for s in results.get("scores", [])]
    rounds = int(results.get("rounds", 1) or 1)
    over = f", over {rounds} rounds" if rounds > 1 else ""
    text = f"Winner: **{' and '.join(winners) or '—'}**."
    if len(scores) == len(names):
        text += (
            f" Final standings, tiles left in hand and pile{over} (lower wins): "
            f"{scores_line(names, scores)}."
        )
    return text


def board_content(board: Board) -> str:
    """``/fp status``: the table now."""
    t = board.table
    lines = [f"Flaming Pyramids — table {t.id} · {options_line(t.options)}"]
    v = board.view
    if v is not None:
        names = names_of(board)
        sizes = ", ".join(
            f"{names[i]} {v.hand_sizes[i]}+{v.pile_sizes[i]}" for i in range(v.players)
        )
        lines.append(f"Tiles in hand + pile: {sizes}")
        if v.rounds > 1:
            lines.append(f"Round {v.round} of {v.rounds}; totals: {scores_line(names, v.scores)}")
    line = prompt_line(board)
    if line:
        lines.append(line)
    return clip("\n".join(lines))


def board_view(board: Board) -> discord.ui.View | None:
    """The channel message's buttons: My hand, the fall choice, Next round; Rematch on the
    message that ends the match."""
    p = board.prompt
    if p.kind == "over" and board.table.status == "finished":
        return rematch_view(board)
    if p.kind in ("over", "closed", "lobby"):
        return None
    t, v = board.table_id, board.version
    view = discord.ui.View(timeout=None)
    if p.kind == "fall" and p.user_id is not None:
        view.add_item(
            FpButton(
                ButtonId(t, v, "fall", "left"),
                label="Fall left",
                emoji=em.FALL_LEFT,
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
        view.add_item(
            FpButton(
                ButtonId(t, v, "fall", "right"),
                label="Fall right",
                emoji=em.FALL_RIGHT,
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
    if p.kind == "next_round":
        view.add_item(
            FpButton(
                ButtonId(t, v, "next"), label="Next round", style=discord.ButtonStyle.success, row=0
            )
        )
    view.add_item(FpButton(ButtonId(t, v, "hand"), label="My hand", emoji=em.HAND, row=0))
    return view


def not_shown_notice(board: Board) -> str:
    """A direct message to the person who must decide while the table's message is not in its
    channel (Discord refused it; it is being posted again)."""
    return clip(
        f"{em.WARNING} Discord did not take my latest message at table {board.table_id} in "
        f"<#{board.channel_id}>, so it is not shown there yet; I keep trying.\n"
        + prompt_line(board)
        + "\nThe buttons below work here too."
    )


def mentioned_users(board: Board) -> list[int]:
    """Who the message pings: the person who must decide now."""
    p = board.prompt
    return [p.user_id] if p.user_id is not None and p.kind in ("play", "fall") else []


def step_pings(step: Step) -> list[int]:
    """Who a move's message pings: the person who must decide now, unless it is the person
    whose decision this message shows (they are at the table: a fall choice right after their
    own placement asks them without a ping, so a turn pings one person, the next to act)."""
    board = step.board
    actor = step.actor
    acted = (
        board.table.seats[actor].user_id if actor is not None and actor < len(board.names) else None
    )
    return [u for u in mentioned_users(board) if u != acted or step.timed_out]


# --- hands and spots ------------------------------------------------------------------------------


OUT_OF_DATE_HAND = "That hand is out of date: here it is now."
MATCH_OVER = f"{em.MATCH_OVER} The match is over."


def hand_content(hand: Hand, channel_name: str | None = None, guild_name: str | None = None) -> str:
    """The private screen's text for a hand: where, and what to decide now."""
    where = f"<#{hand.channel_id}>"
    if guild_name:
        where += f" on {esc(guild_name)}"
    v = hand.view
    lines = [
        f"{em.HAND} Your hand at table {hand.table_id} in {where}"
        + (f" (round {v.round}/{v.rounds})" if v.rounds > 1 else "")
    ]
    ends = f" Your turn ends {relative(hand.deadline)}." if hand.deadline else ""
    if hand.decision == "play":
        lines.append(f"**It is your turn:** pick a tile, then its spot.{ends}")
        if hand.fitting:
            lines.append("Tiles marked *fits* go somewhere without mayhem.")
    elif hand.decision == "fall" and v.pending is not None and v.pending.tile:
        lines.append(
            f"**Where does {describe(v.pending.tile)} fall?** "
            f"Choose **Fall left** or **Fall right**.{ends}"
        )
    else:
        lines.append("Not your turn yet: these buttons work once it is.")
    return "\n".join(lines)


def notify_choices(prefs: PlayerPrefs) -> str:
    """What ``/fp notify`` answers: the player's choices as they now stand."""
    turn = "yes" if prefs.dm_on_turn else "no"
    reminders = "yes" if prefs.reminders else "no"
    return (
        f"Direct message when your turn begins: **{turn}**. Reminders: **{reminders}**.\n"
        "Change them with `/fp notify turn:` and `/fp notify reminders:`."
    )


def turn_notice(hand: Hand, since: Sequence[str]) -> str:
    """The "your turn" direct message: whose table, and what happened since the player's last
    move (the newest moves if there were many)."""
    lines = [f"{em.FIRE} Your turn at table {hand.table_id} in <#{hand.channel_id}>."]
    if since:
        lines.append("Since your last move: " + " · ".join(since[-3:]))
    lines.append("Pick a tile in your hand (the **My hand** link leads to it).")
    return clip("\n".join(lines), 900)


def tile_label(tile: str) -> str:
    return describe(tile)


def table_link(
    guild_id: int, channel_id: int, message_id: int | None, row: int | None = None
) -> discord.ui.Button[discord.ui.View]:
    """ "Go to the table": to the table's newest board message when known."""
    return discord.ui.Button(
        label="Go to the table",
        style=discord.ButtonStyle.link,
        url=jump_url(guild_id, channel_id, message_id),
        row=row,
    )


def hand_view(
    hand: Hand,
    *,
    with_link: bool = True,
    with_mode: str | None = None,
    message_id: int | None = None,
) -> discord.ui.View:
    """The private screen's buttons: on the player's turn one button per tile (the hand's
    fingerprint in each id; tiles that fit marked), while they must decide a fall the fall
    buttons, else the tiles in grey; a link to the table's newest message (``message_id``, or
    the one the hand knows), and optionally the button that switches how hands are delivered."""
    view = discord.ui.View(timeout=None)
    if hand.decision == "fall":
        for direction, emoji in (("left", em.FALL_LEFT), ("right", em.FALL_RIGHT)):
            view.add_item(
                FpButton(
                    ButtonId(hand.table_id, hand.version, "fall", direction),
                    label=f"Fall {direction}",
                    emoji=emoji,
                    style=discord.ButtonStyle.primary,
                    row=0,
                )
            )
    else:
        playing = hand.decision == "play"
        for tile in (hand.view.hand or ())[:5]:
            fits = playing and tile in hand.fitting
            view.add_item(
                FpButton(
                    ButtonId(hand.table_id, hand.version, "play", f"{tile}.{hand.digest}"),
                    label=tile_label(tile) + (" · fits" if fits else ""),
                    emoji=COLOUR_EMOJI.get(tile[0]),
                    style=discord.ButtonStyle.success
                    if fits
                    else discord.ButtonStyle.primary
                    if playing
                    else discord.ButtonStyle.secondary,
                    row=0,
                )
            )
    if with_link:
        link_to = message_id if message_id is not None else hand.board_message_id
        view.add_item(table_link(hand.guild_id, hand.channel_id, link_to, row=1))
    if with_mode is not None:
        label = (
            "Always show my hand here (no DMs)" if with_mode == "channel" else "Send my hands by DM"
        )
        view.add_item(FpButton(ButtonId(hand.table_id, 0, "mode", with_mode), label=label, row=1))
    return view


def spot_previews(choice: SpotChoice) -> list[str]:
    """Per spot, what playing there would do ("fits", "collapse: 2 tiles to your pile"...);
    empty when the table shows no previews."""
    if choice.previews is None:
        return []
    names = [esc(n) for n in choice.names]
    return [describe_preview(p, names) for p in choice.previews]


def spot_content(choice: SpotChoice) -> str:
    """The spot step: which tile, the spots (with what each would do), the turn's end."""
    lines = [f"Where do you play **{describe(choice.tile)}**? The picture shows the spots."]
    said = spot_previews(choice)
    if said:
        lines.extend(
            f"**{label}** · {text}" for (label, _), text in zip(choice.spots, said, strict=True)
        )
    else:
        lines.append("Spots: " + ", ".join(label for label, _ in choice.spots) + ".")
    ends = f" Your turn ends {relative(choice.deadline)}." if choice.deadline else ""
    lines.append(f"Press a spot to play there, or **Back** to pick another tile.{ends}")
    return clip("\n".join(lines))


SPOTS_PER_PAGE = 20
"""Spot buttons on one message (4 rows of 5); the fifth row holds Back and "More spots"."""


def spot_view(choice: SpotChoice, page: int = 0) -> discord.ui.View:
    """One button per spot, labelled like the picture (with what the play would do, in short,
    when the table shows previews); pages of 20 when there are more; Back to the tiles."""
    view = discord.ui.View(timeout=None)
    pages = max(1, -(-len(choice.spots) // SPOTS_PER_PAGE))
    page = page % pages
    first = page * SPOTS_PER_PAGE
    shown = choice.spots[first : first + SPOTS_PER_PAGE]
    said = spot_previews(choice)
    for i, (label, (r, x)) in enumerate(shown):
        text = said[first + i] if said else ""
        fits = choice.previews is not None and choice.previews[first + i].fits
        view.add_item(
            FpButton(
                ButtonId(choice.table_id, choice.version, "spot", f"{choice.tile}@{r},{x}"),
                label=f"{label} · {text}" if text else label,
                style=discord.ButtonStyle.success
                if fits
                else discord.ButtonStyle.danger
                if said
                else discord.ButtonStyle.primary,
                row=i // 5,
            )
        )
    view.add_item(FpButton(ButtonId(choice.table_id, choice.version, "back"), label="Back", row=4))
    if pages > 1:
        view.add_item(
            FpButton(
                ButtonId(choice.table_id, choice.version, "more", f"{choice.tile}.{page + 1}"),
                label=f"More spots ({(page + 1) % pages + 1}/{pages})",
                row=4,
            )
        )
    return view


def ping(users: Sequence[int]) -> discord.AllowedMentions:
    """Allow pinging exactly these users (never everyone or roles)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users], replied_user=False
    )

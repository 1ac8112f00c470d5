"""What the bot shows: message texts, embeds and button layouts built from service results.

Nothing here decides anything about the game: the table service says what happened and what
is pending; these functions only lay it out within Discord's limits (5 buttons a row, 5 rows,
labels of at most 80 characters, custom ids of at most 100, messages of at most 2000 characters).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.components import ButtonId, FpButton
from bot.narrate import narrate, scores_line
from bot.service import Board, Hand, Prompt, SpotChoice, Step
from data.store import TableOptions
from engine.ai import LEVELS
from engine.tiles import describe

MAX_CONTENT = 2000
COLOUR_EMOJI = {"Y": "🟨", "R": "🟥", "G": "🟩", "B": "🟦", "M": "⬜"}
EMBED_COLOUR = 0xE8590C


def esc(text: str) -> str:
    """A player-chosen name, safe in a message (no markdown, no mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def names_of(board: Board) -> list[str]:
    return [esc(n) for n in board.names]


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
    return " · ".join(parts)


def lobby_embed(board: Board) -> discord.Embed:
    """The lobby message: host, options, seats (or how the lobby ended)."""
    t = board.table
    status = {
        "lobby": "Waiting for players",
        "playing": "The game has started",
        "cancelled": "Cancelled by the host",
        "aborted": "Aborted",
        "finished": "Finished",
    }[t.status]
    embed = discord.Embed(
        title=f"Flaming Pyramids — table {t.id}",
        description=f"Host: <@{t.host_id}>\n{options_line(t.options)}\n**{status}**",
        colour=EMBED_COLOUR,
    )
    seats = [f"{i + 1}. {esc(s.name)}" + (" 🤖" if s.ai else "") for i, s in enumerate(t.seats)]
    embed.add_field(
        name=f"Seats ({len(t.seats)}/{t.options.max_seats})",
        value="\n".join(seats) or "—",
        inline=False,
    )
    if t.status == "lobby":
        embed.set_footer(text="Join with the button. The host starts with 2 to 6 players.")
    return embed


def lobby_view(board: Board) -> discord.ui.View | None:
    """Join / Leave / Start / Cancel, and computer players by level; None once closed."""
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
                ButtonId(t, v, "ai", level), label=f"Add computer ({level})", emoji="🤖", row=1
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
    return f"Flaming Pyramids · table {t.id}{rounds} · turn {v.turn}"


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else f"**{name}**"


def prompt_line(board: Board) -> str:
    """Who decides what now, with a deadline."""
    p: Prompt = board.prompt
    names = names_of(board)
    until = f" (until <t:{int(p.deadline)}:f>)" if p.deadline and p.user_id else ""
    if p.kind == "play" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        if p.user_id is None:
            return f"➡️ {who} is thinking…"
        return f"➡️ {who}, your turn: pick a tile in your hand{until}."
    if p.kind == "fall" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        tile = describe(p.tile) if p.tile else "the tile"
        if p.user_id is None:
            return f"➡️ {who} decides where {tile} falls…"
        return f"➡️ {who}, where does {tile} fall? Choose **Fall left** or **Fall right**{until}."
    if p.kind == "die":
        return "🎲 The fire die is being rolled…"
    if p.kind == "next_round" and board.view is not None:
        return "The next round starts in a moment, or at once with **Next round**."
    return ""


def step_content(step: Step) -> str:
    """The one message of a move: what happened, scores if a round ended, who is next."""
    board = step.board
    names = names_of(board)
    lines: list[str] = []
    if step.kind == "start":
        lines.append(
            f"🔥 **Flaming Pyramids** — table {board.table_id} begins! "
            f"{options_line(board.options)}."
        )
        lines.append("Your hand comes by direct message (or use **My hand**).")
    elif step.kind == "next_round" and board.view is not None:
        lines.append(f"🔥 Round {board.view.round} of {board.view.rounds} is dealt.")
    if step.timed_out and step.actor is not None:
        lines.append(
            f"⏰ {names[step.actor]}'s time ran out: a computer player made this move for them."
        )
    story = narrate(step.events, names) if step.kind == "move" else ""
    if story:
        lines.append(story)
    v = board.view
    won = [e for e in step.events if e.kind == "won"]
    if won and v is not None:
        w = won[-1]
        round_scores = scores_line(names, w.scores)
        lines.append(f"🏆 **{names[w.player]}** wins round {v.round}! This round: {round_scores}.")
        if v.rounds > 1:
            lines.append(f"Match totals: {scores_line(names, v.scores)}.")
    if step.results is not None:
        winners = [names[i] for i in step.results.get("winners", [])]
        lines.append(f"🏁 **The match is over.** Winner: {' and '.join(winners)}.")
    line = prompt_line(board)
    if line:
        lines.append(line)
    return clip("\n".join(lines))


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
    """The channel message's buttons: My hand, the fall choice, Next round."""
    p = board.prompt
    if p.kind in ("over", "closed", "lobby"):
        return None
    t, v = board.table_id, board.version
    view = discord.ui.View(timeout=None)
    if p.kind == "fall" and p.user_id is not None:
        view.add_item(
            FpButton(
                ButtonId(t, v, "fall", "left"),
                label="Fall left",
                emoji="⬅️",
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
        view.add_item(
            FpButton(
                ButtonId(t, v, "fall", "right"),
                label="Fall right",
                emoji="➡️",
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
    view.add_item(FpButton(ButtonId(t, v, "hand"), label="My hand", emoji="🂠", row=0))
    return view


def mentioned_users(board: Board) -> list[int]:
    """Who the message pings: the person who must decide now."""
    p = board.prompt
    return [p.user_id] if p.user_id is not None and p.kind in ("play", "fall") else []


# --- hands and spots ------------------------------------------------------------------------------


def hand_content(hand: Hand, channel_name: str | None = None, guild_name: str | None = None) -> str:
    where = f"<#{hand.channel_id}>"
    if guild_name:
        where += f" on {esc(guild_name)}"
    v = hand.view
    lines = [
        f"🂠 Your hand at table {hand.table_id} in {where}"
        + (f" (round {v.round}/{v.rounds})" if v.rounds > 1 else "")
    ]
    if hand.your_turn:
        lines.append("**It is your turn:** pick a tile.")
    else:
        lines.append("Not your turn yet: these buttons work once it is.")
    return "\n".join(lines)


def tile_label(tile: str) -> str:
    return describe(tile)


def hand_view(
    hand: Hand, *, with_link: bool = True, with_mode: str | None = None
) -> discord.ui.View:
    """One button per tile (the hand's fingerprint in each id), a link back to the table, and
    optionally the button that switches how hands are delivered."""
    view = discord.ui.View(timeout=None)
    for tile in (hand.view.hand or ())[:5]:
        view.add_item(
            FpButton(
                ButtonId(hand.table_id, hand.view.turn, "play", f"{tile}.{hand.digest}"),
                label=tile_label(tile),
                emoji=COLOUR_EMOJI.get(tile[0]),
                style=discord.ButtonStyle.primary
                if hand.your_turn
                else discord.ButtonStyle.secondary,
                row=0,
            )
        )
    if with_link:
        view.add_item(
            discord.ui.Button(
                label="Go to the table",
                style=discord.ButtonStyle.link,
                url=jump_url(hand.guild_id, hand.channel_id),
                row=1,
            )
        )
    if with_mode is not None:
        label = (
            "Always show my hand here (no DMs)" if with_mode == "channel" else "Send my hands by DM"
        )
        view.add_item(FpButton(ButtonId(hand.table_id, 0, "mode", with_mode), label=label, row=1))
    return view


def spot_content(choice: SpotChoice) -> str:
    return (
        f"Where do you play **{describe(choice.tile)}**? "
        "The picture shows the spots labelled "
        + ", ".join(label for label, _ in choice.spots)
        + "."
    )


SPOTS_PER_PAGE = 20
"""Spot buttons on one message (4 rows of 5); the fifth row holds "More spots" if needed."""


def spot_view(choice: SpotChoice, page: int = 0) -> discord.ui.View:
    """One button per spot, labelled like the picture; pages of 20 when there are more."""
    view = discord.ui.View(timeout=None)
    pages = max(1, -(-len(choice.spots) // SPOTS_PER_PAGE))
    page = page % pages
    shown = choice.spots[page * SPOTS_PER_PAGE : (page + 1) * SPOTS_PER_PAGE]
    for i, (label, (r, x)) in enumerate(shown):
        view.add_item(
            FpButton(
                ButtonId(choice.table_id, choice.version, "spot", f"{choice.tile}@{r},{x}"),
                label=label,
                style=discord.ButtonStyle.primary,
                row=i // 5,
            )
        )
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

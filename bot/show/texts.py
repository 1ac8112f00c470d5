"""Every word a player reads in the bot's messages: texts and embeds built from service results.

Pure functions: the table service says what happened and what is pending; these put it into
words within Discord's limits (messages of at most 2000 characters). The refusals' words are in
:mod:`bot.show.words`; the accounts of turns in :mod:`bot.narrate`.

This file is longer than most on purpose: it holds every sentence of the game's messages, so that
wording (and one day a translation) is changed in one place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

import discord

from bot import emoji as em
from bot import names
from bot.narrate import describe_preview, narrate, scores_line
from bot.service import LOBBY_TTL_S, Board, Hand, MatchResult, Prompt, SpotChoice, Step
from data.store import GuildSettings, PlayerPrefs, TableOptions
from engine.tiles import describe
from render.narration import names_and, result_lines

MAX_CONTENT = 2000
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


def table_name(number: int, *, start: bool = False) -> str:
    """How players name a table: by its short number on its server (``table #12``; ``start``:
    capitalised, to begin a sentence), never by its long id, which stays in button ids and logs.

    >>> table_name(12), table_name(3, start=True)
    ('table #12', 'Table #3')
    """
    return f"{'Table' if start else 'table'} #{number}"


def thread_name(number: int) -> str:
    """The name of a game's thread (``number``: the table's number on its server)."""
    return f"Flaming Pyramids · {table_name(number)}"


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
        f"{duration(options.turn_limit_s)} per decision",
        f"up to {options.max_seats} players",
    ]
    if not options.preview:
        parts.append("no previews")
    return " · ".join(parts)


LOBBY_STATUS: Final = {
    "lobby": "Waiting for players",
    "playing": "The game has started",
    "cancelled": "Cancelled by the host",
    "aborted": "Aborted",
    "finished": "Finished",
}
"""The lobby card's status line, by the table's status."""


def lobby_title(board: Board) -> str:
    """The lobby card's heading: the table, its host and its options in one line."""
    t = board.table
    return (
        f"## {em.FIRE} Flaming Pyramids — {table_name(t.number)}\n"
        f"Host: <@{t.host_id}>\n-# {options_line(t.options)}"
    )


def seat_line(i: int, name: str, level: str | None) -> str:
    """One seat of the card: a person's name, or a computer's stored name and its level."""
    if level is None:
        return f"{i + 1}. {esc(name)}"
    return f"{i + 1}. {esc(name)} · {em.COMPUTER} computer, {level}"


def lobby_seats(board: Board) -> str:
    """The seats, in order, with each computer's level."""
    t = board.table
    seats = [seat_line(i, s.name, s.ai) for i, s in enumerate(t.seats)]
    return f"**Seats ({len(t.seats)}/{t.options.max_seats})**\n" + ("\n".join(seats) or "—")


def lobby_status(
    board: Board,
    results: MatchResult | None = None,
    *,
    expired: bool = False,
    game_link: str | None = None,
) -> str:
    """Where the lobby stands: open (until when), started (where to follow the game), the
    podium of a finished match, or closed (cancelled, aborted, expired)."""
    t = board.table
    if expired:
        return (
            f"**This lobby expired:** nobody started it within {duration(LOBBY_TTL_S)}. "
            "The channel is free: open a new table with `/fp new`."
        )
    if t.status == "lobby":
        until = (
            f" It closes {relative(t.deadline)} unless the host starts it." if t.deadline else ""
        )
        return (
            f"**{LOBBY_STATUS['lobby']}.** Join with the button; the host starts with "
            f"2 to 6 players.{until}"
        )
    if t.status == "playing" and game_link:
        where = "in its thread" if t.thread_id is not None else "in the channel"
        return f"**{LOBBY_STATUS['playing']}:** follow it [{where}]({game_link})."
    if t.status == "finished" and results is not None:
        return f"**{LOBBY_STATUS['finished']}.**\n{podium(names_of(board), results)}"
    return f"**{LOBBY_STATUS[t.status]}.**"


def podium(names: Sequence[str], results: MatchResult) -> str:
    """The finished match's standings, one line a player, lowest total first (ties share a
    place): medals for the first three places, the winners named first."""
    scores = list(results.scores)
    if len(scores) != len(names):
        return match_result(names, results)
    rounds = results.rounds or 1
    over = f", over {rounds} rounds" if rounds > 1 else ""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    lines = []
    for i in order:
        place = 1 + sum(1 for s in scores if s < scores[i])
        mark = em.MEDALS[place - 1] if place <= len(em.MEDALS) else f"{place}."
        lines.append(f"{mark} {names[i]} — {scores[i]}")
    winners = [names[i] for i in results.winners if 0 <= i < len(names)]
    return (
        f"Winner: **{' and '.join(winners) or '—'}**. Tiles left in hand and pile{over} "
        "(lower wins):\n" + "\n".join(lines)
    )


HOST_ROW: Final = "**Host** · only the host can use these"
ADD_COMPUTER: Final = "Add a computer player…"
TABLE_FULL: Final = "The table is full"


def computer_option(level: str) -> tuple[str, str]:
    """The add-a-computer menu's option for ``level``: its label and description."""
    said = {
        "easy": "Plays any tile that can go, at random",
        "normal": "Looks one turn ahead",
        "hard": "Searches many possible games before each move",
    }
    return f"{level.capitalize()} computer", said.get(level, f"A {level} computer player")


HOW_TO_PLAY: Final = (
    "**How to play Flaming Pyramids here**\n"
    "1. **Join** the lobby; the host adds computer players if wanted and presses **Start** "
    "(2 to 6 players).\n"
    "2. On your turn you get your hand by direct message (or press **My hand** on the game's "
    "message): pick a tile, then a spot of the pyramid (the picture labels the spots A, B, C…).\n"
    "3. If a tile falls, choose **Fall left** or **Fall right**.\n"
    "4. The first with no tile left in hand and pile wins the round; over several rounds, the "
    "lowest total wins.\n"
    "The rules in short, with pictures, are below (also with `/fp rules`)."
)


def picture_title(board: Board) -> str:
    t = board.table
    v = board.view
    if v is None:
        return table_name(t.number, start=True)
    rounds = f" · round {v.round}/{v.rounds}" if v.rounds > 1 else ""
    # The picture itself says which turn it is ("Turn N" under the headline).
    return f"Flaming Pyramids · {table_name(t.number)}{rounds}"


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


def turn_account(step: Step) -> str:
    """The account of the turn a move belongs to (its placement, then its falls), as every
    message words it; empty for the start of a round."""
    if step.kind != "move":
        return ""
    return narrate(step.turn_events or step.events, names_of(step.board))


def step_content(step: Step) -> str:
    """The one message of a move: what happened, scores if a round ended, who is next."""
    board = step.board
    names = names_of(board)
    lines: list[str] = []
    if step.kind == "start":
        lines.append(f"{em.FIRE} **Flaming Pyramids** — {table_name(board.number)} begins!")
        lines.append(
            "Each turn comes to its player with their hand (by direct message, or here with "
            "**My hand**)."
        )
    elif step.kind == "next_round" and board.view is not None:
        lines.append(f"{em.FIRE} Round {board.view.round} of {board.view.rounds} is dealt.")
    if step.timed_out and step.actor is not None:
        lines.append(
            f"{em.TIMED_OUT} {names[step.actor]}'s time ran out: "
            "a computer player made this move for them."
        )
    story = turn_account(step)
    if story:
        lines.append(story)
    v = board.view
    won = [e for e in step.events if e.kind == "won"]
    if won and v is not None:
        # The round's winner once, as the round's; at the end the match's winners (lowest
        # total) crowned; then one standings table.
        w = won[-1]
        told = result_lines(
            names,
            winner=w.player,
            round_no=v.round,
            rounds=v.rounds,
            round_scores=w.scores,
            totals=v.scores,
        )
        over = f"{em.MATCH_OVER} **The match is over.** " if step.results is not None else ""
        lines.append(f"{over or em.ROUND_WON + ' '}{told[0]}")
        lines.extend(told[1:])
    elif step.results is not None:
        lines.append(f"{em.MATCH_OVER} **The match is over.** {match_result(names, step.results)}")
    line = prompt_line(board)
    if line:
        lines.append(line)
    if step.results is not None:
        # The end pings every player (step_pings), so the mentions come first, to survive
        # clipping.
        players = [f"<@{u}>" for u in step_pings(step)]
        if players:
            said = names_and(range(len(players)), players)
            return clip(f"Thanks for playing, {said}!\n" + "\n".join(lines))
    return clip("\n".join(lines))


def match_result(names: Sequence[str], results: MatchResult) -> str:
    """Who won a finished match and the final standings, explained: each player's tiles left
    in hand and pile when someone went out (over every round of the match), lowest wins."""
    winners = [names[i] for i in results.winners if 0 <= i < len(names)]
    scores = list(results.scores)
    rounds = results.rounds or 1
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
    lines = [f"Flaming Pyramids — {table_name(t.number)} · {options_line(t.options)}"]
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


def not_shown_notice(board: Board) -> str:
    """A direct message to the person who must decide while the table's message is not in its
    channel (Discord refused it; it is being posted again)."""
    return clip(
        f"{em.WARNING} Discord did not take my latest message at {table_name(board.number)} in "
        f"<#{board.channel_id}>, so it is not shown there yet; I keep trying.\n"
        + prompt_line(board)
        + "\nThe buttons below work here too."
    )


def mentioned_users(board: Board) -> list[int]:
    """Who the message pings: the person who must decide now."""
    p = board.prompt
    return [p.user_id] if p.user_id is not None and p.kind in ("play", "fall") else []


def step_pings(step: Step) -> list[int]:
    """Who a move's message pings: the person who must decide now, unless their direct
    messages tell them (a new screen there: one notification per decision) or it is the person
    whose decision this message shows (a fall right after their own placement goes on the
    screen they are looking at). The message that ends the match pings every player once,
    so that a game played over days tells everyone how it ended."""
    board = step.board
    if step.results is not None:
        return list(dict.fromkeys(s.user_id for s in board.table.seats if s.user_id is not None))
    actor = step.actor
    acted = (
        board.table.seats[actor].user_id if actor is not None and actor < len(board.names) else None
    )
    told = {h.user_id for h in step.hands if h.told_by_dm}
    return [u for u in mentioned_users(board) if u not in told and (u != acted or step.timed_out)]


# --- hands and spots ------------------------------------------------------------------------------


OUT_OF_DATE_HAND = "That hand is out of date: here it is now."
MATCH_OVER = f"{em.MATCH_OVER} The match is over."


def hand_title(hand: Hand) -> str:
    """The headline of a player's screen picture."""
    v = hand.view
    rounds = f" · round {v.round}/{v.rounds}" if v.rounds > 1 else ""
    return f"Flaming Pyramids · {table_name(hand.table_number)}{rounds}"


SINCE_SHOWN: Final = 3
"""The others' turns a new screen tells (the newest ones); older ones are counted."""


def hand_content(hand: Hand, guild_name: str | None = None, since: Sequence[str] = ()) -> str:
    """A player's screen: where, what the others did since their last move (``since``, on a
    screen that begins their decision), and what to decide now, by when."""
    where = f"<#{hand.channel_id}>"
    if guild_name:
        where += f" on {esc(guild_name)}"
    v = hand.view
    rounds = f" (round {v.round}/{v.rounds})" if v.rounds > 1 else ""
    ends = f" Your turn ends {relative(hand.deadline)}." if hand.deadline else ""
    if hand.decision == "play":
        lines = [f"{em.FIRE} **Your turn** at {table_name(hand.table_number)} in {where}{rounds}"]
    elif hand.decision == "fall":
        lines = [
            f"{em.FIRE} **Your decision** at {table_name(hand.table_number)} in {where}{rounds}"
        ]
    else:
        lines = [f"{em.HAND} Your hand at {table_name(hand.table_number)} in {where}{rounds}"]
    if since:
        earlier = len(since) - SINCE_SHOWN
        older = f" ({earlier} earlier not shown)" if earlier > 0 else ""
        lines.append(f"Since your last move{older}:")
        lines.extend(f"> {line}" for line in since[-SINCE_SHOWN:])
    if hand.decision == "play":
        lines.append(f"Pick a tile below, then its spot.{ends}")
        if hand.fitting:
            lines.append("Tiles marked *fits* go somewhere without mayhem.")
    elif hand.decision == "fall" and v.pending is not None and v.pending.tile:
        lines.append(
            f"**Where does {describe(v.pending.tile)} fall?** The arrows show where each "
            f"choice lands: **Fall left** or **Fall right**.{ends}"
        )
    else:
        lines.append("Not your turn yet: these buttons work once it is.")
    return clip("\n".join(lines))


def notify_choices(prefs: PlayerPrefs) -> str:
    """What ``/fp notify`` answers: the player's choices as they now stand."""
    turn = "yes" if prefs.dm_on_turn else "no"
    reminders = "yes" if prefs.reminders else "no"
    return (
        f"Direct message when your turn begins: **{turn}**. Reminders: **{reminders}**.\n"
        "Change them with `/fp notify turn:` and `/fp notify reminders:`."
    )


def tile_label(tile: str) -> str:
    return describe(tile)


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


def dms_closed(user_id: int) -> str:
    """The channel is told once that a player's direct messages are closed, and how to open
    them (nothing more)."""
    return (
        f"<@{user_id}>, I cannot send you direct messages, so I will mention you here on your "
        "turn; see your hand with the **My hand** button on the table's latest message, or "
        "`/fp hand`. For DMs, turn on **Allow direct messages from server members** in this "
        "server's Privacy Settings, then use `/fp notify` or **Send my hands by DM**."
    )


def hand_closed(board: Board, results: MatchResult) -> str:
    """What a player's hand message says once the match is over."""
    return f"{em.MATCH_OVER} The match at {table_name(board.number)} is over. " + (
        match_result(names_of(board), results)
    )


def _ends(board: Board) -> str:
    deadline = board.prompt.deadline
    return f"<t:{int(deadline)}:R>" if deadline else "soon"


def reminder_channel(board: Board, user_id: int) -> str:
    """The channel's reminder to the person whose decision is waiting."""
    return (
        f"{em.REMINDER} <@{user_id}>, your decision at {table_name(board.number)} is waiting; "
        f"a computer player will make it for you {_ends(board)}."
    )


def reminder_dm(board: Board) -> str:
    """The reminder by direct message."""
    return (
        f"{em.REMINDER} Your turn at {table_name(board.number)} in <#{board.channel_id}> "
        f"ends {_ends(board)}."
    )


def left_game(board: Board, name: str, closed: bool) -> str:
    """A player left a running game (``/fp leave``)."""
    if closed:
        return (
            f"{em.LEFT} {esc(name)} left; nobody is left at {table_name(board.number)}, "
            "so it is closed."
        )
    return (
        f"{em.LEFT} {esc(name)} left the game; a computer player takes the seat.\n"
        + prompt_line(board)
    )


def aborted(board: Board, name: str) -> str:
    """The channel's notice of ``/fp abort``."""
    return f"{em.ABORTED} {table_name(board.number, start=True)} was aborted by {esc(name)}."


def restarted(board: Board) -> str:
    """A move the last run could not post, shown after a restart."""
    return f"{em.RESTARTED} I was restarted; here is where the game stands.\n" + board_content(
        board
    )


def turn_done(account: str) -> str:
    """What a player's direct-message screen says once their turn is done, by their own last
    click on it: the turn's account, as the table's channel tells it."""
    return clip(f"{em.PLAYED} {account}" if account else f"{em.PLAYED} Your turn is done.")


SCREEN_RETIRED: Final = f"{em.PLAYED} This turn is over; your newest screen is below."
"""What a player's earlier direct-message screen says when a new one replaces it before
their own click closed it (the clock played for them, say)."""


def played(tile: str) -> str:
    """The note on a player's screen after their spot click."""
    return f"{em.PLAYED} You played {tile_label(tile)}."


def fell(direction: str) -> str:
    """The note on a player's private screen after their fall choice."""
    return f"{em.PLAYED} The tile falls {direction}."


CLOSED: Final = "This table is closed."
"""What a private screen says once its table was closed before the end of its match."""


# --- answers to commands -------------------------------------------------------------------------

MODE_CHOSEN: Final = {
    "dm": "From now on your hands come by direct message.",
    "channel": "From now on I will not DM your hands: use **My hand** or `/fp hand`.",
}
"""The answer to a choice of how hands are delivered."""
ABORT_DONE: Final = "The table is closed."
"""The private answer to ``/fp abort``."""
SETTINGS_ADMINS_ONLY: Final = (
    "Only members who can manage this server can change its Flaming Pyramids settings."
)


def cannot_host(missing: Sequence[str]) -> str:
    """``/fp new`` where the bot lacks permissions (named as Discord names them)."""
    return (
        "I cannot host a game here: I am missing these permissions in this channel: "
        + ", ".join(missing)
        + ". Ask a server admin to grant them, then try again."
    )


def channel_busy(link: str) -> str:
    """``/fp new`` in a channel that has a table (``link`` leads to it)."""
    return (
        f"This channel already has a table: {link}. Join it there, or open a new "
        "table in another channel."
    )


def lobby_not_posted(err: BaseException) -> str:
    """``/fp new`` whose lobby card Discord did not take (so no table was opened)."""
    if isinstance(err, discord.Forbidden):
        return (
            "I cannot post in this channel ("
            + (err.text or "missing permissions")
            + "). Ask a server admin to let me send messages, attach files and "
            "embed links here."
        )
    return (
        "Discord did not take the table's message just now, so no table was "
        "opened. Please try /fp new again in a moment."
    )


def table_open(number: int, url: str) -> str:
    """The host's private answer to ``/fp new`` (``number``: the table's number on its server,
    ``url``: the lobby card)."""
    return (
        f"{table_name(number, start=True)} is open: {url}\n"
        "Friends join with the **Join** button; you press **Start** when everyone is "
        "seated."
    )


def you_left(left_game: bool) -> str:
    """The private answer to ``/fp leave``."""
    if left_game:
        return "You left the game; a computer player took your seat."
    return "You left the table."


def rematch_open(url: str) -> str:
    """The private answer to Rematch (``url``: the new lobby)."""
    return f"{em.FIRE} Rematch: a new table is open, the others join it there: " + url


def settings_now(current: GuildSettings) -> str:
    """``/fp settings``: the server's settings as they now stand."""
    return (
        "Settings for new tables on this server: "
        f"{duration(current.turn_limit_s)} per decision, reminder "
        + (f"{duration(current.reminder_s)} before the end" if current.reminder_s else "off")
        + f", curse {'on' if current.defaults.curse else 'off'}, fire die "
        + f"{'on' if current.defaults.fire_die else 'off'}."
    )

"""Every word a player reads in the bot's messages: texts and embeds built from service results.

Pure functions: the table service says what happened and what is pending; these put it into
words within Discord's limits (messages of at most 2000 characters). The refusals' words are in
:mod:`bot.show.words`; the accounts of turns in :mod:`bot.narrate`.

This file is longer than most on purpose: it holds every sentence of the game's messages, so that
wording is changed in one place. Every function takes the reader's language (``lang``, always
given: see :mod:`bot.languages`): each sentence is one whole message of the catalogs
(``i18n/locales``, see ``docs/translating.md``) with named placeholders. A constant marked
with ``N_`` is the English message; whoever shows it translates it (``lang.gettext(CLOSED)``).
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
from i18n import ENGLISH, N_, Language
from render.narration import names_and, result_lines, tile_in_text, tile_name

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


def table_name(number: int, *, start: bool = False, lang: Language) -> str:
    """How players name a table: by its short number on its server (``table #12``; ``start``:
    capitalised, to begin a sentence), never by its long id, which stays in button ids and logs.

    >>> from i18n import ENGLISH
    >>> table_name(12, lang=ENGLISH), table_name(3, start=True, lang=ENGLISH)
    ('table #12', 'Table #3')
    """
    if start:
        return lang.gettext("Table #{number}").format(number=number)
    # TRANSLATORS: a table named inside a sentence ("Your turn at table #3").
    return lang.gettext("table #{number}").format(number=number)


def thread_name(number: int, lang: Language) -> str:
    """The name of a game's thread (``number``: the table's number on its server)."""
    # TRANSLATORS: the name of a game's thread; at most 100 characters.
    return lang.gettext("Flaming Pyramids · {table}").format(table=table_name(number, lang=lang))


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel (or one of its messages)."""
    url = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{url}/{message_id}" if message_id else url


def duration(seconds: float, lang: Language) -> str:
    """``86400`` -> ``"24 hours"``; ``300`` -> ``"5 minutes"``."""
    s = int(seconds)
    if s % 86400 == 0 and s >= 2 * 86400:
        d = s // 86400
        return lang.ngettext("{count} day", "{count} days", d).format(count=lang.format_decimal(d))
    if s % 3600 == 0:
        h = s // 3600
        return lang.ngettext("{count} hour", "{count} hours", h).format(
            count=lang.format_decimal(h)
        )
    m = max(1, s // 60)
    return lang.ngettext("{count} minute", "{count} minutes", m).format(
        count=lang.format_decimal(m)
    )


def relative(when: float) -> str:
    """A moment as Discord shows it relative to now, in each reader's language ("in 23 hours")."""
    return f"<t:{int(when)}:R>"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the lobby ------------------------------------------------------------------------------------


def curse_word(on: bool, lang: Language) -> str:
    return lang.gettext("curse on") if on else lang.gettext("curse off")


def fire_die_word(on: bool, lang: Language) -> str:
    return lang.gettext("fire die on") if on else lang.gettext("fire die off")


def options_line(options: TableOptions, lang: Language) -> str:
    parts = [
        curse_word(options.curse, lang),
        fire_die_word(options.fire_die, lang),
        lang.ngettext("{count} round", "{count} rounds", options.rounds).format(
            count=lang.format_decimal(options.rounds)
        ),
        lang.gettext("{duration} per decision").format(
            duration=duration(options.turn_limit_s, lang)
        ),
        lang.gettext("up to {count} players").format(count=lang.format_decimal(options.max_seats)),
    ]
    if not options.preview:
        parts.append(lang.gettext("no previews"))
    return " · ".join(parts)


LOBBY_STATUS: Final = {
    "lobby": N_("Waiting for players"),
    "playing": N_("The game has started"),
    "cancelled": N_("Cancelled by the host"),
    "aborted": N_("Aborted"),
    "finished": N_("Finished"),
}
"""The lobby card's status line, by the table's status (English; translated where shown)."""


def lobby_title(board: Board, lang: Language) -> str:
    """The lobby card's heading: the table, its host and its options in one line."""
    t = board.table
    host = lang.gettext("Host: {host}").format(host=f"<@{t.host_id}>")
    return (
        f"## {em.FIRE} Flaming Pyramids — {table_name(t.number, lang=lang)}\n"
        f"{host}\n-# {options_line(t.options, lang)}"
    )


def level_word(level: str, lang: Language) -> str:
    """A computer player's level, as a word."""
    said = {
        "easy": lang.pgettext("computer level", "easy"),
        "normal": lang.pgettext("computer level", "normal"),
        "hard": lang.pgettext("computer level", "hard"),
    }
    return said.get(level, level)


def seat_line(i: int, name: str, level: str | None, lang: Language) -> str:
    """One seat of the card: a person's name, or a computer's stored name and its level."""
    if level is None:
        return f"{i + 1}. {esc(name)}"
    computer = lang.gettext("computer, {level}").format(level=level_word(level, lang))
    return f"{i + 1}. {esc(name)} · {em.COMPUTER} {computer}"


def lobby_seats(board: Board, lang: Language) -> str:
    """The seats, in order, with each computer's level."""
    t = board.table
    seats = [seat_line(i, s.name, s.ai, lang) for i, s in enumerate(t.seats)]
    heading = lang.gettext("**Seats ({seated}/{seats})**").format(
        seated=len(t.seats), seats=t.options.max_seats
    )
    return heading + "\n" + ("\n".join(seats) or "—")


def lobby_status(
    board: Board,
    results: MatchResult | None = None,
    *,
    expired: bool = False,
    game_link: str | None = None,
    lang: Language,
) -> str:
    """Where the lobby stands: open (until when), started (where to follow the game), the
    podium of a finished match, or closed (cancelled, aborted, expired)."""
    t = board.table
    if expired:
        return lang.gettext(
            "**This lobby expired:** nobody started it within {duration}. "
            "The channel is free: open a new table with `/fp new`."
        ).format(duration=duration(LOBBY_TTL_S, lang))
    if t.status == "lobby":
        if t.deadline:
            return lang.gettext(
                "**Waiting for players.** Join with the button; the host starts with "
                "2 to 6 players. It closes {when} unless the host starts it."
            ).format(when=relative(t.deadline))
        return lang.gettext(
            "**Waiting for players.** Join with the button; the host starts with 2 to 6 players."
        )
    if t.status == "playing" and game_link:
        if t.thread_id is not None:
            return lang.gettext(
                "**The game has started:** follow it [in its thread]({link})."
            ).format(link=game_link)
        return lang.gettext("**The game has started:** follow it [in the channel]({link}).").format(
            link=game_link
        )
    if t.status == "finished" and results is not None:
        finished = lang.gettext(LOBBY_STATUS["finished"])
        return f"**{finished}.**\n{podium(names_of(board), results, lang)}"
    return f"**{lang.gettext(LOBBY_STATUS[t.status])}.**"


def winners_sentence(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """``Winner: **Léa**.``: who won a finished match."""
    won = [i for i in results.winners if 0 <= i < len(names)]
    if not won:
        return lang.gettext("Winner: **—**.")
    return lang.ngettext("Winner: **{players}**.", "Winners: **{players}**.", len(won)).format(
        players=names_and(won, names, lang)
    )


def podium(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """The finished match's standings, one line a player, lowest total first (ties share a
    place): medals for the first three places, the winners named first."""
    scores = list(results.scores)
    if len(scores) != len(names):
        return match_result(names, results, lang)
    rounds = results.rounds or 1
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    lines = []
    for i in order:
        place = 1 + sum(1 for s in scores if s < scores[i])
        mark = em.MEDALS[place - 1] if place <= len(em.MEDALS) else f"{place}."
        lines.append(f"{mark} {names[i]} — {lang.format_decimal(scores[i])}")
    if rounds > 1:
        explained = lang.gettext(
            "Tiles left in hand and pile, over {rounds} rounds (lower wins):"
        ).format(rounds=lang.format_decimal(rounds))
    else:
        explained = lang.gettext("Tiles left in hand and pile (lower wins):")
    return f"{winners_sentence(names, results, lang)} {explained}\n" + "\n".join(lines)


HOST_ROW: Final = N_("**Host** · only the host can use these")
ADD_COMPUTER: Final = N_("Add a computer player…")
TABLE_FULL: Final = N_("The table is full")


def computer_option(level: str, lang: Language) -> tuple[str, str]:
    """The add-a-computer menu's option for ``level``: its label and description."""
    labels = {
        "easy": lang.gettext("Easy computer"),
        "normal": lang.gettext("Normal computer"),
        "hard": lang.gettext("Hard computer"),
    }
    said = {
        "easy": lang.gettext("Plays any tile that can go, at random"),
        "normal": lang.gettext("Looks one turn ahead"),
        "hard": lang.gettext("Searches many possible games before each move"),
    }
    label = labels.get(level) or lang.gettext("{level} computer").format(level=level)
    return label, said.get(level) or lang.gettext("A {level} computer player").format(level=level)


HOW_TO_PLAY: Final = N_(
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


def game_title(number: int, round_no: int, rounds: int, lang: Language) -> str:
    """The headline of a picture: the game, its table, the round of several."""
    table = table_name(number, lang=lang)
    if rounds > 1:
        return lang.gettext("Flaming Pyramids · {table} · round {round}/{rounds}").format(
            table=table, round=round_no, rounds=rounds
        )
    return lang.gettext("Flaming Pyramids · {table}").format(table=table)


def picture_title(board: Board, lang: Language) -> str:
    t = board.table
    v = board.view
    if v is None:
        return table_name(t.number, start=True, lang=lang)
    # The picture itself says which turn it is ("Turn N" under the headline).
    return game_title(t.number, v.round, v.rounds, lang)


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else f"**{name}**"


def prompt_line(board: Board, lang: Language) -> str:
    """Who decides what now, with a deadline."""
    p: Prompt = board.prompt
    names = names_of(board)
    timed = bool(p.deadline and p.user_id)
    when = relative(p.deadline) if p.deadline else ""
    if p.kind == "play" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        if p.user_id is None:
            said = lang.gettext("{player} is thinking…").format(player=who)
        elif timed:
            said = lang.gettext(
                "{player}, your turn: pick a tile in your hand (time ends {when})."
            ).format(player=who, when=when)
        else:
            said = lang.gettext("{player}, your turn: pick a tile in your hand.").format(player=who)
        return f"{em.TURN} {said}"
    if p.kind == "fall" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        tile = tile_in_text(p.tile, lang) if p.tile else lang.gettext("the tile")
        if p.user_id is None:
            said = lang.gettext("{player} decides where {tile} falls…").format(
                player=who, tile=tile
            )
        elif timed:
            said = lang.gettext(
                "{player}, where does {tile} fall? Choose **Fall left** or **Fall right** "
                "(time ends {when})."
            ).format(player=who, tile=tile, when=when)
        else:
            said = lang.gettext(
                "{player}, where does {tile} fall? Choose **Fall left** or **Fall right**."
            ).format(player=who, tile=tile)
        return f"{em.TURN} {said}"
    if p.kind == "die":
        return f"{em.FIRE_DIE} " + lang.gettext("The fire die is being rolled…")
    if p.kind == "next_round" and board.view is not None:
        return lang.gettext("The next round starts in a moment, or at once with **Next round**.")
    return ""


def turn_account(step: Step, lang: Language) -> str:
    """The account of the turn a move belongs to (its placement, then its falls), as every
    message words it; empty for the start of a round."""
    if step.kind != "move":
        return ""
    return narrate(step.turn_events or step.events, names_of(step.board), lang)


def match_over(lang: Language) -> str:
    """The note that the match is over."""
    return f"{em.MATCH_OVER} " + lang.gettext("The match is over.")


def step_content(step: Step, lang: Language) -> str:
    """The one message of a move: what happened, scores if a round ended, who is next."""
    board = step.board
    names = names_of(board)
    lines: list[str] = []
    if step.kind == "start":
        lines.append(
            f"{em.FIRE} "
            + lang.gettext("**Flaming Pyramids** — {table} begins!").format(
                table=table_name(board.number, lang=lang)
            )
        )
        lines.append(
            lang.gettext(
                "Each turn comes to its player with their hand (by direct message, or here with "
                "**My hand**)."
            )
        )
    elif step.kind == "next_round" and board.view is not None:
        lines.append(
            f"{em.FIRE} "
            + lang.gettext("Round {round} of {rounds} is dealt.").format(
                round=board.view.round, rounds=board.view.rounds
            )
        )
    if step.timed_out and step.actor is not None:
        lines.append(
            f"{em.TIMED_OUT} "
            + lang.gettext(
                "{player}'s time ran out: a computer player made this move for them."
            ).format(player=names[step.actor])
        )
    story = turn_account(step, lang)
    if story:
        lines.append(story)
    v = board.view
    won = [e for e in step.events if e.kind == "won"]
    over = f"{em.MATCH_OVER} " + lang.gettext("**The match is over.**")
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
            lang=lang,
        )
        lead = f"{over} " if step.results is not None else f"{em.ROUND_WON} "
        lines.append(f"{lead}{told[0]}")
        lines.extend(told[1:])
    elif step.results is not None:
        lines.append(f"{over} {match_result(names, step.results, lang)}")
    line = prompt_line(board, lang)
    if line:
        lines.append(line)
    if step.results is not None:
        # The end pings every player (step_pings), so the mentions come first, to survive
        # clipping.
        players = [f"<@{u}>" for u in step_pings(step)]
        if players:
            said = names_and(range(len(players)), players, lang)
            thanks = lang.gettext("Thanks for playing, {players}!").format(players=said)
            return clip(f"{thanks}\n" + "\n".join(lines))
    return clip("\n".join(lines))


def match_result(names: Sequence[str], results: MatchResult, lang: Language) -> str:
    """Who won a finished match and the final standings, explained: each player's tiles left
    in hand and pile when someone went out (over every round of the match), lowest wins."""
    scores = list(results.scores)
    rounds = results.rounds or 1
    text = winners_sentence(names, results, lang)
    if len(scores) == len(names):
        line = scores_line(names, scores, lang)
        if rounds > 1:
            text += " " + lang.gettext(
                "Final standings, tiles left in hand and pile, over {rounds} rounds "
                "(lower wins): {scores}."
            ).format(rounds=lang.format_decimal(rounds), scores=line)
        else:
            text += " " + lang.gettext(
                "Final standings, tiles left in hand and pile (lower wins): {scores}."
            ).format(scores=line)
    return text


def board_content(board: Board, lang: Language) -> str:
    """``/fp status``: the table now."""
    t = board.table
    lines = [
        f"Flaming Pyramids — {table_name(t.number, lang=lang)} · {options_line(t.options, lang)}"
    ]
    v = board.view
    if v is not None:
        names = names_of(board)
        sizes = lang.pgettext("list", ", ").join(
            f"{names[i]} {v.hand_sizes[i]}+{v.pile_sizes[i]}" for i in range(v.players)
        )
        lines.append(lang.gettext("Tiles in hand + pile: {sizes}").format(sizes=sizes))
        if v.rounds > 1:
            lines.append(
                lang.gettext("Round {round} of {rounds}; totals: {scores}").format(
                    round=v.round, rounds=v.rounds, scores=scores_line(names, v.scores, lang)
                )
            )
    line = prompt_line(board, lang)
    if line:
        lines.append(line)
    return clip("\n".join(lines))


def not_shown_notice(board: Board, lang: Language) -> str:
    """A direct message to the person who must decide while the table's message is not in its
    channel (Discord refused it; it is being posted again)."""
    said = lang.gettext(
        "Discord did not take my latest message at {table} in {channel}, so it is not shown "
        "there yet; I keep trying."
    ).format(table=table_name(board.number, lang=lang), channel=f"<#{board.channel_id}>")
    return clip(
        f"{em.WARNING} {said}\n"
        + prompt_line(board, lang)
        + "\n"
        + lang.gettext("The buttons below work here too.")
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


OUT_OF_DATE_HAND: Final = N_("That hand is out of date: here it is now.")
MATCH_OVER: Final = match_over(ENGLISH)
"""The note that the match is over, in English: a key chosen before the reader is known, worded
in their language by :func:`translated` (:func:`match_over` in a language)."""


def hand_title(hand: Hand, lang: Language) -> str:
    """The headline of a player's screen picture."""
    v = hand.view
    return game_title(hand.table_number, v.round, v.rounds, lang)


SINCE_SHOWN: Final = 3
"""The others' turns a new screen tells (the newest ones); older ones are counted."""


def hand_content(
    hand: Hand,
    guild_name: str | None = None,
    since: Sequence[str] = (),
    *,
    lang: Language,
) -> str:
    """A player's screen: where, what the others did since their last move (``since``, on a
    screen that begins their decision), and what to decide now, by when."""
    where = f"<#{hand.channel_id}>"
    if guild_name:
        # TRANSLATORS: where a table is: a channel on a Discord server.
        where = lang.gettext("{channel} on {server}").format(channel=where, server=esc(guild_name))
    v = hand.view
    table = table_name(hand.table_number, lang=lang)
    # Each template is formatted before its emoji is glued on: formatting a French template
    # itself is what elides its "de" (i18n.FrenchTemplate).
    if hand.decision == "play":
        mark, said = em.FIRE, lang.gettext("**Your turn** at {table} in {where}")
    elif hand.decision == "fall":
        mark, said = em.FIRE, lang.gettext("**Your decision** at {table} in {where}")
    else:
        mark, said = em.HAND, lang.gettext("Your hand at {table} in {where}")
    head = f"{mark} " + said.format(table=table, where=where)
    if v.rounds > 1:
        head += " " + lang.gettext("(round {round}/{rounds})").format(
            round=v.round, rounds=v.rounds
        )
    lines = [head]
    if since:
        earlier = len(since) - SINCE_SHOWN
        if earlier > 0:
            lines.append(
                lang.ngettext(
                    "Since your last move ({count} earlier not shown):",
                    "Since your last move ({count} earlier not shown):",
                    earlier,
                ).format(count=lang.format_decimal(earlier))
            )
        else:
            lines.append(lang.gettext("Since your last move:"))
        lines.extend(f"> {line}" for line in since[-SINCE_SHOWN:])
    ends = (
        " " + lang.gettext("Your turn ends {when}.").format(when=relative(hand.deadline))
        if hand.deadline
        else ""
    )
    if hand.decision == "play":
        lines.append(lang.gettext("Pick a tile below, then its spot.") + ends)
        if hand.fitting:
            lines.append(lang.gettext("Tiles marked *fits* go somewhere without mayhem."))
    elif hand.decision == "fall" and v.pending is not None and v.pending.tile:
        lines.append(
            lang.gettext(
                "**Where does {tile} fall?** The arrows show where each choice lands: "
                "**Fall left** or **Fall right**."
            ).format(tile=tile_in_text(v.pending.tile, lang))
            + ends
        )
    else:
        lines.append(lang.gettext("Not your turn yet: these buttons work once it is."))
    return clip("\n".join(lines))


def yes_no(value: bool, lang: Language) -> str:
    return lang.pgettext("answer", "yes") if value else lang.pgettext("answer", "no")


def notify_choices(prefs: PlayerPrefs, lang: Language) -> str:
    """What ``/fp notify`` answers: the player's choices as they now stand."""
    return lang.gettext(
        "Direct message when your turn begins: **{turn}**. Reminders: **{reminders}**.\n"
        "Change them with `/fp notify turn:` and `/fp notify reminders:`."
    ).format(turn=yes_no(prefs.dm_on_turn, lang), reminders=yes_no(prefs.reminders, lang))


def tile_label(tile: str, lang: Language) -> str:
    return tile_name(tile, lang)


def spot_previews(choice: SpotChoice, lang: Language) -> list[str]:
    """Per spot, what playing there would do ("fits", "collapse: 2 tiles to your pile"...);
    empty when the table shows no previews."""
    if choice.previews is None:
        return []
    names = [esc(n) for n in choice.names]
    return [describe_preview(p, names, lang=lang) for p in choice.previews]


def spot_content(choice: SpotChoice, lang: Language) -> str:
    """The spot step: which tile, the spots (with what each would do), the turn's end."""
    lines = [
        lang.gettext("Where do you play **{tile}**? The picture shows the spots.").format(
            tile=tile_in_text(choice.tile, lang)
        )
    ]
    said = spot_previews(choice, lang)
    if said:
        lines.extend(
            f"**{label}** · {text}" for (label, _), text in zip(choice.spots, said, strict=True)
        )
    else:
        lines.append(
            lang.gettext("Spots: {spots}.").format(
                spots=lang.pgettext("list", ", ").join(label for label, _ in choice.spots)
            )
        )
    ends = (
        " " + lang.gettext("Your turn ends {when}.").format(when=relative(choice.deadline))
        if choice.deadline
        else ""
    )
    lines.append(
        lang.gettext("Press a spot to play there, or **Back** to pick another tile.") + ends
    )
    return clip("\n".join(lines))


def dms_closed(user_id: int, lang: Language) -> str:
    """The channel is told once that a player's direct messages are closed, and how to open
    them (nothing more)."""
    return lang.gettext(
        "{player}, I cannot send you direct messages, so I will mention you here on your "
        "turn; see your hand with the **My hand** button on the table's latest message, or "
        "`/fp hand`. For DMs, turn on **Allow direct messages from server members** in this "
        "server's Privacy Settings, then use `/fp notify` or **Send my hands by DM**."
    ).format(player=f"<@{user_id}>")


def hand_closed(board: Board, results: MatchResult, lang: Language) -> str:
    """What a player's hand message says once the match is over."""
    over = lang.gettext("The match at {table} is over.").format(
        table=table_name(board.number, lang=lang)
    )
    return f"{em.MATCH_OVER} {over} " + match_result(names_of(board), results, lang)


def reminder_channel(board: Board, user_id: int, lang: Language) -> str:
    """The channel's reminder to the person whose decision is waiting."""
    deadline = board.prompt.deadline
    values = {"player": f"<@{user_id}>", "table": table_name(board.number, lang=lang)}
    if deadline:
        said = lang.gettext(
            "{player}, your decision at {table} is waiting; a computer player will make it "
            "for you {when}."
        ).format(when=relative(deadline), **values)
    else:
        said = lang.gettext(
            "{player}, your decision at {table} is waiting; a computer player will make it "
            "for you soon."
        ).format(**values)
    return f"{em.REMINDER} {said}"


def reminder_dm(board: Board, lang: Language) -> str:
    """The reminder by direct message."""
    deadline = board.prompt.deadline
    values = {"table": table_name(board.number, lang=lang), "channel": f"<#{board.channel_id}>"}
    if deadline:
        said = lang.gettext("Your turn at {table} in {channel} ends {when}.").format(
            when=relative(deadline), **values
        )
    else:
        said = lang.gettext("Your turn at {table} in {channel} ends soon.").format(**values)
    return f"{em.REMINDER} {said}"


def left_game(board: Board, name: str, closed: bool, lang: Language) -> str:
    """A player left a running game (``/fp leave``)."""
    if closed:
        return f"{em.LEFT} " + lang.gettext(
            "{player} left; nobody is left at {table}, so it is closed."
        ).format(player=esc(name), table=table_name(board.number, lang=lang))
    return (
        f"{em.LEFT} "
        + lang.gettext("{player} left the game; a computer player takes the seat.").format(
            player=esc(name)
        )
        + "\n"
        + prompt_line(board, lang)
    )


def aborted(board: Board, name: str, lang: Language) -> str:
    """The channel's notice of ``/fp abort``."""
    return f"{em.ABORTED} " + lang.gettext("Table #{number} was aborted by {player}.").format(
        number=board.number, player=esc(name)
    )


def restarted(board: Board, lang: Language) -> str:
    """A move the last run could not post, shown after a restart."""
    said = lang.gettext("I was restarted; here is where the game stands.")
    return f"{em.RESTARTED} {said}\n" + board_content(board, lang)


def turn_done(account: str, lang: Language) -> str:
    """What a player's direct-message screen says once their turn is done, by their own last
    click on it: the turn's account, as the table's channel tells it."""
    return clip(f"{em.PLAYED} {account or lang.gettext('Your turn is done.')}")


def screen_retired(lang: Language) -> str:
    """What a player's earlier direct-message screen says when a new one replaces it before
    their own click closed it (the clock played for them, say)."""
    return f"{em.PLAYED} " + lang.gettext("This turn is over; your newest screen is below.")


SCREEN_RETIRED: Final = screen_retired(ENGLISH)
""":func:`screen_retired` in English: a key, worded in the reader's language by
:func:`translated`."""


def played(tile: str, lang: Language) -> str:
    """The note on a player's screen after their spot click."""
    return f"{em.PLAYED} " + lang.gettext("You played {tile}.").format(
        tile=tile_in_text(tile, lang)
    )


def fell(direction: str, lang: Language, tile: str | None = None) -> str:
    """The note on a player's private screen after their fall choice: which tile fell, when
    known (the screen may go on with the fall of another tile), and where."""
    if tile is not None:
        named = tile_in_text(tile, lang)
        named = named[:1].upper() + named[1:]
        if direction == "left":
            return f"{em.PLAYED} " + lang.gettext("{tile} falls left.").format(tile=named)
        if direction == "right":
            return f"{em.PLAYED} " + lang.gettext("{tile} falls right.").format(tile=named)
    if direction == "left":
        return f"{em.PLAYED} " + lang.gettext("The tile falls left.")
    if direction == "right":
        return f"{em.PLAYED} " + lang.gettext("The tile falls right.")
    return f"{em.PLAYED} " + lang.gettext("The tile falls.")


CLOSED: Final = N_("This table is closed.")
"""What a private screen says once its table was closed before the end of its match."""
SAVED_RECORDS_AWAY: Final = N_(
    "Your move is recorded, but the game's records are unreachable for a moment: what is not "
    "shown yet will be as soon as they are back."
)
"""The note on a player's screen closed by their move while the database went away: the move
was saved before, and what waits for the database (the next players' screens) is sent once it
answers again."""


def translated(note: str, lang: Language) -> str:
    """One of this module's English notes (:data:`CLOSED`, :data:`MATCH_OVER`, ...) in
    ``lang``: for the callers that choose a note before the reader's language is known."""
    if note == MATCH_OVER:
        return match_over(lang)
    if note == SCREEN_RETIRED:
        return screen_retired(lang)
    return lang.gettext(note)


# --- answers to commands -------------------------------------------------------------------------

MODE_CHOSEN: Final = {
    "dm": N_("From now on your hands come by direct message."),
    "channel": N_("From now on I will not DM your hands: use **My hand** or `/fp hand`."),
}
"""The answer to a choice of how hands are delivered (English; translated where shown)."""
ABORT_DONE: Final = N_("The table is closed.")
"""The private answer to ``/fp abort``."""
SETTINGS_ADMINS_ONLY: Final = N_(
    "Only members who can manage this server can change its Flaming Pyramids settings."
)


def cannot_host(missing: Sequence[str], lang: Language) -> str:
    """``/fp new`` where the bot lacks permissions (named as Discord names them)."""
    return lang.gettext(
        "I cannot host a game here: I am missing these permissions in this channel: "
        "{permissions}. Ask a server admin to grant them, then try again."
    ).format(permissions=", ".join(missing))


def channel_busy(link: str, lang: Language) -> str:
    """``/fp new`` in a channel that has a table (``link`` leads to it)."""
    return lang.gettext(
        "This channel already has a table: {link}. Join it there, or open a new "
        "table in another channel."
    ).format(link=link)


def lobby_not_posted(err: BaseException, lang: Language) -> str:
    """``/fp new`` whose lobby card Discord did not take (so no table was opened)."""
    if isinstance(err, discord.Forbidden):
        return lang.gettext(
            "I cannot post in this channel ({why}). Ask a server admin to let me send messages, "
            "attach files and embed links here."
        ).format(why=err.text or lang.gettext("missing permissions"))
    return lang.gettext(
        "Discord did not take the table's message just now, so no table was "
        "opened. Please try /fp new again in a moment."
    )


def table_open(number: int, url: str, lang: Language) -> str:
    """The host's private answer to ``/fp new`` (``number``: the table's number on its server,
    ``url``: the lobby card)."""
    return lang.gettext(
        "Table #{number} is open: {url}\n"
        "Friends join with the **Join** button; you press **Start** when everyone is "
        "seated."
    ).format(number=number, url=url)


def you_left(left_game: bool, lang: Language) -> str:
    """The private answer to ``/fp leave``."""
    if left_game:
        return lang.gettext("You left the game; a computer player took your seat.")
    return lang.gettext("You left the table.")


def rematch_open(url: str, lang: Language) -> str:
    """The private answer to Rematch (``url``: the new lobby)."""
    return f"{em.FIRE} " + lang.gettext(
        "Rematch: a new table is open, the others join it there: {url}"
    ).format(url=url)


def settings_now(current: GuildSettings, lang: Language) -> str:
    """``/fp-settings``: the server's settings as they now stand."""
    if current.reminder_s:
        reminder = lang.gettext("reminder {duration} before the end").format(
            duration=duration(current.reminder_s, lang)
        )
    else:
        reminder = lang.gettext("reminder off")
    return lang.gettext(
        "Settings for new tables on this server: {duration} per decision, {reminder}, "
        "{curse}, {fire_die}."
    ).format(
        duration=duration(current.turn_limit_s, lang),
        reminder=reminder,
        curse=curse_word(bool(current.defaults.curse), lang),
        fire_die=fire_die_word(bool(current.defaults.fire_die), lang),
    )

"""The words of the table's channel: a move's one message (what happened, scores, who decides
next), ``/fp status``, the channel's notices (a reminder, a player who left, an abort, a restart)
and whom a message pings. The common pieces are in :mod:`bot.show.texts`."""

from __future__ import annotations

import re
from typing import Final

from bot import emoji as em
from bot.narrate import capped, scores_line, turn_lines
from bot.service import Board, Prompt, Step
from bot.show import breaktexts
from bot.show.endtexts import match_result
from bot.show.texts import (
    clip,
    esc,
    level_word,
    mention,
    names_of,
    options_line,
    relative,
    table_name,
)
from i18n import N_, Language
from render.narration import names_and, result_lines, tile_in_text


def game_title(number: int, lang: Language) -> str:
    """The headline of a picture: the game and its table. Not the round: the picture's info
    line under it says it ("Round 2 of 2"), once."""
    return lang.gettext("Flaming Pyramids · {table}").format(table=table_name(number, lang=lang))


def picture_title(board: Board, lang: Language) -> str:
    t = board.table
    v = board.view
    if v is None:
        return table_name(t.number, start=True, lang=lang)
    # The picture itself says which turn and round it is (its info line, under the headline).
    return game_title(t.number, lang)


ASKING: Final = (
    N_("{player} is thinking…"),
    N_("{player}, your turn: pick a tile in your hand (time ends {when})."),
    N_("{player}, your turn: pick a tile in your hand."),
    N_("{player} decides where {tile} falls…"),
    N_(
        "{player}, where does {tile} fall? Choose **Fall left** or **Fall right** "
        "(time ends {when})."
    ),
    N_("{player}, where does {tile} fall? Choose **Fall left** or **Fall right**."),
    N_("The fire die is being rolled…"),
    N_("The next round starts {when}, or at once with **Next round**."),
    N_("The next round starts in a moment, or at once with **Next round**."),
    *breaktexts.AWAY_ASKING,
)
"""Every line :func:`prompt_line` may say in a channel message, with its placeholders."""
THINKING, TURN_TIMED, TURN, FALLS, FALL_TIMED, FALL, ROLLING, NEXT_AT, NEXT_SOON = ASKING[:9]


def prompt_line(board: Board, lang: Language, *, spectator: bool) -> str:
    """Who decides what now, with a deadline: told to the person who must decide, or to a
    ``spectator`` (someone not playing, who reads it alone) about them."""
    p: Prompt = board.prompt
    if p.away:
        return breaktexts.away_prompt(board, lang)
    names = names_of(board)
    timed = bool(p.deadline and p.user_id)
    when = relative(p.deadline) if p.deadline else ""
    if spectator and p.user_id is not None and p.seat is not None and p.kind in ("play", "fall"):
        return f"{em.TURN} " + watched_line(p, mention(None, names[p.seat]), when, lang)
    if p.kind == "play" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        if p.user_id is None:
            said = lang.gettext(THINKING).format(player=who)
        elif timed:
            said = lang.gettext(TURN_TIMED).format(player=who, when=when)
        else:
            said = lang.gettext(TURN).format(player=who)
        return f"{em.TURN} {said}"
    if p.kind == "fall" and p.seat is not None:
        who = mention(p.user_id, names[p.seat])
        tile = tile_in_text(p.tile, lang) if p.tile else lang.gettext("the tile")
        if p.user_id is None:
            said = lang.gettext(FALLS).format(player=who, tile=tile)
        elif timed:
            said = lang.gettext(FALL_TIMED).format(player=who, tile=tile, when=when)
        else:
            said = lang.gettext(FALL).format(player=who, tile=tile)
        return f"{em.TURN} {said}"
    if p.kind == "die":
        return f"{em.FIRE_DIE} " + lang.gettext(ROLLING)
    if p.kind == "next_round" and board.view is not None:
        if p.deadline:
            return lang.gettext(NEXT_AT).format(when=relative(p.deadline))
        return lang.gettext(NEXT_SOON)
    return ""


def without_prompt(content: str, board: Board, lang: Language) -> str:
    """``content``, a message of ``board``, without its line asking who decides what (what the
    message says once that question is gone: answered, or the table closed)."""
    line = prompt_line(board, lang, spectator=False)
    if not line:
        return content
    return "\n".join(kept for kept in content.split("\n") if kept != line)


def without_questions(content: str, lang: Language) -> str:
    """``content``, a channel message of a table in ``lang`` whose board is no longer known
    (posted before a restart, or by another process), without any line asking someone to
    decide: every line that reads as one of :data:`ASKING`, whoever and whenever it names."""
    asking = _ASKING_IN.get(lang.code)
    if asking is None:
        said = []
        for msgid in ASKING:
            parts = re.split(r"\{(?:player|tile|when)\}", lang.gettext(msgid))
            said.append(".+?".join(re.escape(part) for part in parts))
        asking = _ASKING_IN[lang.code] = re.compile(r"(?:\S+ )?(?:" + "|".join(said) + ")")
    return "\n".join(line for line in content.split("\n") if not asking.fullmatch(line))


_ASKING_IN: dict[str, re.Pattern[str]] = {}
"""Per language code: one pattern for every line of :data:`ASKING` in that language."""


def watched_line(p: Prompt, who: str, when: str, lang: Language) -> str:
    """A person's decision as someone not playing reads it: about them, not to them."""
    if p.kind == "play":
        if when:
            return lang.gettext("{player} to play (time ends {when}).").format(
                player=who, when=when
            )
        return lang.gettext("{player} to play.").format(player=who)
    tile = tile_in_text(p.tile, lang) if p.tile else lang.gettext("the tile")
    if when:
        return lang.gettext("{player} decides where {tile} falls (time ends {when}).").format(
            player=who, tile=tile, when=when
        )
    return lang.gettext("{player} decides where {tile} falls…").format(player=who, tile=tile)


ACCOUNT_LINES = 12
"""The most lines a move's message gives its turn's account (one per event; a longer cascade's
last line says how many more there were, and the animation shows them all)."""
ACCOUNT_CHARS = 1400
"""The most characters of those lines: the message keeps room for the results and for who
decides next within Discord's length limit."""


def turn_account(step: Step, lang: Language, *, viewer: int | None) -> str:
    """The account of the turn a move belongs to (its placement, then what it caused), one line
    per event, as every message words it, told to ``viewer`` (the seat whose own screen shows
    it, called "you"; None in the table's channel); empty for the start of a round."""
    if step.kind != "move":
        return ""
    events = step.turn_events or step.events
    lines = turn_lines(
        events,
        names_of(step.board),
        lang,
        viewer=viewer,
        computer_chose=step.board.computer_chose,
    )
    told = capped(lines, ACCOUNT_LINES, lang)
    for most in range(min(ACCOUNT_LINES, len(lines)), 1, -1):
        told = capped(lines, most, lang)
        if len("\n".join(told)) <= ACCOUNT_CHARS:
            break
    return "\n".join(told)


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
    if step.timed_out and step.actor is not None and step.stand_in is not None:
        lines.append(
            f"{em.TIMED_OUT} "
            + lang.gettext(
                "{player}'s time ran out: a computer player ({level}) made this move for them."
            ).format(player=names[step.actor], level=level_word(step.stand_in, lang))
        )
    if step.away and step.actor is not None and step.stand_in is not None:
        lines.append(breaktexts.played_for_away(board, step.actor, step.stand_in, lang))
    story = turn_account(step, lang, viewer=None)
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
            viewer=None,
        )
        lead = f"{over} " if step.results is not None else f"{em.ROUND_WON} "
        lines.append(f"{lead}{told[0]}")
        lines.extend(told[1:])
    elif step.results is not None:
        lines.append(f"{over} {match_result(names, step.results, lang)}")
    line = prompt_line(board, lang, spectator=False)
    if line:
        lines.append(line)
    paused = breaktexts.pause_line(board, lang)
    if paused:
        lines.append(paused)
    if step.results is not None:
        # The end pings every player (step_pings), so the mentions come first, to survive
        # clipping.
        players = [f"<@{u}>" for u in step_pings(step)]
        if players:
            said = names_and(range(len(players)), players, lang)
            thanks = lang.gettext("Thanks for playing, {players}!").format(players=said)
            return clip(f"{thanks}\n" + "\n".join(lines))
    return clip("\n".join(lines))


def board_content(board: Board, lang: Language, *, spectator: bool) -> str:
    """``/fp status``: the table now; for a ``spectator`` (someone not playing, who reads it
    alone), who decides what is told about them rather than to them."""
    t = board.table
    lines = [
        f"Flaming Pyramids — {table_name(t.number, lang=lang)} · "
        + options_line(t.options, lang, undo_s=board.undo_s)
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
    line = prompt_line(board, lang, spectator=spectator)
    if line:
        lines.append(line)
    paused = breaktexts.pause_line(board, lang)
    if paused:
        lines.append(paused)
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
        + prompt_line(board, lang, spectator=False)
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


def left_game(board: Board, seat: int, name: str, closed: bool, lang: Language) -> str:
    """A player left a running game (``/fp leave``); a computer of the server's stand-in level
    took their ``seat``."""
    if closed:
        return f"{em.LEFT} " + lang.gettext(
            "{player} left; nobody is left at {table}, so it is closed."
        ).format(player=esc(name), table=table_name(board.number, lang=lang))
    level = level_word(board.table.seats[seat].ai or "", lang)
    return (
        f"{em.LEFT} "
        + lang.gettext(
            "{player} left the game; a computer player ({level}) takes the seat."
        ).format(player=esc(name), level=level)
        + "\n"
        + prompt_line(board, lang, spectator=False)
    )


def aborted(board: Board, name: str, lang: Language, *, by: int | None) -> str:
    """The channel's notice of ``/fp abort`` (by the user ``by``), which mentions every other
    person seated at the table (:func:`aborted_pings`)."""
    players = [f"<@{u}>" for u in aborted_pings(board, by)]
    if players:
        said = lang.gettext("{players}: table #{number} was aborted by {player}.").format(
            players=names_and(range(len(players)), players, lang),
            number=board.number,
            player=esc(name),
        )
        return clip(f"{em.ABORTED} {said}")
    return f"{em.ABORTED} " + lang.gettext("Table #{number} was aborted by {player}.").format(
        number=board.number, player=esc(name)
    )


def aborted_pings(board: Board, by: int | None) -> list[int]:
    """Who the notice of an abort pings: every person seated at the table but the one who
    aborted it (each once: a game played over days ends for them there)."""
    seated = (s.user_id for s in board.table.seats if s.ai is None and s.user_id is not None)
    return [u for u in dict.fromkeys(seated) if u != by]


def restarted(board: Board, lang: Language) -> str:
    """A move the last run could not post, shown after a restart."""
    said = lang.gettext("I was restarted; here is where the game stands.")
    return f"{em.RESTARTED} {said}\n" + board_content(board, lang, spectator=False)

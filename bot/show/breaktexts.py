"""The words of breaks: a player away (``/fp away``, or set away by the clock) and a paused game
(``/fp pause``, ``/fp resume``). The channel's notices and lines, the lobby card's, the direct
message that tells a player the clock set them away, and the private answers to the commands.
The common pieces are in :mod:`bot.show.texts`."""

from __future__ import annotations

from typing import Final

from bot import emoji as em
from bot.service import AwayChange, Board, Prompt, Resumed, WentAway
from bot.show.texts import clip, duration, esc, level_word, relative, table_name
from i18n import N_, Language
from render.narration import tile_in_text


def moment(when: float) -> str:
    """A moment as Discord shows it, a date and a time in each reader's own time zone and
    language ("24 December 2026 18:00")."""
    return f"<t:{int(when)}:f>"


def rounded(seconds: float) -> int:
    """A time paused, rounded as a person says it: to the minute below an hour, to the hour
    below two days, else to the day."""
    if seconds < 3600:
        return max(60, round(seconds / 60) * 60)
    if seconds < 2 * 86400:
        return round(seconds / 3600) * 3600
    return round(seconds / 86400) * 86400


# --- the channel ---------------------------------------------------------------------------------


AWAY_ASKING: Final = (
    N_("{player} is away: a computer player decides where {tile} falls for them…"),
    N_("{player} is away: a computer player plays their turn…"),
)
"""The lines that say who decides now when it is a person who is away (see
:func:`away_prompt`)."""


def away_prompt(board: Board, lang: Language) -> str:
    """Who decides now, when it is a person who is away: the computer decides for them."""
    p: Prompt = board.prompt
    assert p.seat is not None
    player = esc(board.names[p.seat])
    if p.kind == "fall":
        tile = tile_in_text(p.tile, lang) if p.tile else lang.gettext("the tile")
        said = lang.gettext(AWAY_ASKING[0]).format(player=player, tile=tile)
    else:
        said = lang.gettext(AWAY_ASKING[1]).format(player=player)
    return f"{em.AWAY} {said}"


def played_for_away(board: Board, seat: int, level: str, lang: Language) -> str:
    """A move's message, when a computer of ``level`` made the move for a player who is
    away."""
    return f"{em.AWAY} " + lang.gettext(
        "{player} is away: a computer player ({level}) made this move for them."
    ).format(player=esc(board.names[seat]), level=level_word(level, lang))


def pause_line(board: Board, lang: Language) -> str:
    """While a game is paused, under who decides next (empty otherwise)."""
    pause = board.pause
    return "" if pause is None else paused_until(pause.until, lang)


def paused_until(until: float, lang: Language) -> str:
    """A paused game's line: until when no clock runs (the channel's, a player's screen's)."""
    return f"{em.PAUSED} " + lang.gettext(
        "The game is paused until {when}: no clock runs until then."
    ).format(when=moment(until))


def paused(board: Board, lang: Language) -> str:
    """The channel's notice of ``/fp pause``: who paused the game, until when, why."""
    pause = board.pause
    assert pause is not None
    values = {"player": esc(pause.name), "when": moment(pause.until)}
    if pause.reason:
        said = lang.gettext("{player} paused the game until {when}: {reason}").format(
            reason=esc(pause.reason), **values
        )
    else:
        said = lang.gettext("{player} paused the game until {when}.").format(**values)
    rest = lang.gettext(
        "No clock runs and nobody is reminded until then; you may still play. It goes on "
        "by itself then, or sooner with `/fp resume` (the host or someone who can manage "
        "the channel)."
    )
    return clip(f"{em.PAUSED} {said}\n{rest}")


def resumed(done: Resumed, prompt: str, lang: Language) -> str:
    """The channel's notice that a paused game goes on (``prompt``: who decides now, and by
    when)."""
    moved = duration(rounded(done.paused_s), lang)
    if done.name is not None:
        said = lang.gettext(
            "{player} resumed the game: every clock moved on by {duration}, the time it was paused."
        ).format(player=esc(done.name), duration=moved)
    else:
        said = lang.gettext(
            "The pause is over: every clock moved on by {duration}, the time it was paused."
        ).format(duration=moved)
    return clip(f"{em.RESUMED} {said}" + (f"\n{prompt}" if prompt else ""))


def went_away(went: WentAway, lang: Language) -> str:
    """The channel's notice, once, that the clock set a player away; it mentions them when no
    direct message tells them how to come back."""
    board = went.board
    player = f"<@{went.user_id}>" if not went.dm else esc(board.names[went.seat])
    said = lang.ngettext(
        "{player}'s time ran out on {count} decision in a row: a computer player now plays "
        "for them at once, at every table of theirs here, until {when} or until they play.",
        "{player}'s time ran out on {count} decisions in a row: a computer player now plays "
        "for them at once, at every table of theirs here, until {when} or until they play.",
        went.timeouts,
    ).format(player=player, count=lang.format_decimal(went.timeouts), when=moment(went.until))
    if not went.dm:
        said += " " + lang.gettext("{player}, `/fp away off:True` brings you back.").format(
            player=player
        )
    return f"{em.AWAY} {said}"


# --- the lobby card ------------------------------------------------------------------------------


def away_seat(until: float, lang: Language) -> str:
    """A seat's mark on the lobby card while its player is away: when they are back, as
    Discord counts it live in each reader's client ("back in 3 days"). The card is not edited
    when the time comes (only when something at the table changes), so it says what stays
    true then too: "back 2 hours ago"."""
    return f"{em.AWAY} " + lang.gettext("back {when}").format(when=f"<t:{int(until)}:R>")


def lobby_pause(board: Board, lang: Language) -> str:
    """The lobby card's line while its game is paused (empty otherwise)."""
    pause = board.pause
    if pause is None:
        return ""
    values = {"player": esc(pause.name), "when": moment(pause.until)}
    if pause.reason:
        said = lang.gettext("**Paused** by {player} until {when}: {reason}").format(
            reason=esc(pause.reason), **values
        )
    else:
        said = lang.gettext("**Paused** by {player} until {when}.").format(**values)
    return f"{em.PAUSED} {said}"


# --- a player privately --------------------------------------------------------------------------


def went_away_dm(went: WentAway, server: str, lang: Language) -> str:
    """The direct message, once, that tells a player the clock set them away in ``server``, and
    how to come back."""
    board = went.board
    said = lang.ngettext(
        "Your time ran out on {count} decision in a row at {table} in {channel}, so a computer "
        "player now makes each of your decisions at once, at every table of yours in "
        "**{server}**, until {when}; I send you no turn messages there meanwhile.",
        "Your time ran out on {count} decisions in a row at {table} in {channel}, so a computer "
        "player now makes each of your decisions at once, at every table of yours in "
        "**{server}**, until {when}; I send you no turn messages there meanwhile.",
        went.timeouts,
    ).format(
        count=lang.format_decimal(went.timeouts),
        table=table_name(board.number, lang=lang),
        channel=f"<#{board.channel_id}>",
        server=esc(server),
        when=moment(went.until),
    )
    back = lang.gettext(
        "To play again, press **I'm back**, use `/fp away off:True` in that server, or simply play "
        "a move there."
    )
    return clip(f"{em.AWAY} {said}\n{back}")


def away_set(change: AwayChange, lang: Language) -> str:
    """The private answer to ``/fp away``."""
    assert change.until is not None
    said = lang.gettext(
        "You are away in this server until {when} ({relative}): a computer player makes each of "
        "your decisions at once, at every table of yours here, and I send you no turn messages "
        "or reminders."
    ).format(when=moment(change.until), relative=relative(change.until))
    back = lang.gettext(
        "Press **I'm back** or use `/fp away off:True` to play again; playing a move brings you "
        "back too."
    )
    return f"{em.AWAY} {said}\n{back}"


def away_ended(change: AwayChange, lang: Language) -> str:
    """The private answer to ``/fp away off:True`` and to the "I'm back" button."""
    if not change.changed:
        return lang.gettext("You were not away: your decisions are yours.")
    return lang.gettext("Welcome back: your decisions are yours again.")


def pause_done(board: Board, lang: Language) -> str:
    """The private answer to ``/fp pause``."""
    pause = board.pause
    assert pause is not None
    return f"{em.PAUSED} " + lang.gettext("{table} is paused until {when}.").format(
        table=table_name(board.number, start=True, lang=lang), when=moment(pause.until)
    )


def resume_done(board: Board, lang: Language) -> str:
    """The private answer to ``/fp resume``."""
    return f"{em.RESUMED} " + lang.gettext("{table} goes on.").format(
        table=table_name(board.number, start=True, lang=lang)
    )

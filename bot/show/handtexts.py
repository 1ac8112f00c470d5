"""The words of a player's own screen (by direct message or private): their hand, the spot step
and its previews, reminders by direct message, and the notes a screen shows once a click or the
table closes it (:func:`translated` words a note chosen before the reader is known). The common
pieces are in :mod:`bot.show.texts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import emoji as em
from bot.narrate import describe_preview, fall_again, narrate
from bot.service import Board, Hand, NoUndo, SpotChoice
from bot.show import breaktexts
from bot.show.endtexts import MATCH_OVER, match_over
from bot.show.texts import (
    MAX_CONTENT,
    clip,
    clock_time,
    esc,
    relative,
    table_name,
)
from bot.show.turntexts import game_title
from engine import View
from i18n import ENGLISH, N_, Language
from render.account import FallAgain
from render.narration import tile_in_text, tile_name

OUT_OF_DATE_HAND: Final = N_("That hand is out of date: here it is now.")


def hand_title(hand: Hand, lang: Language) -> str:
    """The headline of a player's screen picture."""
    return game_title(hand.table_number, lang)


SINCE_SHOWN: Final = 3
"""The others' turns a new screen tells (the newest ones); older ones are counted."""
SINCE_LINES: Final = 6
"""The most lines a new screen gives one of those turns (a line per event; a longer one's last
line says how many more there were). The newest turns come first: older ones are counted when
the message has no room for them."""


def hand_content(
    hand: Hand,
    guild_name: str | None = None,
    since: Sequence[str] = (),
    *,
    result: Sequence[str] = (),
    lang: Language,
) -> str:
    """A player's screen: where, the round that ended since their last move (``result``), what
    the others did since (``since``, on a screen that asks them to decide), and what to decide
    now, by when."""
    where = f"<#{hand.channel_id}>"
    if guild_name:
        # TRANSLATORS: where a table is: a channel on a Discord server.
        where = lang.gettext("{channel} on {server}").format(channel=where, server=esc(guild_name))
    v = hand.view
    table = table_name(hand.table_number, lang=lang)
    # Each template is formatted before its emoji is glued on: formatting a French template
    # itself is what elides its "de" (i18n.FrenchTemplate).
    if hand.decision == "held" and hand.held is not None:
        return held_content(hand, where, lang)
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
    lines: list[str] = []
    if not hand.deadline:
        ends = ""
    elif hand.decision == "fall" and v.active != hand.seat:
        # A fall of someone else's turn (a curse made this player decide it): not their turn.
        ends = " " + lang.gettext("Decide by {time} ({when}).").format(
            time=clock_time(hand.deadline), when=relative(hand.deadline)
        )
    else:
        ends = " " + lang.gettext("Your turn ends {when}.").format(when=relative(hand.deadline))
    if hand.decision == "play":
        lines.append(lang.gettext("Pick a tile below, then its spot.") + ends)
        if hand.fitting and first_turn(v):
            lines.append(lang.gettext("Tiles marked *fits* go somewhere without mayhem."))
    elif hand.decision == "fall" and v.pending is not None and v.pending.tile:
        again = fall_again(v.last_events, v.pending.tile)
        lines.append(fall_question(v.pending.tile, again, lang) + ends)
        if hand.held is not None:
            lines.append(lang.gettext("Nobody else sees this turn until it is done."))
    elif hand.dm:
        lines.append(
            lang.gettext("Not your turn yet: your turn will come to you by direct message.")
        )
    else:
        lines.append(
            lang.gettext(
                "Not your turn yet: you will be mentioned on your turn, and **My hand** on that "
                "message opens it."
            )
        )
    if hand.paused_until is not None and hand.decision != "wait":
        lines.append(breaktexts.paused_until(hand.paused_until, lang))
    # The newest turns the message has room for, at most SINCE_SHOWN: the decision stays whole.
    for shown in range(min(SINCE_SHOWN, len(since)), 0, -1):
        told = since_lines(since, shown, lang)
        if len("\n".join([head, *result, *told, *lines])) <= MAX_CONTENT:
            break
    else:
        told = []
    return clip("\n".join([head, *result, *told, *lines]))


def since_lines(since: Sequence[str], shown: int, lang: Language) -> list[str]:
    """The newest ``shown`` of the others' turns (each a line per event), quoted, under a line
    that counts the older ones."""
    earlier = len(since) - shown
    if earlier > 0:
        heading = lang.ngettext(
            "Since your last move ({count} earlier not shown):",
            "Since your last move ({count} earlier not shown):",
            earlier,
        ).format(count=lang.format_decimal(earlier))
    else:
        heading = lang.gettext("Since your last move:")
    return [heading, *(f"> {line}" for turn in since[-shown:] for line in turn.splitlines())]


def fall_question(tile: str, again: FallAgain | None, lang: Language) -> str:
    """A screen's question where ``tile`` falls; the second one of a chain says why the tile
    that just fell must fall again (:func:`render.account.fall_again`), so it never reads as
    the first one asked twice."""
    named = tile_in_text(tile, lang)
    if again == "collapsed":
        said = lang.gettext(
            "**{tile} collapsed again: where does it fall now?** The arrows show where each "
            "choice lands: **Fall left** or **Fall right**."
        )
    elif again == "free_air":
        said = lang.gettext(
            "**{tile} is in free air now: where does it fall?** The arrows show where each "
            "choice lands: **Fall left** or **Fall right**."
        )
    else:
        said = lang.gettext(
            "**Where does {tile} fall?** The arrows show where each choice lands: "
            "**Fall left** or **Fall right**."
        )
        return said.format(tile=named)
    return said.format(tile=named[:1].upper() + named[1:])


HELD_LINES: Final = 8
"""The lines of a held turn's account its screen tells at most (the rest are counted)."""


def held_content(hand: Hand, where: str, lang: Language) -> str:
    """A player's screen once their turn is played at a table with an undo window: what the
    turn did, that nobody has seen it yet, and how long Undo is offered."""
    held = hand.held
    assert held is not None and held.until is not None
    table = table_name(hand.table_number, lang=lang)
    head = f"{em.PLAYED} " + lang.gettext(
        "**Your turn is played** at {table} in {where}: nobody has seen it yet."
    ).format(table=table, where=where)
    lines = [head]
    account = narrate(
        held.events, [esc(n) for n in hand.names], lang, viewer=hand.seat, most=HELD_LINES
    )
    lines.extend(f"> {line}" for line in account.splitlines())
    lines.append(
        lang.gettext(
            "**Undo** takes it back; **Done** hands it on now. It is handed on by itself {when}."
        ).format(when=relative(held.until))
    )
    return clip("\n".join(lines))


def held_headline(lang: Language) -> str:
    """The picture's headline on a turn played and held back: nobody else knows of it yet."""
    return lang.gettext("Your turn is played: Undo or Done")


def undone(lang: Language) -> str:
    """The note on a player's screen after their Undo: their turn again."""
    return f"{em.UNDO} " + lang.gettext("Your turn is taken back: nobody saw it. Play again.")


def no_undo(why: NoUndo, passed_to: str | None, lang: Language) -> str:
    """Why a player's turn, at a table with an undo window, was handed on at once."""
    if why == "die":
        return lang.gettext("No undo for this turn: the fire die was rolled.")
    if passed_to is not None:
        return lang.gettext("No undo for this turn: the decision passed to {player}.").format(
            player=esc(passed_to)
        )
    return lang.gettext("No undo for this turn: the decision passed to another player.")


def first_turn(v: View) -> bool:
    """Whether a play the view waits for is its player's first of the match: every player plays
    once in the first round's first turns, one each, in seat order (no turn is skipped, RULES
    7). Read from the game itself, so it holds across restarts; what a first screen explains
    (the *fits* marks) is said there only, once per player and match."""
    return v.round == 1 and v.turn < v.players


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


def reminder_dm(board: Board, lang: Language) -> str:
    """The reminder by direct message: of the player's decision, which may be a fall of
    someone else's turn (the curse), and of what happens when its time is up."""
    deadline = board.prompt.deadline
    values = {"table": table_name(board.number, lang=lang), "channel": f"<#{board.channel_id}>"}
    if deadline:
        said = lang.gettext(
            "Your decision at {table} in {channel} is waiting; a computer player will make it "
            "for you {when}."
        ).format(when=relative(deadline), **values)
    else:
        said = lang.gettext(
            "Your decision at {table} in {channel} is waiting; a computer player will make it "
            "for you soon."
        ).format(**values)
    return f"{em.REMINDER} {said}"


def turn_done(account: str, lang: Language) -> str:
    """What a player's direct-message screen says once their turn is done, by their own last
    click on it: the turn's account, as the table's channel tells it."""
    return clip(f"{em.PLAYED} {account or lang.gettext('Your turn is done.')}")


def timed_out(account: str, lang: Language) -> str:
    """What a player's direct-message screen says once their time ran out and a computer player
    decided for them: that, then the turn's account, as the table's channel tells it."""
    said = f"{em.TIMED_OUT} " + lang.gettext(
        "Your time ran out: a computer player decided for you."
    )
    return clip(f"{said}\n{account}" if account else said)


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

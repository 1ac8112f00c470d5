"""The words of refusals and failures: every :class:`~bot.errors.Why` as a player reads it, and
what a player reads when something went wrong on the bot's side.

The service refuses with a kind of refusal and its values, never a sentence; this is the one
place that words them (privately, to the person who asked). A name a player chose is quoted for
Discord (:func:`bot.show.texts.esc`) where it is put into words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.errors import NotYourDecision, TableError, Why

REFUSALS: Final[dict[Why, str]] = {
    Why.TABLE_CLOSED: "This table is closed.",
    Why.UNREADABLE_TABLE: (
        "This table's record cannot be read; an admin has been told in the logs."
    ),
    Why.NO_GAME_YET: "This table has no game yet.",
    Why.GAME_NOT_STARTED: "This game has not started yet.",
    Why.HAND_BEFORE_START: "The game has not started yet.",
    Why.UNREADABLE_CHANNEL_TABLE: (
        "This channel's table cannot be read any more. Someone who can manage the channel "
        "can close it with /fp abort."
    ),
    Why.GAMES_IN_THREADS: (
        "The games of this channel are played in their threads: {threads}. Use the "
        "commands there, or start another table here: /fp new"
    ),
    Why.NO_TABLE_HERE: "There is no Flaming Pyramids table in this channel. Start one: /fp new",
    Why.NOT_PLAYING: (
        "You are not playing at this table, so this is not yours to decide. You can "
        "watch, and join the next game!"
    ),
    Why.MISPLACED_BUTTON: "This button does not belong here; nothing was changed.",
    Why.OLD_BUTTON: "This button is from an older version of the game.",
    Why.PASSED_MOMENT: "That button belongs to a moment that has passed; nothing was changed.",
    Why.HOST_ONLY_ADD_AI: "Only the host can add computer players.",
    Why.HOST_ONLY_REMOVE_AI: "Only the host can remove computer players.",
    Why.HOST_ONLY_CANCEL: "Only the host can cancel the table.",
    Why.HOST_ONLY_START: "Only the host can start the game.",
    Why.ROUND_OVER: "This round is already over.",
    Why.MOVED_ON: "That moment has passed: the game has moved on.",
    Why.MOVE_IMPOSSIBLE: "That move is not possible now.",
    Why.ACTED_FIRST: "That moment has passed: somebody acted first. Nothing was changed.",
    Why.TURN_LIMIT_RANGE: "The turn time limit must be between 1 minute and 14 days.",
    Why.ROUNDS_RANGE: "A match has 1 to {max_rounds} rounds.",
    Why.SEATS_RANGE: "A table has {min_seats} to {max_seats} seats.",
    Why.HAND_CHANGED: (
        "Your hand has changed since this message: use your latest hand (the My hand "
        "button, or /fp hand)."
    ),
    Why.TILE_GONE: "That tile is no longer in your hand.",
    Why.NO_SUCH_SPOT: "That spot does not exist.",
    Why.FALL_DIRECTION: "A tile falls left or right.",
    Why.FALL_DECIDED: "That fall has already been decided.",
    Why.NEXT_ROUND_STARTED: "The next round has already started.",
    Why.CHANNEL_HAS_TABLE: "This channel already has a Flaming Pyramids table.",
    Why.ALREADY_STARTED: "The game has already started.",
    Why.ALREADY_SEATED: "You already have a seat at this table.",
    Why.TABLE_FULL: "This table is full.",
    Why.LOBBY_BUSY: "The lobby is busy; please try again.",
    Why.HOST_CANCELS: "You host this table: use Cancel to close it.",
    Why.NO_SEAT: "You have no seat at this table.",
    Why.UNKNOWN_LEVEL: "Unknown level {level!r}.",
    Why.LOBBY_CHANGED: "The lobby just changed; please try again.",
    Why.NO_COMPUTER: "There is no computer player to remove.",
    Why.NEED_PLAYERS: (
        "A game needs {min_seats} to {max_seats} players; {seated} seated. Invite friends "
        "or add a computer player."
    ),
    Why.STATE_PLAYERS: "the state has {state_players} players, the table {seated}",
    Why.MATCH_NOT_OVER: "The match is not over yet.",
    Why.REMATCH_PLAYERS_ONLY: "Only the match's players can ask for a rematch.",
    Why.UNREADABLE_ABORT: (
        "This table's record cannot be read; someone who can manage the channel can close it."
    ),
    Why.ABORT_WHO: "Only the host or someone who can manage this channel can abort the table.",
    Why.TABLE_CHANGED: "The table just changed; please try again.",
    Why.NOT_SHOWN: (
        "Your move is recorded, but Discord did not take its message just now: I will "
        "post it as soon as Discord does."
    ),
    Why.NOT_SHOWN_FORBIDDEN: (
        "Your move is recorded, but I may not post in this channel just now ({what}): I "
        "will post it as soon as I can. A server admin can let me send messages, attach "
        "files and embed links here."
    ),
}
"""The template of each refusal; ``{...}`` are the refusal's values (names, counts)."""


def not_yours(err: NotYourDecision, quote: Callable[[str], str]) -> str:
    """A private answer to someone who pressed a button of a decision that is not theirs."""
    if err.owner is None:
        return "Nobody has to decide anything right now."
    name = quote(err.owner)
    if err.decision == "fall":
        return f"It is {name}'s decision where the tile falls, not yours."
    return f"It is {name}'s turn, not yours. You will be told when it is yours."


def refusal(err: TableError, quote: Callable[[str], str]) -> str:
    """What a player reads when the service refused them ``err``; names through ``quote``."""
    if isinstance(err, NotYourDecision):
        return not_yours(err, quote)
    values: dict[str, object] = dict(err.detail)
    threads = err.detail.get("threads")
    if isinstance(threads, tuple):
        values["threads"] = ", ".join(f"<#{t}>" for t in threads[:10])
    values.update({k: quote(v) for k, v in err.names.items()})
    return REFUSALS[err.why].format_map(values)


# --- failures ------------------------------------------------------------------------------------

SAFE: Final = (
    "Something went wrong on my side. The game is safe and nothing was lost; please try again."
)
DAMAGED: Final = (
    "The bot's database is damaged; the server owner has been told in the bot's log. "
    "This was not saved."
)
UNREACHABLE: Final = (
    "The game's records are unreachable for a moment, try again. Nothing was changed."
)
MISSING_PERMISSIONS: Final = (
    "I am missing a permission in this channel ({what}). Ask a server admin to let me "
    "send messages, attach files and embed links here."
)

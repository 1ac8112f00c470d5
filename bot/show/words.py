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
from i18n import N_, Language

REFUSALS: Final[dict[Why, str]] = {
    Why.TABLE_CLOSED: N_("This table is closed."),
    Why.UNREADABLE_TABLE: N_(
        "This table's record cannot be read; an admin has been told in the logs."
    ),
    Why.NO_GAME_YET: N_("This table has no game yet."),
    Why.GAME_NOT_STARTED: N_("This game has not started yet."),
    Why.HAND_BEFORE_START: N_("The game has not started yet."),
    Why.UNREADABLE_CHANNEL_TABLE: N_(
        "This channel's table cannot be read any more. Someone who can manage the channel "
        "can close it with /fp abort."
    ),
    Why.GAMES_IN_THREADS: N_(
        "The games of this channel are played in their threads: {threads}. Use the "
        "commands there, or start another table here: /fp new"
    ),
    Why.NO_TABLE_HERE: N_("There is no Flaming Pyramids table in this channel. Start one: /fp new"),
    Why.NOT_PLAYING: N_(
        "You are not playing at this table, so this is not yours to decide. You can "
        "watch, and join the next game!"
    ),
    Why.LEFT_MATCH: N_("You already left this match; a computer player plays your seat."),
    Why.MISPLACED_BUTTON: N_("This button does not belong here; nothing was changed."),
    Why.OLD_BUTTON: N_("This button is from an older version of the game."),
    Why.PASSED_MOMENT: N_("That button belongs to a moment that has passed; nothing was changed."),
    Why.HOST_ONLY_ADD_AI: N_("Only the host can add computer players."),
    Why.HOST_ONLY_REMOVE_AI: N_("Only the host can remove computer players."),
    Why.HOST_ONLY_CANCEL: N_("Only the host can cancel the table."),
    Why.HOST_ONLY_START: N_("Only the host can start the game."),
    Why.ROUND_OVER: N_("This round is already over."),
    Why.MOVED_ON: N_("That moment has passed: the game has moved on."),
    Why.MOVE_IMPOSSIBLE: N_("That move is not possible now."),
    Why.ACTED_FIRST: N_("That moment has passed: somebody acted first. Nothing was changed."),
    Why.TURN_LIMIT_RANGE: N_("The turn time limit must be between 1 minute and 14 days."),
    Why.ROUNDS_RANGE: N_("A match has 1 to {max_rounds} rounds."),
    Why.SEATS_RANGE: N_("A table has {min_seats} to {max_seats} seats."),
    Why.HAND_CHANGED: N_(
        "Your hand has changed since this message: use your latest hand (the My hand "
        "button, or /fp hand)."
    ),
    Why.TILE_GONE: N_("That tile is no longer in your hand."),
    Why.NO_SUCH_SPOT: N_("That spot does not exist."),
    Why.FALL_DIRECTION: N_("A tile falls left or right."),
    Why.FALL_DECIDED: N_("That fall has already been decided."),
    Why.NEXT_ROUND_STARTED: N_("The next round has already started."),
    Why.CHANNEL_HAS_TABLE: N_("This channel already has a Flaming Pyramids table."),
    Why.ALREADY_STARTED: N_("The game has already started."),
    Why.ALREADY_SEATED: N_("You already have a seat at this table."),
    Why.TABLE_FULL: N_("This table is full."),
    Why.LOBBY_BUSY: N_("The lobby is busy; please try again."),
    Why.HOST_CANCELS: N_("You host this table: use Cancel to close it."),
    Why.NO_SEAT: N_("You have no seat at this table."),
    Why.UNKNOWN_LEVEL: N_("Unknown level {level!r}."),
    Why.LOBBY_CHANGED: N_("The lobby just changed; please try again."),
    Why.NO_COMPUTER: N_("There is no computer player to remove."),
    Why.NEED_PLAYERS: N_(
        "A game needs {min_seats} to {max_seats} players; {seated} seated. Invite friends "
        "or add a computer player."
    ),
    Why.STATE_PLAYERS: N_("the state has {state_players} players, the table {seated}"),
    Why.MATCH_NOT_OVER: N_("The match is not over yet."),
    Why.REMATCH_PLAYERS_ONLY: N_("Only the match's players can ask for a rematch."),
    Why.UNREADABLE_ABORT: N_(
        "This table's record cannot be read; someone who can manage the channel can close it."
    ),
    Why.ABORT_WHO: N_("Only the host or someone who can manage this channel can abort the table."),
    Why.TABLE_CHANGED: N_("The table just changed; please try again."),
    Why.NOT_SHOWN: N_(
        "Your move is recorded, but Discord did not take its message just now: I will "
        "post it as soon as Discord does."
    ),
    Why.NOT_SHOWN_FORBIDDEN: N_(
        "Your move is recorded, but I may not post in this channel just now ({what}): I "
        "will post it as soon as I can. A server admin can let me send messages, attach "
        "files and embed links here."
    ),
    Why.TURN_HANDED_ON: N_(
        "Too late to take that turn back: it is handed on, and the others can see it."
    ),
    Why.TURN_UNDONE: N_("That turn was taken back: play your tile again."),
    Why.UNDO_RANGE: N_(
        "The undo window is 0 (no undo) to {max_undo} seconds; a table where several people "
        "play uses at most {max_shared} seconds of it."
    ),
    Why.PAUSE_WHO: N_(
        "Only the host or someone who can manage this channel can pause or resume the game."
    ),
    Why.PAUSE_NOT_PLAYING: N_("Only a running game can be paused."),
    Why.NOT_PAUSED: N_("This game is not paused."),
    Why.PAUSE_RANGE: N_("A pause lasts from 1 minute to 7 days."),
    Why.AWAY_RANGE: N_("You can be away from 1 hour to 14 days."),
    Why.AWAY_AFTER_RANGE: N_(
        "A player can be set away after 1 to 10 time-outs in a row, or never (0)."
    ),
    Why.NO_HINTS: N_("This table gives no hints: only a practice table does (/fp new hints)."),
    Why.NO_MATCH: N_("There is no such match."),
    Why.MATCH_UNFINISHED: N_(
        "That match is not over: replays and exports are for finished matches."
    ),
    Why.MATCH_ELSEWHERE: N_("That match was played in another server."),
    Why.EXPORT_PLAYERS_ONLY: N_(
        "Only the match's players can export it: the file shows every dealt hand."
    ),
    Why.RECORDS_UNAVAILABLE: N_("Records are not available right now; try again soon."),
}
"""The template of each refusal, in English (translated where shown); ``{...}`` are the
refusal's values (names, counts)."""


def not_yours(err: NotYourDecision, quote: Callable[[str], str], lang: Language) -> str:
    """A private answer to someone who pressed a button of a decision that is not theirs."""
    if err.owner is None:
        return lang.gettext("Nobody has to decide anything right now.")
    name = quote(err.owner)
    if err.decision == "fall":
        return lang.gettext("It is {player}'s decision where the tile falls, not yours.").format(
            player=name
        )
    return lang.gettext(
        "It is {player}'s turn, not yours. You will be told when it is yours."
    ).format(player=name)


def refusal(err: TableError, quote: Callable[[str], str], lang: Language) -> str:
    """What a player reads when the service refused them ``err``, in ``lang``; names through
    ``quote``."""
    if isinstance(err, NotYourDecision):
        return not_yours(err, quote, lang)
    values: dict[str, object] = dict(err.detail)
    threads = err.detail.get("threads")
    if isinstance(threads, tuple):
        values["threads"] = ", ".join(f"<#{t}>" for t in threads[:10])
    values.update({k: quote(v) for k, v in err.names.items()})
    return lang.gettext(REFUSALS[err.why]).format_map(values)


# --- failures ------------------------------------------------------------------------------------

SAFE: Final = N_(
    "Something went wrong on my side. The game is safe and nothing was lost; please try again."
)
DAMAGED: Final = N_(
    "The bot's database is damaged; the server owner has been told in the bot's log. "
    "This was not saved."
)
UNREACHABLE: Final = N_(
    "The game's records are unreachable for a moment, try again. Nothing was changed."
)
MISSING_PERMISSIONS: Final = N_(
    "I am missing a permission in this channel ({what}). Ask a server admin to let me "
    "send messages, attach files and embed links here."
)

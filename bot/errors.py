"""What the table service refuses, as data: the kinds of refusal and the errors that carry them.

Every :class:`TableError` names why it was raised with a :class:`Why` (and the few values that
refusal needs: a player's name, a count, the threads of a channel). No sentence is made here:
the show side words every refusal (:mod:`bot.show.words`), in one place, privately to the person
who asked, so the words can change or be translated without touching the service, and tests
assert on the kind of refusal, not on its phrasing.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Literal

Detail = int | str | tuple[int, ...]
"""A value a refusal carries besides names: a count, a level, thread ids."""


class Why(enum.Enum):
    """Why the table service (or the records service) refused a request (nothing was
    changed)."""

    TABLE_CLOSED = "table_closed"
    UNREADABLE_TABLE = "unreadable_table"
    NO_GAME_YET = "no_game_yet"
    GAME_NOT_STARTED = "game_not_started"
    HAND_BEFORE_START = "hand_before_start"
    UNREADABLE_CHANNEL_TABLE = "unreadable_channel_table"
    GAMES_IN_THREADS = "games_in_threads"
    NO_TABLE_HERE = "no_table_here"
    NOT_PLAYING = "not_playing"
    LEFT_MATCH = "left_match"
    MISPLACED_BUTTON = "misplaced_button"
    OLD_BUTTON = "old_button"
    PASSED_MOMENT = "passed_moment"
    HOST_ONLY_ADD_AI = "host_only_add_ai"
    HOST_ONLY_REMOVE_AI = "host_only_remove_ai"
    HOST_ONLY_CANCEL = "host_only_cancel"
    HOST_ONLY_START = "host_only_start"
    ROUND_OVER = "round_over"
    MOVED_ON = "moved_on"
    MOVE_IMPOSSIBLE = "move_impossible"
    ACTED_FIRST = "acted_first"
    TURN_LIMIT_RANGE = "turn_limit_range"
    ROUNDS_RANGE = "rounds_range"
    SEATS_RANGE = "seats_range"
    HAND_CHANGED = "hand_changed"
    TILE_GONE = "tile_gone"
    NO_SUCH_SPOT = "no_such_spot"
    FALL_DIRECTION = "fall_direction"
    FALL_DECIDED = "fall_decided"
    NEXT_ROUND_STARTED = "next_round_started"
    CHANNEL_HAS_TABLE = "channel_has_table"
    ALREADY_STARTED = "already_started"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    LOBBY_BUSY = "lobby_busy"
    HOST_CANCELS = "host_cancels"
    NO_SEAT = "no_seat"
    UNKNOWN_LEVEL = "unknown_level"
    LOBBY_CHANGED = "lobby_changed"
    NO_COMPUTER = "no_computer"
    NEED_PLAYERS = "need_players"
    STATE_PLAYERS = "state_players"
    MATCH_NOT_OVER = "match_not_over"
    REMATCH_PLAYERS_ONLY = "rematch_players_only"
    UNREADABLE_ABORT = "unreadable_abort"
    ABORT_WHO = "abort_who"
    TABLE_CHANGED = "table_changed"
    NOT_SHOWN = "not_shown"
    NOT_SHOWN_FORBIDDEN = "not_shown_forbidden"
    NOT_YOUR_DECISION = "not_your_decision"
    TURN_HANDED_ON = "turn_handed_on"
    TURN_UNDONE = "turn_undone"
    UNDO_RANGE = "undo_range"
    PAUSE_WHO = "pause_who"
    PAUSE_NOT_PLAYING = "pause_not_playing"
    NOT_PAUSED = "not_paused"
    PAUSE_RANGE = "pause_range"
    AWAY_RANGE = "away_range"
    AWAY_AFTER_RANGE = "away_after_range"
    NO_HINTS = "no_hints"
    # The records of finished matches (bot.records.service):
    NO_MATCH = "no_match"
    MATCH_UNFINISHED = "match_unfinished"
    MATCH_ELSEWHERE = "match_elsewhere"
    EXPORT_PLAYERS_ONLY = "export_players_only"
    RECORDS_UNAVAILABLE = "records_unavailable"


class TableError(Exception):
    """A request the table service refused; nothing was changed.

    ``why`` names the refusal. A refusal that names players gives ``names`` (``{"name": "Bob"}``,
    as written: the show side quotes them for where they are shown); other values are in
    ``detail``.
    """

    def __init__(
        self,
        why: Why,
        *,
        table_id: int | None = None,
        names: Mapping[str, str] | None = None,
        detail: Mapping[str, Detail] | None = None,
    ) -> None:
        self.why = why
        self.names = dict(names or {})
        self.detail = dict(detail or {})
        super().__init__(why.value, *self.detail.values())
        self.table_id = table_id


class NoTable(TableError):
    """There is no open table where the user asked (or it has closed)."""


class TableExists(TableError):
    """The channel already has an open table; ``table_id`` names it, ``message_id`` is its
    latest message (to link to), if known."""

    def __init__(self, *, table_id: int, message_id: int | None = None) -> None:
        super().__init__(Why.CHANNEL_HAS_TABLE, table_id=table_id)
        self.message_id = message_id


class NotSeated(TableError):
    """The user has no seat at this table."""


class NotAllowed(TableError):
    """The user may not do this (not the host, not an admin, lobby full...)."""


class NotYourDecision(TableError):
    """Somebody else must decide now: ``decision`` (``"play"``, ``"fall"``, or None when
    nobody does) and ``owner``, the name of who must (as written)."""

    def __init__(
        self,
        decision: Literal["play", "fall"] | None,
        owner: str | None,
        *,
        table_id: int | None = None,
    ) -> None:
        super().__init__(Why.NOT_YOUR_DECISION, table_id=table_id)
        self.decision = decision
        self.owner = owner


class Stale(TableError):
    """The button belongs to a moment that has passed (a double click, an old message)."""


class HandChanged(Stale):
    """A tile button of a hand that is no longer the player's latest (the adapter answers with
    the hand as it is now)."""


class BadRequest(TableError):
    """An option or an argument that makes no sense (a bad number of rounds...)."""


class NotShown(TableError):
    """The action was recorded but its message could not be posted (Discord refused it)."""

"""The table service: lobbies, seats, turns, timers and notifications, without Discord.

Everything a Discord user can do at a table is a method of :class:`TableService` that takes plain
ids and returns a result object saying what happened (a :class:`Board` for a lobby or a picture,
a :class:`Step` for an applied decision, a :class:`Hand`, a :class:`SpotChoice`...). It never
imports ``discord``; the adapter in ``bot/`` turns results into messages, and :mod:`bot.errors`
into private replies.

The rules live in :mod:`engine` only: the service asks the engine what is pending and applies the
engine's actions. Persistence goes through :class:`data.store.Store`: every accepted action is
written (with the version read, so a stale or double click fails with ``VersionConflict`` and
changes nothing) before the caller shows anything.

Concurrency: inside one process the decisions of one table are serialised by a per-table lock
from :class:`bot.service.locks.TableLocks`; across processes the store's version check decides.
Time comes from an injectable ``clock`` so tests can move it without sleeping.

The jobs, one module each: :mod:`~bot.service.results` (what the service answers),
:mod:`~bot.service.core` (reading, writing, hands, timers' deadlines), :mod:`~bot.service.lobby`,
:mod:`~bot.service.moves` (a person's decisions), :mod:`~bot.service.players` (computer players,
the fire die, the timers), :mod:`~bot.service.locks`, and :mod:`~bot.service.table` which puts
them together.
"""

from bot.service.core import (
    AI_GRACE_S,
    DEFAULT_REMINDER_S,
    DEFAULT_TURN_LIMIT_S,
    MAX_NAME,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_TURN_LIMIT_S,
    MIN_SEATS,
    MIN_TURN_LIMIT_S,
    NEXT_ROUND_PAUSE_S,
    TIMEOUT_LEVEL,
    AiPlayer,
    Clock,
    Dealer,
    hand_digest,
)
from bot.service.locks import TableLocks
from bot.service.players import default_ai, first_legal
from bot.service.results import (
    Board,
    Hand,
    LeftGame,
    Prompt,
    PromptKind,
    Reminder,
    SpotChoice,
    Step,
    TimerOutcome,
)
from bot.service.table import TableService
from engine import labelled_spots as spot_labels

__all__ = [
    "AI_GRACE_S",
    "DEFAULT_REMINDER_S",
    "DEFAULT_TURN_LIMIT_S",
    "MAX_NAME",
    "MAX_ROUNDS",
    "MAX_SEATS",
    "MAX_TURN_LIMIT_S",
    "MIN_SEATS",
    "MIN_TURN_LIMIT_S",
    "NEXT_ROUND_PAUSE_S",
    "TIMEOUT_LEVEL",
    "AiPlayer",
    "Board",
    "Clock",
    "Dealer",
    "Hand",
    "LeftGame",
    "Prompt",
    "PromptKind",
    "Reminder",
    "SpotChoice",
    "Step",
    "TableLocks",
    "TableService",
    "TimerOutcome",
    "default_ai",
    "first_legal",
    "hand_digest",
    "spot_labels",
]

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

Concurrency: the service takes no lock. Inside one process its caller, the desk
(:mod:`bot.desk`), makes the decisions of one table one at a time; across processes the store's
version check decides.
Time comes from an injectable ``clock`` so tests can move it without sleeping.

The jobs, one module each: :mod:`~bot.service.results` and :mod:`~bot.service.outcomes` (what
the service answers), :mod:`~bot.service.core` (reading tables, what a table shows, who may act
where),
:mod:`~bot.service.hands` (a player's hand), :mod:`~bot.service.writing` (writing a decision,
its deadlines), :mod:`~bot.service.lobby`, :mod:`~bot.service.leaving` (``/fp leave``,
``/fp abort``), :mod:`~bot.service.moves` (a person's decisions), :mod:`~bot.service.breaks`
(players away, paused games), :mod:`~bot.service.players` (computer players, the fire die, the
timers), :mod:`~bot.service.hints` (a practice table's hints: what the expert would play),
:mod:`~bot.service.choices` (players' and servers' choices),
:mod:`~bot.service.languages` (who speaks which language), and :mod:`~bot.service.table` which
puts them together.
"""

from bot.service.core import (
    AI_GRACE_S,
    AWAY_MAX_S,
    COMPUTER_LEVELS,
    DEFAULT_REMINDER_S,
    DEFAULT_TURN_LIMIT_S,
    LOBBY_TTL_S,
    MAX_NAME,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_TURN_LIMIT_S,
    MIN_SEATS,
    MIN_TURN_LIMIT_S,
    NEXT_ROUND_PAUSE_S,
    PAUSE_MAX_S,
    AiPlayer,
    Clock,
    Dealer,
    Place,
    hand_digest,
)
from bot.service.hints import (
    HINT_DEALS,
    HINT_TIME_BUDGET_S,
    Coach,
    Hint,
    HintOption,
    default_coach,
    hint_seed,
)
from bot.service.languages import SERVER_LANGUAGE, language_choices, new_table_language
from bot.service.outcomes import AwayChange, Paused, Resumed, TimerOutcome, WentAway
from bot.service.players import Thought, default_ai, first_legal
from bot.service.results import (
    DEFAULT_UNDO_S,
    MAX_SOLO_UNDO_S,
    MAX_UNDO_S,
    Board,
    Hand,
    HeldScreen,
    LeftGame,
    LobbyExpired,
    MatchResult,
    NoUndo,
    Prompt,
    PromptKind,
    Reminder,
    SpotChoice,
    Step,
    undo_window,
)
from bot.service.settings import SettingsChange
from bot.service.table import TableService
from engine import labelled_spots as spot_labels

__all__ = [
    "AI_GRACE_S",
    "AWAY_MAX_S",
    "COMPUTER_LEVELS",
    "DEFAULT_REMINDER_S",
    "DEFAULT_TURN_LIMIT_S",
    "DEFAULT_UNDO_S",
    "HINT_DEALS",
    "HINT_TIME_BUDGET_S",
    "LOBBY_TTL_S",
    "MAX_NAME",
    "MAX_ROUNDS",
    "MAX_SEATS",
    "MAX_SOLO_UNDO_S",
    "MAX_TURN_LIMIT_S",
    "MAX_UNDO_S",
    "MIN_SEATS",
    "MIN_TURN_LIMIT_S",
    "NEXT_ROUND_PAUSE_S",
    "PAUSE_MAX_S",
    "SERVER_LANGUAGE",
    "AiPlayer",
    "AwayChange",
    "Board",
    "Clock",
    "Coach",
    "Dealer",
    "Hand",
    "HeldScreen",
    "Hint",
    "HintOption",
    "LeftGame",
    "LobbyExpired",
    "MatchResult",
    "NoUndo",
    "Paused",
    "Place",
    "Prompt",
    "PromptKind",
    "Reminder",
    "Resumed",
    "SettingsChange",
    "SpotChoice",
    "Step",
    "TableService",
    "Thought",
    "TimerOutcome",
    "WentAway",
    "default_ai",
    "default_coach",
    "first_legal",
    "hand_digest",
    "hint_seed",
    "language_choices",
    "new_table_language",
    "spot_labels",
    "undo_window",
]

"""The records the store keeps and hands back: tables, their seats and options, logged moves,
players' preferences and servers' settings. Plain frozen dataclasses with no database in them
(the stores read and write them: :mod:`data.rows`, :mod:`data.settings`).

Vocabulary: a **table** is what sits in one channel, from ``/fp new`` to the end of the match. It
starts as a lobby (``status="lobby"``), becomes a game (``"playing"``) and ends ``"finished"``,
``"cancelled"`` or ``"aborted"``. At most one open table (lobby or playing) lives in a channel or
its game's thread (see :meth:`data.store.Tables.set_thread`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from engine.ai.review import Review
from rating import PlayerRecord

log = logging.getLogger(__name__)

TableStatus = Literal["lobby", "playing", "finished", "cancelled", "aborted"]
OPEN_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")


@dataclass(frozen=True)
class TableOptions:
    """How a table plays, chosen at ``/fp new`` (ranges are checked by the bot, not here)."""

    curse: bool = False
    """The curse variant is on."""
    fire_die: bool = False
    """The fire die variant is on."""
    rounds: int = 1
    """How many rounds the match lasts."""
    turn_limit_s: int = 24 * 3600
    """Seconds a player has for a decision before the timer acts for them."""
    reminder_s: int = 12 * 3600
    """A reminder goes out this many seconds before the deadline."""
    max_seats: int = 6
    """How many players the lobby takes at most."""
    thread: bool = True
    """The game is played in a thread of its own."""
    preview: bool = True
    """A preview is shown before a mayhem resolves."""
    undo_s: int = 30
    """Seconds a person's turn waits, once played, for its player's Undo or Done before it is
    handed on (0: no undo; the bot caps it at tables of several people)."""
    hints: bool = False
    """A practice table: each person's decision screen has a Hint button (what the expert would
    play, and why), and the match is not rated."""

    def to_dict(self) -> dict[str, Any]:
        """Every field by name (what is stored).

        >>> TableOptions.from_dict(TableOptions(rounds=3).to_dict()) == TableOptions(rounds=3)
        True
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableOptions:
        """The options ``d`` holds; unknown keys are ignored (rows written by other versions of
        the bot), missing ones take the defaults. Raises ValueError for a value of the wrong type.

        >>> TableOptions.from_dict({"curse": True, "colour": "red"}).curse
        True
        """
        return cls(
            **{f.name: _typed(f.name, f.type, d[f.name]) for f in fields(cls) if f.name in d}
        )

    def with_defaults(self, defaults: TableDefaults) -> TableOptions:
        """These options with every field ``defaults`` sets replaced by it."""
        return TableOptions(
            **{**self.to_dict(), **{k: v for k, v in defaults.to_dict().items() if v is not None}}
        )


@dataclass(frozen=True)
class TableDefaults:
    """A server's default options for new tables (``/fp-settings``); None: not set, the
    :class:`TableOptions` default applies."""

    curse: bool | None = None
    """Default for :attr:`TableOptions.curse`."""
    fire_die: bool | None = None
    """Default for :attr:`TableOptions.fire_die`."""
    rounds: int | None = None
    """Default for :attr:`TableOptions.rounds`."""
    turn_limit_s: int | None = None
    """Default for :attr:`TableOptions.turn_limit_s`."""
    reminder_s: int | None = None
    """Default for :attr:`TableOptions.reminder_s`."""
    max_seats: int | None = None
    """Default for :attr:`TableOptions.max_seats`."""
    thread: bool | None = None
    """Default for :attr:`TableOptions.thread`."""
    preview: bool | None = None
    """Default for :attr:`TableOptions.preview`."""
    undo_s: int | None = None
    """Default for :attr:`TableOptions.undo_s`."""
    hints: bool | None = None
    """Default for :attr:`TableOptions.hints`."""

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, by name (what is stored).

        >>> TableDefaults(curse=True).to_dict()
        {'curse': True}
        """
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableDefaults:
        """The defaults ``d`` holds; unknown keys and None values are ignored. Raises ValueError
        for a value of the wrong type."""
        return cls(
            **{
                f.name: _typed(f.name, f.type, d[f.name])
                for f in fields(cls)
                if d.get(f.name) is not None
            }
        )


def _typed(name: str, annotation: object, value: object) -> Any:
    """``value`` checked against a bool or int option field (annotations are strings here).

    Older rows may hold 0/1 for a flag or a whole float for a number; both are read as meant.
    """
    if "bool" in str(annotation):
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise ValueError(f"option {name} is not true or false: {value!r}")
    if isinstance(value, bool):
        raise ValueError(f"option {name} is not a whole number: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ValueError(f"option {name} is not a whole number: {value!r}")


@dataclass(frozen=True)
class Seat:
    """One seat at a table: a Discord user, or a computer player (``user_id`` None, ``ai`` set)."""

    user_id: int | None
    name: str
    ai: str | None = None  # a computer player's level (one of ``engine.ai.LEVELS``)

    def to_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "ai": self.ai}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(d.get("user_id"), d["name"], d.get("ai"))


@dataclass(frozen=True)
class HeldTurn:
    """A person's turn kept back, seen by nobody but its player: its decisions are not in the
    table's state nor its action log yet, and the table's version counts them (one each).
    The turn is handed on (its decisions written into the state and the log at once) by its
    player's Done, at the end of its undo window (``until``, the table's deadline meanwhile:
    any process's timer loop hands it on) or when it reveals something (the fire die, a
    decision passed to another player); Undo forgets it, and the table is as it was before.

    Stored as one JSON object (:meth:`to_dict`) in the table's row. A store changes it only
    under the row's lock, after checking the table's version and the turn's ``token`` (a
    compare-and-set): of an Undo and the window's end, whichever comes second finds the
    table changed and does nothing."""

    seat: int
    user_id: int
    actions: tuple[dict[str, Any], ...]
    """The turn's decisions so far, in the engine's scenario format (its tile, then its
    falls)."""
    at: tuple[float, ...]
    """When each decision was made (unix time), for the action log."""
    token: str
    """Names this turn on its Undo and Done buttons (a version alone could name a later turn
    of the same player after an Undo)."""
    until: float | None
    """When the undo window ends and the turn is handed on; None while the turn still waits
    for a decision of its player (a fall), under the turn's own deadline."""
    deadline: float | None
    reminder_at: float | None
    """The table's deadline and reminder when the turn began: Undo puts them back."""

    def to_dict(self) -> dict[str, Any]:
        """The stored record."""
        return {
            "seat": self.seat,
            "user_id": self.user_id,
            "actions": [dict(a) for a in self.actions],
            "at": list(self.at),
            "token": self.token,
            "until": self.until,
            "deadline": self.deadline,
            "reminder_at": self.reminder_at,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HeldTurn:
        """The record ``d`` holds; ValueError (or TypeError) if it is not one."""
        actions = d["actions"]
        at = d["at"]
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise ValueError("a held turn's actions are not a list of objects")
        if not isinstance(at, list) or len(at) != len(actions) or not actions:
            raise ValueError("a held turn's times do not match its actions")

        def moment(value: object) -> float | None:
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"a held turn's time is not a number: {value!r}")
            return value

        times = [moment(t) for t in at]
        seat, user_id, token = d["seat"], d["user_id"], d["token"]
        if None in times:
            raise ValueError("a held turn's decision has no time")
        if not (isinstance(seat, int) and isinstance(user_id, int) and isinstance(token, str)):
            raise ValueError("a held turn's seat, player or token does not read")
        return cls(
            seat=seat,
            user_id=user_id,
            actions=tuple(actions),
            at=tuple(t for t in times if t is not None),
            token=token,
            until=moment(d.get("until")),
            deadline=moment(d.get("deadline")),
            reminder_at=moment(d.get("reminder_at")),
        )


@dataclass(frozen=True)
class Pause:
    """A running game paused by its host or a channel's manager (``/fp pause``): its clocks
    stop until :attr:`until` (or ``/fp resume``), then the decision then pending gets the time
    it had left. Kept as one JSON object in the table's row (:meth:`to_dict`)."""

    by: int
    """Who paused it (a user id)."""
    name: str
    """Their name as the table showed it then."""
    reason: str
    """Why, in their words."""
    at: float
    """When it was paused (unix time)."""
    until: float
    """When it resumes by itself (unix time): the table's deadline while it lasts, so that the
    timer loop of any process resumes it."""
    version: int
    """The table's version when it was paused (a decision made since began during the pause)."""
    left: float | None = None
    """Seconds left then of the pending decision of a person (None: no clock was running)."""
    reminder_left: float | None = None
    """Seconds left then before that decision's reminder (None: none was due)."""

    def to_dict(self) -> dict[str, Any]:
        """Every field by name (what is stored).

        >>> p = Pause(7, "Ann", "dinner", 10.0, 20.0, 3, left=5.0)
        >>> Pause.from_dict(p.to_dict()) == p
        True
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Pause:
        """The pause ``d`` holds; ValueError if a field is missing or of the wrong type."""
        try:
            left, reminder_left = d.get("left"), d.get("reminder_left")
            return cls(
                by=int(d["by"]),
                name=str(d["name"]),
                reason=str(d["reason"]),
                at=float(d["at"]),
                until=float(d["until"]),
                version=int(d["version"]),
                left=None if left is None else float(left),
                reminder_left=None if reminder_left is None else float(reminder_left),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"unreadable pause {dict(d)!r} ({e})") from None


@dataclass(frozen=True)
class Absence:
    """A person's absence in one server: away (``/fp away``, or after their clock ran out on
    several decisions in a row) until :attr:`until`, and how many of their decisions in a row
    the clock ran out on. While they are away a computer plays each of their decisions at once,
    at every table of that server; any decision of their own brings them back."""

    until: float | None = None
    """Away until then (unix time; None: not away)."""
    auto: bool = False
    """Set away by their time-outs, not by themselves."""
    timeouts: int = 0
    """Their decisions in a row the clock ran out on (since their last own decision)."""

    def away_at(self, now: float) -> bool:
        """Whether they are away at ``now``.

        >>> Absence(until=20.0).away_at(10.0), Absence(until=20.0).away_at(20.0)
        (True, False)
        """
        return self.until is not None and self.until > now


@dataclass(frozen=True)
class Table:
    """A table as stored. ``state`` is the engine's ``Game.to_dict()`` once playing, else None.

    Treat the dicts as read-only: a store may hand the same ``initial_state`` object to several
    tables it returns (it never changes once a game has started).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    options: TableOptions
    seats: tuple[Seat, ...]
    version: int
    state: dict[str, Any] | None
    initial_state: dict[str, Any] | None  # the dealt state the action log starts from
    deadline: float | None  # unix time when the active decision times out (None: no timer)
    reminder_at: float | None  # unix time of the next reminder (None: none due)
    created_at: float
    updated_at: float
    messages: dict[str, int] = field(default_factory=dict)  # see KeptMessages.set_message
    departed: Mapping[int, int] = field(default_factory=dict)
    """Seat index -> user id of each player who left the running game (``/fp leave``)."""
    dm_failed: frozenset[int] = frozenset()
    """User ids whose closed direct messages this table's channel was told of (once per table;
    whether to DM a player at all is remembered per player:
    :meth:`data.store.Preferences.dm_refused_at`)."""
    shown_version: int | None = None
    """The latest table version whose pictures the channel was shown (None: none yet)."""
    thread_id: int | None = None
    """The thread the game lives in, started from the lobby message (None: the channel)."""
    number: int = 0
    """The table's short number on its server ("table #12"): 1, 2, 3... per guild in the order
    tables were opened, given by the store when it creates the table (0: a record not read
    from a store). The id stays the table's name in button ids and logs."""
    language: str = "en"
    """The language of what the table's channel or thread shows (its posts and their pictures):
    the server's, as Discord tells it or as ``/fp-settings`` chose it when the table opened."""
    held: HeldTurn | None = None
    """A person's turn kept back for its undo window (see :class:`HeldTurn`), or None. While
    there is one, ``state`` is the game before that turn and ``version`` counts its
    decisions."""
    pause: Pause | None = None
    """The game's pause (``/fp pause``), while it lasts: its clocks stopped (None: not
    paused)."""
    absences: Mapping[int, Absence] = field(default_factory=dict)
    """User id -> :class:`Absence` of each person seated here who is away in the table's server
    or whose clock ran out lately (read with the table; kept per server and player:
    :class:`data.store.Absences`)."""

    @property
    def place_id(self) -> int:
        """Where the table's game is shown: its thread, or else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @classmethod
    def new_lobby(
        cls,
        table_id: int,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        seats: tuple[Seat, ...],
        now: float,
        number: int = 0,
        language: str = "en",
    ) -> Table:
        """The record of a lobby just created (version 1), as every store returns it."""
        return cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            options=options,
            seats=tuple(seats),
            version=1,
            state=None,
            initial_state=None,
            deadline=None,
            reminder_at=None,
            created_at=now,
            updated_at=now,
            number=number,
            language=language,
        )


@dataclass(frozen=True)
class LoggedAction:
    """One row of a table's append-only action log."""

    table_id: int
    version: int  # the table version this action produced
    seat: int | None  # who acted (None: the game itself, e.g. a die roll or a timer)
    user_id: int | None
    action: dict[str, Any]  # the engine action (scenario format), e.g. {"play": "B7", "at": "1,1"}
    at: float  # unix time


AnalysisState = Literal["working", "done", "failed"]
"""Where a match's analysis stands: being worked out (claimed, or waiting to be claimed again),
done, or impossible (its log does not replay, or it was given up after failing repeatedly)."""


@dataclass(frozen=True)
class MatchAnalysis:
    """The turning points' analysis of a match (:class:`data.store.Analyses`): every decision of
    every seat reviewed by the coach, worked out once after the match ended."""

    table_id: int
    state: AnalysisState
    reviews: tuple[Review, ...] = ()
    """Every decision reviewed, in the order of the match's log (none unless ``done``)."""


@dataclass(frozen=True)
class GuildSettings:
    """Per-server settings: what ``/fp-settings`` chose, and the server's language as Discord
    last told it.

    Every field but :attr:`guild_id` and :attr:`guild_locale` is a choice of ``/fp-settings``,
    declared here once, with its type and its default: the stores keep them together as one
    record (:meth:`choices`, one JSON column, as a table keeps its :class:`TableOptions`) and
    read them back with :meth:`from_choices`. A new server setting is a new field here, with a
    default; nothing else in ``data/`` changes (no migration, no SQL).
    """

    guild_id: int
    turn_limit_s: int = 24 * 3600
    reminder_s: int = 12 * 3600  # a reminder goes out this long before the deadline
    defaults: TableDefaults = field(default_factory=TableDefaults)  # for /fp new
    language: str | None = None
    """The language ``/fp-settings`` chose for the posts of the server's new tables (a
    language code, ``"fr"``); None: the server's own language (:attr:`guild_locale`)."""
    away_after: int = 2
    """After the clock ran out on this many decisions of a player in a row, they are set away
    (a computer plays their decisions at once until they come back); 0: never."""
    stand_in: str = "normal"
    """The level of the computer player (one of ``engine.ai.LEVELS``) that decides for a person
    whose time ran out, who is away, or who left a running game."""
    guild_locale: str | None = None
    """The server's language as Discord last told the bot (``guild_locale`` of an interaction
    there: a Discord locale tag, ``"fr"``, ``"en-US"``); None: not seen yet. Written by
    :meth:`data.store.ServerSettings.set_guild_locale`, kept in a column of its own (it is
    written alone, often, and is no choice of ``/fp-settings``)."""

    def choices(self) -> dict[str, Any]:
        """What ``/fp-settings`` chose, by name (what is stored).

        >>> GuildSettings(7, reminder_s=0).choices()["reminder_s"]
        0
        """
        return {
            f.name: value.to_dict() if isinstance(value, TableDefaults) else value
            for f in fields(self)
            if f.name not in _NOT_CHOICES
            for value in [getattr(self, f.name)]
        }

    @classmethod
    def from_choices(
        cls, guild_id: int, choices: Mapping[str, Any], guild_locale: str | None = None
    ) -> GuildSettings:
        """The settings ``choices`` holds: unknown names are ignored (written by another
        version of the bot), missing ones take their defaults, and so does a value of the wrong
        type (logged).

        >>> GuildSettings.from_choices(7, {"turn_limit_s": 60, "colour": "red"}).turn_limit_s
        60
        """
        found: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in _NOT_CHOICES or choices.get(f.name) is None:
                continue
            try:
                found[f.name] = _setting(f.name, f.type, choices[f.name])
            except ValueError as e:
                log.warning("guild %s: %s; using its default", guild_id, e)
        return cls(guild_id, guild_locale=guild_locale, **found)


_NOT_CHOICES = frozenset({"guild_id", "guild_locale"})


def _setting(name: str, annotation: object, value: object) -> Any:
    """``value`` checked against the type of the :class:`GuildSettings` field ``name``."""
    kind = str(annotation)
    if "TableDefaults" in kind:
        if not isinstance(value, Mapping):
            raise ValueError(f"setting {name} is not a JSON object: {value!r}")
        return TableDefaults.from_dict(value)
    if "str" in kind:
        if not isinstance(value, str):
            raise ValueError(f"setting {name} is not a text: {value!r}")
        return value
    return _typed(name, annotation, value)


@dataclass(frozen=True)
class PlayerPrefs:
    """Per-user preferences."""

    user_id: int
    hand_mode: Literal["dm", "channel"] = "dm"  # "channel": ephemeral replies only, never DMs
    dm_on_turn: bool = True
    """A direct message when it becomes this player's turn (or a decision of theirs is due)."""
    reminders: bool = True
    """A reminder before the deadline of this player's turn."""
    language: str = "en"
    """The player's language (a language code, ``"fr"``): their Discord client's, as the bot
    last saw it, for what it sends them later (direct messages, reminders). Written by
    :meth:`data.store.Preferences.set_player_language`."""


@dataclass(frozen=True)
class PlayerReach:
    """How to reach a player privately, as a hand shown to them needs it: their preferences,
    and when Discord last refused them a direct message (None: not remembered)."""

    prefs: PlayerPrefs
    dm_refused_at: float | None = None


@dataclass(frozen=True)
class TableProblem:
    """What ``check`` found wrong with one table."""

    table_id: int
    problem: str


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in a server, with their place on its leaderboard."""

    record: PlayerRecord
    rank: int | None
    """Their place among the players with at least ``rating.MIN_MATCHES`` matches (None:
    fewer)."""
    ranked_players: int
    """How many players the leaderboard has."""
    favourite_opening: str | None
    """The tile they opened with most often (ties: the first in tile order)."""


@dataclass(frozen=True)
class BoardPage:
    """One page of a server's leaderboard."""

    entries: tuple[PlayerRecord, ...]
    first_rank: int
    """The place of the first entry (1 on the first page)."""
    total: int
    """How many players the whole leaderboard has."""


@dataclass(frozen=True)
class HistoryEntry:
    """One match with a result (finished, or stopped after its first move) as the history lists
    it."""

    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    finished_at: float
    seats: tuple[Seat, ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...]
    """The match's winners as played (none for a stopped match)."""
    stopped: bool
    """The match stopped before its end (aborted by its host, or closed when its last person
    left): ``scores`` are the standings when it stopped."""
    number: int = 0
    """The match's table number on its server (``table #12``), as players name it."""

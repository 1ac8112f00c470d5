"""The store interface: everything the bot keeps between restarts goes through it.

The bot talks only to :class:`Store`. ``data.sqlite.SqliteStore`` is the embedded default, for
one bot process; ``data.postgres.PostgresStore`` implements the same protocol for several bot
processes sharing one database, and the same contract tests run against both. Nothing that
several bot processes must share lives only in one process's memory: it is all here.

Vocabulary: a **table** is what sits in one channel, from ``/fp new`` to the end of the match. It
starts as a lobby (``status="lobby"``), becomes a game (``"playing"``) and ends ``"finished"``,
``"cancelled"`` or ``"aborted"``. At most one open table (lobby or playing) lives in a channel or
its game's thread (see :meth:`Store.set_thread`).

Every change to an open table is an optimistic, versioned write: the caller passes the version it
read, the store checks it, writes, and bumps it, in one transaction; a stale version raises
:class:`VersionConflict` and changes nothing. Game moves also append to the table's action log in
the same transaction, so the state can always be rebuilt from the starting state and the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, fields
from typing import Any, Literal, Protocol

TableStatus = Literal["lobby", "playing", "finished", "cancelled", "aborted"]
OPEN_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")


class StoreError(Exception):
    """Base class of the store's errors."""


class VersionConflict(StoreError):
    """The table changed since the caller read it: its decision has passed; nothing was written."""


class ChannelBusy(StoreError):
    """The channel already has an open table (``table_id`` names it)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has table {table_id}")
        self.table_id = table_id


class NotFound(StoreError):
    """No such table (or it is not open any more)."""


class CorruptRecord(StoreError):
    """A stored row cannot be read (bad JSON, a version gap...). Only that table is affected.

    ``version`` is the table's stored version when it could be read, so that the table can still
    be closed with ``end_table(table_id, err.version, "aborted", now)`` and its channel freed.
    ``problem`` says what is wrong without quoting the game (it is logged, and may be posted to
    the operator's webhook); ``detail`` says it in full, which may name a tile of someone's hand
    (for ``python -m data check`` and the DEBUG log only).
    """

    def __init__(
        self, table_id: int, problem: str, version: int | None = None, *, detail: str | None = None
    ) -> None:
        super().__init__(f"table {table_id}: {problem}")
        self.table_id = table_id
        self.problem = problem
        self.version = version
        self.detail = detail if detail is not None else problem


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; refusing to touch it."""


class DatabaseDamaged(StoreError):
    """The database as a whole cannot be trusted: an existing file that is empty or not a
    database, a failed integrity check at start, or "malformed" found while reading or writing.

    Distinct from :class:`CorruptRecord` (one table's row). The message says what was found and
    what the server owner can do; the store never recreates or repairs the database by itself.
    """


class StorageUnusable(StoreError):
    """The place the database lives cannot take it: a full disk, a read-only file system or
    folder, no permission, the login refused. Trying again will not help until the server owner
    changes something; the message says what."""


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
    ai: str | None = None  # "easy" | "normal" | "hard" for a computer player

    def to_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "ai": self.ai}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(d.get("user_id"), d["name"], d.get("ai"))


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
    messages: dict[str, int] = field(default_factory=dict)  # see Store.set_message
    departed: Mapping[int, int] = field(default_factory=dict)
    """Seat index -> user id of each player who left the running game (``/fp leave``)."""
    dm_failed: frozenset[int] = frozenset()
    """User ids whose closed direct messages this table's channel was told of (once per table;
    whether to DM a player at all is remembered per player: :meth:`Store.dm_refused_at`)."""
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


@dataclass(frozen=True)
class GuildSettings:
    """Per-server settings, changed with ``/fp-settings``."""

    guild_id: int
    turn_limit_s: int = 24 * 3600
    reminder_s: int = 12 * 3600  # a reminder goes out this long before the deadline
    defaults: TableDefaults = field(default_factory=TableDefaults)  # for /fp new
    language: str | None = None
    """The language ``/fp-settings`` chose for the posts of the server's new tables (a
    language code, ``"fr"``); None: the server's own language (:attr:`guild_locale`)."""
    guild_locale: str | None = None
    """The server's language as Discord last told the bot (``guild_locale`` of an interaction
    there: a Discord locale tag, ``"fr"``, ``"en-US"``); None: not seen yet. Written by
    :meth:`Store.set_guild_locale`."""


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
    :meth:`Store.set_player_language`."""


@dataclass(frozen=True)
class TableProblem:
    """What ``check`` found wrong with one table."""

    table_id: int
    problem: str


class Store(Protocol):
    """What the bot needs from persistence. All methods are coroutines; all writes are atomic."""

    async def open(self) -> None:
        """Connect, apply pending migrations (raise :class:`SchemaTooNew` if the database is
        newer than this code, :class:`DatabaseDamaged` if it exists but cannot be read or fails
        its integrity check; a damaged database is never recreated).

        A database created anew starts its table ids at a value derived from the creation time
        (unix time in milliseconds), so ids of a later database are past any an earlier one could
        have issued, and a stale button never reaches another table. Ids stay below ``2**53``."""

    async def close(self) -> None: ...

    async def open_table_count(self) -> int:
        """How many tables are open (in the lobby or playing): what the bot reports at start."""

    def identify_slot(self, bucket: int) -> AbstractAsyncContextManager[None]:
        """Hold the right to open a gateway session (IDENTIFY) in Discord's rate-limit bucket
        ``bucket`` (``shard_id % max_concurrency``): one holder at a time, across every process
        on this database (PostgreSQL: an advisory lock, released if the process dies) or within
        this process (SQLite, which serves one process only). The holder keeps it while it
        identifies and for Discord's 5 seconds after."""

    async def claim_command_sync(self, scope: str, digest: str, now: float) -> bool:
        """Whether this caller should register the slash commands of ``scope`` (``"global"``
        or ``"guild:<id>"``) whose payload hashes to ``digest``: true, and ``digest`` stored,
        only if the stored hash differs; of several callers at once, exactly one gets true."""

    async def forget_command_sync(self, scope: str, digest: str) -> None:
        """Undo a claim whose registration failed (if ``digest`` is still the stored hash), so
        that the next start registers the commands again."""

    # --- tables ---------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: TableOptions,
        seats: tuple[Seat, ...],
        now: float,
        *,
        language: str = "en",
    ) -> Table:
        """A new lobby, numbered after the guild's newest table (:attr:`Table.number`: two
        tables of one guild never get the same number, whoever creates them at once), whose
        posts are in ``language`` (:attr:`Table.language`, kept for the table's life); raises
        :class:`ChannelBusy` if the channel has an open table."""

    async def get_table(self, table_id: int) -> Table:
        """Raises :class:`NotFound` or :class:`CorruptRecord`."""

    async def table_numbered(self, guild_id: int, number: int) -> int | None:
        """The id of the guild's table numbered ``number`` (:attr:`Table.number`), or None."""

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        """The open table living in ``channel_id``: a lobby or a game in that channel, or a
        game whose thread it is (a game with a thread no longer occupies its parent channel)."""

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """Remember the thread an open table's game lives in (:attr:`Table.thread_id`); its
        parent channel is then free for another lobby. No version bump. Raises
        :class:`ChannelBusy` or :class:`NotFound` (the table is not open)."""

    async def update_lobby(
        self,
        table_id: int,
        expected_version: int,
        *,
        seats: tuple[Seat, ...] | None = None,
        options: TableOptions | None = None,
        status: TableStatus | None = None,
        now: float,
    ) -> Table:
        """Change a lobby (seats, options, or cancel it). Raises :class:`VersionConflict`."""

    async def start_game(
        self,
        table_id: int,
        expected_version: int,
        seats: tuple[Seat, ...],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
    ) -> Table:
        """Lobby -> playing with the dealt ``state`` (also kept as ``initial_state``)."""

    async def apply_action(
        self,
        table_id: int,
        expected_version: int,
        *,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
        seats: tuple[Seat, ...] | None = None,
        status: TableStatus | None = None,
    ) -> Table:
        """One game move, atomically: check the version, append the log row, write the new state
        (and optionally seats/status, e.g. when the match ends or a seat changes), bump the
        version. Raises :class:`VersionConflict` (nothing written) if the version moved on."""

    async def set_timers(
        self,
        table_id: int,
        expected_version: int,
        deadline: float | None,
        reminder_at: float | None,
        *,
        expected_timers: tuple[float | None, float | None] | None = None,
    ) -> None:
        """Change a table's timers without a move (e.g. after a reminder was sent); does not bump
        the version but checks it. With ``expected_timers=(deadline, reminder_at)`` as read, it
        also raises :class:`VersionConflict` if the timers changed meanwhile: of several bot
        processes due to send the same reminder, only the one whose claim succeeds sends it."""

    async def end_table(
        self,
        table_id: int,
        expected_version: int,
        status: TableStatus,
        now: float,
        results: dict[str, Any] | None = None,
    ) -> Table:
        """Close an open table (finished with results, cancelled, aborted); clears its timers
        and bumps its version. A table that its last move already marked finished
        (``apply_action(status="finished")``) may be ended as finished again to attach
        ``results``. A game aborted with ``results`` (its standings when it stopped) is recorded
        in the results like a finished one, in the same transaction, for the records to rate; a
        table aborted without them, or cancelled, is not. Raises :class:`VersionConflict`, or
        :class:`NotFound` if it is closed."""

    async def open_tables(self) -> list[Table]:
        """Every lobby and game still open, to restore views, timers and reminders at start.
        A corrupted row is skipped (and reported by :meth:`check`), never fatal."""

    async def due_timers(self, now: float) -> list[Table]:
        """Open tables whose deadline or reminder time is at or before ``now``."""

    async def claim_timers(self, now: float, owner: str, lease_s: float, limit: int) -> list[Table]:
        """Claim, for the process ``owner`` until ``now + lease_s``, at most ``limit`` of the
        tables :meth:`due_timers` would list that no other owner holds a claim on (claims that
        ran out count as none), and return them (lowest ids first). Atomic: of several
        processes claiming together, each table goes to exactly one. A claim hides the table's
        timers from the other owners until :meth:`release_timers` or the end of its lease,
        never longer: a process that dies leaves its tables to the others after ``lease_s``."""

    async def release_timers(self, table_id: int, owner: str) -> None:
        """End ``owner``'s claim on the table (nothing happens if it holds none: a claim that
        ran out may belong to another owner now)."""

    async def action_log(self, table_id: int) -> list[LoggedAction]: ...

    async def record_departure(
        self, table_id: int, seat: int, user_id: int, now: float, name: str
    ) -> None:
        """Remember that ``user_id`` (seated as ``name``) left the running game from ``seat``
        (:attr:`Table.departed`): the records rate them under that name, though their seat shows
        the computer that took it. Idempotent (a second call for the seat keeps the first
        record); does not bump the version. Raises :class:`NotFound`."""

    async def note_dm_failed(self, table_id: int, user_id: int) -> bool:
        """Remember that a direct message to ``user_id`` failed at this table
        (:attr:`Table.dm_failed`). True only the first time, atomically: of several processes
        noting it together, exactly one gets True (and tells the channel). No version bump."""

    async def mark_shown(self, table_id: int, version: int) -> None:
        """Remember that the channel was shown the table at ``version``
        (:attr:`Table.shown_version`); never moves backwards. No version bump."""

    # --- messages the bot edits later ---------------------------------------------------------

    async def set_message(
        self, table_id: int, key: str, message_id: int, shown_version: int | None = None
    ) -> None:
        """Remember a Discord message id under ``key`` (e.g. ``"lobby"``, ``"status"``,
        ``"hand:<user_id>"``); overwrites. Only real message ids live here. With
        ``shown_version``, the new message is recorded as showing that version (see
        :meth:`message_edit`), whatever the message kept before it showed."""

    async def get_messages(self, table_id: int) -> dict[str, int]: ...

    def message_edit(
        self, table_id: int, key: str, version: int
    ) -> AbstractAsyncContextManager[bool]:
        """Hold the right to edit the kept message ``key`` so that it shows the table at
        ``version``: one holder per message at a time, across every process on this database
        (PostgreSQL: a transaction-level advisory lock on one pooled connection, held for the
        whole block) or within this process (SQLite, which serves one process only). Yields
        whether ``version`` is newer than the version the message was last recorded to show
        (or none is recorded); when the block ends without an exception after yielding True,
        ``version`` is recorded on the message kept under ``key`` (if one is kept by then: the
        block may send a new message and :meth:`set_message` it). So an edit made from an
        older version never lands after, and over, one made from a newer version, whichever
        process sends it::

            async with store.message_edit(table_id, "hand:42", table.version) as go:
                if go:
                    await message.edit(...)
        """

    # --- preferences and settings -------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> PlayerPrefs: ...

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        """Keep every field of ``prefs`` (its language too)."""

    async def set_player_language(self, user_id: int, language: str) -> None:
        """Keep the language of ``user_id`` (:attr:`PlayerPrefs.language`), and nothing else:
        their other preferences stay as they are (the defaults for a player with none)."""

    async def note_dm_refused(self, user_id: int, at: float) -> None:
        """Remember that Discord refused a direct message to ``user_id`` at ``at`` (their DMs
        are closed): kept for the player, across every table and process, until
        :meth:`clear_dm_refused`. A later refusal moves the time forward, never back."""

    async def dm_refused_at(self, user_id: int) -> float | None:
        """When a direct message to ``user_id`` was last refused (None: not remembered)."""

    async def clear_dm_refused(self, user_id: int) -> bool:
        """Forget the refused direct messages of ``user_id`` (a DM went through, or they asked
        to try again). True if one was remembered."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        """Keep every field of ``settings`` (its languages too)."""

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        """Keep the server's language as Discord tells it (:attr:`GuildSettings.guild_locale`),
        and nothing else: its other settings stay as they are (the defaults if it has none)."""

    # --- results and checks --------------------------------------------------------------------

    async def results(
        self, guild_id: int | None = None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Matches with a result (finished, or aborted with their standings), newest first:
        ``{"table_id", "guild_id", "channel_id", "finished_at", "seats", "scores", "winners",
        "results"}`` (``results``: what was passed to :meth:`end_table`)."""

    async def check(self) -> list[TableProblem]:
        """Replay every game from its initial state and action log and compare with the stored
        state; also report unreadable rows, version gaps, a playing or finished table with no
        initial state, and a closed table whose version does not match its action log (counting
        the bump :meth:`end_table` makes)."""

"""The store's contracts: what the bot keeps between restarts, one protocol per job.

A caller names the contracts it uses, so that it sees only what it uses: the table service
:class:`ServiceStore` (:class:`Tables`, :class:`TimerLeases`, :class:`Preferences`,
:class:`ServerSettings`, :class:`Absences`), the show side's ledger :class:`KeptMessages`, the app
:class:`Coordination`, the tools :class:`Upkeep` and :class:`Records`, the turning points'
:class:`Analyses` (those two reached through :meth:`Upkeep.records` and
:meth:`Upkeep.analyses`). :class:`Store` is all of them, what ``data.open_store()`` returns.
``data.sqlite.SqliteStore`` is the embedded implementation, for one bot process;
``data.postgres.PostgresStore`` implements the same for several bot processes sharing one
database, and the same contract tests run against both. Nothing that several bot processes must
share lives only in one process's memory: it is all here. The records these contracts carry are
in :mod:`data.model`, the errors in :mod:`data.errors` (both also importable from here).

Every change to an open table is an optimistic, versioned write: the caller passes the version it
read, the store checks it, writes, and bumps it, in one transaction; a stale version raises
:class:`VersionConflict` and changes nothing. Game moves also append to the table's action log in
the same transaction, so the state can always be rebuilt from the starting state and the log.
All methods are coroutines; all writes are atomic. Over 400 lines: each method's contract is
written out in its docstring (the contract tests check what they say).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from data.errors import (
    ChannelBusy,
    CorruptRecord,
    DatabaseDamaged,
    NotFound,
    SchemaTooNew,
    StorageUnusable,
    StoreError,
    VersionConflict,
)
from data.model import (
    OPEN_STATUSES,
    Absence,
    AnalysisState,
    BoardPage,
    GuildSettings,
    HeldTurn,
    HistoryEntry,
    LoggedAction,
    MatchAnalysis,
    Pause,
    PlayerPrefs,
    PlayerReach,
    PlayerStats,
    Seat,
    Table,
    TableDefaults,
    TableOptions,
    TableProblem,
    TableStatus,
)
from engine.ai.review import Review
from rating import MIN_MATCHES, PlayerRecord


class Tables(Protocol):
    """What a table's life needs: its record, its versioned changes and its action log."""

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

    async def hold_turn(
        self,
        table_id: int,
        expected_version: int,
        held: HeldTurn,
        *,
        replacing: str | None,
        deadline: float | None,
        reminder_at: float | None,
        now: float,
    ) -> Table:
        """Keep a person's turn back (:class:`HeldTurn`), or keep the next decision of one:
        ``held`` replaces the held turn whose token is ``replacing`` (None: the table holds
        none), the timers are set, the version bumped; the state and the action log are not
        touched, and :meth:`apply_action` refuses every move until the turn is handed on or
        undone. Raises :class:`VersionConflict` (nothing written) if the version moved on or
        the table holds another turn, :class:`NotFound` if it is not playing."""

    async def undo_turn(
        self, table_id: int, expected_version: int, token: str, *, now: float
    ) -> Table:
        """Forget the held turn ``token``: the table is as it was before that turn, its
        version back by one per decision held, its deadline and reminder those the turn found.
        Raises :class:`VersionConflict` (nothing written) if the version moved on or the table
        holds no such turn (handed on, or undone already), :class:`NotFound` if it is not
        playing."""

    async def hand_on(
        self,
        table_id: int,
        expected_version: int,
        token: str,
        *,
        actions: Sequence[LoggedAction],
        state: dict[str, Any],
        deadline: float | None,
        reminder_at: float | None,
        now: float,
        seats: tuple[Seat, ...] | None = None,
        status: TableStatus | None = None,
    ) -> Table:
        """Hand on the held turn ``token``, atomically: ``actions`` (its decisions, and
        possibly one more that ends it) appended to the action log, numbered on from the
        version before the turn (a ValueError otherwise), ``state`` written (and optionally
        seats/status), the held turn cleared, the timers set; the version is the last
        action's. A turn that finishes the match records its result in the same transaction.
        Raises :class:`VersionConflict` (nothing written) if the version moved on or the table
        holds no such turn, :class:`NotFound` if it is not playing."""

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

    async def set_pause(
        self,
        table_id: int,
        expected_version: int,
        pause: Pause | None,
        deadline: float | None,
        reminder_at: float | None,
        *,
        expected_timers: tuple[float | None, float | None],
    ) -> None:
        """Pause a running game (:attr:`Table.pause`) or resume it (``pause`` None), with the
        timers that go with it, without bumping its version (but checking it). Like
        :meth:`set_timers` with ``expected_timers``, a compare-and-set on the timers as read:
        :class:`VersionConflict` if they changed meanwhile (of two processes resuming a table at
        once, one does). Raises :class:`NotFound` if the table is not playing."""

    async def end_table(
        self,
        table_id: int,
        expected_version: int,
        status: TableStatus,
        now: float,
        results: dict[str, Any] | None = None,
    ) -> Table:
        """Close an open table (finished with results, cancelled, aborted); clears its timers
        (and a held turn: nobody saw it) and bumps its version. A table that its last move
        already marked finished (``apply_action(status="finished")``) may be ended as finished
        again to attach
        ``results``. A game aborted with ``results`` (its standings when it stopped) is recorded
        in the results like a finished one, in the same transaction, for the records to rate; a
        table aborted without them, or cancelled, is not. Raises :class:`VersionConflict`, or
        :class:`NotFound` if it is closed."""

    async def open_tables(self) -> list[Table]:
        """Every lobby and game still open, to restore views, timers and reminders at start.
        A corrupted row is skipped (and reported by :meth:`check`), never fatal."""

    async def action_log(self, table_id: int) -> list[LoggedAction]: ...

    async def record_departure(
        self, table_id: int, seat: int, user_id: int, now: float, name: str
    ) -> None:
        """Remember that ``user_id`` (seated as ``name``) left the running game from ``seat``
        (:attr:`Table.departed`): the records rate them under that name, though their seat shows
        the computer that took it. Idempotent (a second call for the seat keeps the first
        record); does not bump the version. Raises :class:`NotFound`."""

    async def get_messages(self, table_id: int) -> dict[str, int]: ...


class TimerLeases(Protocol):
    """Which process handles a table's due timers (deadlines, reminders) now."""

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


class KeptMessages(Protocol):
    """The Discord messages a table keeps and edits later, and what its channel was told."""

    async def set_message(
        self, table_id: int, key: str, message_id: int, shown_version: int | None = None
    ) -> None:
        """Remember a Discord message id under ``key`` (e.g. ``"lobby"``, ``"status"``,
        ``"hand:<user_id>"``); overwrites. Only real message ids live here. With
        ``shown_version``, the new message is recorded as showing that version (see
        :meth:`message_edit`), whatever the message kept before it showed."""

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

    async def mark_shown(self, table_id: int, version: int) -> None:
        """Remember that the channel was shown the table at ``version``
        (:attr:`Table.shown_version`); never moves backwards. No version bump."""

    async def note_dm_failed(self, table_id: int, user_id: int) -> bool:
        """Remember that a direct message to ``user_id`` failed at this table
        (:attr:`Table.dm_failed`). True only the first time, atomically: of several processes
        noting it together, exactly one gets True (and tells the channel). No version bump."""


class Coordination(Protocol):
    """What the bot's processes agree on through the database: who identifies with Discord, who
    registers the slash commands."""

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


class Preferences(Protocol):
    """Each player's preferences, language and closed direct messages."""

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

    async def get_reach(self, user_ids: Collection[int]) -> dict[int, PlayerReach]:
        """The preferences and refused direct messages of every player of ``user_ids`` (the
        defaults for one who never set any), in one read: what showing their hands needs."""

    async def clear_dm_refused(self, user_id: int) -> bool:
        """Forget the refused direct messages of ``user_id`` (a DM went through, or they asked
        to try again). True if one was remembered."""


class Absences(Protocol):
    """Who is away in each server (a computer plays their decisions at once at every table of
    theirs there), and how many of their decisions in a row the clock ran out on: per server
    and player, across every table and process (:class:`~data.model.Absence`; a table read
    carries those of its seated people, :attr:`Table.absences`)."""

    async def absence(self, guild_id: int, user_id: int) -> Absence | None:
        """The player's absence in the server (None: nothing kept)."""

    async def set_away(self, guild_id: int, user_id: int, until: float) -> None:
        """Keep that the player is away in the server until ``until`` (their own choice,
        ``/fp away``): it replaces an earlier away, and their time-outs in a row count from
        zero again."""

    async def end_away(self, guild_id: int, user_id: int) -> Absence | None:
        """Forget the player's absence in the server (they are back, or made a decision
        themselves): their away and their time-outs in a row. Returns what was kept (None:
        nothing), atomically: of several callers at once, one gets it."""

    async def count_timeout(self, guild_id: int, user_id: int) -> int:
        """One more decision of the player in a row ran out of time in the server: how many in
        a row now (each call counts once, whatever other process counts at the same time)."""

    async def seated_tables(self, guild_id: int, user_id: int) -> list[int]:
        """The ids of the server's open tables (lobbies and running games) where the player
        holds a seat (a seat a computer took over is not theirs), lowest first."""

    async def away_after_timeouts(
        self, guild_id: int, user_id: int, until: float, timeouts: int
    ) -> bool:
        """Set the player away until ``until`` because the clock ran out on at least
        ``timeouts`` of their decisions in a row (:attr:`Absence.auto`), their count starting
        from zero again; True if this call did it (of several at once, exactly one does; False
        once the count is below ``timeouts``)."""


class ServerSettings(Protocol):
    """Each server's settings (``/fp-settings``) and its language as Discord tells it."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        """Keep every field of ``settings`` (its languages too)."""

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        """Keep the server's language as Discord tells it (:attr:`GuildSettings.guild_locale`),
        and nothing else: its other settings stay as they are (the defaults if it has none)."""


class Upkeep(Protocol):
    """Opening and closing the database, and what the operator's tools read: the results, the
    check of every game, the records."""

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

    def records(self) -> Records:
        """The records of played matches kept in this database (ratings, aggregates, history:
        :mod:`data.records`)."""

    def analyses(self) -> Analyses:
        """The turning points' analyses of played matches kept in this database
        (:mod:`data.analyses`)."""


class Records(Protocol):
    """The records of played matches: ratings and aggregates per server, and the history (the
    rating itself is :mod:`rating`'s; :mod:`data.records` says how the stores keep it)."""

    async def rate_match(self, table_id: int) -> bool:
        """Rate one match with a result if it is not rated yet; True if this call rated it. A match
        whose log does not replay is marked rated with no change (and logged), never retried
        forever."""

    async def rate_pending(self, limit: int = 1000) -> int:
        """Rate up to ``limit`` matches with a result not rated yet, oldest first; how many."""

    async def recompute(self, guild_id: int | None = None) -> int:
        """Rebuild the ratings of one server (or all) from the stored results, in the order
        they were first rated; how many matches were applied."""

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats | None: ...

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, min_matches: int = MIN_MATCHES
    ) -> BoardPage: ...

    async def history(
        self, guild_id: int, user_id: int | None, limit: int, before: float | None = None
    ) -> list[HistoryEntry]:
        """The server's matches with a result (or those ``user_id`` played, left included),
        newest first."""

    async def all_records(self, guild_id: int) -> list[PlayerRecord]:
        """Every rated player of a server (for checks and recomputation)."""


class Analyses(Protocol):
    """The turning points' analyses of played matches (:class:`MatchAnalysis`): each match with
    a result is analysed once, in the background, by whichever bot process claims it
    (:mod:`data.analyses` says how the claims work)."""

    async def claim_analysis(
        self, owner: str, now: float, lease_s: float, since: float
    ) -> int | None:
        """Claim, for the process ``owner`` until ``now + lease_s``, the analysis of the match
        that ended last at ``since`` or later among those with a result and no analysis that no
        other owner holds a live claim on (a claim that ran out counts as none; a match claimed
        too often is given up), and return its table id (None: there is none). Atomic: of
        several processes claiming together, each match goes to exactly one."""

    async def renew_analysis(self, table_id: int, owner: str, now: float, until: float) -> bool:
        """Extend ``owner``'s live claim on the match's analysis to ``until``; False if it holds
        none any more (its claim ran out at ``now`` or before, or the analysis is kept)."""

    async def release_analysis(self, table_id: int, owner: str) -> None:
        """Give up ``owner``'s claim (it stops working on it, shutting down): any process may
        claim the match at once, and this claim does not count as an attempt. Nothing happens
        if it holds none."""

    async def save_analysis(
        self, table_id: int, reviews: Sequence[Review] | None, now: float
    ) -> bool:
        """Keep the match's analysis: its ``reviews`` (None: it cannot be analysed), unless one
        is kept already (the first save wins; a kept analysis never changes). True if this call
        kept it."""

    async def analysis(self, table_id: int, now: float) -> MatchAnalysis | None:
        """The match's analysis as it stands at ``now`` (None: nobody claimed it yet). Raises
        :class:`CorruptRecord` if its reviews cannot be read."""


class ServiceStore(Tables, TimerLeases, Preferences, ServerSettings, Absences, Protocol):
    """What the table service (``bot.service``) uses: tables, timer leases, preferences,
    settings and absences; no kept messages (the show side's), no process coordination (the
    app's), no upkeep (the tools')."""


class Store(
    Tables,
    TimerLeases,
    KeptMessages,
    Coordination,
    Preferences,
    ServerSettings,
    Absences,
    Upkeep,
    Protocol,
):
    """Every contract: what ``data.open_store()`` returns, and each store implements."""


__all__ = [
    "OPEN_STATUSES",
    "Absence",
    "Absences",
    "Analyses",
    "AnalysisState",
    "BoardPage",
    "ChannelBusy",
    "Coordination",
    "CorruptRecord",
    "DatabaseDamaged",
    "GuildSettings",
    "HeldTurn",
    "HistoryEntry",
    "KeptMessages",
    "LoggedAction",
    "MatchAnalysis",
    "NotFound",
    "Pause",
    "PlayerPrefs",
    "PlayerReach",
    "PlayerStats",
    "Preferences",
    "Records",
    "SchemaTooNew",
    "Seat",
    "ServerSettings",
    "ServiceStore",
    "StorageUnusable",
    "Store",
    "StoreError",
    "Table",
    "TableDefaults",
    "TableOptions",
    "TableProblem",
    "TableStatus",
    "Tables",
    "TimerLeases",
    "Upkeep",
    "VersionConflict",
]

"""Turning stored rows into records and back, and finding what is wrong with a row.

Nothing here knows SQL: a PostgreSQL store can reuse all of it. A stored table row is read with
:func:`table_from_row`; any problem (unreadable JSON, a state the engine rejects, a gap in the
action log) raises :class:`~data.store.CorruptRecord` for that table only.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast, get_args

import orjson

from data.store import (
    OPEN_STATUSES,
    Absence,
    CorruptRecord,
    HeldTurn,
    LoggedAction,
    Pause,
    Seat,
    Table,
    TableOptions,
    TableStatus,
)

log = logging.getLogger(__name__)

STATUSES: frozenset[str] = frozenset(get_args(TableStatus))
CLOSED_STATUSES: tuple[TableStatus, ...] = ("finished", "cancelled", "aborted")


_I64_MIN, _U64_MAX = -(2**63), 2**64 - 1


class JsonRangeError(ValueError):
    """A value holds an integer beyond 64 bits, which not every JSON reader reads exactly."""


def _check_ints(value: Any) -> None:
    """Raise :class:`JsonRangeError` if ``value`` holds an integer beyond 64 bits."""
    if isinstance(value, int):
        if not _I64_MIN <= value <= _U64_MAX:
            shown = str(value) if value.bit_length() < 1000 else f"of {value.bit_length()} bits"
            raise JsonRangeError(f"the integer {shown} is beyond 64 bits")
    elif isinstance(value, dict):
        for v in value.values():
            _check_ints(v)
    elif isinstance(value, list | tuple):
        for v in value:
            _check_ints(v)


# Stored JSON holds integers of at most 64 bits (the engine's generator state is one), so that
# any JSON reader (another language's, or a faster one) reads every stored text exactly.
# orjson writes a state several times faster than the json module (the largest part of a
# move's commit) and refuses such integers by itself.
def dumps(value: Any) -> str:
    """Compact JSON, as stored. Raises :class:`JsonRangeError` for an integer beyond 64 bits,
    TypeError for a value JSON cannot hold."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        pass
    # orjson refuses a few values the json module writes (a lone surrogate in a name, say):
    # find the long integer, else let json decide.
    _check_ints(value)
    try:
        return json.dumps(value, separators=(",", ":"))
    except ValueError as e:  # a value too deep, or a circular one
        raise TypeError(str(e)) from e


def loads(text: str) -> Any:
    """A stored JSON text's value (ValueError if it is not JSON)."""
    return json.loads(text)


def seats_json(seats: Sequence[Seat]) -> str:
    return dumps([s.to_dict() for s in seats])


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as the database holds it: JSON columns still text, plus log statistics.

    ``log_count`` / ``log_min`` / ``log_max`` describe the table's action log (None when the
    query did not look at it: then the log is not checked).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: str
    seats: str
    version: int
    state: str | None
    initial_state: str | None
    start_version: int | None
    deadline: float | None
    reminder_at: float | None
    created_at: float
    updated_at: float
    messages: str | dict[str, int] | None = None  # JSON object key -> message id (or read)
    departed: str | dict[int, int] | None = None  # JSON object seat -> user id (or read)
    dm_failed: str | frozenset[int] | None = None  # JSON list of user ids (or read)
    shown_version: int | None = None
    thread_id: int | None = None
    number: int = 0
    language: str = "en"
    held: str | None = None  # JSON object: a held turn (data.model.HeldTurn), or None
    pause: str | None = None  # JSON object (data.model.Pause), None: not paused
    absences: str | dict[int, Absence] | None = None  # JSON object user id -> absence (or read)
    log_count: int | None = None
    log_min: int | None = None
    log_max: int | None = None


def load_json(text: str, what: str) -> Any:
    try:
        return loads(text)
    except (ValueError, TypeError) as e:
        raise ValueError(f"unreadable {what} JSON ({e})") from None


def parse_seats(text: str) -> tuple[Seat, ...]:
    """Seats from their JSON text; ValueError if they are not a list of seats."""
    raw = load_json(text, "seats")
    if not isinstance(raw, list):
        raise ValueError("seats are not a JSON list")
    seats: list[Seat] = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ValueError(f"bad seat {item!r}")
        uid = item.get("user_id")
        ai = item.get("ai")
        if not (uid is None or (isinstance(uid, int) and not isinstance(uid, bool))):
            raise ValueError(f"bad seat user id {uid!r}")
        if not (ai is None or isinstance(ai, str)):
            raise ValueError(f"bad seat ai {ai!r}")
        seats.append(Seat.from_dict(item))
    return tuple(seats)


def parse_messages(text: str | None) -> dict[str, int]:
    """A table's message ids (key -> id) from their JSON text (None: none); ValueError or
    TypeError if they are not an object of integers."""
    if not text:
        return {}
    return {str(k): int(v) for k, v in parse_object(text, "messages").items()}


def parse_options(text: str) -> TableOptions:
    """A table's options from their JSON text; ValueError if they do not read."""
    return TableOptions.from_dict(parse_object(text, "options"))


def parse_departed(text: str | None) -> dict[int, int]:
    """Seat -> user id of the players who left, from their JSON text (None: nobody)."""
    if not text:
        return {}
    raw = parse_object(text, "departures")
    try:
        return {int(k): int(v) for k, v in raw.items()}
    except (TypeError, ValueError):
        raise ValueError("departures are not seats and user ids") from None


def parse_dm_failed(text: str | None) -> frozenset[int]:
    """The user ids whose direct message failed, from their JSON text (None: none)."""
    if not text:
        return frozenset()
    raw = load_json(text, "DM failures")
    if not isinstance(raw, list) or not all(
        isinstance(u, int) and not isinstance(u, bool) for u in raw
    ):
        raise ValueError("DM failures are not a list of user ids")
    return frozenset(raw)


def parse_held(text: str | None) -> HeldTurn | None:
    """A held turn from its JSON text (None: none); ValueError or TypeError if it does not
    read."""
    if not text:
        return None
    try:
        return HeldTurn.from_dict(parse_object(text, "held turn"))
    except KeyError as e:
        raise ValueError(f"a held turn without {e}") from None


def held_count(text: str | None) -> int:
    """How many decisions a held turn's JSON text holds (0: none, or unreadable: its reader
    says why)."""
    try:
        held = parse_held(text)
    except (ValueError, TypeError):
        return 0
    return 0 if held is None else len(held.actions)


def parse_pause(text: str | None) -> Pause | None:
    """A table's pause from its JSON text (None: not paused); ValueError if it does not read."""
    if not text:
        return None
    return Pause.from_dict(parse_object(text, "pause"))


def parse_absences(text: str | None) -> dict[int, Absence]:
    """User id -> :class:`Absence` from their JSON text (an object of ``[away_until, auto,
    timeouts]`` arrays, as the table's read builds it; None: none)."""
    if not text:
        return {}
    out: dict[int, Absence] = {}
    for user, value in parse_object(text, "absences").items():
        if not isinstance(value, list) or len(value) != 3:
            raise ValueError(f"unreadable absence {value!r}")
        until, auto, timeouts = value
        out[int(user)] = Absence(None if until is None else float(until), bool(auto), int(timeouts))
    return out


def parse_object(text: str, what: str) -> dict[str, Any]:
    value = load_json(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


class InvalidState(ValueError):
    """A stored state the engine cannot restore. Its text quotes the engine, which may name a
    tile and the hand holding it; ``summary`` does not."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} is not a valid game state ({why})")
        self.summary = f"{what} is not a valid game state (python -m data check says why)"


def validate_state(state: dict[str, Any], what: str) -> None:
    """Raise :class:`InvalidState` if the engine cannot restore ``state``."""
    from engine import Game  # data -> engine for (de)serialisation only

    try:
        Game.from_dict(state)
    except Exception as e:  # EngineError, or anything a malformed dict makes the reader raise
        raise InvalidState(what, str(e)) from None


def log_problem(row: TableRow) -> str | None:
    """What is wrong with the action log's shape (a version gap...), from its statistics. A
    held turn's decisions count in the table's version before they are in the log."""
    if row.log_count is None:
        return None
    count = row.log_count
    held = held_count(row.held)
    if row.start_version is None:
        return f"{count} logged actions but the game never started" if count else None
    if count == 0:
        if row.status == "playing" and row.version != row.start_version + held:
            return (
                f"version {row.version} but the action log is empty after the start at "
                f"version {row.start_version}"
            )
        return None
    lo, hi = row.log_min, row.log_max
    assert lo is not None and hi is not None
    if lo != row.start_version + 1 or hi - lo + 1 != count:
        return (
            f"version gap in the action log: {count} actions between versions {lo} and {hi}, "
            f"after the start at version {row.start_version}"
        )
    if hi > row.version or (row.status == "playing" and hi + held != row.version):
        return f"the table is at version {row.version} but its action log ends at version {hi}"
    return None


def table_from_row(
    row: TableRow,
    *,
    validate: bool = True,
    strict: bool = True,
    state: dict[str, Any] | None = None,
    initial: dict[str, Any] | None = None,
    has_initial: bool = False,
    load: Callable[[str, str], dict[str, Any]] | None = None,
) -> Table:
    """The :class:`Table` a row holds: the one decoder of a table row, for every store.

    Raises :class:`CorruptRecord` if a column cannot be read, the state is not one the engine
    accepts (``validate``) or the action log has a gap. With ``strict=False`` nothing is raised:
    unreadable columns come back empty (used to close a corrupt table). A store that has the
    ``state`` (or the ``initial`` state, ``has_initial``) already passes it; ``load`` reads a
    JSON object's text (default :func:`parse_object`); message ids, departures and DM failures
    may come read already (a store whose query returns them as arrays).
    """
    read = load or parse_object
    problems: list[str] = []
    details: list[str] = []

    def attempt(fn: Any, default: Any) -> Any:
        try:
            return fn()
        except (ValueError, TypeError) as e:
            problems.append(e.summary if isinstance(e, InvalidState) else str(e))
            details.append(str(e))
            return default

    if row.status not in STATUSES:
        problems.append(f"unknown status {row.status!r}")
        details.append(problems[-1])
    options = attempt(lambda: parse_options(row.options), TableOptions())
    seats = attempt(lambda: parse_seats(row.seats), ())
    if state is None and row.state is not None:
        text = row.state
        state = attempt(lambda: read(text, "state"), None)
        if state is not None and validate:
            attempt(lambda: validate_state(state, "the state"), None)
    elif state is None and row.status == "playing":
        problems.append("a game in progress without a state")
        details.append(problems[-1])
    if not has_initial and row.initial_state is not None:
        initial_text = row.initial_state
        initial = attempt(lambda: read(initial_text, "initial state"), None)
    messages: dict[str, int] = {}
    if isinstance(row.messages, dict):
        messages = row.messages
    elif row.messages:
        text = row.messages
        raw = attempt(lambda: parse_object(text, "messages"), {})
        messages = {str(k): int(v) for k, v in raw.items() if isinstance(v, int)}
    departed = (
        row.departed
        if isinstance(row.departed, dict)
        else attempt(lambda: parse_departed(row.departed), {})
    )
    dm_failed = (
        row.dm_failed
        if isinstance(row.dm_failed, frozenset)
        else attempt(lambda: parse_dm_failed(row.dm_failed), frozenset())
    )
    held = attempt(lambda: parse_held(row.held), None)
    pause = attempt(lambda: parse_pause(row.pause), None)
    absences = (
        row.absences
        if isinstance(row.absences, dict)
        else attempt(lambda: parse_absences(row.absences), {})
    )
    gap = log_problem(row)
    if gap:
        problems.append(gap)
        details.append(gap)
    if problems and strict:
        raise CorruptRecord(row.id, "; ".join(problems), row.version, detail="; ".join(details))
    return Table(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        status=cast(TableStatus, row.status),
        options=options,
        seats=seats,
        version=row.version,
        state=state,
        initial_state=initial,
        deadline=row.deadline,
        reminder_at=row.reminder_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        messages=messages,
        departed=departed,
        dm_failed=dm_failed,
        shown_version=row.shown_version,
        thread_id=row.thread_id,
        number=row.number,
        language=row.language,
        held=held,
        pause=pause,
        absences=absences,
    )


def action_from_row(
    table_id: int, version: int, seat: int | None, user_id: int | None, action: str, at: float
) -> LoggedAction:
    """A log row as a :class:`LoggedAction` (raises :class:`CorruptRecord` on bad JSON)."""
    try:
        parsed = parse_object(action, f"action {version}")
    except ValueError as e:
        raise CorruptRecord(table_id, str(e)) from None
    return LoggedAction(table_id, version, seat, user_id, parsed, at)


__all__ = [
    "CLOSED_STATUSES",
    "OPEN_STATUSES",
    "STATUSES",
    "TableRow",
    "action_from_row",
    "dumps",
    "log_problem",
    "parse_absences",
    "parse_held",
    "parse_messages",
    "parse_object",
    "parse_pause",
    "parse_seats",
    "seats_json",
    "table_from_row",
    "validate_state",
]


class InitialStates:
    """The parsed initial states of recently moved tables, so that a move's answer does not
    parse its dealt state again (it never changes once a game has started: an entry is used
    while the table's ``start_version`` is the same)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._entries: OrderedDict[int, tuple[int | None, dict[str, Any] | None]] = OrderedDict()

    def get(self, table_id: int, start_version: int | None) -> tuple[bool, dict[str, Any] | None]:
        """``(found, state)``."""
        entry = self._entries.get(table_id)
        if entry is None or entry[0] != start_version:
            return False, None
        self._entries.move_to_end(table_id)
        return True, entry[1]

    def put(self, table_id: int, start_version: int | None, state: dict[str, Any] | None) -> None:
        self._entries[table_id] = (start_version, state)
        self._entries.move_to_end(table_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


def report_skipped(reported: set[tuple[int, int | None, str]], err: CorruptRecord) -> None:
    """Log a table skipped at start-up because its row cannot be read: a warning the first time
    this store meets that problem, then at debug level (the timer loops meet it at every poll)."""
    key = (err.table_id, err.version, err.problem)
    level = logging.DEBUG if key in reported else logging.WARNING
    reported.add(key)
    log.log(level, "skipping table %s: %s", err.table_id, err.problem)

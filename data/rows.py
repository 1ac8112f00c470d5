"""Turning stored rows into records and back, and finding what is wrong with a row.

Nothing here knows SQL: a PostgreSQL store can reuse all of it. A stored table row is read with
:func:`table_from_row`; any problem (unreadable JSON, a state the engine rejects, a gap in the
action log) raises :class:`~data.store.CorruptRecord` for that table only.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast, get_args

import orjson

from data.store import (
    OPEN_STATUSES,
    CorruptRecord,
    LoggedAction,
    Seat,
    Table,
    TableOptions,
    TableProblem,
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
    """What is wrong with the action log's shape (a version gap...), from its statistics."""
    if row.log_count is None:
        return None
    count = row.log_count
    if row.start_version is None:
        return f"{count} logged actions but the game never started" if count else None
    if count == 0:
        if row.status == "playing" and row.version != row.start_version:
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
    if hi > row.version or (row.status == "playing" and hi != row.version):
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


def replay_actions(log: Iterable[LoggedAction]) -> list[dict[str, Any]]:
    """The log as the engine's ``replay`` takes it: each action with the acting seat as player."""
    out: list[dict[str, Any]] = []
    for entry in log:
        a = dict(entry.action)
        if entry.seat is not None:
            a["player"] = entry.seat
        out.append(a)
    return out


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, as a readable path (``hands[2]``, ``rng``...)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}" if path else str(key)
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
        return path or "(top)"
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        return f"{path} (length {len(a)} vs {len(b)})"
    return path or "(top)"


def check_table(row: TableRow, log_rows: Sequence[tuple[int, int | None, str]]) -> list[str]:
    """Every problem of one table: unreadable columns, a version gap, or a stored state that is
    not what replaying the action log from the initial state gives. ``log_rows`` are
    ``(version, seat, action JSON)`` in version order."""
    from engine import EngineError, replay
    from engine.game import PUBLIC_RECORD_KEYS

    problems: list[str] = []
    try:
        table = table_from_row(row, validate=True)
    except CorruptRecord as e:
        # Still replay the log (it may have problems of its own), but an unreadable row is not
        # compared with the replay: it is reported once, above (in full: the operator asked).
        problems.append(e.detail)
        table = table_from_row(row, validate=False, strict=False)
    versions = [v for v, _, _ in log_rows]
    if row.start_version is None:
        if versions:
            problems.append(f"{len(versions)} logged actions but the game never started")
        elif row.status in ("playing", "finished"):
            problems.append(f"no initial state: a {row.status} game that never started")
        return _unique(problems)
    expected = list(range(row.start_version + 1, row.start_version + 1 + len(versions)))
    if versions != expected:
        missing = sorted(set(range(row.start_version + 1, max(versions) + 1)) - set(versions))
        problems.append(
            f"version gap in the action log: missing version {missing[0]}"
            if missing
            else "unexpected versions in the action log"
        )
        return _unique(problems)
    last = versions[-1] if versions else row.start_version
    if last > row.version or (row.status == "playing" and last != row.version):
        problems.append(
            f"the table is at version {row.version} but its action log ends at version {last}"
        )
        return _unique(problems)
    if row.status in CLOSED_STATUSES and row.version > last + 1:
        # Closing a game bumps its version once (end_table); its last move may have closed it.
        problems.append(
            f"the closed table is at version {row.version} but its action log ends at version "
            f"{last}: closing it accounts for one version at most"
        )
        return _unique(problems)
    if table.initial_state is None or table.state is None:
        if table.status != "lobby" and not problems:
            problems.append("no initial state or no state to replay")
        return _unique(problems)
    log: list[LoggedAction] = []
    for version, seat, text in log_rows:
        try:
            log.append(action_from_row(row.id, version, seat, None, text, 0.0))
        except CorruptRecord as e:
            problems.append(e.problem)
            return _unique(problems)
    try:
        game, _ = replay(table.initial_state, replay_actions(log))
    except EngineError as e:
        problems.append(f"the action log does not replay ({e})")
        return _unique(problems)
    except Exception as e:  # a malformed initial state may break the reader in other ways
        problems.append(f"the action log does not replay ({type(e).__name__}: {e})")
        return _unique(problems)
    # The public record of seen tiles is not the rules' state, and a game saved before the
    # engine kept it replays with a longer one.
    replayed = {k: v for k, v in game.to_dict().items() if k not in PUBLIC_RECORD_KEYS}
    stored = {k: v for k, v in table.state.items() if k not in PUBLIC_RECORD_KEYS}
    if not problems and replayed != stored:
        problems.append(
            f"stored state differs from the replay of {len(log)} actions "
            f"(first difference at {first_difference(stored, replayed)})"
        )
    return _unique(problems)


def _unique(problems: list[str]) -> list[str]:
    return list(dict.fromkeys(problems))


def problems_of(table_id: int, problems: Iterable[str]) -> list[TableProblem]:
    return [TableProblem(table_id, p) for p in problems]


def recorded(status: str, results: dict[str, Any] | None) -> bool:
    """Whether a table closed with ``status`` gets a result row: a finished match always, an
    aborted game when the bot gives its standings (it stopped after its first move)."""
    return status == "finished" or (status == "aborted" and results is not None)


RESULT_UPSERT = (
    "INSERT INTO results (table_id, guild_id, channel_id, finished_at, seats, scores, "
    "winners, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET finished_at = excluded.finished_at, "
    "seats = excluded.seats, scores = excluded.scores, winners = excluded.winners, "
    "data = CASE WHEN excluded.data = '{}' THEN results.data ELSE excluded.data END"
)
RESULT_PLAYERS_DELETE = "DELETE FROM result_players WHERE table_id = ?"
RESULT_PLAYERS_INSERT = (
    "INSERT INTO result_players (table_id, seat, user_id, name, ai, score, won) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def result_rows(
    table_id: int,
    guild_id: int,
    channel_id: int,
    finished_at: float,
    seats: Sequence[Seat],
    state: dict[str, Any] | None,
    results: dict[str, Any] | None,
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The ``results`` row (for :data:`RESULT_UPSERT`) and the ``result_players`` rows (for
    :data:`RESULT_PLAYERS_INSERT`) recording a finished match."""
    scores, winners = scores_and_winners(state, results)
    match = (
        table_id,
        guild_id,
        channel_id,
        finished_at,
        seats_json(seats),
        None if scores is None else dumps(scores),
        None if winners is None else dumps(winners),
        dumps(results or {}),
    )
    players = [
        (
            table_id,
            i,
            s.user_id,
            s.name,
            s.ai,
            scores[i] if scores is not None and i < len(scores) else None,
            int(winners is not None and i in winners),
        )
        for i, s in enumerate(seats)
    ]
    return match, players


def results_from_rows(rows: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """Rows of ``results`` (table_id, guild_id, channel_id, finished_at, seats, scores,
    winners, data) as the store's ``results`` returns them; an unreadable one is logged and
    skipped."""
    out: list[dict[str, Any]] = []
    for tid, gid, cid, at, seats, scores, winners, data in rows:
        try:
            seat_list = [s.to_dict() for s in parse_seats(seats)]
            score_list = None if scores is None else load_json(scores, "scores")
            winner_list = None if winners is None else load_json(winners, "winners")
            extra = parse_object(data, "results")
        except ValueError as e:
            log.warning("skipping the result of table %s: %s", tid, e)
            continue
        if winner_list is None:
            _, winner_list = scores_and_winners({"scores": score_list}, None)
        out.append(
            {
                "table_id": tid,
                "guild_id": gid,
                "channel_id": cid,
                "finished_at": at,
                "seats": seat_list,
                "scores": score_list,
                "winners": winner_list or [],
                "results": extra,
            }
        )
    return out


def scores_and_winners(
    state: dict[str, Any] | None, results: dict[str, Any] | None
) -> tuple[list[int] | None, list[int] | None]:
    """A finished match's totals and winners: from ``results`` if the bot gave them, else from
    the final engine state (lowest total wins; ties share)."""
    res = results or {}
    scores = res.get("scores")
    if scores is None and state is not None:
        scores = state.get("scores")
    if not (isinstance(scores, list) and all(isinstance(s, int) for s in scores)):
        scores = None
    winners = res.get("winners")
    if not (isinstance(winners, list) and all(isinstance(w, int) for w in winners)):
        winners = None
    if winners is None and scores:
        best = min(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
    return scores, winners


__all__ = [
    "CLOSED_STATUSES",
    "OPEN_STATUSES",
    "RESULT_PLAYERS_DELETE",
    "RESULT_PLAYERS_INSERT",
    "RESULT_UPSERT",
    "STATUSES",
    "TableRow",
    "action_from_row",
    "check_table",
    "dumps",
    "first_difference",
    "log_problem",
    "parse_messages",
    "parse_object",
    "parse_seats",
    "recorded",
    "replay_actions",
    "result_rows",
    "scores_and_winners",
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

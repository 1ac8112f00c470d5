"""The check of one stored table (``python -m data check``): its row reads, its action log has no
gap, and replaying the log from the dealt state gives the stored state. Shared by both stores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from data.errors import CorruptRecord
from data.model import LoggedAction, TableProblem
from data.rows import CLOSED_STATUSES, TableRow, action_from_row, held_count, table_from_row
from engine import EngineError, replay
from engine.game import PUBLIC_RECORD_KEYS


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
    # A held turn's decisions count in the version before they reach the log.
    held = held_count(row.held) if row.status == "playing" else 0
    if last > row.version or (row.status == "playing" and last + held != row.version):
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

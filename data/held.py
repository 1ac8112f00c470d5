"""A turn held back for its undo window (:class:`data.model.HeldTurn`), for both stores: the
checks a held write makes under the row's lock, and its SQL, written once (``?`` placeholders:
:mod:`data.sql`).

Three writes change a held turn, each one transaction that first reads the table's version,
status and held turn under the row's lock (SQLite's write lock; PostgreSQL's ``FOR UPDATE``)
and goes on only if they are what the caller read:

- :func:`check_hold`: a turn is held, or the next decision of one added (the version bumped,
  the state and the log untouched);
- :func:`check_undo`: the held turn is forgotten: the version goes back by one per decision
  held, the deadline and reminder are the turn's again;
- :func:`check_hand_on`: the held turn's decisions (and possibly one more that ends it) are
  appended to the action log, numbered on from the version before the turn, and the new state
  written, in one transaction with the result of a match it finishes.

The token in the check is what keeps an Undo and the end of the window from both happening,
even when a later turn of the same player has reached the same version number.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.errors import NotFound, VersionConflict
from data.model import HeldTurn, LoggedAction
from data.rows import parse_held

ROW = "SELECT version, status, held FROM tables WHERE id = ?"
HOLD = (
    "UPDATE tables SET version = version + 1, held = ?, deadline = ?, reminder_at = ?, "
    "updated_at = ? WHERE id = ?"
)
UNDO = (
    "UPDATE tables SET version = ?, held = NULL, deadline = ?, reminder_at = ?, updated_at = ? "
    "WHERE id = ?"
)
HAND_ON = (
    "UPDATE tables SET version = ?, state = ?, held = NULL, deadline = ?, reminder_at = ?, "
    "updated_at = ?, seats = COALESCE(?, seats), status = COALESCE(?, status) WHERE id = ?"
)
LOG = "INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)"


def _row_held(
    table_id: int, row: Sequence[object] | None, expected_version: int
) -> HeldTurn | None:
    """The held turn of a row of :data:`ROW`, once its table is found playing at
    ``expected_version`` (NotFound, VersionConflict)."""
    if row is None:
        raise NotFound(f"no table {table_id}")
    version, status, held = row
    if version != expected_version:
        raise VersionConflict(f"table {table_id} is at version {version}, not {expected_version}")
    if status != "playing":
        raise NotFound(f"table {table_id} is not playing (it is {status})")
    assert held is None or isinstance(held, str)
    return parse_held(held)


def check_hold(
    table_id: int, row: Sequence[object] | None, expected_version: int, replacing: str | None
) -> None:
    """Raise unless the table is playing at ``expected_version`` and holds the turn
    ``replacing`` (None: holds none)."""
    held = _row_held(table_id, row, expected_version)
    token = None if held is None else held.token
    if token != replacing:
        raise VersionConflict(f"table {table_id} holds another turn than the one continued")


def check_undo(
    table_id: int, row: Sequence[object] | None, expected_version: int, token: str
) -> HeldTurn:
    """The held turn ``token`` of a table playing at ``expected_version`` (else raise)."""
    held = _row_held(table_id, row, expected_version)
    if held is None or held.token != token:
        raise VersionConflict(f"table {table_id} holds no turn {token} (handed on, or undone)")
    return held


def check_hand_on(
    table_id: int,
    row: Sequence[object] | None,
    expected_version: int,
    token: str,
    actions: Sequence[LoggedAction],
) -> int:
    """The version a hand-on of ``actions`` leaves the table at (the last one's), once the
    table is playing at ``expected_version`` with the held turn ``token`` and ``actions`` are
    numbered on from the version before that turn (else raise: ValueError for the numbering)."""
    held = check_undo(table_id, row, expected_version, token)
    first = expected_version - len(held.actions) + 1
    versions = [a.version for a in actions]
    if len(actions) < len(held.actions) or versions != list(range(first, first + len(actions))):
        raise ValueError(
            f"a hand-on of table {table_id} must log versions from {first} on, not {versions}"
        )
    return versions[-1]

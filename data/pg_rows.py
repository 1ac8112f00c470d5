"""The PostgreSQL store's SQL for reading tables, and turning a row of it into a record.

Each query reads a table with its message ids, departures, DM failures, dealt state and the
shape of its action log in one statement (one snapshot). What is wrong with a row raises
:class:`~data.store.CorruptRecord` for that table only (see :mod:`data.rows`, shared with SQLite).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg
import orjson

from data import rows as R
from data.store import Table

# The columns of a table row, with its message ids, departures, DM failures, thread, number,
# language, held turn, pause and the absences of its seated people, and the shape of its action
# log, in one statement (one snapshot).
COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, t.seats, t.version, "
    "t.state, t.start_version, t.shown_version, t.deadline, t.reminder_at, t.created_at, "
    "t.updated_at, "
    "ARRAY(SELECT m.key FROM messages m WHERE m.table_id = t.id ORDER BY m.key), "
    "ARRAY(SELECT m.message_id FROM messages m WHERE m.table_id = t.id ORDER BY m.key), "
    "ARRAY(SELECT d.seat FROM departures d WHERE d.table_id = t.id ORDER BY d.seat), "
    "ARRAY(SELECT d.user_id FROM departures d WHERE d.table_id = t.id ORDER BY d.seat), "
    "ARRAY(SELECT f.user_id FROM dm_failures f WHERE f.table_id = t.id ORDER BY f.user_id), "
    "t.thread_id, t.number, t.language, t.held, t.pause::text, "
    # The absences in the table's server of the people seated (user id -> [away_until, auto,
    # timeouts]); seats that are not a JSON array find none. A server with no absence (most of
    # them, most of the time) is settled by one probe of the primary key.
    "CASE WHEN EXISTS (SELECT 1 FROM absences a WHERE a.guild_id = t.guild_id) THEN "
    "(SELECT json_object_agg(a.user_id, json_build_array(a.away_until, a.auto, "
    "a.timeouts)) FROM absences a WHERE a.guild_id = t.guild_id AND a.user_id::numeric IN ("
    "SELECT (e->>'user_id')::numeric FROM jsonb_array_elements(CASE WHEN "
    "jsonb_typeof(t.seats) = 'array' THEN t.seats ELSE '[]'::jsonb END) e "
    "WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e->'user_id') = 'number'))::text END"
)
_INITIAL = "(SELECT i.state FROM initial_states i WHERE i.table_id = t.id)"
_LOG = "l.n, l.lo, l.hi"
_LOG_JOIN = (
    "LEFT JOIN LATERAL (SELECT count(*) AS n, min(a.version) AS lo, max(a.version) AS hi "
    "FROM actions a WHERE a.table_id = t.id) l ON true"
)
SELECT_TABLE = f"SELECT {COLUMNS}, {_INITIAL}, {_LOG} FROM tables t {_LOG_JOIN}"
OPEN = "t.status IN ('lobby', 'playing')"
#: Where a table lives: its thread once it has one, else the channel of its lobby.
PLACE = "COALESCE(t.thread_id, t.channel_id)"

# One move: the version check, the new state and the log row in one statement (so one round
# trip, committed by itself). A row whose options or seats are not JSON of the right shape is
# not moved (see _why). The returned columns are those of SELECT_TABLE without the state (the
# caller has it), the initial state (cached) and the log's shape (moves do not check it). No
# move is written over a held turn (data.model.HeldTurn): only handing it on writes its decisions.
MOVE = (
    "WITH t AS (UPDATE tables SET version = version + 1, state = $3, deadline = $4, "
    "reminder_at = $5, updated_at = $6, seats = COALESCE($7, seats), "
    "status = COALESCE($8, status) "
    "WHERE id = $1 AND version = $2 AND status = 'playing' AND held IS NULL "
    "AND jsonb_typeof(options) = 'object' AND jsonb_typeof(seats) = 'array' RETURNING *), "
    "a AS (INSERT INTO actions (table_id, version, seat, user_id, action, at) "
    "SELECT id, version, $9, $10, $11, $6 FROM t) "
    f"SELECT {COLUMNS.replace('t.state, ', 'NULL, ')}, NULL, NULL, NULL, NULL FROM t"
)


def json_object(text: str, what: str) -> dict[str, Any]:
    """A JSON object from its text, read with orjson (several times faster than the json
    module for a state: it is most of the time start-up takes to load 10,000 games); anything
    orjson does not read goes to the json module, which says what is wrong."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return R.parse_object(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def table_from_record(
    record: asyncpg.Record | Sequence[Any],
    *,
    validate: bool,
    strict: bool = True,
    state: dict[str, Any] | None = None,
    initial: dict[str, Any] | None = None,
    has_initial: bool = False,
) -> Table:
    """A :class:`Table` from a row of ``SELECT_TABLE`` (or of ``_MOVE``, with the ``state``
    and ``initial`` state given). Raises :class:`CorruptRecord` (unless not ``strict``)."""
    rec = tuple(record)
    (tid, gid, cid, hid, status, options, seats, version, state_text, start_version) = rec[:10]
    shown, deadline, reminder_at, created_at, updated_at = rec[10:15]
    msg_keys, msg_ids, dep_seats, dep_users, dm_users = rec[15:20]
    row = R.TableRow(
        id=tid,
        guild_id=gid,
        channel_id=cid,
        host_id=hid,
        status=status,
        options=options,
        seats=seats,
        version=version,
        state=state_text,
        initial_state=rec[26],
        start_version=start_version,
        deadline=deadline,
        reminder_at=reminder_at,
        created_at=created_at,
        updated_at=updated_at,
        messages=dict(zip(msg_keys, msg_ids, strict=True)),
        departed=dict(zip(dep_seats, dep_users, strict=True)),
        dm_failed=frozenset(dm_users),
        shown_version=shown,
        thread_id=rec[20],
        number=rec[21],
        language=rec[22],
        held=rec[23],
        pause=rec[24],
        absences=rec[25],
        log_count=rec[27],
        log_min=rec[28],
        log_max=rec[29],
    )
    return R.table_from_row(
        row,
        validate=validate,
        strict=strict,
        state=state,
        initial=initial,
        has_initial=has_initial,
        load=json_object,
    )


__all__ = ["COLUMNS", "MOVE", "OPEN", "PLACE", "SELECT_TABLE", "json_object", "table_from_record"]

"""The SQL the SQLite store runs to read tables and write moves, and turning its rows into records.

The queries read a table in one statement: its row, its message ids, departures and DM failures
(as JSON built by SQLite), and the statistics of its action log, so that a table is always read
from one snapshot. Decoding and checking what they return is :mod:`data.rows`' job.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data import rows as R

COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.host_id, t.status, t.options, t.seats, t.version, t.state, "
    "(SELECT i.state FROM initial_states i WHERE i.table_id = t.id), t.start_version, "
    "t.deadline, t.reminder_at, t.created_at, t.updated_at"
)


def _owned(alias: str) -> str:
    """What the bot keeps beside a table (message ids, departures, DM failures, the version the
    channel was shown, its thread, its number, its language, its held turn, its pause, and the
    absences in its server of the people seated: :func:`_absences`), for a table named
    ``alias`` in the query."""
    return (
        "(SELECT json_group_object(m.key, m.message_id) FROM messages m "
        f"WHERE m.table_id = {alias}.id), "
        "(SELECT json_group_object(d.seat, d.user_id) FROM departures d "
        f"WHERE d.table_id = {alias}.id), "
        "(SELECT json_group_array(f.user_id) FROM dm_failures f "
        f"WHERE f.table_id = {alias}.id), "
        f"{alias}.shown_version, {alias}.thread_id, {alias}.number, {alias}.language, "
        f"{alias}.held, {alias}.pause, {_absences(alias)}"
    )


def _absences(alias: str) -> str:
    """The absences in the table's server of the people seated at it, as one JSON object (user
    id -> ``[away_until, auto, timeouts]``; NULL for a server with no absence, settled by one
    probe of the primary key); seats that are not JSON find none (the row is reported
    unreadable by its seats)."""
    seats = f"CASE WHEN json_valid({alias}.seats) THEN {alias}.seats ELSE '[]' END"
    return (
        f"CASE WHEN EXISTS (SELECT 1 FROM absences a WHERE a.guild_id = {alias}.guild_id) THEN "
        "(SELECT json_group_object(a.user_id, json_array(a.away_until, a.auto, a.timeouts)) "
        f"FROM absences a WHERE a.guild_id = {alias}.guild_id AND a.user_id IN ("
        f"SELECT s.value FROM json_tree({seats}) s "
        "WHERE s.key = 'user_id' AND s.type = 'integer')) END"
    )


LOG_STATS = (
    "(SELECT count(*) FROM actions a WHERE a.table_id = t.id), "
    "(SELECT min(a.version) FROM actions a WHERE a.table_id = t.id), "
    "(SELECT max(a.version) FROM actions a WHERE a.table_id = t.id)"
)
#: A table row with what the bot keeps beside it, without the log statistics (see R.TableRow).
SELECT_ROW = f"SELECT {COLUMNS}, {_owned('t')} FROM tables t"
#: A whole table and its log statistics, in one statement (one snapshot).
SELECT_TABLE = f"SELECT {COLUMNS}, {_owned('t')}, {LOG_STATS} FROM tables t"
OPEN = "t.status IN ('lobby', 'playing')"
#: Where a table lives: its thread once it has one, else the channel of its lobby.
PLACE = "coalesce(t.thread_id, t.channel_id)"

#: Due timers: the partial indexes on the open tables' timers make this a short range scan
#: however many tables are open (without statistics SQLite would pick the status index).
SELECT_DUE = (
    f"{SELECT_TABLE} WHERE t.id IN ("
    "SELECT id FROM tables INDEXED BY tables_open_deadline "
    "WHERE status IN ('lobby', 'playing') AND deadline <= ? UNION "
    "SELECT id FROM tables INDEXED BY tables_open_reminder "
    "WHERE status IN ('lobby', 'playing') AND reminder_at <= ?) ORDER BY t.id"
)

#: Due timers that no process holds a live claim on (parameters: now, now, now, limit).
SELECT_CLAIMABLE = (
    "SELECT d.id FROM ("
    "SELECT id FROM tables INDEXED BY tables_open_deadline "
    "WHERE status IN ('lobby', 'playing') AND deadline <= ? UNION "
    "SELECT id FROM tables INDEXED BY tables_open_reminder "
    "WHERE status IN ('lobby', 'playing') AND reminder_at <= ?) AS d "
    "LEFT JOIN timer_claims c ON c.table_id = d.id "
    "WHERE c.until IS NULL OR c.until <= ? ORDER BY d.id LIMIT ?"
)
CLAIM = (
    "INSERT INTO timer_claims (table_id, owner, until) VALUES (?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until"
)

# A move: the version check is the UPDATE's own WHERE, and what the answer needs comes back
# from it. An UPDATE that names the status or the seats rewrites the indexes on them even with
# the same value: most moves leave them out. No move is written over a held turn
# (data.model.HeldTurn): only handing it on writes its decisions.
_MOVE_RETURNING = (
    "RETURNING guild_id, channel_id, host_id, options, seats, start_version, created_at, "
    f"{_owned('tables')}"
)
#: The columns of a move's RETURNING, by position.
GUILD, CHANNEL, HOST, OPTIONS, SEATS, START_VERSION, CREATED = range(7)
MESSAGES, DEPARTED, DM_FAILED, SHOWN, THREAD, NUMBER, LANGUAGE, HELD, PAUSE, ABSENCES = range(7, 17)
UPDATE_MOVED = (
    "UPDATE tables SET version = version + 1, state = ?, deadline = ?, reminder_at = ?, "
    "updated_at = ? WHERE id = ? AND version = ? AND status = 'playing' AND held IS NULL "
    + _MOVE_RETURNING
)
UPDATE_CHANGED = (
    "UPDATE tables SET version = version + 1, state = ?, deadline = ?, reminder_at = ?, "
    "updated_at = ?, seats = COALESCE(?, seats), status = COALESCE(?, status) "
    "WHERE id = ? AND version = ? AND status = 'playing' AND held IS NULL " + _MOVE_RETURNING
)
INSERT_ACTION = (
    "INSERT INTO actions (table_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)"
)


def table_row(values: Sequence[Any]) -> R.TableRow:
    """A row of :data:`SELECT_ROW` or :data:`SELECT_TABLE` as a :class:`~data.rows.TableRow`."""
    return R.TableRow(*values)

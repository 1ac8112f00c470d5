-- The first schema: tables (a lobby, then a game, then a finished match), the append-only action
-- log of each game, the Discord messages the bot edits later, per-player preferences and
-- per-server settings. JSON columns hold compact JSON text.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL,   -- lobby | playing | finished | cancelled | aborted
    options       TEXT    NOT NULL,   -- JSON object
    seats         TEXT    NOT NULL,   -- JSON list of {"user_id", "name", "ai"}
    version       INTEGER NOT NULL,   -- bumped by every change; optimistic concurrency
    state         TEXT,               -- JSON: the engine's Game.to_dict() once playing
    initial_state TEXT,               -- JSON: the dealt state the action log starts from
    start_version INTEGER,            -- the version start_game wrote; the log continues from it
    deadline      REAL,               -- unix time the pending decision times out
    reminder_at   REAL,               -- unix time of the next reminder
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

-- At most one open table per channel, whichever process tries to open a second one.
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    version  INTEGER NOT NULL,        -- the table version this action produced
    seat     INTEGER,                 -- the engine player who acted; NULL: the game or a timer
    user_id  INTEGER,
    action   TEXT    NOT NULL,        -- JSON: the engine action, e.g. {"play":"B7","at":"1,1"}
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;

CREATE TABLE messages (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    key        TEXT    NOT NULL,      -- "lobby", "status", "hand:<user_id>", ...
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;

CREATE TABLE player_prefs (
    user_id   INTEGER PRIMARY KEY,
    hand_mode TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    turn_limit_s INTEGER NOT NULL,
    reminder_s   INTEGER NOT NULL,
    defaults     TEXT    NOT NULL     -- JSON object: default options for a new table
);

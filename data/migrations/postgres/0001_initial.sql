-- The whole schema, for PostgreSQL (which has no earlier one): the same tables as the SQLite
-- schema after its migration 0004. Times are unix seconds in DOUBLE PRECISION (never REAL: a
-- 4-byte float loses whole seconds); Discord ids are BIGINT. JSON columns are JSONB, but for
-- the engine states: the database never looks inside them, and JSON keeps their text as
-- written, so that saving and loading one skips JSONB's conversions (most of a move's work on
-- the server, and of the time start-up takes to load 10,000 games).

-- Table ids are never reused, not even by a database created anew after an old one was lost:
-- the sequence starts at the creation time in milliseconds (below 2**53, so JSON-safe).
CREATE SEQUENCE table_ids AS BIGINT MAXVALUE 9007199254740991;
SELECT setval('table_ids', (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT);

CREATE TABLE tables (
    id            BIGINT  PRIMARY KEY DEFAULT nextval('table_ids'),
    guild_id      BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    host_id       BIGINT  NOT NULL,
    status        TEXT    NOT NULL,   -- lobby | playing | finished | cancelled | aborted
    options       JSONB   NOT NULL,   -- data.store.TableOptions.to_dict()
    seats         JSONB   NOT NULL,   -- list of {"user_id", "name", "ai"}
    version       INTEGER NOT NULL,   -- bumped by every change; optimistic concurrency
    state         JSON,               -- the engine's Game.to_dict() once playing
    start_version INTEGER,            -- the version start_game wrote; the log continues from it
    shown_version INTEGER,            -- the latest version whose pictures the channel was shown
    deadline      DOUBLE PRECISION,   -- unix time the pending decision times out
    reminder_at   DOUBLE PRECISION,   -- unix time of the next reminder
    created_at    DOUBLE PRECISION NOT NULL,
    updated_at    DOUBLE PRECISION NOT NULL
);
ALTER SEQUENCE table_ids OWNED BY tables.id;

-- At most one open table per channel, whichever process tries to open a second one.
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');
-- (No index on status alone: every move would update it, and the partial indexes serve the
-- queries on open tables.)
CREATE INDEX tables_open_deadline ON tables (deadline) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_open_reminder ON tables (reminder_at) WHERE status IN ('lobby', 'playing');

-- The dealt state each game's action log starts from: written once, read rarely.
CREATE TABLE initial_states (
    table_id BIGINT PRIMARY KEY REFERENCES tables (id),
    state    JSON   NOT NULL
);

CREATE TABLE actions (
    table_id BIGINT  NOT NULL REFERENCES tables (id),
    version  INTEGER NOT NULL,        -- the table version this action produced
    seat     INTEGER,                 -- the engine player who acted; NULL: the game or a timer
    user_id  BIGINT,
    action   JSONB   NOT NULL,        -- the engine action, e.g. {"play": "B7", "at": "1,1"}
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, version)
);

CREATE TABLE messages (
    table_id   BIGINT NOT NULL REFERENCES tables (id),
    key        TEXT   NOT NULL,       -- "lobby", "status", "hand:<user_id>", ...
    message_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, key)
);

-- Players who left a running game with /fp leave, by seat.
CREATE TABLE departures (
    table_id BIGINT  NOT NULL REFERENCES tables (id),
    seat     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);

-- Users whose direct message from a table failed (told once, then not retried).
CREATE TABLE dm_failures (
    table_id BIGINT NOT NULL REFERENCES tables (id),
    user_id  BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

CREATE TABLE player_prefs (
    user_id   BIGINT PRIMARY KEY,
    hand_mode TEXT   NOT NULL
);

CREATE TABLE guild_settings (
    guild_id     BIGINT  PRIMARY KEY,
    turn_limit_s INTEGER NOT NULL,
    reminder_s   INTEGER NOT NULL,
    defaults     JSONB   NOT NULL     -- data.store.TableDefaults.to_dict()
);

CREATE TABLE results (
    table_id    BIGINT PRIMARY KEY REFERENCES tables (id),
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    seats       JSONB  NOT NULL,      -- the seats as they were at the end
    scores      JSONB,                -- list of totals by seat (lowest wins)
    winners     JSONB,                -- list of seat indexes
    data        JSONB  NOT NULL       -- whatever else the bot recorded
);
CREATE INDEX results_by_guild ON results (guild_id, finished_at);

-- One row per seat of a finished match, so that per-player stats are a plain query.
CREATE TABLE result_players (
    table_id BIGINT  NOT NULL REFERENCES results (table_id),
    seat     INTEGER NOT NULL,
    user_id  BIGINT,                  -- NULL for a computer player
    name     TEXT    NOT NULL,
    ai       TEXT,
    score    INTEGER,
    won      BOOLEAN NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX result_players_by_user ON result_players (user_id);

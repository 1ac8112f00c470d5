-- Match results for stats, and the indexes that keep start-up and the timer scan fast.

CREATE TABLE results (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    seats       TEXT    NOT NULL,     -- JSON: the seats as they were at the end
    scores      TEXT,                 -- JSON list of totals by seat (lowest wins)
    winners     TEXT,                 -- JSON list of seat indexes
    data        TEXT    NOT NULL      -- JSON object: whatever else the bot recorded
);
CREATE INDEX results_by_guild ON results (guild_id, finished_at);

-- One row per seat of a finished match, so that per-player stats are a plain query.
CREATE TABLE result_players (
    table_id INTEGER NOT NULL REFERENCES results (table_id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER,                 -- NULL for a computer player
    name     TEXT    NOT NULL,
    ai       TEXT,
    score    INTEGER,
    won      INTEGER NOT NULL,        -- 0 or 1
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX result_players_by_user ON result_players (user_id);

CREATE INDEX tables_by_status ON tables (status);
CREATE INDEX tables_open_deadline ON tables (deadline)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_open_reminder ON tables (reminder_at)
    WHERE status IN ('lobby', 'playing');

-- Matches finished before this migration get their result row from their final state.
INSERT INTO results (table_id, guild_id, channel_id, finished_at, seats, scores, winners, data)
SELECT id, guild_id, channel_id, updated_at, seats, json_extract(state, '$.scores'), NULL, '{}'
FROM tables
WHERE status = 'finished' AND json_valid(state);

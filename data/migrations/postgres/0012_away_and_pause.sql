-- Step away without stalling a table (/fp away, /fp pause), as the SQLite schema's migration
-- 0015: absences per server and player (away until away_until, set by themselves or by their
-- time-outs in a row, auto; timeouts counts those since their last own decision), and a running
-- game's pause (data.model.Pause) in its row, whose end is the table's deadline.

CREATE TABLE absences (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    away_until DOUBLE PRECISION,              -- unix time; NULL: not away
    auto       BOOLEAN NOT NULL DEFAULT FALSE, -- set away by the time-outs
    timeouts   INTEGER NOT NULL DEFAULT 0,     -- decisions in a row the clock ran out on
    PRIMARY KEY (guild_id, user_id)
);

ALTER TABLE tables ADD COLUMN pause JSONB;

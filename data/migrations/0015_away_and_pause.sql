-- Step away without stalling a table (/fp away, /fp pause).
-- absences: per server and player, away (a computer plays each of their decisions at once, at
-- every table of that server) until away_until, set by themselves or after their clock ran out
-- on several decisions in a row (auto); timeouts counts those decisions since their last own
-- decision. A row exists only while one of them says something: any own decision deletes it.
-- tables.pause: a running game's pause while it lasts (data.model.Pause as a JSON object): its
-- clocks stopped, the time left of the pending decision kept with it; its end is the table's
-- deadline, so the timer loop resumes it.

CREATE TABLE absences (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    away_until REAL,                       -- unix time; NULL: not away
    auto       INTEGER NOT NULL DEFAULT 0, -- 1: set away by the time-outs
    timeouts   INTEGER NOT NULL DEFAULT 0, -- decisions in a row the clock ran out on
    PRIMARY KEY (guild_id, user_id)
);

ALTER TABLE tables ADD COLUMN pause TEXT;

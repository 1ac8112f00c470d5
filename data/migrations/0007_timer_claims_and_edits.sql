-- Several bot processes poll the same timers: a due table is claimed by one of them for a while
-- (its lease), so that exactly one acts on it; a claim whose holder died runs out and another
-- process takes the table over. The messages the bot edits in place remember the table version
-- they show, so that an edit made from an older version never replaces a newer one.

CREATE TABLE timer_claims (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    owner    TEXT    NOT NULL,        -- the claiming process (host:pid:random)
    until    REAL    NOT NULL         -- unix time the claim runs out
);

ALTER TABLE messages ADD COLUMN shown_version INTEGER;  -- the table version the message shows

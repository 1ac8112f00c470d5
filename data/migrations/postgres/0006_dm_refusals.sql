-- Discord refused a direct message to a player (their DMs are closed): the bot remembers it for
-- the player, across every table and process, and stops DMing them until they ask for it again
-- or a day has passed (the same table as the SQLite schema's migration 0009).

CREATE TABLE dm_refusals (
    user_id    BIGINT PRIMARY KEY,
    refused_at DOUBLE PRECISION NOT NULL  -- unix time of the latest refusal
);

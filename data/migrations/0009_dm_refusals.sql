-- Discord refused a direct message to a player (their DMs are closed): the bot remembers it for
-- the player, across every table and process, and stops DMing them until they ask for it again
-- or a day has passed. refused_at: unix time of the latest refusal.

CREATE TABLE dm_refusals (
    user_id INTEGER PRIMARY KEY,
    refused_at REAL NOT NULL
);

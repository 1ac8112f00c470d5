-- A started game lives in a thread of the channel its lobby was in (where the bot may start
-- one): the table remembers the thread, and "one open table per channel" now means per place
-- where a table lives (its thread once it has one), so the parent channel is free for the next
-- lobby. Players choose which direct messages they get: on their turn, and reminders.

ALTER TABLE tables ADD COLUMN thread_id INTEGER;

DROP INDEX tables_one_open_per_channel;
CREATE UNIQUE INDEX tables_one_open_per_place ON tables (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'playing');

ALTER TABLE player_prefs ADD COLUMN dm_on_turn INTEGER NOT NULL DEFAULT 1;  -- 0 or 1
ALTER TABLE player_prefs ADD COLUMN reminders  INTEGER NOT NULL DEFAULT 1;  -- 0 or 1

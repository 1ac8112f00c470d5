-- A player's history lists the matches they left too (as the SQLite schema's migration 0012):
-- their departures, found by player.

CREATE INDEX departures_by_user ON departures (user_id, table_id);

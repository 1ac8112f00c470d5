-- As the SQLite schema's migration 0012: departures keep the name the person had at the table
-- (the records rate a person who left under it; NULL for departures kept before), and a
-- player's history finds the matches they left by their departures.

ALTER TABLE departures ADD COLUMN name TEXT;
CREATE INDEX departures_by_user ON departures (user_id, table_id);

-- Departures keep the name the person had at the table: the records rate a person who left under
-- it (their seat shows the computer that took it by the end); NULL for departures kept before.
-- A player's history lists the matches they left too (a match stopped after its first move, or
-- finished by the computer that took their seat, is rated with the people who left it last):
-- their departures, found by player.

ALTER TABLE departures ADD COLUMN name TEXT;
CREATE INDEX departures_by_user ON departures (user_id, table_id);

-- A player's history lists the matches they left too (a match stopped after its first move, or
-- finished by the computer that took their seat, is rated with the people who left it last):
-- their departures, found by player.

CREATE INDEX departures_by_user ON departures (user_id, table_id);

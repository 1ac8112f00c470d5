-- A short number for each table within its server ("table #12"), as the SQLite schema's
-- migration 0010: a new table takes its guild's highest number plus one (creators of one guild
-- take turns under an advisory lock); the tables already kept are numbered here, per guild, in
-- the order they were opened (ids grow with time).

ALTER TABLE tables ADD COLUMN number INTEGER;

UPDATE tables AS t SET number = n.number
    FROM (SELECT id, row_number() OVER (PARTITION BY guild_id ORDER BY id) AS number
          FROM tables) AS n
    WHERE n.id = t.id;

ALTER TABLE tables ALTER COLUMN number SET NOT NULL;

CREATE UNIQUE INDEX tables_guild_number ON tables (guild_id, number);

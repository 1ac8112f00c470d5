-- A short number for each table within its server ("table #12"), which players read instead of
-- the long id (the id stays in button ids and logs). A new table takes its guild's highest
-- number plus one, under the write lock; the tables already kept are numbered here, per guild,
-- in the order they were opened (ids grow with time).

ALTER TABLE tables ADD COLUMN number INTEGER NOT NULL DEFAULT 0;

CREATE TEMP TABLE table_numbers (
    id     INTEGER PRIMARY KEY,
    number INTEGER NOT NULL
);

INSERT INTO temp.table_numbers (id, number)
    SELECT id, row_number() OVER (PARTITION BY guild_id ORDER BY id) FROM tables;

UPDATE tables SET number = (SELECT n.number FROM temp.table_numbers n WHERE n.id = tables.id);

DROP TABLE temp.table_numbers;

CREATE UNIQUE INDEX tables_guild_number ON tables (guild_id, number);

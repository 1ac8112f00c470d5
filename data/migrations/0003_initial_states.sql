-- The dealt state each game's action log starts from moves to a table of its own. It is written
-- once and read rarely, but in the tables row it doubled the bytes every move rewrites.

CREATE TABLE initial_states (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    state    TEXT    NOT NULL         -- JSON: the engine's Game.to_dict() when the game started
);

INSERT INTO initial_states (table_id, state)
SELECT id, initial_state FROM tables WHERE initial_state IS NOT NULL;

-- The old column stays (always NULL from now on): dropping a column needs SQLite 3.35.
UPDATE tables SET initial_state = NULL WHERE initial_state IS NOT NULL;

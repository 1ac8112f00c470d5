-- What the bot kept under made-up message keys gets a home of its own: who left a running game
-- (was "left:<seat>" -> user id), whose direct messages failed (was "nodm:<user id>"), and the
-- latest version the channel was shown (was "shown" -> version). Nothing else changes.

CREATE TABLE departures (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat     INTEGER NOT NULL,        -- the seat a computer player took over
    user_id  INTEGER NOT NULL,        -- the player who left it with /fp leave
    at       REAL    NOT NULL,        -- unix time (for moved rows: the table's last change)
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE dm_failures (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

ALTER TABLE tables ADD COLUMN shown_version INTEGER;

INSERT OR IGNORE INTO departures (table_id, seat, user_id, at)
SELECT m.table_id, CAST(substr(m.key, 6) AS INTEGER), m.message_id, t.updated_at
FROM messages m JOIN tables t ON t.id = m.table_id
WHERE m.key GLOB 'left:[0-9]*' AND substr(m.key, 6) NOT GLOB '*[^0-9]*';

INSERT OR IGNORE INTO dm_failures (table_id, user_id)
SELECT table_id, CAST(substr(key, 6) AS INTEGER)
FROM messages
WHERE key GLOB 'nodm:[0-9]*' AND substr(key, 6) NOT GLOB '*[^0-9]*';

UPDATE tables SET shown_version = (
    SELECT m.message_id FROM messages m WHERE m.table_id = tables.id AND m.key = 'shown'
)
WHERE id IN (SELECT table_id FROM messages WHERE key = 'shown');

DELETE FROM messages
WHERE key = 'shown'
   OR (key GLOB 'left:[0-9]*' AND substr(key, 6) NOT GLOB '*[^0-9]*')
   OR (key GLOB 'nodm:[0-9]*' AND substr(key, 6) NOT GLOB '*[^0-9]*');

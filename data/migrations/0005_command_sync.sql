-- The slash commands last registered with Discord, per scope ('global' or 'guild:<id>'), as a
-- hash of what was sent: a bot process registers them only when they changed, and of several
-- processes starting together only the one that changes this row does.

CREATE TABLE command_sync (
    scope     TEXT PRIMARY KEY,
    hash      TEXT NOT NULL,
    synced_at REAL NOT NULL          -- unix time
) WITHOUT ROWID;

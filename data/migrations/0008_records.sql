-- Records: ratings and per-player aggregates per server, kept up to date as matches finish, so
-- that /fp stats and /fp leaderboard read a few rows instead of the whole history.
--
-- A finished match is rated once: its results row gets the server's next rating sequence
-- number (rated_seq; NULL: not rated) in the same transaction that updates its players' rows.
-- The sequence is the order ratings were applied in, so a recomputation from the stored results
-- gives the same ratings. "facts" (JSON: data.records.MatchFacts) keeps what the match's replay
-- said about each seat (tiles left, mayhem caused and suffered, opening tile), so a
-- recomputation needs no replay.
--
-- ratings: one row per server and player ("u:<user id>" for a person, "ai:<level>" for a
-- computer level): the name last seen, mu and sigma, ordinal = mu - 3 sigma (what the board
-- sorts by), matches, wins, tiles_left (the sum of final totals), streak (wins in a row up to
-- the latest match) and best_streak, mayhem caused (collapses, fires, explosions, curses) and
-- suffered (tiles_taken: tiles that mayhem sent to their pile; cursed: curses that hit them),
-- and last_at (unix time of their latest rated match).
-- (Comments stay on lines of their own: the schema SQLite keeps is only the statements.)

ALTER TABLE results ADD COLUMN rated_seq INTEGER;
ALTER TABLE results ADD COLUMN facts TEXT;
CREATE INDEX results_unrated ON results (finished_at, table_id) WHERE rated_seq IS NULL;
CREATE INDEX results_rated_by_guild ON results (guild_id, rated_seq) WHERE rated_seq IS NOT NULL;
CREATE INDEX result_players_by_user_match ON result_players (user_id, table_id);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    tiles_left INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    collapses INTEGER NOT NULL,
    fires INTEGER NOT NULL,
    explosions INTEGER NOT NULL,
    curses INTEGER NOT NULL,
    tiles_taken INTEGER NOT NULL,
    cursed INTEGER NOT NULL,
    last_at REAL NOT NULL,
    PRIMARY KEY (guild_id, player)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, ordinal DESC, player);

-- How often each player opened a match with each tile (their first tile played).
CREATE TABLE rating_openings (
    guild_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    tile TEXT NOT NULL,
    times INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player, tile)
) WITHOUT ROWID;

-- The latest rating sequence number of each server.
CREATE TABLE rating_seqs (guild_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL);

-- Records: ratings and per-player aggregates per server, kept up to date as matches finish, so
-- that /fp stats and /fp leaderboard read a few rows instead of the whole history (the same
-- tables as the SQLite schema's migration 0008).
--
-- A finished match is rated once: its results row gets the server's next rating sequence
-- number in the same transaction that updates its players' rows (NULL: not rated yet). The
-- sequence is the order ratings were applied in, so a recomputation from the stored results
-- gives the same ratings. "facts" keeps what the match's replay said about each seat.

ALTER TABLE results ADD COLUMN rated_seq BIGINT;
ALTER TABLE results ADD COLUMN facts JSONB;
CREATE INDEX results_unrated ON results (finished_at, table_id) WHERE rated_seq IS NULL;
CREATE INDEX results_rated_by_guild ON results (guild_id, rated_seq) WHERE rated_seq IS NOT NULL;
CREATE INDEX result_players_by_user_match ON result_players (user_id, table_id);

CREATE TABLE ratings (
    guild_id       BIGINT  NOT NULL,
    player         TEXT    NOT NULL,  -- "u:<user id>" for a person, "ai:<level>" for a computer
    name           TEXT    NOT NULL,
    mu             DOUBLE PRECISION NOT NULL,
    sigma          DOUBLE PRECISION NOT NULL,
    ordinal        DOUBLE PRECISION NOT NULL,  -- mu - 3 sigma
    matches        INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    tiles_left     INTEGER NOT NULL,
    streak         INTEGER NOT NULL,
    best_streak    INTEGER NOT NULL,
    collapses      INTEGER NOT NULL,
    fires          INTEGER NOT NULL,
    explosions     INTEGER NOT NULL,
    curses         INTEGER NOT NULL,
    tiles_taken    INTEGER NOT NULL,
    cursed         INTEGER NOT NULL,
    last_at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, player)
);
CREATE INDEX ratings_board ON ratings (guild_id, ordinal DESC, player);

CREATE TABLE rating_openings (
    guild_id BIGINT  NOT NULL,
    player   TEXT    NOT NULL,
    tile     TEXT    NOT NULL,
    times    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player, tile)
);

CREATE TABLE rating_seqs (
    guild_id BIGINT PRIMARY KEY,
    seq      BIGINT NOT NULL
);

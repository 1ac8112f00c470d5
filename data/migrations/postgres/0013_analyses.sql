-- Turning points: the coach's review of every decision of a match with a result, worked out once
-- in the background after the match ends (the same table as the SQLite schema's migration 0016):
-- a claim while done_at is NULL (owner works on it until claimed_until; attempts counts the
-- claims not released), then the reviews (a JSON list; NULL: the match could not be analysed),
-- never changed again.

CREATE TABLE analyses (
    table_id      BIGINT PRIMARY KEY REFERENCES results (table_id),
    owner         TEXT,
    claimed_until DOUBLE PRECISION NOT NULL,
    attempts      INTEGER NOT NULL,
    done_at       DOUBLE PRECISION,
    reviews       JSONB
);
CREATE INDEX results_by_end ON results (finished_at, table_id);

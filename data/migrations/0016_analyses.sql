-- Turning points: the coach's review of every decision of a match with a result, worked out once
-- in the background after the match ends, by whichever bot process claims it (data.analyses).
-- While done_at is NULL a row is a claim: owner works on the match until claimed_until, renewing
-- its claim as it goes (a process that dies leaves the match to the others once the claim runs
-- out); attempts counts the claims that did not end in a release, and a match whose analysis
-- keeps failing is given up after a few. Once done_at is set the row never changes again:
-- reviews holds the JSON list of every decision reviewed (engine.ai.review.Review.to_dict()),
-- or is NULL when the match could not be analysed (its log does not replay).
-- results_by_end finds the matches that ended last, whatever their server.

CREATE TABLE analyses (
    table_id      INTEGER PRIMARY KEY REFERENCES results (table_id),
    owner         TEXT,
    claimed_until REAL    NOT NULL,
    attempts      INTEGER NOT NULL,
    done_at       REAL,
    reviews       TEXT
);
CREATE INDEX results_by_end ON results (finished_at, table_id);

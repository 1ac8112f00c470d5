-- A person's turn kept back for its undo window, as the SQLite schema's migration 0014:
-- data.model.HeldTurn.to_dict() as JSON text (NULL: none). Like the engine state, the database
-- never looks inside it, and TEXT keeps it as written.

ALTER TABLE tables ADD COLUMN held TEXT;

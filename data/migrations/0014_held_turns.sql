-- A person's turn kept back for its undo window (data.model.HeldTurn.to_dict(), a JSON object;
-- NULL: none): its decisions reach the state and the action log only once it is handed on.
-- Read and written only under the table's version check, never looked into by SQL.

ALTER TABLE tables ADD COLUMN held TEXT;

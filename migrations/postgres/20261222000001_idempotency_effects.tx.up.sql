-- What a request under an Idempotency-Key committed so far, by slot (a
-- JSON object, empty for none): a retry taking over the claim of a request
-- whose process died learns it instead of committing it again.
ALTER TABLE idempotency_keys ADD COLUMN effects TEXT NOT NULL DEFAULT '';

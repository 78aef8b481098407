DROP TABLE IF EXISTS idempotency_usage;

--bun:split

ALTER TABLE idempotency_keys DROP COLUMN body_sha256;

--bun:split

ALTER TABLE idempotency_keys DROP COLUMN body_size;

--bun:split

ALTER TABLE idempotency_keys DROP COLUMN body_kept;

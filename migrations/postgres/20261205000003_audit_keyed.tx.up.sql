-- The audit chain is keyed (HMAC-SHA-256 under a key outside the
-- database). Entries written before are hash version 1 (plain SHA-256):
-- einvoice re-chains them under the key when it applies this migration
-- (einvoice migrate up, or the api, worker and dev at start).
ALTER TABLE audit_logs ADD COLUMN hash_version SMALLINT NOT NULL DEFAULT 1 CHECK (hash_version IN (1, 2));

--bun:split

-- Each chain's newest entry, moved in the transaction of every append, with
-- a MAC under the audit key: removing the newest entries leaves a head they
-- no longer reach.
CREATE TABLE audit_heads (
    chain      TEXT PRIMARY KEY,
    seq        BIGINT NOT NULL,
    hash       TEXT NOT NULL,
    mac        TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

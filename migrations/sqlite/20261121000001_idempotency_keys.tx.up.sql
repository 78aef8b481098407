-- Responses stored under an Idempotency-Key, per credential (an API key or a
-- portal user). The primary key is the claim: the first INSERT wins.
CREATE TABLE idempotency_keys (
    credential      TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash    BLOB NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status          INTEGER NOT NULL DEFAULT 0,
    header          TEXT NOT NULL DEFAULT '{}',
    body            BLOB NOT NULL DEFAULT x'',
    created_at      TIMESTAMP NOT NULL,
    locked_until    TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (credential, idempotency_key)
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

-- Responses stored under an Idempotency-Key, per credential (an API key or a
-- portal user). The primary key is the claim: the first INSERT wins, so two
-- API processes sharing the database never run one request twice.
CREATE TABLE idempotency_keys (
    credential      TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash    BYTEA NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status          INTEGER NOT NULL DEFAULT 0,
    header          TEXT NOT NULL DEFAULT '{}',
    body            BYTEA NOT NULL DEFAULT '\x'::bytea,
    created_at      TIMESTAMPTZ NOT NULL,
    locked_until    TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (credential, idempotency_key)
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

-- Stored responses are sealed (AES-256-GCM) from now on: responses kept
-- before in clear (API key secrets and access tokens among them) are
-- dropped, so a retry of a request made before the upgrade runs again.
DELETE FROM idempotency_keys;

--bun:split

-- A response larger than the replay bound, or past its credential's quota,
-- is kept as its size and SHA-256 only (body_kept false).
ALTER TABLE idempotency_keys ADD COLUMN body_kept BOOLEAN NOT NULL DEFAULT TRUE;

--bun:split

ALTER TABLE idempotency_keys ADD COLUMN body_size BIGINT NOT NULL DEFAULT 0;

--bun:split

ALTER TABLE idempotency_keys ADD COLUMN body_sha256 BYTEA NOT NULL DEFAULT '\x'::bytea;

--bun:split

-- What each credential keeps, per hour of creation: the per-credential
-- quotas read the last day's rows (at most 25 per credential).
CREATE TABLE idempotency_usage (
    credential TEXT NOT NULL,
    hour       TIMESTAMPTZ NOT NULL,
    entries    BIGINT NOT NULL DEFAULT 0,
    bytes      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (credential, hour)
);

--bun:split

CREATE INDEX idempotency_usage_hour ON idempotency_usage (hour);

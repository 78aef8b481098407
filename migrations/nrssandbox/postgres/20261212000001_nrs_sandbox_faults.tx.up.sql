-- Faults a business's owner (or the stand-in's operator) switches on to
-- rehearse an NRS outage or throttling: per business, per endpoint ('' for
-- every endpoint) and kind, until ends_at.
CREATE TABLE nrs_sandbox_faults (
    business_id    UUID NOT NULL REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    kind           TEXT NOT NULL,
    endpoint       TEXT NOT NULL,
    status         INTEGER NOT NULL,
    rate_count     INTEGER NOT NULL,
    rate_period_ms BIGINT NOT NULL,
    retry_after_s  INTEGER NOT NULL,
    starts_at      TIMESTAMPTZ NOT NULL,
    ends_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, kind, endpoint)
);

-- Events: one row per state change of a project's resources, written in the
-- transaction of the change. dispatched_at is the outbox mark: NULL until the
-- dispatcher has created the event's deliveries and started their workflows.
CREATE TABLE events (
    id              UUID PRIMARY KEY,
    project_id      UUID NOT NULL REFERENCES projects (id),
    organization_id UUID NOT NULL,
    type            TEXT NOT NULL,
    data            JSONB NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    dispatched_at   TIMESTAMPTZ
);

--bun:split

CREATE INDEX events_project_id_idx ON events (project_id, id);

--bun:split

CREATE INDEX events_project_type_idx ON events (project_id, type, id);

--bun:split

CREATE INDEX events_undispatched_idx ON events (id) WHERE dispatched_at IS NULL;

--bun:split

-- Webhook endpoints of a project. Signing secrets are sealed (model/secret);
-- during a rotation's grace period the previous one signs alongside.
CREATE TABLE webhook_endpoints (
    id                     UUID PRIMARY KEY,
    project_id             UUID NOT NULL REFERENCES projects (id),
    url                    TEXT NOT NULL,
    description            TEXT NOT NULL,
    event_types            TEXT NOT NULL,
    enabled                BOOLEAN NOT NULL,
    disabled_reason        TEXT,
    secret_enc             BYTEA NOT NULL,
    secret_last4           TEXT NOT NULL,
    prev_secret_enc        BYTEA,
    prev_secret_expires_at TIMESTAMPTZ,
    failing_since          TIMESTAMPTZ,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL,
    deleted_at             TIMESTAMPTZ
);

--bun:split

CREATE INDEX webhook_endpoints_project_id_idx ON webhook_endpoints (project_id, id);

--bun:split

-- One delivery of one event to one endpoint: a workflow
-- (webhook-delivery-<id>) that tries until it succeeds or its retry window
-- ends. A redelivery is a delivery of its own.
CREATE TABLE webhook_deliveries (
    id           UUID PRIMARY KEY,
    event_id     UUID NOT NULL REFERENCES events (id),
    endpoint_id  UUID NOT NULL REFERENCES webhook_endpoints (id),
    project_id   UUID NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts     INTEGER NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    started_at   TIMESTAMPTZ,
    finished_at  TIMESTAMPTZ
);

--bun:split

CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

--bun:split

CREATE INDEX webhook_deliveries_unstarted_idx ON webhook_deliveries (created_at) WHERE started_at IS NULL AND status = 'pending';

--bun:split

-- Every attempt of a delivery: its answer's status, latency and first bytes.
CREATE TABLE webhook_attempts (
    id            UUID PRIMARY KEY,
    delivery_id   UUID NOT NULL REFERENCES webhook_deliveries (id),
    endpoint_id   UUID NOT NULL,
    event_id      UUID NOT NULL,
    event_type    TEXT NOT NULL,
    attempt       INTEGER NOT NULL,
    succeeded     BOOLEAN NOT NULL,
    http_status   INTEGER,
    latency_ms    BIGINT NOT NULL,
    response_body TEXT NOT NULL,
    error         TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id);

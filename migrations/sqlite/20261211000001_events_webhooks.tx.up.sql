-- Events: one row per state change of a project's resources, written in the
-- transaction of the change. dispatched_at is the outbox mark: NULL until the
-- dispatcher has created the event's deliveries and started their workflows.
CREATE TABLE events (
    id              TEXT PRIMARY KEY,
    project_id      TEXT NOT NULL REFERENCES projects (id),
    organization_id TEXT NOT NULL,
    type            TEXT NOT NULL,
    data            TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    dispatched_at   TIMESTAMP
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
    id                     TEXT PRIMARY KEY,
    project_id             TEXT NOT NULL REFERENCES projects (id),
    url                    TEXT NOT NULL,
    description            TEXT NOT NULL,
    event_types            TEXT NOT NULL,
    enabled                BOOLEAN NOT NULL,
    disabled_reason        TEXT,
    secret_enc             BLOB NOT NULL,
    secret_last4           TEXT NOT NULL,
    prev_secret_enc        BLOB,
    prev_secret_expires_at TIMESTAMP,
    failing_since          TIMESTAMP,
    created_at             TIMESTAMP NOT NULL,
    updated_at             TIMESTAMP NOT NULL,
    deleted_at             TIMESTAMP
);

--bun:split

CREATE INDEX webhook_endpoints_project_id_idx ON webhook_endpoints (project_id, id);

--bun:split

-- One delivery of one event to one endpoint: a workflow
-- (webhook-delivery-<id>) that tries until it succeeds or its retry window
-- ends. A redelivery is a delivery of its own.
CREATE TABLE webhook_deliveries (
    id           TEXT PRIMARY KEY,
    event_id     TEXT NOT NULL REFERENCES events (id),
    endpoint_id  TEXT NOT NULL REFERENCES webhook_endpoints (id),
    project_id   TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts     INTEGER NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    started_at   TIMESTAMP,
    finished_at  TIMESTAMP
);

--bun:split

CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

--bun:split

CREATE INDEX webhook_deliveries_unstarted_idx ON webhook_deliveries (created_at) WHERE started_at IS NULL AND status = 'pending';

--bun:split

-- Every attempt of a delivery: its answer's status, latency and first bytes.
CREATE TABLE webhook_attempts (
    id            TEXT PRIMARY KEY,
    delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries (id),
    endpoint_id   TEXT NOT NULL,
    event_id      TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    attempt       INTEGER NOT NULL,
    succeeded     BOOLEAN NOT NULL,
    http_status   INTEGER,
    latency_ms    INTEGER NOT NULL,
    response_body TEXT NOT NULL,
    error         TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL
);

--bun:split

CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id);

-- Certification smoke runs and the evidence of their steps. A run is a
-- Temporal workflow (workflow_id certification-run-<id>); each step keeps one
-- row, rewritten by every attempt, so retries never add rows.
CREATE TABLE certification_runs (
    id              TEXT PRIMARY KEY,
    project_id      TEXT NOT NULL REFERENCES projects (id),
    invoice_type    TEXT NOT NULL CHECK (invoice_type IN ('B2B', 'B2C', 'B2G')),
    issue_date      TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'passed', 'failed', 'cancelled')),
    irn             TEXT,
    invoice_payload TEXT,
    payload         TEXT,
    failure_reason  TEXT,
    workflow_id     TEXT NOT NULL UNIQUE,
    temporal_run_id TEXT,
    created_at      TIMESTAMP NOT NULL,
    started_at      TIMESTAMP,
    finished_at     TIMESTAMP
);

--bun:split

CREATE INDEX certification_runs_project_id_idx ON certification_runs (project_id, id);

--bun:split

CREATE TABLE certification_steps (
    run_id       TEXT NOT NULL REFERENCES certification_runs (id),
    name         TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('running', 'retrying', 'passed', 'failed')),
    attempts     INTEGER NOT NULL,
    started_at   TIMESTAMP NOT NULL,
    finished_at  TIMESTAMP,
    duration_ms  INTEGER,
    http_status  INTEGER,
    nrs_error_id TEXT,
    message      TEXT NOT NULL,
    PRIMARY KEY (run_id, name)
);

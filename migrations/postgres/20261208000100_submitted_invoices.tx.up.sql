-- Invoices submitted to the tax authority (NRS) and the log of their state
-- changes and authority exchanges. One Temporal workflow per invoice
-- (workflow_id invoice-<project_id>-<irn>); model/submissions is the only
-- writer of both tables. The payload is kept exactly as cleared; archived
-- invoices are hash-chained per project (archive_seq, archive_prev_hash,
-- archive_hash) and kept until retain_until.
CREATE TABLE submitted_invoices (
    id                 UUID PRIMARY KEY,
    project_id         UUID NOT NULL REFERENCES projects (id),
    organization_id    UUID NOT NULL,
    environment        TEXT NOT NULL,
    irn                TEXT NOT NULL,
    invoice_type       TEXT NOT NULL CHECK (invoice_type IN ('B2B', 'B2C', 'B2G')),
    invoice_type_code  TEXT NOT NULL,
    payload            TEXT NOT NULL,
    payload_hash       TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('queued', 'submitting', 'signed', 'transmitted', 'confirmed', 'rejected', 'outcome_unknown')),
    pending_call       TEXT,
    sign_sent          INTEGER NOT NULL DEFAULT 0,
    transmit_sent      INTEGER NOT NULL DEFAULT 0,
    last_sent_at       TIMESTAMPTZ,
    event_seq          INTEGER NOT NULL DEFAULT 0,
    nrs_error_id       TEXT,
    nrs_error_message  TEXT,
    customer_tin       TEXT,
    issue_date         TEXT NOT NULL,
    billing_reference  TEXT,
    payment_status     TEXT,
    qr_code_data       TEXT,
    workflow_id        TEXT NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    signed_at          TIMESTAMPTZ,
    transmitted_at     TIMESTAMPTZ,
    confirmed_at       TIMESTAMPTZ,
    archive_seq        BIGINT,
    archive_prev_hash  TEXT,
    archive_hash       TEXT,
    archived_at        TIMESTAMPTZ,
    retain_until       TIMESTAMPTZ
);

--bun:split

CREATE UNIQUE INDEX submitted_invoices_project_irn_idx ON submitted_invoices (project_id, irn);

--bun:split

CREATE INDEX submitted_invoices_project_id_idx ON submitted_invoices (project_id, id);

--bun:split

CREATE UNIQUE INDEX submitted_invoices_archive_idx ON submitted_invoices (project_id, archive_seq);

--bun:split

CREATE TABLE invoice_events (
    invoice_id    UUID NOT NULL REFERENCES submitted_invoices (id),
    seq           INTEGER NOT NULL,
    project_id    UUID NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('state', 'exchange')),
    from_status   TEXT,
    to_status     TEXT,
    operation     TEXT,
    attempt       INTEGER,
    latency_ms    BIGINT,
    http_status   INTEGER,
    nrs_error_id  TEXT,
    request_body  TEXT,
    response_body TEXT,
    message       TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (invoice_id, seq)
);

-- The inbox: invoices suppliers transmitted to a project's business through
-- NRS, stored once per IRN (what a pull that runs again finds is not
-- stored twice), with the receipt confirmation's mark and the buyer's
-- decision. model/inbox is the only writer.
CREATE TABLE received_invoices (
    id                UUID PRIMARY KEY,
    project_id        UUID NOT NULL REFERENCES projects (id),
    irn               TEXT NOT NULL,
    supplier_tin      TEXT NOT NULL DEFAULT '',
    supplier_name     TEXT NOT NULL DEFAULT '',
    customer_tin      TEXT NOT NULL DEFAULT '',
    invoice_type_code TEXT NOT NULL DEFAULT '',
    invoice_kind      TEXT NOT NULL DEFAULT '',
    issue_date        TEXT NOT NULL DEFAULT '',
    due_date          TEXT NOT NULL DEFAULT '',
    currency          TEXT NOT NULL DEFAULT '',
    payable_amount    TEXT NOT NULL DEFAULT '',
    payment_status    TEXT NOT NULL DEFAULT '',
    sealed            BOOLEAN NOT NULL DEFAULT FALSE,
    document          TEXT NOT NULL,
    decision          TEXT NOT NULL DEFAULT '',
    decision_reason   TEXT NOT NULL DEFAULT '',
    decided_at        TIMESTAMPTZ,
    confirmed_at      TIMESTAMPTZ,
    received_at       TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX received_invoices_project_irn ON received_invoices (project_id, irn);
CREATE INDEX received_invoices_unconfirmed ON received_invoices (project_id) WHERE confirmed_at IS NULL;

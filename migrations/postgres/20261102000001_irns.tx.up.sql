CREATE TABLE irns (
    project_id        UUID NOT NULL REFERENCES projects (id),
    invoice_reference TEXT NOT NULL,
    issue_date        TEXT NOT NULL,
    irn               TEXT NOT NULL,
    invoice_type_code TEXT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (project_id, invoice_reference)
);

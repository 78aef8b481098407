CREATE TABLE irns_rowid (
    project_id        TEXT NOT NULL REFERENCES projects (id),
    invoice_reference TEXT NOT NULL,
    issue_date        TEXT NOT NULL,
    irn               TEXT NOT NULL,
    invoice_type_code TEXT NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    PRIMARY KEY (project_id, invoice_reference)
);

INSERT INTO irns_rowid (project_id, invoice_reference, issue_date, irn, invoice_type_code, created_at)
SELECT project_id, invoice_reference, issue_date, irn, invoice_type_code, created_at FROM irns;

DROP TABLE irns;

ALTER TABLE irns_rowid RENAME TO irns;

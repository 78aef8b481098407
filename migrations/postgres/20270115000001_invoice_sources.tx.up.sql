-- The document an invoice was converted from (a UBL 2.1 invoice or credit
-- note; for a note built from an invoice, the request), kept with the invoice: its format, its
-- bytes, the mapping report of the conversion, and what it said that NRS
-- has no field for but its UBL gives back (electronic addresses,
-- accounts). model/formats is the only writer.
CREATE TABLE invoice_sources (
    invoice_id  UUID PRIMARY KEY REFERENCES submitted_invoices (id),
    project_id  UUID NOT NULL REFERENCES projects (id),
    format      TEXT NOT NULL,
    document    TEXT NOT NULL,
    report      TEXT NOT NULL,
    carried     TEXT NOT NULL DEFAULT '{}',
    created_at  TIMESTAMPTZ NOT NULL
);

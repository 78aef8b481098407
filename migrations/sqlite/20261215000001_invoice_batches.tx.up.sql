-- Batches of invoices submitted at once (POST /api/v2/invoices/batch) and
-- their items, in request order: the invoice an item became, or its
-- problems (invalid) or message (conflict). Recorded in the transaction
-- that records the batch's invoices; model/submissions is the only writer.
CREATE TABLE invoice_batches (
    id               TEXT PRIMARY KEY,
    project_id       TEXT NOT NULL REFERENCES projects (id),
    organization_id  TEXT NOT NULL,
    item_count       INTEGER NOT NULL,
    created_at       TIMESTAMP NOT NULL
);

--bun:split

CREATE TABLE invoice_batch_items (
    batch_id    TEXT NOT NULL REFERENCES invoice_batches (id),
    idx         INTEGER NOT NULL,
    project_id  TEXT NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('accepted', 'invalid', 'conflict')),
    invoice_id  TEXT REFERENCES submitted_invoices (id),
    irn         TEXT,
    problems    TEXT,
    message     TEXT,
    PRIMARY KEY (batch_id, idx)
);

-- A business's invoice totals spread over several rows (slots, chosen by
-- the invoice's IRN), read as their sum: writes of different invoices of
-- one business no longer wait for each other's commit on one row.
CREATE TABLE nrs_sandbox_invoice_tallies (
    business_id TEXT NOT NULL REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    slot        INTEGER NOT NULL,
    invoices    BIGINT NOT NULL,
    bytes       BIGINT NOT NULL,
    PRIMARY KEY (business_id, slot)
);

--bun:split

INSERT INTO nrs_sandbox_invoice_tallies (business_id, slot, invoices, bytes)
SELECT business_id, 0, invoices, bytes FROM nrs_sandbox_invoice_totals;

--bun:split

DROP TABLE nrs_sandbox_invoice_totals;

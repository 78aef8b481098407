-- How many invoices each business holds and their payloads' bytes, kept
-- with every write, so that keeping a business within its bounds reads
-- one row instead of counting (and reading the payloads of) all of them.
CREATE TABLE nrs_sandbox_invoice_totals (
    business_id UUID PRIMARY KEY REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    invoices    BIGINT NOT NULL,
    bytes       BIGINT NOT NULL
);

--bun:split

INSERT INTO nrs_sandbox_invoice_totals (business_id, invoices, bytes)
SELECT business_id, count(*), coalesce(sum(payload_bytes), 0) FROM nrs_sandbox_invoices GROUP BY business_id;

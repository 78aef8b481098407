CREATE TABLE nrs_sandbox_invoice_totals (
    business_id TEXT PRIMARY KEY REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    invoices    BIGINT NOT NULL,
    bytes       BIGINT NOT NULL
);

--bun:split

INSERT INTO nrs_sandbox_invoice_totals (business_id, invoices, bytes)
SELECT business_id, sum(invoices), sum(bytes) FROM nrs_sandbox_invoice_tallies GROUP BY business_id;

--bun:split

DROP TABLE nrs_sandbox_invoice_tallies;

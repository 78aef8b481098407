DROP TABLE IF EXISTS nrs_sandbox_attempts;

--bun:split

DROP TABLE IF EXISTS nrs_sandbox_invoices;

--bun:split

DROP TABLE IF EXISTS nrs_sandbox_parties;

--bun:split

DROP TABLE IF EXISTS nrs_sandbox_businesses;

-- The code lists a tax authority served, per environment and list, as
-- served (for NRS the data array of /api/v1/invoice/resources/{name}), with
-- their SHA-256 (hex) and when they were fetched. A refresh replaces the
-- row of each list it fetched; validation loads the rows into memory.
CREATE TABLE authority_code_lists (
    tax_authority_code TEXT NOT NULL,
    environment        TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
    name               TEXT NOT NULL,
    data               BYTEA NOT NULL,
    sha256             TEXT NOT NULL,
    entries            INTEGER NOT NULL,
    fetched_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tax_authority_code, environment, name)
);

-- The state of the NRS sandbox stand-in (rest/nrssandbox), a service of its
-- own: the businesses it acts as NRS for (one per registering project), their
-- parties, their invoices and the attempt counters of the SBXRETRY scenario.
-- The application never reads these tables.
CREATE TABLE nrs_sandbox_businesses (
    business_id     TEXT PRIMARY KEY,
    owner           TEXT NOT NULL UNIQUE,
    entity_id       TEXT NOT NULL UNIQUE,
    service_id      TEXT NOT NULL,
    tin             TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    email           TEXT NOT NULL,
    certificate     TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    private_key     TEXT NOT NULL,
    qr_encryption   TEXT NOT NULL CHECK (qr_encryption IN ('RSA-PKCS1-v1_5', 'RSA-OAEP-SHA256')),
    api_key         TEXT NOT NULL UNIQUE,
    api_secret_hash TEXT NOT NULL,
    password_hash   TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);

--bun:split

CREATE TABLE nrs_sandbox_parties (
    id                   TEXT PRIMARY KEY,
    business_id          TEXT NOT NULL REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    party_name           TEXT NOT NULL,
    tin                  TEXT NOT NULL,
    email                TEXT NOT NULL,
    telephone            TEXT NOT NULL,
    business_description TEXT NOT NULL,
    postal_address_id    TEXT NOT NULL,
    street_name          TEXT NOT NULL,
    city_name            TEXT NOT NULL,
    postal_zone          TEXT NOT NULL,
    country              TEXT NOT NULL,
    created_at           TIMESTAMP NOT NULL
);

--bun:split

CREATE INDEX nrs_sandbox_parties_business_idx ON nrs_sandbox_parties (business_id, created_at);

--bun:split

CREATE TABLE nrs_sandbox_invoices (
    business_id            TEXT NOT NULL REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    irn                    TEXT NOT NULL,
    entry_status           TEXT NOT NULL CHECK (entry_status IN ('VALIDATED', 'SIGNED')),
    invoice_type_code      TEXT NOT NULL,
    invoice_kind           TEXT NOT NULL,
    issue_date             TEXT NOT NULL,
    due_date               TEXT NOT NULL,
    document_currency_code TEXT NOT NULL,
    tax_currency_code      TEXT NOT NULL,
    payment_status         TEXT NOT NULL,
    payment_reference      TEXT NOT NULL,
    customer_tin           TEXT NOT NULL,
    customer_party_id      TEXT NOT NULL,
    payload                TEXT NOT NULL,
    payload_bytes          INTEGER NOT NULL,
    created_at             TIMESTAMP NOT NULL,
    validated_at           TIMESTAMP,
    signed_at              TIMESTAMP,
    transmitted_at         TIMESTAMP,
    delivered_at           TIMESTAMP,
    payment_updated_at     TIMESTAMP,
    PRIMARY KEY (business_id, irn)
);

--bun:split

CREATE INDEX nrs_sandbox_invoices_age_idx ON nrs_sandbox_invoices (business_id, created_at);

--bun:split

CREATE INDEX nrs_sandbox_invoices_customer_idx ON nrs_sandbox_invoices (customer_tin, transmitted_at);

--bun:split

CREATE TABLE nrs_sandbox_attempts (
    business_id TEXT NOT NULL REFERENCES nrs_sandbox_businesses (business_id) ON DELETE CASCADE,
    operation   TEXT NOT NULL,
    irn         TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (business_id, operation, irn)
);

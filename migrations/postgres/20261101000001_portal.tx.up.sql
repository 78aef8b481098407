CREATE TABLE users (
    id            UUID PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE organizations (
    id         UUID PRIMARY KEY,
    name       TEXT NOT NULL,
    slug       TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE memberships (
    organization_id UUID NOT NULL REFERENCES organizations (id),
    user_id         UUID NOT NULL REFERENCES users (id),
    role            TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (organization_id, user_id)
);

--bun:split

CREATE INDEX memberships_user_id_idx ON memberships (user_id);

--bun:split

CREATE TABLE projects (
    id                 UUID PRIMARY KEY,
    organization_id    UUID NOT NULL REFERENCES organizations (id),
    name               TEXT NOT NULL,
    environment        TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    tax_authority_code TEXT NOT NULL,
    business_id        TEXT,
    service_id         TEXT,
    public_key         TEXT,
    certificate_enc    BYTEA,
    private_key_enc    BYTEA,
    api_key_enc        BYTEA,
    api_secret_enc     BYTEA,
    base_url           TEXT,
    qr_encryption      TEXT NOT NULL CHECK (qr_encryption IN ('RSA-PKCS1-v1_5', 'RSA-OAEP-SHA256')),
    configured         BOOLEAN NOT NULL
);

--bun:split

CREATE INDEX projects_organization_id_idx ON projects (organization_id);

--bun:split

CREATE TABLE api_keys (
    id                     UUID PRIMARY KEY,
    project_id             UUID NOT NULL REFERENCES projects (id),
    key_name               TEXT NOT NULL,
    client_id              TEXT NOT NULL UNIQUE,
    secret_hash            BYTEA NOT NULL,
    secret_last4           TEXT NOT NULL,
    prev_secret_hash       BYTEA,
    prev_secret_expires_at TIMESTAMPTZ,
    scopes                 TEXT NOT NULL,
    status                 TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at             TIMESTAMPTZ NOT NULL,
    rotated_at             TIMESTAMPTZ,
    revoked_at             TIMESTAMPTZ,
    last_used_at           TIMESTAMPTZ
);

--bun:split

CREATE INDEX api_keys_project_id_idx ON api_keys (project_id);

--bun:split

CREATE TABLE usage_counters (
    project_id UUID NOT NULL REFERENCES projects (id),
    key_id     UUID NOT NULL REFERENCES api_keys (id),
    operation  TEXT NOT NULL,
    day        TEXT NOT NULL,
    count      BIGINT NOT NULL,
    PRIMARY KEY (project_id, key_id, operation, day)
);

--bun:split

CREATE INDEX usage_counters_key_id_idx ON usage_counters (key_id);

--bun:split

CREATE TABLE audit_logs (
    id              UUID PRIMARY KEY,
    organization_id UUID REFERENCES organizations (id),
    seq             BIGINT NOT NULL,
    actor_type      TEXT NOT NULL,
    actor_id        TEXT NOT NULL,
    action          TEXT NOT NULL,
    target_type     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    ip              TEXT NOT NULL,
    user_agent      TEXT NOT NULL,
    request_id      TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    prev_hash       TEXT NOT NULL,
    hash            TEXT NOT NULL
);

--bun:split

CREATE UNIQUE INDEX audit_logs_org_seq_idx ON audit_logs (organization_id, seq);

--bun:split

CREATE UNIQUE INDEX audit_logs_system_seq_idx ON audit_logs (seq) WHERE organization_id IS NULL;

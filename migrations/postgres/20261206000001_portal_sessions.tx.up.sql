-- Portal sessions: the refresh tokens that let a browser get a new access
-- token after a reload. Only a keyed hash of each token is kept. A token is
-- used once: refreshing marks it rotated and adds its successor to the same
-- family (one sign-in); a rotated token shown again revokes the family.
CREATE TABLE portal_sessions (
    id                 UUID PRIMARY KEY,
    family_id          UUID NOT NULL,
    user_id            UUID NOT NULL REFERENCES users (id),
    token_hash         TEXT NOT NULL UNIQUE,
    created_at         TIMESTAMPTZ NOT NULL,
    expires_at         TIMESTAMPTZ NOT NULL,
    family_expires_at  TIMESTAMPTZ NOT NULL,
    rotated_at         TIMESTAMPTZ,
    revoked_at         TIMESTAMPTZ
);

--bun:split

CREATE INDEX portal_sessions_family_id_idx ON portal_sessions (family_id);

--bun:split

CREATE INDEX portal_sessions_expires_at_idx ON portal_sessions (family_expires_at);

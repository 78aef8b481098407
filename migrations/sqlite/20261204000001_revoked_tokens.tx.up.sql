-- Portal access tokens revoked before their expiry (logout), by token id
-- (the JWT's jti). Every API process reads the rows revoked since its last
-- look, so a logout holds across processes; a row is deleted once the token
-- would have expired anyway.
CREATE TABLE revoked_tokens (
    token_id   TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    revoked_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);

--bun:split

CREATE INDEX revoked_tokens_user_id_idx ON revoked_tokens (user_id);

--bun:split

CREATE INDEX revoked_tokens_revoked_at_idx ON revoked_tokens (revoked_at);

--bun:split

CREATE INDEX revoked_tokens_expires_at_idx ON revoked_tokens (expires_at);

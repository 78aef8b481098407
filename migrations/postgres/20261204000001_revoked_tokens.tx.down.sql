DROP TABLE IF EXISTS revoked_tokens;

DROP TABLE IF EXISTS audit_logs;

--bun:split

DROP TABLE IF EXISTS usage_counters;

--bun:split

DROP TABLE IF EXISTS api_keys;

--bun:split

DROP TABLE IF EXISTS projects;

--bun:split

DROP TABLE IF EXISTS memberships;

--bun:split

DROP TABLE IF EXISTS organizations;

--bun:split

DROP TABLE IF EXISTS users;

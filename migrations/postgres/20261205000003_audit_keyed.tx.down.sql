-- Keyed entries stay keyed: an einvoice of before this migration cannot
-- verify them (it would report the chains broken).
DROP TABLE IF EXISTS audit_heads;

--bun:split

ALTER TABLE audit_logs DROP COLUMN hash_version;

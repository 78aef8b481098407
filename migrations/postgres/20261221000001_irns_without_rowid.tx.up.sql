-- On SQLite this migration rebuilds irns without a rowid. A PostgreSQL
-- table has none, so nothing changes here: the file keeps the two
-- dialects' migrations in step.
SELECT 1;

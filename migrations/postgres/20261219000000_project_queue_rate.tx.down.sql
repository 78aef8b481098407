ALTER TABLE projects DROP COLUMN queue_rate_per_minute;

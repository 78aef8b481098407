-- How NRS answers each process that calls it, per environment: a process
-- whose circuit breakers are not all closed (or that a 429 slows down)
-- keeps its row fresh; a row that is not refreshed goes stale and is
-- ignored. Every API process reads the fresh rows for /health and the
-- NRS-Status header, so a worker's view shows on the API.
CREATE TABLE nrs_health (
    process_id  TEXT NOT NULL,
    environment TEXT NOT NULL,
    health      TEXT NOT NULL,
    endpoints   TEXT NOT NULL,
    updated_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (process_id, environment)
);

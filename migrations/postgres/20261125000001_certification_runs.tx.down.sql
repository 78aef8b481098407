DROP TABLE IF EXISTS certification_steps;

--bun:split

DROP TABLE IF EXISTS certification_runs;

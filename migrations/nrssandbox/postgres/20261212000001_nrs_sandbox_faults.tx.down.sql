DROP TABLE IF EXISTS nrs_sandbox_faults;

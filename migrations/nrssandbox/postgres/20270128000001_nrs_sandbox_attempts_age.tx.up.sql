-- Scenario counters are dropped by age on every count: find the old ones
-- by index instead of reading every counter of the business.
CREATE INDEX nrs_sandbox_attempts_age_idx ON nrs_sandbox_attempts (business_id, created_at);

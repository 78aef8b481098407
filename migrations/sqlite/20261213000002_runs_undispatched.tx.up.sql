-- The outbox of run starts: queued runs whose workflow is not started yet.
CREATE INDEX certification_runs_undispatched_idx ON certification_runs (created_at) WHERE temporal_run_id IS NULL;

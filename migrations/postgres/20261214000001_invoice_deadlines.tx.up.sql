-- Every submitted invoice's deadline (B2C: a window after its issue; B2B
-- and B2G: the project's clearance_deadline_minutes after it was accepted),
-- and whether it is at risk of missing it or has missed it. Invoices
-- submitted before take the time they were accepted as their deadline.
-- The queue (queued invoices by deadline) is read per project through
-- submitted_invoices_queue_idx; the queue metrics (queued invoices by
-- environment) through submitted_invoices_status_idx.
ALTER TABLE submitted_invoices ADD COLUMN deadline_at TIMESTAMPTZ;
ALTER TABLE submitted_invoices ADD COLUMN deadline_at_risk BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE submitted_invoices ADD COLUMN deadline_missed BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE submitted_invoices SET deadline_at = created_at WHERE deadline_at IS NULL;
ALTER TABLE projects ADD COLUMN clearance_deadline_minutes INTEGER NOT NULL DEFAULT 60;
CREATE INDEX submitted_invoices_queue_idx ON submitted_invoices (project_id, status, deadline_at);
CREATE INDEX submitted_invoices_status_idx ON submitted_invoices (status, environment, created_at);

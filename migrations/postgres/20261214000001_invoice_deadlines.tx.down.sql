DROP INDEX submitted_invoices_status_idx;
DROP INDEX submitted_invoices_queue_idx;
ALTER TABLE projects DROP COLUMN clearance_deadline_minutes;
ALTER TABLE submitted_invoices DROP COLUMN deadline_missed;
ALTER TABLE submitted_invoices DROP COLUMN deadline_at_risk;
ALTER TABLE submitted_invoices DROP COLUMN deadline_at;

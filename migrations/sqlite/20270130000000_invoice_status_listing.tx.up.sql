-- GET /invoices?status=… lists a project's invoices of one status newest
-- first, by id: without this index a status few invoices have (rejected)
-- read every invoice of the project to find none.
CREATE INDEX submitted_invoices_project_status_idx ON submitted_invoices (project_id, status, id);

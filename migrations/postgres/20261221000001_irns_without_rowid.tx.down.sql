-- Nothing to undo on PostgreSQL (see the up migration).
SELECT 1;

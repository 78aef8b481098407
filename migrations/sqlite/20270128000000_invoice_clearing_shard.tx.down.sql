DROP INDEX submitted_invoices_clearing_idx;
ALTER TABLE submitted_invoices DROP COLUMN clearing_shard;

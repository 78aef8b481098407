-- The clearing shard that owns a submitted invoice (NULL: the invoice's
-- own workflow does). A shard's workflow takes its invoices from this
-- index in acceptance order and sets the column back to NULL once the
-- invoice is confirmed or rejected, or handed to a workflow of its own.
ALTER TABLE submitted_invoices ADD COLUMN clearing_shard INTEGER;
CREATE INDEX submitted_invoices_clearing_idx ON submitted_invoices (project_id, clearing_shard, created_at, id)
    WHERE clearing_shard IS NOT NULL;

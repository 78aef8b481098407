-- A project's own pace for its queue: how many waiting invoices are sent a
-- minute once NRS answers again (1..6000); NULL keeps the operator's
-- default (EINVOICE_INVOICE_QUEUE_RATE).
ALTER TABLE projects ADD COLUMN queue_rate_per_minute INTEGER;

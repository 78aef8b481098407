DROP TABLE invoice_batch_items;

--bun:split

DROP TABLE invoice_batches;

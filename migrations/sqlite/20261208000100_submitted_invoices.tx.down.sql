DROP TABLE invoice_events;

--bun:split

DROP TABLE submitted_invoices;

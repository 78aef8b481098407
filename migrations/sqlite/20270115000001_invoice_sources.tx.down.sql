DROP TABLE invoice_sources;

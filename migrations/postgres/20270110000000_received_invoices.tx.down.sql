DROP TABLE received_invoices;

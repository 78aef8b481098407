ALTER TABLE projects DROP COLUMN post_payment_report;

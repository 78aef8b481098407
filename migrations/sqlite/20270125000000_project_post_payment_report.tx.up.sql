-- Whether and how an invoice set PAID is reported to NRS's VAT report
-- endpoint: off (default), postpayment (POST /api/v1/vat/postpayment,
-- snake_case) or legacy (POST /v1/vat/postPayment, camelCase).
ALTER TABLE projects ADD COLUMN post_payment_report TEXT NOT NULL DEFAULT 'off';

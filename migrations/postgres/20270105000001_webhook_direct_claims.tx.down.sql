ALTER TABLE webhook_deliveries DROP COLUMN claimed_at;

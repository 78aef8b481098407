-- A delivery's first attempt is made by the dispatcher itself, with no
-- workflow; claimed_at is when a dispatcher took it on. Another dispatcher
-- (or the sweep) leaves a claimed delivery alone for a lease, after which a
-- claim whose dispatcher died is taken over. A delivery that needs a retry
-- gets its workflow then (started_at).
ALTER TABLE webhook_deliveries ADD COLUMN claimed_at TIMESTAMP;

DROP TABLE webhook_attempts;

--bun:split

DROP TABLE webhook_deliveries;

--bun:split

DROP TABLE webhook_endpoints;

--bun:split

DROP TABLE events;

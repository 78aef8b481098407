-- Sandbox projects call the NRS sandbox the server is configured with and
-- take no base_url any more: forget the addresses saved before.
UPDATE projects SET base_url = NULL WHERE environment = 'sandbox';

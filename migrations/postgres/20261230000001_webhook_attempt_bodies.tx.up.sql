-- The delivery log keeps no answer's body any more (an endpoint at a private
-- address may answer an internal page): forget the bodies kept before.
UPDATE webhook_attempts SET response_body = '' WHERE response_body <> '';

-- The addresses forgotten on the way up are not restored: sandbox projects
-- call the configured sandbox either way.
SELECT 1;

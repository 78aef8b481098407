-- The bodies are gone; nothing to restore.
SELECT 1;

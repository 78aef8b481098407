ALTER TABLE projects DROP COLUMN validation_profile;

-- The validation profile a project's invoices are checked with when a
-- request names none: nrs (errors only for what NRS enforces) or strict
-- (einvoice's consistency checks are errors too).
ALTER TABLE projects ADD COLUMN validation_profile TEXT NOT NULL DEFAULT 'nrs'
    CHECK (validation_profile IN ('nrs', 'strict'));

-- How far each API process's usage journal (EINVOICE_USAGE_JOURNAL_DIR) is
-- written to usage_counters: the last sequence number applied, moved in the
-- same transaction as the counts, so that replaying a journal after a crash
-- never counts a call twice.
CREATE TABLE usage_journal_marks (
    instance     TEXT PRIMARY KEY,
    applied_seq  BIGINT NOT NULL
);

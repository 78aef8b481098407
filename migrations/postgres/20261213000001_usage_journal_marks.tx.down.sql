DROP TABLE usage_journal_marks;

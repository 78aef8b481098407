package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Usage is the repository of usage counters per project, key, operation and
// day.
type Usage struct{ s *Store }

// Usage returns the repository of usage, in s's connection or transaction.
func (s *Store) Usage() Usage { return Usage{s} }

// ListForProjects returns the counters of several projects of the
// user's organizations between two days (inclusive, YYYY-MM-DD), optionally
// of one key, in one query.
func (rp Usage) ListForProjects(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, keyID uuid.UUID, from, to string) ([]model.UsageCounter, error) {
	out := []model.UsageCounter{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	q := rp.s.idb.NewSelect().Model(&out).
		Where("project_id IN (?)", bun.List(projectIDs)).
		Where("project_id IN (?)", rp.s.memberProjectIDs(userID)).
		Where("day >= ? AND day <= ?", from, to).
		OrderExpr("project_id ASC, day ASC, operation ASC, key_id ASC")
	if keyID != uuid.Nil {
		q = q.Where("key_id = ?", keyID)
	}
	err := q.Scan(ctx)
	return out, rp.s.wrap(err, "usage")
}

// Add adds counts to the stored counters in one statement per batch.
func (rp Usage) Add(ctx context.Context, counts []model.UsageCounter) error {
	const batch = 500
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		for start := 0; start < len(counts); start += batch {
			end := min(start+batch, len(counts))
			rows := counts[start:end]
			_, err := tx.idb.NewInsert().Model(&rows).
				On("CONFLICT (project_id, key_id, operation, day) DO UPDATE").
				Set("count = ?TableAlias.count + EXCLUDED.count").
				Exec(ctx)
			if err != nil {
				return tx.wrap(err, "usage")
			}
		}
		return nil
	})
}

// List returns a project's counters between two days (inclusive,
// YYYY-MM-DD), optionally of one key.
func (rp Usage) List(ctx context.Context, projectID, keyID uuid.UUID, from, to string) ([]model.UsageCounter, error) {
	var out []model.UsageCounter
	q := rp.s.idb.NewSelect().Model(&out).
		Where("project_id = ?", projectID).
		Where("day >= ? AND day <= ?", from, to).
		OrderExpr("day ASC, operation ASC, key_id ASC")
	if keyID != uuid.Nil {
		q = q.Where("key_id = ?", keyID)
	}
	err := q.Scan(ctx)
	return out, rp.s.wrap(err, "usage")
}

// JournalMark is the last sequence number of a usage journal written to
// the counters (0 when none was).
func (rp Usage) JournalMark(ctx context.Context, instance string) (int64, error) {
	var seq int64
	err := rp.s.idb.NewRaw("SELECT applied_seq FROM usage_journal_marks WHERE instance = ?", instance).Scan(ctx, &seq)
	if err != nil && errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return seq, rp.s.wrap(err, "usage journal mark")
}

// SetJournalMark records that a usage journal is written up to seq; call
// it in the transaction that adds the counts.
func (rp Usage) SetJournalMark(ctx context.Context, instance string, seq int64) error {
	_, err := rp.s.idb.NewRaw("INSERT INTO usage_journal_marks (instance, applied_seq) VALUES (?, ?) "+
		"ON CONFLICT (instance) DO UPDATE SET applied_seq = EXCLUDED.applied_seq", instance, seq).Exec(ctx)
	return rp.s.wrap(err, "usage journal mark")
}

// DeleteJournalMark forgets a usage journal whose files are gone.
func (rp Usage) DeleteJournalMark(ctx context.Context, instance string) error {
	_, err := rp.s.idb.NewRaw("DELETE FROM usage_journal_marks WHERE instance = ?", instance).Exec(ctx)
	return rp.s.wrap(err, "usage journal mark")
}

package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// AddUsage adds counts to the stored counters in one statement per batch.
func (s *Store) AddUsage(ctx context.Context, counts []model.UsageCounter) error {
	const batch = 500
	return s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
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

// Usage returns a project's counters between two days (inclusive,
// YYYY-MM-DD), optionally of one key.
func (s *Store) Usage(ctx context.Context, projectID, keyID uuid.UUID, from, to string) ([]model.UsageCounter, error) {
	var out []model.UsageCounter
	q := s.idb.NewSelect().Model(&out).
		Where("project_id = ?", projectID).
		Where("day >= ? AND day <= ?", from, to).
		OrderExpr("day ASC, operation ASC, key_id ASC")
	if keyID != uuid.Nil {
		q = q.Where("key_id = ?", keyID)
	}
	err := q.Scan(ctx)
	return out, s.wrap(err, "usage")
}

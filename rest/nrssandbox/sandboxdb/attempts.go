package sandboxdb

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Attempts is the repository of the attempts the failure scenarios count.
type Attempts struct{ d *DB }

// Attempts returns the repository of the attempts the failure scenarios
// count, in d's connection or transaction.
func (d *DB) Attempts() Attempts { return Attempts{d} }

// attemptTTL is how long a scenario counter lives; older ones are dropped
// so that the counters of a business stay few.
const attemptTTL = time.Hour

// Count counts one more call of an operation for an IRN of a business
// and returns the count, 1 for the first call. Counters older than an hour
// start over.
func (rp Attempts) Count(ctx context.Context, businessID, operation, irn string, now time.Time) (int, error) {
	businessID = strings.ToLower(businessID)
	var n int
	err := rp.d.RunInTx(ctx, func(ctx context.Context, tx *DB) error {
		if _, err := tx.idb.NewDelete().Model((*attempt)(nil)).Where("business_id = ?", businessID).
			Where("created_at < ?", now.Add(-attemptTTL)).Exec(ctx); err != nil {
			return mapErr(err)
		}
		a := &attempt{BusinessID: businessID, Operation: operation, IRN: irn, Attempts: 1, CreatedAt: now}
		_, err := tx.idb.NewInsert().Model(a).
			On("CONFLICT (business_id, operation, irn) DO UPDATE").
			Set("attempts = ?TableAlias.attempts + 1").
			Returning("attempts").Exec(ctx, &n)
		return mapErr(err)
	})
	return n, err
}

// Get reads the count of an operation for an IRN of a business (0 when
// none was counted).
func (rp Attempts) Get(ctx context.Context, businessID, operation, irn string) (int, error) {
	var n int
	err := rp.d.idb.NewSelect().Model((*attempt)(nil)).Column("attempts").
		Where("business_id = ?", strings.ToLower(businessID)).Where("operation = ?", operation).Where("irn = ?", irn).
		Scan(ctx, &n)
	if err != nil {
		if err = mapErr(err); errors.Is(err, ErrNotFound) {
			return 0, nil
		}
	}
	return n, err
}

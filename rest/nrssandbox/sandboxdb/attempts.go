package sandboxdb

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"
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
// and returns the count, 1 for the first call. A counter older than an
// hour starts over. In a transaction it counts in that transaction
// (counted if and only if the transaction commits). The counters of a
// business older than an hour are dropped at most once a minute per
// process (attemptsPruned), not on every count.
func (rp Attempts) Count(ctx context.Context, businessID, operation, irn string, now time.Time) (int, error) {
	businessID = strings.ToLower(businessID)
	var n int
	err := rp.d.RunInTx(ctx, func(ctx context.Context, tx *DB) error {
		q, err := tx.Attempts().counting(ctx, businessID, operation, irn, now)
		if err != nil {
			return err
		}
		_, err = q.Returning("attempts").Exec(ctx, &n)
		return mapErr(err)
	})
	return n, err
}

// counting is Count's upsert of the counter, to run in rp's transaction,
// after it dropped the business's expired counters if they were due.
func (rp Attempts) counting(ctx context.Context, businessID, operation, irn string, now time.Time) (*bun.InsertQuery, error) {
	businessID = strings.ToLower(businessID)
	if rp.d.pruned.due(businessID, now) {
		if _, err := rp.d.idb.NewDelete().Model((*attempt)(nil)).Where("business_id = ?", businessID).
			Where("created_at < ?", now.Add(-attemptTTL)).Exec(ctx); err != nil {
			return nil, mapErr(err)
		}
	}
	a := &attempt{BusinessID: businessID, Operation: operation, IRN: irn, Attempts: 1, CreatedAt: now}
	expired := now.Add(-attemptTTL)
	return rp.d.idb.NewInsert().Model(a).
		On("CONFLICT (business_id, operation, irn) DO UPDATE").
		Set("attempts = CASE WHEN ?TableAlias.created_at < ? THEN 1 ELSE ?TableAlias.attempts + 1 END", expired).
		Set("created_at = CASE WHEN ?TableAlias.created_at < ? THEN EXCLUDED.created_at ELSE ?TableAlias.created_at END", expired), nil
}

// attemptsPrune is how often a process drops a business's expired
// counters.
const attemptsPrune = time.Minute

// pruneClock remembers when a process last dropped each business's
// expired counters (what Count's own upsert does not need: an expired
// counter starts over by itself; dropping only bounds the table).
type pruneClock struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// due reports whether a business's expired counters should be dropped
// now, and if so notes that they are.
func (pc *pruneClock) due(businessID string, now time.Time) bool {
	if pc == nil {
		return true
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if t, ok := pc.last[businessID]; ok && now.Sub(t) < attemptsPrune && !now.Before(t) {
		return false
	}
	if pc.last == nil || len(pc.last) >= 10000 {
		pc.last = map[string]time.Time{}
	}
	pc.last[businessID] = now
	return true
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

package sandboxdb

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Kinds of fault.
const (
	// FaultOutage: the endpoint answers as an unreachable platform behind
	// its gateway (Status, 502, 503 or 504).
	FaultOutage = "outage"
	// FaultThrottle: the endpoint answers 429 with Retry-After past RateCount
	// requests per RatePeriod.
	FaultThrottle = "throttle"
)

// Fault is an outage or a throttle of one business's endpoint (Endpoint ""
// for every endpoint), from StartsAt until EndsAt.
type Fault struct {
	bun.BaseModel `bun:"table:nrs_sandbox_faults"`

	BusinessID   string    `bun:"business_id,pk"`
	Kind         string    `bun:"kind,pk"`
	Endpoint     string    `bun:"endpoint,pk"`
	Status       int       `bun:"status"`
	RateCount    int       `bun:"rate_count"`
	RatePeriodMS int64     `bun:"rate_period_ms"`
	RetryAfterS  int       `bun:"retry_after_s"`
	StartsAt     time.Time `bun:"starts_at"`
	EndsAt       time.Time `bun:"ends_at"`
}

// Faults is the repository of the businesses' faults.
type Faults struct{ d *DB }

// Faults returns the repository of faults, in d's connection or
// transaction.
func (d *DB) Faults() Faults { return Faults{d} }

// MaxFaultsPerBusiness bounds the faults one business holds (one per kind
// and endpoint is far fewer).
const MaxFaultsPerBusiness = 128

// Set records f, replacing the business's fault of the same kind and
// endpoint, and drops the business's ended faults. ErrConflict when the
// business already holds MaxFaultsPerBusiness faults.
func (rp Faults) Set(ctx context.Context, f *Fault, now time.Time) error {
	f.BusinessID = strings.ToLower(f.BusinessID)
	return rp.d.RunInTx(ctx, func(ctx context.Context, tx *DB) error {
		if _, err := tx.idb.NewDelete().Model((*Fault)(nil)).Where("business_id = ?", f.BusinessID).
			Where("ends_at <= ?", now).Exec(ctx); err != nil {
			return mapErr(err)
		}
		n, err := tx.idb.NewSelect().Model((*Fault)(nil)).Where("business_id = ?", f.BusinessID).
			Where("NOT (kind = ? AND endpoint = ?)", f.Kind, f.Endpoint).Count(ctx)
		if err != nil {
			return mapErr(err)
		}
		if n >= MaxFaultsPerBusiness {
			return ErrConflict
		}
		_, err = tx.idb.NewInsert().Model(f).
			On("CONFLICT (business_id, kind, endpoint) DO UPDATE").
			Set("status = EXCLUDED.status").
			Set("rate_count = EXCLUDED.rate_count").
			Set("rate_period_ms = EXCLUDED.rate_period_ms").
			Set("retry_after_s = EXCLUDED.retry_after_s").
			Set("starts_at = EXCLUDED.starts_at").
			Set("ends_at = EXCLUDED.ends_at").
			Exec(ctx)
		return mapErr(err)
	})
}

// Active lists the business's faults in force at now, by kind and
// endpoint.
func (rp Faults) Active(ctx context.Context, businessID string, now time.Time) ([]Fault, error) {
	var out []Fault
	at := dbopen.TimeArg(rp.d.dialect, now)
	err := rp.d.stmts.activeFaults.ScanAll(ctx, rp.d.conn(), &out, strings.ToLower(businessID), at, at)
	return out, mapErr(err)
}

// Clear ends the business's faults: all of them when kind is "", else those
// of that kind (and of that endpoint when endpoint is not "*"). It returns
// how many it ended.
func (rp Faults) Clear(ctx context.Context, businessID, kind, endpoint string) (int, error) {
	q := rp.d.idb.NewDelete().Model((*Fault)(nil)).Where("business_id = ?", strings.ToLower(businessID))
	if kind != "" {
		q = q.Where("kind = ?", kind)
		if endpoint != "*" {
			q = q.Where("endpoint = ?", endpoint)
		}
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return 0, mapErr(err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

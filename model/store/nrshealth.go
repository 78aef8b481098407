package store

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// NRSHealth is the repository of the processes' views of NRS.
type NRSHealth struct{ s *Store }

// NRSHealth returns the repository of the processes' views of NRS, in s's
// connection or transaction.
func (s *Store) NRSHealth() NRSHealth { return NRSHealth{s} }

// Report records (or refreshes) a process's view of one environment.
func (rp NRSHealth) Report(ctx context.Context, r *model.NRSHealthReport) error {
	_, err := rp.s.idb.NewInsert().Model(r).On("CONFLICT (process_id, environment) DO UPDATE").
		Set("health = EXCLUDED.health").Set("endpoints = EXCLUDED.endpoints").Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return rp.s.wrap(err, "nrs health")
}

// Withdraw deletes a process's view of one environment (it is ok again),
// and every view older than stale (processes that went away).
func (rp NRSHealth) Withdraw(ctx context.Context, processID string, env model.Environment, stale time.Time) error {
	_, err := rp.s.idb.NewDelete().Model((*model.NRSHealthReport)(nil)).
		WhereOr("process_id = ? AND environment = ?", processID, env).
		WhereOr("updated_at < ?", stale).Exec(ctx)
	return rp.s.wrap(err, "nrs health")
}

// Fresh lists the views updated at or after since, at most 1,000.
func (rp NRSHealth) Fresh(ctx context.Context, since time.Time) ([]model.NRSHealthReport, error) {
	var out []model.NRSHealthReport
	err := rp.s.idb.NewSelect().Model(&out).Where("updated_at >= ?", since).
		OrderExpr("process_id ASC, environment ASC").Limit(1000).Scan(ctx)
	return out, rp.s.wrap(err, "nrs health")
}

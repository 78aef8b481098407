package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Clearing is the clearing shards' view of the submitted invoices (see
// model/submissions, "Clearing in shards"): the invoices a shard owns,
// and giving them up.
type Clearing struct{ s *Store }

// Clearing returns the clearing shards' repository, in the same
// connection or transaction.
func (rp Submissions) Clearing() Clearing { return Clearing(rp) }

// Rows lists up to limit invoices a project's clearing shard owns, in
// acceptance order, but those of skip, without their payloads
// (submitted_invoices_clearing_idx).
func (rp Clearing) Rows(ctx context.Context, projectID uuid.UUID, shard int, skip []uuid.UUID, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).
		Column("id", "project_id", "organization_id", "environment", "irn", "invoice_type", "status", "workflow_id", "created_at").
		Where("project_id = ?", projectID).Where("clearing_shard = ?", shard)
	if len(skip) > 0 {
		q = q.Where("id NOT IN (?)", bun.List(skip))
	}
	err := q.OrderExpr("created_at, id").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// Done gives invoices back from their clearing shard (cleared, or
// handed to workflows of their own): one statement.
func (rp Clearing) Done(ctx context.Context, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := rp.s.idb.NewUpdate().Model((*model.SubmittedInvoice)(nil)).Set("clearing_shard = NULL").
		Where("id IN (?)", bun.List(ids)).Where("clearing_shard IS NOT NULL").Exec(ctx)
	return rp.s.wrap(err, submittedInvoice)
}

// ClearingShard is a clearing shard that owns invoices.
type ClearingShard struct {
	ProjectID      uuid.UUID `bun:"project_id"`
	OrganizationID uuid.UUID `bun:"organization_id"`
	Shard          int       `bun:"clearing_shard"`
}

// Stale lists the clearing shards owning an invoice accepted
// before by, at most limit.
func (rp Clearing) Stale(ctx context.Context, by time.Time, limit int) ([]ClearingShard, error) {
	out := []ClearingShard{}
	err := rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		ColumnExpr("DISTINCT project_id, organization_id, clearing_shard").
		Where("clearing_shard IS NOT NULL").Where("created_at < ?", by).Limit(limit).Scan(ctx, &out)
	return out, rp.s.wrap(err, submittedInvoice)
}

// Owned counts the invoices a project's clearing shards own, up to max:
// it reads at most max entries of submitted_invoices_clearing_idx,
// however long the backlog.
func (rp Clearing) Owned(ctx context.Context, projectID uuid.UUID, max int) (int, error) {
	var n int
	err := rp.s.idb.NewSelect().ColumnExpr("count(*)").TableExpr("(?) AS owned",
		rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).ColumnExpr("1").
			Where("project_id = ?", projectID).Where("clearing_shard IS NOT NULL").
			Order("project_id", "clearing_shard", "created_at", "id").Limit(max)).Scan(ctx, &n)
	return n, rp.s.wrap(err, submittedInvoice)
}

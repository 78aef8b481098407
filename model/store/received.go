package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// ReceivedRepo is the repository of projects' received invoices (the
// inbox). model/inbox is its only writer.
type ReceivedRepo struct{ s *Store }

// Received returns the repository of received invoices, in s's connection
// or transaction (a function, not a method of Store, which holds enough).
func Received(s *Store) ReceivedRepo { return ReceivedRepo{s} }

const receivedInvoice = "received invoice"

// ReceivedFilter narrows a list of received invoices.
type ReceivedFilter struct {
	IRN           string
	SupplierTIN   string
	Decision      *string
	Confirmed     *bool
	IssueDateFrom string
	IssueDateTo   string
	ReceivedFrom  *time.Time
	ReceivedTo    *time.Time
}

// Insert stores an invoice unless the project holds its IRN already, and
// reports whether it did.
func (rp ReceivedRepo) Insert(ctx context.Context, inv *model.ReceivedInvoice) (bool, error) {
	res, err := rp.s.idb.NewInsert().Model(inv).On("CONFLICT (project_id, irn) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, receivedInvoice)
	}
	n, err := res.RowsAffected()
	return n == 1, rp.s.wrap(err, receivedInvoice)
}

// Get reads one of a project's received invoices.
func (rp ReceivedRepo) Get(ctx context.Context, projectID, id uuid.UUID) (*model.ReceivedInvoice, error) {
	inv := new(model.ReceivedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return inv, rp.s.wrap(err, receivedInvoice)
}

// ByIRN reads one of a project's received invoices by IRN.
func (rp ReceivedRepo) ByIRN(ctx context.Context, projectID uuid.UUID, irn string) (*model.ReceivedInvoice, error) {
	inv := new(model.ReceivedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("project_id = ?", projectID).Where("irn = ?", irn).Scan(ctx)
	return inv, rp.s.wrap(err, receivedInvoice)
}

// Save writes a received invoice's changes (confirmation, decision).
func (rp ReceivedRepo) Save(ctx context.Context, inv *model.ReceivedInvoice) error {
	_, err := rp.s.idb.NewUpdate().Model(inv).WherePK().Exec(ctx)
	return rp.s.wrap(err, receivedInvoice)
}

// Unconfirmed lists a project's received invoices whose receipt is not
// confirmed yet, oldest first.
func (rp ReceivedRepo) Unconfirmed(ctx context.Context, projectID uuid.UUID, limit int) ([]model.ReceivedInvoice, error) {
	out := []model.ReceivedInvoice{}
	err := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("document").Where("project_id = ?", projectID).
		Where("confirmed_at IS NULL").OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, receivedInvoice)
}

// List lists one page of a project's received invoices, newest first,
// without their documents.
func (rp ReceivedRepo) List(ctx context.Context, projectID uuid.UUID, f ReceivedFilter, p model.Page) ([]model.ReceivedInvoice, bool, error) {
	out := []model.ReceivedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("document").Where("project_id = ?", projectID)
	if f.IRN != "" {
		q = q.Where("irn = ?", f.IRN)
	}
	if f.SupplierTIN != "" {
		q = q.Where("supplier_tin = ?", f.SupplierTIN)
	}
	if f.Decision != nil {
		q = q.Where("decision = ?", *f.Decision)
	}
	if f.Confirmed != nil {
		if *f.Confirmed {
			q = q.Where("confirmed_at IS NOT NULL")
		} else {
			q = q.Where("confirmed_at IS NULL")
		}
	}
	if f.IssueDateFrom != "" {
		q = q.Where("issue_date >= ?", f.IssueDateFrom)
	}
	if f.IssueDateTo != "" {
		q = q.Where("issue_date <= ?", f.IssueDateTo)
	}
	if f.ReceivedFrom != nil {
		q = q.Where("received_at >= ?", *f.ReceivedFrom)
	}
	if f.ReceivedTo != nil {
		q = q.Where("received_at < ?", *f.ReceivedTo)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.OrderExpr("id DESC").Limit(p.Limit + 1).Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, receivedInvoice)
	}
	return trim(out, p.Limit)
}

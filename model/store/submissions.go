package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// Submissions is the repository of invoices submitted to the tax
// authority and of their events. model/submissions is its only writer.
type Submissions struct{ s *Store }

// Submissions returns the repository of submitted invoices, in s's
// connection or transaction.
func (s *Store) Submissions() Submissions { return Submissions{s} }

const submittedInvoice = "invoice"

// Create inserts a submitted invoice; another invoice of the project with
// the same IRN is a conflict.
func (rp Submissions) Create(ctx context.Context, inv *model.SubmittedInvoice) error {
	_, err := rp.s.idb.NewInsert().Model(inv).Exec(ctx)
	return rp.s.wrap(err, submittedInvoice)
}

// ByIRN finds a project's invoice by its IRN.
func (rp Submissions) ByIRN(ctx context.Context, projectID uuid.UUID, irn string) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("project_id = ?", projectID).Where("irn = ?", irn).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// Get finds an invoice of one project; any other project's is not found.
func (rp Submissions) Get(ctx context.Context, projectID, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// GetForUser finds an invoice of a project of the user's organizations;
// any other invoice is not found.
func (rp Submissions) GetForUser(ctx context.Context, userID, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id).
		Where("project_id IN (?)", rp.s.memberProjectIDs(userID)).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// InvoiceFilter narrows a list of submitted invoices; zero fields do not
// filter. Dates are YYYY-MM-DD, inclusive; times are half-open [from, to).
type InvoiceFilter struct {
	Status        model.InvoiceStatus
	InvoiceType   model.InvoiceKind
	IRN           string
	CustomerTIN   string
	IssueDateFrom string
	IssueDateTo   string
	CreatedFrom   *time.Time
	CreatedTo     *time.Time
}

// List lists one page of a project's invoices, newest first, without
// their payloads.
func (rp Submissions) List(ctx context.Context, projectID uuid.UUID, f InvoiceFilter, p model.Page) ([]model.SubmittedInvoice, bool, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").Where("project_id = ?", projectID)
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.InvoiceType != "" {
		q = q.Where("invoice_type = ?", f.InvoiceType)
	}
	if f.IRN != "" {
		q = q.Where("irn = ?", f.IRN)
	}
	if f.CustomerTIN != "" {
		q = q.Where("customer_tin = ?", f.CustomerTIN)
	}
	if f.IssueDateFrom != "" {
		q = q.Where("issue_date >= ?", f.IssueDateFrom)
	}
	if f.IssueDateTo != "" {
		q = q.Where("issue_date <= ?", f.IssueDateTo)
	}
	if f.CreatedFrom != nil {
		q = q.Where("created_at >= ?", *f.CreatedFrom)
	}
	if f.CreatedTo != nil {
		q = q.Where("created_at < ?", *f.CreatedTo)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	err := q.OrderExpr("id DESC").Limit(p.Limit + 1).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, submittedInvoice)
	}
	return trim(out, p.Limit)
}

// Lock takes the invoice's row for the rest of the transaction (a no-op
// on SQLite, whose write transactions hold the database) and reads it.
func (rp Submissions) Lock(ctx context.Context, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	q := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id)
	if rp.s.dialect == "postgres" {
		q = q.For("UPDATE")
	}
	err := q.Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// Save writes every column of an invoice.
func (rp Submissions) Save(ctx context.Context, inv *model.SubmittedInvoice) error {
	res, err := rp.s.idb.NewUpdate().Model(inv).WherePK().Exec(ctx)
	return rp.s.affected(res, err, submittedInvoice)
}

// AppendEvent inserts one event of an invoice.
func (rp Submissions) AppendEvent(ctx context.Context, ev *model.InvoiceEvent) error {
	_, err := rp.s.idb.NewInsert().Model(ev).Exec(ctx)
	return rp.s.wrap(err, "invoice event")
}

// Events lists an invoice's events in order, after seq.
func (rp Submissions) Events(ctx context.Context, invoiceID uuid.UUID, after, limit int) ([]model.InvoiceEvent, bool, error) {
	out := []model.InvoiceEvent{}
	err := rp.s.idb.NewSelect().Model(&out).Where("invoice_id = ?", invoiceID).Where("seq > ?", after).
		OrderExpr("seq ASC").Limit(limit + 1).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "invoice event")
	}
	return trim(out, limit)
}

// LastArchived reads the newest archived invoice of a project (not_found
// when none is).
func (rp Submissions) LastArchived(ctx context.Context, projectID uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("project_id = ?", projectID).Where("archive_seq IS NOT NULL").
		OrderExpr("archive_seq DESC").Limit(1).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// Archived lists a project's archived invoices in chain order from seq
// (inclusive), at most limit, optionally only those archived in [from, to).
func (rp Submissions) Archived(ctx context.Context, projectID uuid.UUID, fromSeq int64, from, to *time.Time, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).Where("project_id = ?", projectID).
		Where("archive_seq >= ?", fromSeq)
	if from != nil {
		q = q.Where("archived_at >= ?", *from)
	}
	if to != nil {
		q = q.Where("archived_at < ?", *to)
	}
	err := q.OrderExpr("archive_seq ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

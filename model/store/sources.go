package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// SourceRepo is the repository of the documents invoices were converted
// from. model/formats is its only writer.
type SourceRepo struct{ s *Store }

// Sources returns the repository of invoice sources, in s's connection or
// transaction (a function, not a method of Store, which holds enough).
func Sources(s *Store) SourceRepo { return SourceRepo{s} }

const invoiceSource = "invoice source"

// Put records an invoice's source unless one is recorded: the first
// conversion of an invoice is the one kept (a retried submission converts
// the same document again).
func (rp SourceRepo) Put(ctx context.Context, src *model.InvoiceSource) error {
	_, err := rp.s.idb.NewInsert().Model(src).On("CONFLICT (invoice_id) DO NOTHING").Exec(ctx)
	return rp.s.wrap(err, invoiceSource)
}

// Get reads the source of one of a project's invoices; an invoice without
// one (submitted as JSON), or another project's, is not found.
func (rp SourceRepo) Get(ctx context.Context, projectID, invoiceID uuid.UUID) (*model.InvoiceSource, error) {
	src := new(model.InvoiceSource)
	err := rp.s.idb.NewSelect().Model(src).Where("invoice_id = ?", invoiceID).Where("project_id = ?", projectID).Scan(ctx)
	return src, rp.s.wrap(err, invoiceSource)
}

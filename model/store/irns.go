package store

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// IRNs is the repository of the IRNs issued to each project's invoice
// references.
type IRNs struct{ s *Store }

// IRNs returns the repository of irns, in s's connection or transaction.
func (s *Store) IRNs() IRNs { return IRNs{s} }

// Claim records rec unless the project already issued an IRN for the
// same invoice reference; either way it returns the stored record and
// whether it was created now. One statement decides, so concurrent claims
// of one reference never store two IRNs.
func (rp IRNs) Claim(ctx context.Context, rec *model.IssuedIRN) (*model.IssuedIRN, bool, error) {
	res, err := rp.s.idb.NewInsert().Model(rec).On("CONFLICT (project_id, invoice_reference) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "IRN")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return rec, true, nil
	}
	got := new(model.IssuedIRN)
	err = rp.s.idb.NewSelect().Model(got).
		Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "IRN")
	}
	return got, false, nil
}

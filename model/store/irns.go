package store

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// ClaimIRN records rec unless the project already issued an IRN for the
// same invoice reference; either way it returns the stored record and
// whether it was created now. One statement decides, so concurrent claims
// of one reference never store two IRNs.
func (s *Store) ClaimIRN(ctx context.Context, rec *model.IssuedIRN) (*model.IssuedIRN, bool, error) {
	res, err := s.idb.NewInsert().Model(rec).On("CONFLICT (project_id, invoice_reference) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, false, s.wrap(err, "IRN")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return rec, true, nil
	}
	got := new(model.IssuedIRN)
	err = s.idb.NewSelect().Model(got).
		Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(ctx)
	if err != nil {
		return nil, false, s.wrap(err, "IRN")
	}
	return got, false, nil
}

package store

import (
	"context"

	"github.com/google/uuid"

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

// ClaimAll is Claim for many records in one transaction: each record is
// stored unless its project already issued an IRN for the same invoice
// reference, and got[i] is the stored record of recs[i] (created[i] tells
// whether it was created now). Nothing is stored unless everything is: an
// error rolls the whole batch back. The records must name distinct
// (project, reference) pairs.
func (rp IRNs) ClaimAll(ctx context.Context, recs []*model.IssuedIRN) (got []*model.IssuedIRN, created []bool, err error) {
	if len(recs) == 0 {
		return nil, nil, nil
	}
	got, created = make([]*model.IssuedIRN, len(recs)), make([]bool, len(recs))
	err = rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		var inserted []struct {
			ProjectID        uuid.UUID `bun:"project_id"`
			InvoiceReference string    `bun:"invoice_reference"`
		}
		err := tx.idb.NewInsert().Model(&recs).On("CONFLICT (project_id, invoice_reference) DO NOTHING").
			Returning("project_id, invoice_reference").Scan(ctx, &inserted)
		if err != nil {
			return tx.wrap(err, "IRN")
		}
		type key struct {
			project uuid.UUID
			ref     string
		}
		fresh := make(map[key]bool, len(inserted))
		for _, r := range inserted {
			fresh[key{r.ProjectID, r.InvoiceReference}] = true
		}
		for i, rec := range recs {
			if fresh[key{rec.ProjectID, rec.InvoiceReference}] {
				got[i], created[i] = rec, true
				continue
			}
			// Issued before: read what was stored.
			old := new(model.IssuedIRN)
			err := tx.idb.NewSelect().Model(old).
				Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(ctx)
			if err != nil {
				return tx.wrap(err, "IRN")
			}
			got[i] = old
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return got, created, nil
}

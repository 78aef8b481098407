package store_test

import (
	"context"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// ClaimAll stores new references, answers taken ones with what was stored
// first, and what it stores reads back field for field, on both
// databases; a record for a project that does not exist fails the whole
// batch and stores nothing.
func TestClaimAll(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "claims")
			rec := func(ref, date string) *model.IssuedIRN {
				return &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: date,
					IRN: ref + "-94ND90NR-" + date, InvoiceTypeCode: "381", CreatedAt: now()}
			}
			first := rec("INV1", "2026-03-15")
			if _, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{first}); err != nil || !created[0] {
				t.Fatalf("first claim: created %v, %v", created, err)
			}
			got, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("INV2", "2026-03-16"), rec("INV1", "2026-04-01"), rec("INV3", "2026-03-17")})
			if err != nil {
				t.Fatal(err)
			}
			if !created[0] || created[1] || !created[2] {
				t.Fatalf("created %v, want [true false true]", created)
			}
			if got[1].IssueDate != "2026-03-15" || got[1].IRN != first.IRN || !got[1].CreatedAt.Equal(first.CreatedAt) {
				t.Errorf("taken reference answered %+v, want the first record %+v", got[1], first)
			}
			for _, want := range []*model.IssuedIRN{got[0], got[2]} {
				again, created, err := st.IRNs().Claim(ctx, rec(want.InvoiceReference, "2027-01-01"))
				if err != nil || created {
					t.Fatalf("claim again: created %v, %v", created, err)
				}
				if again.IRN != want.IRN || again.IssueDate != want.IssueDate || again.InvoiceTypeCode != want.InvoiceTypeCode ||
					again.ProjectID != want.ProjectID || !again.CreatedAt.Equal(want.CreatedAt) {
					t.Errorf("read back %+v, stored %+v", again, want)
				}
			}

			stray := rec("INV4", "2026-03-18")
			stray.ProjectID = newID(t)
			if _, _, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("INV5", "2026-03-18"), stray}); err == nil {
				t.Fatal("a record of an unknown project: want an error")
			}
			if _, created, err := st.IRNs().Claim(ctx, rec("INV5", "2026-03-19")); err != nil || !created {
				t.Errorf("INV5 of the failed batch: created %v, %v; want it not stored", created, err)
			}
		})
	}
}

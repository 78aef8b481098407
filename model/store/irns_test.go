package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
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

// A large batch tells every taken reference from every new one, and a
// bad record at its end rolls back every record before it.
func TestClaimAllLargeBatch(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "bulk")
			rec := func(i int, date string) *model.IssuedIRN {
				ref := fmt.Sprintf("BULK%03d", i)
				return &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: date,
					IRN: ref + "-94ND90NR-" + date, InvoiceTypeCode: "381", CreatedAt: now()}
			}
			const n = 87
			for i := 0; i < n; i += 5 {
				if _, created, err := st.IRNs().Claim(ctx, rec(i, "2026-01-01")); err != nil || !created {
					t.Fatalf("claim %d: created %v, %v", i, created, err)
				}
			}
			recs := make([]*model.IssuedIRN, n)
			for i := range recs {
				recs[i] = rec(i, "2026-02-02")
			}
			got, created, err := st.IRNs().ClaimAll(ctx, recs)
			if err != nil {
				t.Fatal(err)
			}
			for i := range recs {
				taken := i%5 == 0
				if created[i] == taken {
					t.Errorf("%d: created %v, taken before %v", i, created[i], taken)
				}
				want := "2026-02-02"
				if taken {
					want = "2026-01-01"
				}
				if got[i].InvoiceReference != recs[i].InvoiceReference || got[i].IssueDate != want {
					t.Errorf("%d: got %s %s, want %s %s", i, got[i].InvoiceReference, got[i].IssueDate, recs[i].InvoiceReference, want)
				}
			}

			more := make([]*model.IssuedIRN, n)
			for i := range more {
				more[i] = rec(1000+i, "2026-03-03")
			}
			more[n-1].ProjectID = newID(t)
			if _, _, err := st.IRNs().ClaimAll(ctx, more); err == nil {
				t.Fatal("a record of an unknown project: want an error")
			}
			if _, created, err := st.IRNs().Claim(ctx, rec(1000, "2026-03-04")); err != nil || !created {
				t.Errorf("first record of the failed batch: created %v, %v; want it not stored", created, err)
			}
		})
	}
}

// A failed batch leaves nothing stored and the next batch is recorded as
// if none had failed; a batch claimed inside a transaction is the
// transaction's: rolled back with it.
func TestClaimAllAfterFailure(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "failure")
			rec := func(ref string) *model.IssuedIRN {
				return &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: "2026-03-15",
					IRN: ref + "-94ND90NR-20260315", InvoiceTypeCode: "381", CreatedAt: now()}
			}
			for round := range 3 {
				stray := rec(fmt.Sprint("STRAY", round))
				stray.ProjectID = newID(t)
				if _, _, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec(fmt.Sprint("LOST", round)), stray}); err == nil {
					t.Fatal("a record of an unknown project: want an error")
				}
				ref := fmt.Sprint("KEPT", round)
				got, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec(ref), rec(fmt.Sprint("LOST", round))})
				if err != nil || !created[0] || !created[1] || got[0].InvoiceReference != ref {
					t.Fatalf("round %d: the batch after a failed one: created %v, %v", round, created, err)
				}
			}

			inTx := rec("INTX")
			err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				if _, created, err := tx.IRNs().ClaimAll(ctx, []*model.IssuedIRN{inTx}); err != nil || !created[0] {
					t.Fatalf("in a transaction: created %v, %v", created, err)
				}
				return errors.New("roll back")
			})
			if err == nil {
				t.Fatal("the transaction: want its error")
			}
			if _, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("INTX")}); err != nil || !created[0] {
				t.Errorf("the record of a rolled back transaction: created %v, %v; want it not stored", created, err)
			}
		})
	}
}

// When the IRN writer cannot begin (another process holds SQLite's write
// lock past the busy timeout), the batch fails, nothing is stored, and the
// next batch, the lock released, is recorded on a connection of its own.
// The failing batch waits out SQLite's busy timeout (10 s).
func TestClaimAllSQLiteAfterBusy(t *testing.T) {
	path := storetest.SQLiteURL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, p := seed(t, st, "busy")
	rec := func(ref string) *model.IssuedIRN {
		return &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: "2026-03-15",
			IRN: ref + "-94ND90NR-20260315", InvoiceTypeCode: "381", CreatedAt: now()}
	}
	if _, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("BEFORE")}); err != nil || !created[0] {
		t.Fatalf("before: created %v, %v", created, err)
	}

	other, err := store.Open(ctx, path) // another process
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- other.RunInTx(ctx, func(context.Context, *store.Store) error { // BEGIN IMMEDIATE
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	_, _, err = st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("DURING")})
	close(release)
	if err == nil {
		t.Fatal("a batch while another process holds the write lock: want an error")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	got, created, err := st.IRNs().ClaimAll(ctx, []*model.IssuedIRN{rec("AFTER"), rec("DURING")})
	if err != nil || !created[0] || !created[1] || got[1].InvoiceReference != "DURING" {
		t.Fatalf("after: created %v, %v; want both new (the failed batch stored nothing)", created, err)
	}
}

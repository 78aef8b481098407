package rest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// storedIRNs reads the irns table: reference -> IRN.
func (s *server) storedIRNs(t *testing.T) map[string]string {
	t.Helper()
	var rows []model.IssuedIRN
	if err := s.st.DB().NewSelect().Model(&rows).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		if _, dup := out[r.InvoiceReference]; dup {
			t.Errorf("reference %s stored twice", r.InvoiceReference)
		}
		out[r.InvoiceReference] = r.IRN
	}
	return out
}

// failInserts makes the database refuse (and so roll back) every
// transaction that inserts an IRN for a reference starting with FAIL.
func (s *server) failInserts(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	stmts := []string{`CREATE TRIGGER irns_fail BEFORE INSERT ON irns
		WHEN NEW.invoice_reference LIKE 'FAIL%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`}
	if s.st.Dialect() == "postgres" {
		stmts = []string{`CREATE FUNCTION irns_fail() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.invoice_reference LIKE 'FAIL%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`,
			`CREATE TRIGGER irns_fail BEFORE INSERT ON irns FOR EACH ROW EXECUTE FUNCTION irns_fail()`}
	}
	for _, q := range stmts {
		if _, err := s.st.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// issueConcurrently asks for the IRNs of refs, all at once, and returns each
// request's status and IRN.
func (s *server) issueConcurrently(tn tenant, refs []string) ([]int, []string) {
	status, irns := make([]int, len(refs)), make([]string, len(refs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, ref := range refs {
		wg.Go(func() {
			<-start
			r := s.do(irnReq(tn, map[string]any{"invoice_reference": ref, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
			status[i] = r.Status
			if r.Status == 200 {
				irns[i] = r.json(s.t)["irn"].(string)
			}
		})
	}
	close(start)
	wg.Wait()
	return status, irns
}

// Issue 20: IRNs issued concurrently (recorded many to a transaction) give
// each reference one IRN, and every IRN answered is stored; when a
// transaction fails, none of its requests is answered with an IRN, and
// nothing of it is stored.
func TestGenerateIRNGroupCommit(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("batch")
			const n, distinct = 96, 24
			refs := make([]string, n)
			for i := range refs {
				refs[i] = fmt.Sprintf("GC%03d", i%distinct) // four requests per reference
			}
			status, irns := s.issueConcurrently(tn, refs)
			stored := s.storedIRNs(t)
			if len(stored) != distinct {
				t.Fatalf("%d references stored, want %d", len(stored), distinct)
			}
			for i, ref := range refs {
				if status[i] != 200 {
					t.Fatalf("%s: status %d", ref, status[i])
				}
				if irns[i] != stored[ref] {
					t.Errorf("%s: answered %s, stored %s", ref, irns[i], stored[ref])
				}
			}

			// Half the references fail to insert; a transaction holding one
			// of them fails for all its requests.
			s.failInserts(t)
			for i := range refs {
				kind := "OK"
				if i%2 == 1 {
					kind = "FAIL"
				}
				refs[i] = fmt.Sprintf("%s%03d", kind, i%distinct)
			}
			status, irns = s.issueConcurrently(tn, refs)
			stored = s.storedIRNs(t)
			answered := 0
			for i, ref := range refs {
				switch {
				case status[i] == 200:
					answered++
					if ref[:2] != "OK" {
						t.Errorf("%s answered %s though its insert fails", ref, irns[i])
					}
					if stored[ref] != irns[i] {
						t.Errorf("%s answered %s, stored %q: an IRN answered before it was committed", ref, irns[i], stored[ref])
					}
				case status[i] != 500:
					t.Errorf("%s: status %d, want 200 or the failed commit's 500", ref, status[i])
				}
				if ref[:4] == "FAIL" && stored[ref] != "" {
					t.Errorf("%s stored though its insert fails", ref)
				}
			}
			// Every OK reference that was not answered is not stored either
			// (its transaction rolled back), unless another request for it
			// went through in a later transaction.
			for ref, irn := range stored {
				if ref[:2] != "OK" {
					continue
				}
				found := false
				for i := range refs {
					found = found || (refs[i] == ref && irns[i] == irn)
				}
				if !found {
					t.Errorf("%s stored with %s, but no request was answered with it", ref, irn)
				}
			}
			t.Logf("%d of %d requests answered", answered, len(refs))
		})
	}
}

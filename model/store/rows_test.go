package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestBufferedRows: a transaction that holds its invoice events and
// events back (BufferRows) writes them all, in more than one multi-row
// insert when they are many, and exactly as written; a read of the
// invoice's events within it sees those held back; a transaction that
// fails, or whose held-back rows conflict, writes none of them.
func TestBufferedRows(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "rows-"+d.Name)
			created := time.Date(2026, 11, 29, 1, 2, 3, 456789000, time.UTC)
			inv := &model.SubmittedInvoice{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID,
				Environment: p.Environment, IRN: "INV00002-94ND90NR-20261129", InvoiceType: model.InvoiceKindB2B,
				InvoiceTypeCode: "396", Payload: `{}`, PayloadHash: "x", Status: model.InvoiceQueued, IssueDate: "2026-11-29",
				WorkflowID: "invoice-INV00002-94ND90NR-20261129", DeadlineAt: created.Add(time.Hour),
				CreatedAt: created, UpdatedAt: created}
			if err := st.Submissions().Create(ctx, inv); err != nil {
				t.Fatal(err)
			}
			const n = 150 // three inserts of invoice events: 64, 64, 22
			ev := func(seq int) *model.InvoiceEvent {
				latency := int64(seq)
				return &model.InvoiceEvent{InvoiceID: inv.ID, Seq: seq, ProjectID: p.ID, Kind: model.EventExchange,
					Operation: "invoice_sign", LatencyMS: &latency, RequestBody: fmt.Sprintf(`{"n":%d}`, seq),
					Message: fmt.Sprintf("event %d", seq), CreatedAt: created.Add(time.Duration(seq) * time.Millisecond)}
			}
			evID := make([]uuid.UUID, n)
			err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				store.BufferRows(tx)
				for i := 1; i <= n; i++ {
					if err := tx.Submissions().AppendEvent(ctx, ev(i)); err != nil {
						return err
					}
					e := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: "invoice.signed",
						Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), CreatedAt: created}
					evID[i-1] = e.ID
					if err := tx.Events().Append(ctx, e); err != nil {
						return err
					}
					if i == n/2 {
						seen, _, err := tx.Submissions().Events(ctx, inv.ID, 0, n)
						if err != nil {
							return err
						}
						if len(seen) != n/2 {
							return fmt.Errorf("read within the transaction: %d events, want %d", len(seen), n/2)
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := st.Submissions().Events(ctx, inv.ID, 0, n+10)
			if err != nil || len(got) != n {
				t.Fatalf("invoice events: %d, %v", len(got), err)
			}
			for i, g := range got {
				w := ev(i + 1)
				if g.Seq != w.Seq || g.Message != w.Message || g.RequestBody != w.RequestBody || g.LatencyMS == nil ||
					*g.LatencyMS != *w.LatencyMS || !g.CreatedAt.Equal(w.CreatedAt) || g.HTTPStatus != nil {
					t.Fatalf("event %d read back: %+v", i+1, g)
				}
			}
			for i, id := range evID {
				e, err := st.Events().Get(ctx, p.ID, id)
				if err != nil || !sameJSON(e.Data, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i+1))) {
					t.Fatalf("event %d: %+v, %v", i+1, e, err)
				}
			}

			// A transaction that fails writes none of what it held back.
			errStop := errors.New("stop")
			err = st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				store.BufferRows(tx)
				if err := tx.Submissions().AppendEvent(ctx, ev(n+1)); err != nil {
					return err
				}
				return errStop
			})
			if !errors.Is(err, errStop) {
				t.Fatal(err)
			}
			// Held-back rows that conflict fail their transaction, and
			// the rows before them in it are not written either.
			err = st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				store.BufferRows(tx)
				if err := tx.Submissions().AppendEvent(ctx, ev(n+2)); err != nil {
					return err
				}
				return tx.Submissions().AppendEvent(ctx, ev(n)) // already written
			})
			if err == nil {
				t.Fatal("a conflicting held-back row committed")
			}
			if got, _, err := st.Submissions().Events(ctx, inv.ID, n, 10); err != nil || len(got) != 0 {
				t.Fatalf("after the failed transactions: %+v, %v", got, err)
			}

			// A step's few of each (one statement for both tables on
			// PostgreSQL): every row written; a conflict among them fails
			// the transaction as the invoice event's, and writes neither
			// table's rows.
			few := func(seqs []int, events int) ([]uuid.UUID, error) {
				var ids []uuid.UUID
				return ids, st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
					store.BufferRows(tx)
					for _, seq := range seqs {
						if err := tx.Submissions().AppendEvent(ctx, ev(seq)); err != nil {
							return err
						}
					}
					for i := range events {
						e := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: "invoice.confirmed",
							Data: json.RawMessage(fmt.Sprintf(`{"few":%d}`, i)), CreatedAt: created}
						ids = append(ids, e.ID)
						if err := tx.Events().Append(ctx, e); err != nil {
							return err
						}
					}
					return nil
				})
			}
			ids, err := few([]int{n + 3, n + 4, n + 5}, 2)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, err := st.Submissions().Events(ctx, inv.ID, n, 10); err != nil || len(got) != 3 || got[2].Message != ev(n+5).Message {
				t.Fatalf("a few invoice events: %+v, %v", got, err)
			}
			for i, id := range ids {
				if e, err := st.Events().Get(ctx, p.ID, id); err != nil || !sameJSON(e.Data, json.RawMessage(fmt.Sprintf(`{"few":%d}`, i))) {
					t.Fatalf("a few events, %d: %+v, %v", i, e, err)
				}
			}
			ids, err = few([]int{n + 6, n + 5}, 1)
			if model.ErrorCodeOf(err) != model.CodeConflict || !strings.Contains(model.AsError(err).Message, "invoice event") {
				t.Fatalf("a conflicting invoice event among a few: %v", err)
			}
			if got, _, err := st.Submissions().Events(ctx, inv.ID, n+5, 10); err != nil || len(got) != 0 {
				t.Fatalf("after the conflict: %+v, %v", got, err)
			}
			if _, err := st.Events().Get(ctx, p.ID, ids[0]); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("the event beside the conflict: %v", err)
			}
		})
	}
}

// TestSaveWithRows: a transaction's last write, the invoice's row with the
// events it held back (one statement on PostgreSQL), writes the row's
// changes and every row; a conflict among the rows fails it and leaves
// the row as it was; an invoice that is not there is not_found and writes
// no row.
func TestSaveWithRows(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "save-rows-"+d.Name)
			created := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
			inv := &model.SubmittedInvoice{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID,
				Environment: p.Environment, IRN: "INV00003-94ND90NR-20261129", InvoiceType: model.InvoiceKindB2B,
				InvoiceTypeCode: "396", Payload: `{}`, PayloadHash: "x", Status: model.InvoiceQueued, IssueDate: "2026-11-29",
				WorkflowID: "invoice-INV00003-94ND90NR-20261129", DeadlineAt: created.Add(time.Hour),
				CreatedAt: created, UpdatedAt: created}
			if err := st.Submissions().Create(ctx, inv); err != nil {
				t.Fatal(err)
			}
			ev := func(seq int) *model.InvoiceEvent {
				return &model.InvoiceEvent{InvoiceID: inv.ID, Seq: seq, ProjectID: p.ID, Kind: model.EventState,
					ToStatus: model.InvoiceSubmitting, Message: fmt.Sprintf("event %d", seq), CreatedAt: created}
			}
			step := func(id uuid.UUID, seqs []int, events int, status model.InvoiceStatus, sent int) ([]uuid.UUID, error) {
				var ids []uuid.UUID
				return ids, st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
					store.BufferRows(tx)
					cur, err := tx.Submissions().Lock(ctx, inv.ID)
					if err != nil {
						return err
					}
					for _, seq := range seqs {
						if err := tx.Submissions().AppendEvent(ctx, ev(seq)); err != nil {
							return err
						}
					}
					for i := range events {
						e := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: "invoice.submitting",
							Data: json.RawMessage(fmt.Sprintf(`{"step":%d}`, i)), CreatedAt: created}
						ids = append(ids, e.ID)
						if err := tx.Events().Append(ctx, e); err != nil {
							return err
						}
					}
					next := *cur
					next.ID, next.Status, next.SignSent, next.EventSeq = id, status, sent, len(seqs)
					next.UpdatedAt = created.Add(time.Minute)
					return store.SaveWithRows(ctx, tx, &next)
				})
			}
			ids, err := step(inv.ID, []int{1, 2}, 1, model.InvoiceSubmitting, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.Submissions().Get(ctx, p.ID, inv.ID)
			if err != nil || got.Status != model.InvoiceSubmitting || got.SignSent != 1 || got.EventSeq != 2 {
				t.Fatalf("saved: %+v, %v", got, err)
			}
			if evs, _, err := st.Submissions().Events(ctx, inv.ID, 0, 10); err != nil || len(evs) != 2 || evs[1].Message != "event 2" {
				t.Fatalf("invoice events: %+v, %v", evs, err)
			}
			if e, err := st.Events().Get(ctx, p.ID, ids[0]); err != nil || !sameJSON(e.Data, json.RawMessage(`{"step":0}`)) {
				t.Fatalf("event: %+v, %v", e, err)
			}

			// A conflicting invoice event: the transaction fails as the
			// invoice event's; neither the row's change nor the event is
			// written.
			ids, err = step(inv.ID, []int{3, 2}, 1, model.InvoiceSigned, 2)
			if model.ErrorCodeOf(err) != model.CodeConflict || !strings.Contains(model.AsError(err).Message, "invoice event") {
				t.Fatalf("a conflicting invoice event: %v", err)
			}
			if got, err := st.Submissions().Get(ctx, p.ID, inv.ID); err != nil || got.Status != model.InvoiceSubmitting || got.SignSent != 1 {
				t.Fatalf("after the conflict: %+v, %v", got, err)
			}
			if evs, _, err := st.Submissions().Events(ctx, inv.ID, 2, 10); err != nil || len(evs) != 0 {
				t.Fatalf("invoice events after the conflict: %+v, %v", evs, err)
			}
			if _, err := st.Events().Get(ctx, p.ID, ids[0]); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("the event beside the conflict: %v", err)
			}

			// The row saved is not there (another id): not_found, and
			// neither the invoice's events nor the event are written.
			ids, err = step(newID(t), []int{3}, 1, model.InvoiceSigned, 2)
			if model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("saving a missing invoice: %v", err)
			}
			if evs, _, err := st.Submissions().Events(ctx, inv.ID, 2, 10); err != nil || len(evs) != 0 {
				t.Fatalf("invoice events after not_found: %+v, %v", evs, err)
			}
			if _, err := st.Events().Get(ctx, p.ID, ids[0]); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("the event beside not_found: %v", err)
			}
		})
	}
}

// TestCreateWithRows: a new invoice written with its held-back events (on
// PostgreSQL one statement outside any transaction: OneStatement) creates
// the invoice and every row; a second invoice with the same IRN conflicts
// as the invoice's and writes none of its rows; more rows than one
// statement takes are written in a transaction of their own.
func TestCreateWithRows(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "create-rows-"+d.Name)
			if one := store.OneStatement(st); (one != nil) != (d.Name == "postgres") {
				t.Fatalf("OneStatement on %s: %v", d.Name, one)
			}
			created := time.Date(2026, 11, 29, 6, 30, 0, 0, time.UTC)
			newInvoice := func(irn string) *model.SubmittedInvoice {
				return &model.SubmittedInvoice{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID,
					Environment: p.Environment, IRN: irn, InvoiceType: model.InvoiceKindB2B,
					InvoiceTypeCode: "396", Payload: `{"irn":"` + irn + `"}`, PayloadHash: "h-" + irn, Status: model.InvoiceQueued,
					IssueDate: "2026-11-29", WorkflowID: "invoice-" + irn, DeadlineAt: created.Add(time.Hour),
					CreatedAt: created, UpdatedAt: created}
			}
			record := func(inv *model.SubmittedInvoice, rows int) ([]uuid.UUID, error) {
				var ids []uuid.UUID
				write := func(ctx context.Context, tx *store.Store) error {
					store.BufferRows(tx)
					for i := 1; i <= rows; i++ {
						inv.EventSeq = i
						if err := tx.Submissions().AppendEvent(ctx, &model.InvoiceEvent{InvoiceID: inv.ID, Seq: i, ProjectID: p.ID,
							Kind: model.EventState, ToStatus: model.InvoiceQueued, Message: fmt.Sprintf("event %d", i), CreatedAt: created}); err != nil {
							return err
						}
						e := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: "invoice.queued",
							Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), CreatedAt: created}
						ids = append(ids, e.ID)
						if err := tx.Events().Append(ctx, e); err != nil {
							return err
						}
					}
					return store.CreateWithRows(ctx, tx, inv)
				}
				if one := store.OneStatement(st); one != nil {
					return ids, write(ctx, one)
				}
				return ids, st.RunInTx(ctx, write)
			}
			for _, rows := range []int{1, 12} { // one statement; more than one takes
				irn := fmt.Sprintf("INV%05d-94ND90NR-20261129", rows)
				inv := newInvoice(irn)
				ids, err := record(inv, rows)
				if err != nil {
					t.Fatal(err)
				}
				got, err := st.Submissions().ByIRN(ctx, p.ID, irn)
				if err != nil || got.ID != inv.ID || got.EventSeq != rows || got.Payload != inv.Payload {
					t.Fatalf("created with %d rows: %+v, %v", rows, got, err)
				}
				if evs, _, err := st.Submissions().Events(ctx, inv.ID, 0, 100); err != nil || len(evs) != rows {
					t.Fatalf("invoice events with %d rows: %d, %v", rows, len(evs), err)
				}
				for _, id := range ids {
					if _, err := st.Events().Get(ctx, p.ID, id); err != nil {
						t.Fatalf("event with %d rows: %v", rows, err)
					}
				}
				// The same IRN again: a conflict, and none of its rows.
				again := newInvoice(irn)
				ids, err = record(again, rows)
				if model.ErrorCodeOf(err) != model.CodeConflict {
					t.Fatalf("the same IRN again with %d rows: %v", rows, err)
				}
				if evs, _, err := st.Submissions().Events(ctx, again.ID, 0, 100); err != nil || len(evs) != 0 {
					t.Fatalf("the conflict's invoice events: %+v, %v", evs, err)
				}
				if _, err := st.Events().Get(ctx, p.ID, ids[0]); model.ErrorCodeOf(err) != model.CodeNotFound {
					t.Fatalf("the conflict's event: %v", err)
				}
			}
		})
	}
}

package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// The pipeline's hot statements are prepared once with their arguments
// bound (prepared.go): what they write must read back through bun exactly
// as bun itself would have written it (times, NULLs for empty columns,
// strings without NUL characters and with invalid UTF-8 replaced), in and
// outside a transaction, on both dialects, and a lock of a missing invoice
// must still be not found.
func TestPreparedStatementsWriteWhatBunReads(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "prepared-"+d.Name)
			created := time.Date(2026, 11, 28, 10, 11, 12, 345678999, time.FixedZone("WAT", 3600))
			inv := &model.SubmittedInvoice{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID,
				Environment: p.Environment, IRN: "INV00001-94ND90NR-20261128", InvoiceType: model.InvoiceKindB2B,
				InvoiceTypeCode: "396", Payload: `{}`, PayloadHash: "x", Status: model.InvoiceQueued, IssueDate: "2026-11-28",
				WorkflowID: "invoice-INV00001-94ND90NR-20261128", DeadlineAt: model.StoredTime(created.Add(time.Hour)),
				CreatedAt: created, UpdatedAt: created}
			if err := st.Submissions().Create(ctx, inv); err != nil {
				t.Fatal(err)
			}
			attempt, latency, status := 2, int64(37), 201
			evs := []*model.InvoiceEvent{
				{InvoiceID: inv.ID, Seq: 1, ProjectID: p.ID, Kind: model.EventState, ToStatus: model.InvoiceQueued,
					Message: "queued", CreatedAt: created},
				{InvoiceID: inv.ID, Seq: 2, ProjectID: p.ID, Kind: model.EventExchange, Operation: "invoice_sign",
					Attempt: &attempt, LatencyMS: &latency, HTTPStatus: &status, RequestBody: "{\"a\":\"x\x00y\"}",
					ResponseBody: "caf\xe9 \u00e9", Message: "it's signed", CreatedAt: created.Add(time.Second)},
			}
			if err := st.Submissions().AppendEvent(ctx, evs[0]); err != nil {
				t.Fatal(err)
			}
			shard := 1
			err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				locked, err := tx.Submissions().Lock(ctx, inv.ID)
				if err != nil {
					return err
				}
				if want := normalized(*inv); !reflect.DeepEqual(normalized(*locked), want) {
					t.Errorf("created and locked\n got %+v\nwant %+v", normalized(*locked), want)
				}
				// A state change writes the columns it changed.
				signed := created.Add(time.Minute)
				locked.Status, locked.SignSent, locked.SignedAt, locked.LastSentAt = model.InvoiceSigned, 1, &signed, &signed
				locked.NRSErrorMessage, locked.ClearingShard = "it's \x00fine", &shard
				if err := tx.Submissions().Save(ctx, locked); err != nil {
					return err
				}
				return tx.Submissions().AppendEvent(ctx, evs[1])
			})
			if err != nil {
				t.Fatal(err)
			}
			saved, err := st.Submissions().Lock(ctx, inv.ID)
			if err != nil {
				t.Fatal(err)
			}
			signed := created.Add(time.Minute).UTC().Truncate(time.Microsecond)
			if saved.Status != model.InvoiceSigned || saved.SignSent != 1 || saved.SignedAt == nil || !saved.SignedAt.Equal(signed) ||
				saved.LastSentAt == nil || !saved.LastSentAt.Equal(signed) || saved.NRSErrorMessage != "it's fine" ||
				saved.ClearingShard != nil || saved.Payload != inv.Payload {
				t.Fatalf("saved: %+v", normalized(*saved))
			}
			got, _, err := st.Submissions().Events(ctx, inv.ID, 0, 10)
			if err != nil || len(got) != 2 {
				t.Fatalf("events: %d, %v", len(got), err)
			}
			want1 := *evs[1]
			want1.RequestBody, want1.ResponseBody = `{"a":"xy"}`, "caf\uFFFD \u00e9"
			for i, want := range []model.InvoiceEvent{*evs[0], want1} {
				want.CreatedAt = want.CreatedAt.UTC().Truncate(time.Microsecond)
				g := got[i]
				g.CreatedAt = g.CreatedAt.UTC()
				if !reflect.DeepEqual(g, want) {
					t.Errorf("event %d read back\n got %+v\nwant %+v", i+1, g, want)
				}
			}
			byIRN, err := st.Submissions().ByIRN(ctx, p.ID, inv.IRN)
			if err != nil || byIRN.ID != inv.ID {
				t.Fatalf("by IRN: %v %v", byIRN.ID, err)
			}
			var me *model.Error
			if _, err := st.Submissions().Lock(ctx, newID(t)); !errors.As(err, &me) || me.Code != model.CodeNotFound {
				t.Fatalf("lock of a missing invoice: %v, want not found", err)
			}

			// An event's time compares with bun's own bounds.
			e := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: "invoice.queued",
				Data: json.RawMessage(`{"id":"x"}`), CreatedAt: created}
			if err := st.Events().Append(ctx, e); err != nil {
				t.Fatal(err)
			}
			from, until := created.Add(-time.Microsecond), created.Add(time.Microsecond)
			list, _, err := st.Events().List(ctx, p.ID, store.EventFilter{From: &from, Until: &until}, model.Page{Limit: 10})
			if err != nil || len(list) != 1 || list[0].ID != e.ID || !sameJSON(list[0].Data, e.Data) || list[0].DispatchedAt != nil {
				t.Fatalf("events listed between %s and %s: %+v, %v", from, until, list, err)
			}
			later := created.Add(time.Microsecond)
			if list, _, _ := st.Events().List(ctx, p.ID, store.EventFilter{From: &later}, model.Page{Limit: 10}); len(list) != 0 {
				t.Fatalf("an event created at %s listed from %s", created, later)
			}
		})
	}
}

// sameJSON reports whether a and b are the same JSON value (PostgreSQL's
// jsonb writes its own spacing).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// normalized is inv with its times in UTC to the microsecond, as both
// dialects keep them.
func normalized(inv model.SubmittedInvoice) model.SubmittedInvoice {
	norm := func(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
	inv.CreatedAt, inv.UpdatedAt, inv.DeadlineAt = norm(inv.CreatedAt), norm(inv.UpdatedAt), norm(inv.DeadlineAt)
	for _, p := range []**time.Time{&inv.LastSentAt, &inv.SignedAt, &inv.TransmittedAt, &inv.ConfirmedAt} {
		if *p != nil {
			t := norm(**p)
			*p = &t
		}
	}
	return inv
}

package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// batchItem is one invoice of a batch body: the single route's body.
func batchItem(t testing.TB, tn certtest.Tenant, kind model.InvoiceKind, ref string, edit func(map[string]any)) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(submitBody(t, tn, kind, ref, edit)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func batchBody(t testing.TB, items []any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"invoices": items})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// callWith is call with extra request headers; it answers the recorder.
func (r *rig) callWith(method, path string, tn certtest.Tenant, body string, header map[string]string, chunked bool) *httptest.ResponseRecorder {
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	if chunked {
		hr.ContentLength = -1
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	for k, v := range header {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	return rec
}

func decoded(t testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
	}
	return m
}

func TestInvoiceBatch(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { invoiceBatch(t, d) })
	}
}

func invoiceBatch(t *testing.T, d storetest.Dialect) {
	r := newInvoiceRig(t, certtest.Options{Open: d.Open})
	tn := r.e.Tenant
	kinds := model.AllInvoiceKinds

	// The body's own bounds: the whole batch is refused, nothing stored.
	one := batchItem(t, tn, model.InvoiceKindB2C, "BOUND1", nil)
	many := make([]any, model.MaxBatchItems+1)
	for i := range many {
		many[i] = one
	}
	for name, c := range map[string]struct {
		body   string
		header map[string]string
		want   int
		loc    string
	}{
		"101 invoices":    {batchBody(t, many), nil, 422, "body invoices"},
		"no invoice":      {batchBody(t, []any{}), nil, 422, "body invoices"},
		"not a list":      {`{"invoices": {"a": 1}}`, nil, 422, "body invoices"},
		"missing":         {`{}`, nil, 422, "body invoices"},
		"another field":   {`{"invoices": [1], "mode": "all"}`, nil, 422, "body mode"},
		"duplicate names": {`{"invoices": [], "invoices": []}`, nil, 422, "body invoices"},
		"not JSON":        {`{"invoices": [`, nil, 422, "body"},
		"form encoded":    {`invoices=1`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, ""},
	} {
		rec := r.callWith("POST", "/api/v2/invoices/batch", tn, c.body, c.header, false)
		if rec.Code != c.want {
			t.Fatalf("%s: %d %s", name, rec.Code, rec.Body)
		}
		if c.loc != "" {
			det := decoded(t, rec)["detail"].([]any)
			loc := fmt.Sprint(det[0].(map[string]any)["loc"])
			if !strings.HasPrefix(loc, "["+c.loc) {
				t.Fatalf("%s: loc %s, want %s: %s", name, loc, c.loc, rec.Body)
			}
		}
	}
	// Over 5 MiB: 413 before decoding, whether announced or not.
	big := `{"invoices": [{"invoice_type": "B2C", "payload": {"note": "` + strings.Repeat("x", model.MaxBatchBytes) + `"}}]}`
	for _, chunked := range []bool{false, true} {
		rec := r.callWith("POST", "/api/v2/invoices/batch", tn, big, nil, chunked)
		if m := decoded(t, rec); rec.Code != 413 || m["code"] != "payload_too_large" {
			t.Fatalf("oversize (chunked %v): %d %s", chunked, rec.Code, rec.Body)
		}
	}
	// Just under the bound is decoded (and its one invoice refused on its own).
	under := `{"invoices": [{"invoice_type": "B2C", "payload": {"note": "` + strings.Repeat("x", model.MaxBatchBytes-200) + `"}}]}`
	if rec := r.callWith("POST", "/api/v2/invoices/batch", tn, under, nil, false); rec.Code != 200 {
		t.Fatalf("under the bound: %d %.300s", rec.Code, rec.Body)
	}

	// A database failure in the middle of the batch leaves nothing: the
	// 50th invoice's insert fails, after 49 others in the same transaction.
	failTrigger(t, r, d)
	items := make([]any, 60)
	for i := range items {
		ref := fmt.Sprintf("TXN%03d", i)
		if i == 49 {
			ref = "FAILME1"
		}
		items[i] = batchItem(t, tn, kinds[i%len(kinds)], ref, nil)
	}
	rec := r.callWith("POST", "/api/v2/invoices/batch", tn, batchBody(t, items), nil, false)
	if rec.Code < 500 {
		t.Fatalf("failing batch: %d %s", rec.Code, rec.Body)
	}
	var n int
	if err := r.e.Store.DB().NewRaw("SELECT COUNT(*) FROM submitted_invoices WHERE project_id = ?", tn.Project.ID).Scan(context.Background(), &n); err != nil || n != 0 {
		t.Fatalf("invoices after a failed batch: %d %v", n, err)
	}
	if err := r.e.Store.DB().NewRaw("SELECT COUNT(*) FROM invoice_batches").Scan(context.Background(), &n); err != nil || n != 1 {
		t.Fatalf("batches after a failed batch: %d %v, want only the one under the bound", n, err)
	}
	// Its workflows were started first, then abandoned.
	desc, err := r.c.DescribeWorkflowExecution(context.Background(), submissions.WorkflowID(app.WorkflowKey(apptest.AuditKey), tn.Project.ID, "TXN000-"+*tn.Project.Authority.ServiceID+"-20260315"), "")
	if err != nil || desc.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED {
		t.Fatalf("workflow of a failed batch: %v %v", desc.GetWorkflowExecutionInfo().GetStatus(), err)
	}
	dropFailTrigger(t, r, d)

	// 100 invoices, mixed: results in order, valid ones accepted even
	// beside invalid ones, and every accepted one confirmed, exactly once.
	r.startInvoiceWorker()
	want := make([]string, model.MaxBatchItems)
	items = make([]any, model.MaxBatchItems)
	for i := range items {
		kind := kinds[i%len(kinds)]
		ref := fmt.Sprintf("BAT%03d", i)
		switch {
		case i == 5: // the same invoice as item 0: accepted as it
			items[i], want[i] = items[0], "accepted"
		case i == 6: // item 1's IRN with another payload
			items[i], want[i] = batchItem(t, tn, kinds[1], "BAT001", func(doc map[string]any) { doc["note"] = "changed" }), "conflict"
		case i%10 == 3: // the validator refuses it
			items[i], want[i] = batchItem(t, tn, kind, ref, func(doc map[string]any) { delete(doc, "invoice_type_code") }), "invalid"
		case i%10 == 7: // no irn and no reference
			it := batchItem(t, tn, kind, "", nil)
			delete(it, "invoice_reference")
			items[i], want[i] = it, "invalid"
		case i == 9: // a wrong type and an unknown field
			it := batchItem(t, tn, kind, ref, nil)
			it["invoice_type"], it["priority"] = 5, "high"
			items[i], want[i] = it, "invalid"
		case i == 19:
			items[i], want[i] = "not an object", "invalid"
		default:
			items[i], want[i] = batchItem(t, tn, kind, ref, nil), "accepted"
		}
	}
	body := batchBody(t, items)
	rec = r.callWith("POST", "/api/v2/invoices/batch", tn, body, map[string]string{"Idempotency-Key": "batch-1"}, false)
	if rec.Code != 202 {
		t.Fatalf("batch: %d %.2000s", rec.Code, rec.Body)
	}
	out := decoded(t, rec)
	batchID := out["batch_id"].(string)
	if rec.Header().Get("Location") != "/api/v2/invoices/batches/"+batchID {
		t.Fatalf("Location %q", rec.Header().Get("Location"))
	}
	got := out["items"].([]any)
	if len(got) != model.MaxBatchItems {
		t.Fatalf("%d items answered", len(got))
	}
	accepted, invoiceOf := 0, map[int]string{}
	for i, g := range got {
		it := g.(map[string]any)
		if int(it["index"].(float64)) != i || it["status"] != want[i] {
			t.Fatalf("item %d: %v, want %s", i, it, want[i])
		}
		switch want[i] {
		case "accepted":
			accepted++
			invoiceOf[i] = it["invoice_id"].(string)
			if !strings.HasPrefix(it["irn"].(string), fmt.Sprintf("BAT%03d-", i)) && i != 5 {
				t.Fatalf("item %d irn %v", i, it["irn"])
			}
		case "invalid":
			if it["invoice_id"] != nil || len(it["problems"].([]any)) == 0 {
				t.Fatalf("invalid item %d: %v", i, it)
			}
		case "conflict":
			if e := it["error"].(map[string]any); e["code"] != "conflict" || !strings.Contains(e["detail"].(string), "payload hash") {
				t.Fatalf("conflict item %d: %v", i, it)
			}
		}
	}
	if invoiceOf[5] != invoiceOf[0] {
		t.Fatalf("a repeated item is another invoice: %s, %s", invoiceOf[5], invoiceOf[0])
	}
	locs := fmt.Sprint(got[9].(map[string]any)["problems"])
	if !strings.Contains(locs, "invoice_type") || !strings.Contains(locs, "priority") || !strings.Contains(locs, "extra_forbidden") {
		t.Fatalf("item 9's problems: %s", locs)
	}
	if c := out["counts"].(map[string]any); int(c["accepted"].(float64)) != accepted || int(c["conflict"].(float64)) != 1 {
		t.Fatalf("counts %v, accepted %d", c, accepted)
	}

	// The same key and body replays the answer; another body is refused.
	again := r.callWith("POST", "/api/v2/invoices/batch", tn, body, map[string]string{"Idempotency-Key": "batch-1"}, false)
	if again.Code != 202 || again.Header().Get("Idempotent-Replayed") != "true" || again.Body.String() != rec.Body.String() {
		t.Fatalf("replay: %d %v %.300s", again.Code, again.Header(), again.Body)
	}
	other := r.callWith("POST", "/api/v2/invoices/batch", tn, batchBody(t, items[:2]), map[string]string{"Idempotency-Key": "batch-1"}, false)
	if m := decoded(t, other); other.Code != 422 || !strings.Contains(fmt.Sprint(m), "idempotency_key_reuse") {
		t.Fatalf("reuse with another body: %d %s", other.Code, other.Body)
	}

	// Every accepted invoice is confirmed, once; the batch shows it.
	deadline := time.Now().Add(5 * time.Minute)
	var b map[string]any
	for {
		code, m, err := r.call("GET", "/api/v2/invoices/batches/"+batchID, tn, "")
		if err != nil || code != 200 {
			t.Fatalf("get batch: %d %v %v", code, m, err)
		}
		b = m
		c := b["counts"].(map[string]any)
		if int(c["confirmed"].(float64)) == accepted {
			break
		}
		if int(c["rejected"].(float64)) > 0 || time.Now().After(deadline) {
			t.Fatalf("batch not confirmed: %v", c)
		}
		time.Sleep(200 * time.Millisecond)
	}
	c := b["counts"].(map[string]any)
	if int(c["invalid"].(float64)) != model.MaxBatchItems-accepted-1 || int(c["conflict"].(float64)) != 1 || int(c["queued"].(float64)) != 0 {
		t.Fatalf("counts %v", c)
	}
	for i, g := range b["items"].([]any) {
		it := g.(map[string]any)
		if int(it["index"].(float64)) != i {
			t.Fatalf("read item %d: %v", i, it)
		}
		if want[i] == "accepted" {
			if it["status"] != "confirmed" || it["invoice_id"] != invoiceOf[i] {
				t.Fatalf("read item %d: %v", i, it)
			}
			if i != 5 {
				if k := r.counts(tn, it["irn"].(string)); k.Signs != 1 || k.SignRepeats != 0 || k.TransmitRepeats != 0 {
					t.Fatalf("item %d sent %+v", i, k)
				}
			}
		} else if it["status"] != want[i] {
			t.Fatalf("read item %d: %v, want %s", i, it, want[i])
		}
	}
	code, m, _ := r.call("GET", "/api/v2/invoices?limit=200", tn, "")
	if code != 200 || len(m["items"].([]any)) != accepted-1 { // item 5 is item 0
		t.Fatalf("invoices listed: %d %d, want %d", code, len(m["items"].([]any)), accepted-1)
	}

	// Another tenant's batch is not found; its own is.
	stranger := r.e.NewTenant(t)
	if code, m, _ := r.call("GET", "/api/v2/invoices/batches/"+batchID, stranger, ""); code != 404 {
		t.Fatalf("another tenant's batch: %d %v", code, m)
	}
	if code, m, _ := r.call("GET", "/api/v2/invoices/batches/not-a-uuid", tn, ""); code != 422 {
		t.Fatalf("bad batch id: %d %v", code, m)
	}

	// A batch of nothing but refusals answers 200, recorded.
	rec = r.callWith("POST", "/api/v2/invoices/batch", tn, batchBody(t, []any{items[3], items[6]}), nil, false)
	if m := decoded(t, rec); rec.Code != 200 || int(m["counts"].(map[string]any)["accepted"].(float64)) != 0 {
		t.Fatalf("all refused: %d %s", rec.Code, rec.Body)
	}
	// The v1 twin answers too.
	rec = r.callWith("POST", "/api/v1/invoices/batch", tn, batchBody(t, []any{items[0]}), nil, false)
	if m := decoded(t, rec); rec.Code != 202 || m["items"].([]any)[0].(map[string]any)["invoice_id"] != invoiceOf[0] {
		t.Fatalf("v1: %d %s", rec.Code, rec.Body)
	}
}

// failTrigger makes the database refuse the insert of an invoice whose
// IRN starts with FAILME.
func failTrigger(t *testing.T, r *rig, d storetest.Dialect) {
	t.Helper()
	stmts := []string{`CREATE TRIGGER fail_invoice BEFORE INSERT ON submitted_invoices
		WHEN NEW.irn LIKE 'FAILME%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`}
	if d.Name != "sqlite" {
		stmts = []string{`CREATE FUNCTION fail_invoice() RETURNS trigger AS $$
			BEGIN IF NEW.irn LIKE 'FAILME%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER fail_invoice BEFORE INSERT ON submitted_invoices FOR EACH ROW EXECUTE FUNCTION fail_invoice()`}
	}
	for _, s := range stmts {
		if _, err := r.e.Store.DB().ExecContext(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

func dropFailTrigger(t *testing.T, r *rig, d storetest.Dialect) {
	t.Helper()
	s := "DROP TRIGGER fail_invoice"
	if d.Name != "sqlite" {
		s += " ON submitted_invoices"
	}
	if _, err := r.e.Store.DB().ExecContext(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

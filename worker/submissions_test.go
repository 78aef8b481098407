package worker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

var registerAttrs sync.Once

// newInvoiceRig is a rig whose namespace has the invoice search
// attributes and whose stand-in loses answers late after lateDelay.
func newInvoiceRig(t *testing.T, opts certtest.Options) *rig {
	t.Helper()
	if opts.LateDelay == 0 {
		opts.LateDelay = 3 * time.Second
	}
	r := newRig(t, opts)
	registerAttrs.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := workflows.RegisterSearchAttributes(ctx, r.c, temporalNamespace, workflows.SearchAttributes()...); err != nil {
			t.Fatal(err)
		}
	})
	return r
}

// invoiceCallTimeout bounds one call to the stand-in in these tests: well
// under the stand-in's late answers.
const invoiceCallTimeout = 700 * time.Millisecond

// startInvoiceWorker starts a worker running both workflows.
func (r *rig) startInvoiceWorker() (stop func()) {
	r.t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Submissions: r.e.App.SubmissionSteps, TaskQueue: r.queue,
		Logger: quiet(), SubmissionMBS: workflows.SubmissionClients(egress.Policy{}, invoiceCallTimeout),
		SubmissionCallTimeout: invoiceCallTimeout})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		r.t.Fatal(err)
	}
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			w.Stop()
		}
	}
	r.t.Cleanup(stop)
	return stop
}

// call makes a request and decodes a JSON answer (nil for none), safe from
// any goroutine.
func (r *rig) call(method, path string, tn certtest.Tenant, body string) (int, map[string]any, error) {
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	rec := httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	var m map[string]any
	if rec.Body.Len() > 0 && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			return rec.Code, nil, fmt.Errorf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
	}
	return rec.Code, m, nil
}

// submitBody is a submission of a sample invoice of kind, named ref.
func submitBody(t testing.TB, tn certtest.Tenant, kind model.InvoiceKind, ref string, edit func(map[string]any)) string {
	t.Helper()
	doc, err := workflows.SamplePayload(kind, *tn.Project.Authority.BusinessID, "2026-03-15")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(doc)
	}
	b, err := json.Marshal(map[string]any{"invoice_type": string(kind), "invoice_reference": ref, "payload": doc})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitInvoice polls an invoice until cond holds.
func (r *rig) waitInvoice(tn certtest.Tenant, id string, timeout time.Duration, cond func(map[string]any) bool) map[string]any {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		code, inv, err := r.call("GET", "/api/v2/invoices/"+id, tn, "")
		if err != nil || code != 200 {
			r.t.Fatalf("get invoice: %d %v %v", code, inv, err)
		}
		if cond(inv) {
			return inv
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(inv, "", "  ")
			_, evs, _ := r.call("GET", "/api/v2/invoices/"+id+"/events?limit=200", tn, "")
			eb, _ := json.MarshalIndent(evs, "", "  ")
			r.t.Fatalf("invoice %s: condition not met within %s: %s\nevents: %s", id, timeout, b, eb)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func status(s string) func(map[string]any) bool {
	return func(inv map[string]any) bool { return inv["status"] == s }
}

func settled(inv map[string]any) bool {
	return inv["status"] == "confirmed" || inv["status"] == "rejected"
}

// counts reads the stand-in's sign and transmit counters of an IRN.
func (r *rig) counts(tn certtest.Tenant, irn string) nrssandbox.CallCounts {
	r.t.Helper()
	c, err := r.e.Sandbox.Counts(context.Background(), *tn.Project.Authority.BusinessID, irn)
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// events reads an invoice's whole log.
func (r *rig) events(tn certtest.Tenant, id string) []map[string]any {
	r.t.Helper()
	code, m, err := r.call("GET", "/api/v2/invoices/"+id+"/events?limit=200", tn, "")
	if err != nil || code != 200 {
		r.t.Fatalf("events: %d %v %v", code, m, err)
	}
	var out []map[string]any
	for _, it := range m["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func TestInvoicesEndToEnd(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { invoicesEndToEnd(t, d) })
	}
}

func invoicesEndToEnd(t *testing.T, d storetest.Dialect) {
	r := newInvoiceRig(t, certtest.Options{Open: d.Open})
	r.startInvoiceWorker()
	tn := r.e.Tenant

	ids := map[model.InvoiceKind]string{}
	for _, kind := range model.AllInvoiceKinds {
		body := submitBody(t, tn, kind, "INV"+string(kind)+"1", nil)
		code, inv, err := r.call("POST", "/api/v2/invoices", tn, body)
		if err != nil || code != 202 {
			t.Fatalf("submit %s: %d %v %v", kind, code, inv, err)
		}
		if inv["status"] != "queued" || inv["invoice_type"] != string(kind) || !strings.HasPrefix(inv["irn"].(string), "INV"+string(kind)+"1-") {
			t.Fatalf("submit %s answer: %v", kind, inv)
		}
		ids[kind] = inv["id"].(string)
		// The same submission again answers the same invoice.
		code, again, err := r.call("POST", "/api/v2/invoices", tn, body)
		if err != nil || code != 202 || again["id"] != inv["id"] {
			t.Fatalf("resubmit %s: %d %v %v", kind, code, again, err)
		}
	}
	for kind, id := range ids {
		inv := r.waitInvoice(tn, id, time.Minute, settled)
		if inv["status"] != "confirmed" || inv["qr_code_data"] == nil || inv["signed_at"] == nil {
			t.Fatalf("%s: %v", kind, inv)
		}
		if (inv["transmitted_at"] != nil) != kind.Transmitted() {
			t.Fatalf("%s transmitted_at: %v", kind, inv["transmitted_at"])
		}
		c := r.counts(tn, inv["irn"].(string))
		wantT := 0
		if kind.Transmitted() {
			wantT = 1
		}
		if c.Signs != 1 || c.Transmits != wantT || c.SignRepeats != 0 || c.TransmitRepeats != 0 {
			t.Fatalf("%s counts %+v", kind, c)
		}
		var states, exchanges []string
		for _, e := range r.events(tn, id) {
			switch e["kind"] {
			case "state":
				if e["from_status"] != nil && e["from_status"] == e["to_status"] {
					// A deadline flag (the sample invoice's B2C deadline,
					// a day after its issue in March, has passed).
					if !strings.HasPrefix(e["message"].(string), "deadline missed") {
						t.Fatalf("a state entry that keeps the state: %v", e)
					}
					continue
				}
				states = append(states, e["to_status"].(string))
			case "exchange":
				exchanges = append(exchanges, e["operation"].(string))
				if e["http_status"] == nil || e["latency_ms"] == nil || e["attempt"] == nil {
					t.Fatalf("exchange without its figures: %v", e)
				}
				if strings.Contains(fmt.Sprint(e), tn.ClientSecret) {
					t.Fatal("a secret in the log")
				}
			}
		}
		want := "queued submitting signed confirmed"
		wantX := "irn_validate invoice_validate invoice_sign invoice_confirm"
		if kind.Transmitted() {
			want, wantX = "queued submitting signed transmitted confirmed", "irn_validate invoice_validate invoice_sign transmit invoice_confirm"
		}
		if strings.Join(states, " ") != want || strings.Join(exchanges, " ") != wantX {
			t.Fatalf("%s log: states %v exchanges %v", kind, states, exchanges)
		}
	}

	// The same IRN with another payload is a conflict naming both hashes.
	body := submitBody(t, tn, model.InvoiceKindB2B, "INVB2B1", func(doc map[string]any) { doc["note"] = "changed" })
	code, m, _ := r.call("POST", "/api/v2/invoices", tn, body)
	if code != 409 || !strings.Contains(fmt.Sprint(m), "payload hash") {
		t.Fatalf("conflict: %d %v", code, m)
	}
	// An invalid invoice: 422 with the validator's problems, nothing stored.
	body = submitBody(t, tn, model.InvoiceKindB2C, "INVBAD1", func(doc map[string]any) { delete(doc, "invoice_type_code") })
	code, m, _ = r.call("POST", "/api/v2/invoices", tn, body)
	if code != 422 {
		t.Fatalf("invalid: %d %v", code, m)
	}
	code, m, _ = r.call("GET", "/api/v2/invoices?irn=INVBAD1-"+*tn.Project.Authority.ServiceID+"-20260315", tn, "")
	if code != 200 || len(m["items"].([]any)) != 0 {
		t.Fatalf("the invalid invoice was stored: %d %v", code, m)
	}

	// List and filters.
	code, m, _ = r.call("GET", "/api/v2/invoices?limit=2", tn, "")
	if code != 200 || len(m["items"].([]any)) != 2 || m["next_cursor"] == nil {
		t.Fatalf("list: %d %v", code, m)
	}
	code, m2, _ := r.call("GET", "/api/v2/invoices?limit=2&cursor="+m["next_cursor"].(string), tn, "")
	if code != 200 || len(m2["items"].([]any)) != 1 || m2["next_cursor"] != nil {
		t.Fatalf("list page 2: %d %v", code, m2)
	}
	code, m, _ = r.call("GET", "/api/v2/invoices?invoice_type=b2g&status=confirmed&issue_date_from=2026-03-01&issue_date_to=2026-03-31", tn, "")
	if code != 200 || len(m["items"].([]any)) != 1 || m["items"].([]any)[0].(map[string]any)["id"] != ids[model.InvoiceKindB2G] {
		t.Fatalf("filtered list: %d %v", code, m)
	}
	code, m, _ = r.call("GET", "/api/v2/invoices?status=lost", tn, "")
	if code != 422 {
		t.Fatalf("bad filter: %d %v", code, m)
	}

	// Payment status: sent to NRS and recorded.
	b2b := ids[model.InvoiceKindB2B]
	code, m, _ = r.call("PATCH", "/api/v2/invoices/"+b2b+"/payment", tn, `{"payment_status":"PAID","reference":"TRX-1"}`)
	if code != 200 || m["payment_status"] != "PAID" {
		t.Fatalf("payment: %d %v", code, m)
	}
	code, m, _ = r.call("PATCH", "/api/v2/invoices/"+b2b+"/payment", tn, `{"payment_status":"SETTLED"}`)
	if code != 422 {
		t.Fatalf("bad payment status: %d %v", code, m)
	}
	code, m, _ = r.call("PATCH", "/api/v2/invoices/"+b2b+"/payment", tn, `{"payment_status":"REJECTED"}`)
	if code != 422 || !strings.Contains(fmt.Sprint(m), "only approved providers document") {
		t.Fatalf("REJECTED payment status: %d %v", code, m)
	}
	code, m, _ = r.call("PATCH", "/api/v2/invoices/"+b2b+"/payment", tn, `{"payment_status":"CANCELED"}`)
	if code != 200 || m["payment_status"] != "CANCELED" {
		t.Fatalf("CANCELED payment status: %d %v", code, m)
	}

	// A credit note naming the B2B invoice; one naming another business's
	// IRN is refused.
	irnB2B := r.waitInvoice(tn, b2b, time.Second, settled)["irn"].(string)
	note := submitBody(t, tn, model.InvoiceKindB2B, "CRN1", func(doc map[string]any) {
		doc["invoice_type_code"] = "380"
		doc["billing_reference"] = []any{map[string]any{"irn": irnB2B, "issue_date": "2026-03-15"}}
	})
	code, m, _ = r.call("POST", "/api/v2/invoices", tn, note)
	if code != 202 || m["billing_reference"] != irnB2B {
		t.Fatalf("credit note: %d %v", code, m)
	}
	if inv := r.waitInvoice(tn, m["id"].(string), time.Minute, settled); inv["status"] != "confirmed" {
		t.Fatalf("credit note: %v", inv)
	}
	bad := submitBody(t, tn, model.InvoiceKindB2B, "CRN2", func(doc map[string]any) {
		doc["invoice_type_code"] = "380"
		doc["billing_reference"] = []any{map[string]any{"irn": "INV1-ZZZZZZZZ-20260315", "issue_date": "2026-03-15"}}
	})
	if code, m, _ = r.call("POST", "/api/v2/invoices", tn, bad); code != 422 {
		t.Fatalf("credit note of another supplier: %d %v", code, m)
	}

	// The PDF of a cleared invoice.
	hr := httptest.NewRequest("GET", "/api/v2/invoices/"+b2b+"/pdf", nil)
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	rec := httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	if rec.Code != 200 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF")) {
		t.Fatalf("pdf: %d %.200s", rec.Code, rec.Body)
	}

	// The archive verifies and exports.
	code, m, _ = r.call("GET", "/api/v2/invoices/archive/verify", tn, "")
	if code != 200 || m["valid"] != true || m["entries"].(float64) != 4 {
		t.Fatalf("verify: %d %v", code, m)
	}
	hr = httptest.NewRequest("GET", "/api/v2/invoices/archive/export?from=2020-01-01&to=2100-01-01", nil)
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	rec = httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	if lines := strings.Count(rec.Body.String(), "\n"); rec.Code != 200 || lines != 4 {
		t.Fatalf("export: %d, %d lines", rec.Code, lines)
	}

	// Another tenant reaches none of it.
	other := r.e.NewTenant(t)
	for _, p := range []string{"/api/v2/invoices/" + b2b, "/api/v2/invoices/" + b2b + "/events", "/api/v2/invoices/" + b2b + "/pdf"} {
		if code, m, _ := r.call("GET", p, other, ""); code != 404 {
			t.Fatalf("other tenant %s: %d %v", p, code, m)
		}
	}
	if code, m, _ := r.call("PATCH", "/api/v2/invoices/"+b2b+"/payment", other, `{"payment_status":"PAID"}`); code != 404 {
		t.Fatalf("other tenant payment: %d %v", code, m)
	}
	if code, m, _ := r.call("GET", "/api/v2/invoices", other, ""); code != 200 || len(m["items"].([]any)) != 0 {
		t.Fatalf("other tenant list: %d %v", code, m)
	}

	// Operators find the project's confirmed invoices in Temporal.
	if d.Name == "sqlite" {
		q := fmt.Sprintf("ProjectId = '%s' AND InvoiceStatus = 'confirmed'", tn.Project.ID)
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := r.c.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Namespace: temporalNamespace, Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.GetExecutions()) == 4 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("visibility query %q found %d workflows, want 4", q, len(resp.GetExecutions()))
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func TestInvoiceRejectedByNRS(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2C, "SBXSIGNFAIL1", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	inv := r.waitInvoice(tn, m["id"].(string), time.Minute, settled)
	nrsErr, _ := inv["nrs_error"].(map[string]any)
	if inv["status"] != "rejected" || nrsErr == nil || nrsErr["id"] == "" || !strings.Contains(nrsErr["message"].(string), "sign") {
		t.Fatalf("rejected: %v", inv)
	}
	// A credit note of a rejected invoice is refused.
	note := submitBody(t, tn, model.InvoiceKindB2C, "CRN3", func(doc map[string]any) {
		doc["invoice_type_code"] = "380"
		doc["billing_reference"] = []any{map[string]any{"irn": inv["irn"], "issue_date": "2026-03-15"}}
	})
	if code, m, _ := r.call("POST", "/api/v2/invoices", tn, note); code != 422 || !strings.Contains(fmt.Sprint(m), "rejected") {
		t.Fatalf("credit note of a rejected invoice: %d %v", code, m)
	}
	if code, m, _ := r.call("PATCH", "/api/v2/invoices/"+inv["id"].(string)+"/payment", tn, `{"payment_status":"PAID"}`); code != 409 {
		t.Fatalf("payment of a rejected invoice: %d %v", code, m)
	}
}

func TestInvoiceLostAnswers(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	for _, sc := range []string{nrssandbox.ScenarioLostReset, nrssandbox.ScenarioLostLate, nrssandbox.ScenarioLost5xx} {
		t.Run(sc, func(t *testing.T) {
			code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, sc+"1", nil))
			if err != nil || code != 202 {
				t.Fatalf("submit: %d %v %v", code, m, err)
			}
			id := m["id"].(string)
			inv := r.waitInvoice(tn, id, time.Minute, settled)
			if inv["status"] != "confirmed" {
				t.Fatalf("%v", inv)
			}
			if c := r.counts(tn, inv["irn"].(string)); c.Signs != 1 || c.Transmits != 1 || c.SignRepeats != 0 || c.TransmitRepeats != 0 {
				t.Fatalf("counts %+v", c)
			}
			unknown := 0
			for _, e := range r.events(tn, id) {
				if e["to_status"] == "outcome_unknown" {
					unknown++
				}
			}
			if unknown != 2 { // the sign's answer and the transmit's
				t.Fatalf("%d outcome_unknown states, want 2", unknown)
			}
		})
	}
}

func TestInvoiceSurvivesWorkerRestart(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite, LateDelay: 2 * time.Second})
	stop := r.startInvoiceWorker()
	tn := r.e.Tenant
	// The stand-in holds the sign's answer while the worker stops.
	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2G, nrssandbox.ScenarioLostLate+"9", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	id := m["id"].(string)
	r.waitInvoice(tn, id, time.Minute, func(inv map[string]any) bool {
		return inv["status"] != "queued" && inv["status"] != "submitting" || inv["status"] == "submitting" && r.counts(tn, inv["irn"].(string)).Signs > 0
	})
	stop()
	r.startInvoiceWorker()
	inv := r.waitInvoice(tn, id, time.Minute, settled)
	if inv["status"] != "confirmed" {
		t.Fatalf("%v", inv)
	}
	if c := r.counts(tn, inv["irn"].(string)); c.Signs != 1 || c.Transmits != 1 || c.SignRepeats != 0 || c.TransmitRepeats != 0 {
		t.Fatalf("counts %+v", c)
	}
}

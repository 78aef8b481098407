package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// asUser makes a request with a user's bearer token, through a server that
// also answers GraphQL.
func (r *rig) asUser(method, path string, tn certtest.Tenant, body string) (int, map[string]any) {
	r.t.Helper()
	if r.gql == nil {
		r.gql = rest.New(r.e.App, rest.Options{Version: "test", Logger: quiet(), GraphQL: graph.NewHandler(r.e.App, graph.Options{Logger: quiet()})})
	}
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+tn.Token)
	rec := httptest.NewRecorder()
	r.gql.ServeHTTP(rec, hr)
	var m map[string]any
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			r.t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
	}
	return rec.Code, m
}

// setReport sets a project's post_payment_report over GraphQL and answers
// the whole GraphQL answer.
func (r *rig) setReportGraphQL(tn certtest.Tenant, projectID, value string) map[string]any {
	r.t.Helper()
	b, _ := json.Marshal(map[string]any{
		"query":     `mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(projectId: $id, input: $input) { id postPaymentReport } }`,
		"variables": map[string]any{"id": projectID, "input": map[string]any{"postPaymentReport": value}},
	})
	_, m := r.asUser("POST", "/graphql", tn, string(b))
	return m
}

// waitReport waits for the invoice's report workflow to finish and
// answers its error.
func (r *rig) waitReport(invoiceID string) error {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return r.c.GetWorkflow(ctx, "invoice-payment-report-"+invoiceID+"-PAID", "").Get(ctx, nil)
}

// TestPostPaymentReport: a project whose post_payment_report is on sends
// one report per invoice it sets PAID, built from the confirmed invoice;
// off sends none; legacy posts to the older route, which the stand-in
// answers with NRS's no-route 404. The setting is refused (422, the same
// on GraphQL) outside its values and not found from another tenant.
func TestPostPaymentReport(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { postPaymentReport(t, d) })
	}
}

func postPaymentReport(t *testing.T, d storetest.Dialect) {
	r := newInvoiceRig(t, certtest.Options{Open: d.Open})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	path := "/api/v2/projects/" + tn.Project.ID.String()

	// The setting: off by default, its values only, per tenant.
	if code, m := r.asUser("GET", "/api/v2/projects", tn, ""); code != 200 || m["items"].([]any)[0].(map[string]any)["post_payment_report"] != "off" {
		t.Fatalf("default setting: %d %v", code, m)
	}
	code, m := r.asUser("PATCH", path, tn, `{"post_payment_report":"sometimes"}`)
	if code != 422 || !strings.Contains(fmt.Sprint(m), "post_payment_report") || !strings.Contains(fmt.Sprint(m), "enum") {
		t.Fatalf("bad setting: %d %v", code, m)
	}
	g := r.setReportGraphQL(tn, tn.Project.ID.String(), "sometimes")
	if g["errors"] == nil || !strings.Contains(fmt.Sprint(g["errors"]), "postPaymentReport") || !strings.Contains(fmt.Sprint(g["errors"]), "enum") {
		t.Fatalf("bad setting on GraphQL: %v", g)
	}
	other := r.e.NewTenant(t)
	if code, m := r.asUser("PATCH", path, other, `{"post_payment_report":"postpayment"}`); code != 404 {
		t.Fatalf("another tenant's project: %d %v", code, m)
	}
	if g := r.setReportGraphQL(other, tn.Project.ID.String(), "postpayment"); g["errors"] == nil || !strings.Contains(fmt.Sprint(g["errors"]), "not_found") {
		t.Fatalf("another tenant's project on GraphQL: %v", g)
	}
	if code, m := r.asUser("GET", "/api/v2/projects", tn, ""); code != 200 || m["items"].([]any)[0].(map[string]any)["post_payment_report"] != "off" {
		t.Fatalf("setting after refused changes: %d %v", code, m)
	}

	// One confirmed B2B invoice per setting.
	submit := func(ref string) map[string]any {
		t.Helper()
		code, inv, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, ref, nil))
		if err != nil || code != 202 {
			t.Fatalf("submit %s: %d %v %v", ref, code, inv, err)
		}
		inv = r.waitInvoice(tn, inv["id"].(string), time.Minute, settled)
		if inv["status"] != "confirmed" {
			t.Fatalf("%s: %v", ref, inv)
		}
		return inv
	}
	pay := func(inv map[string]any) {
		t.Helper()
		code, m, _ := r.call("PATCH", "/api/v2/invoices/"+inv["id"].(string)+"/payment", tn, `{"payment_status":"PAID","reference":"TRX-1"}`)
		if code != 200 || m["payment_status"] != "PAID" {
			t.Fatalf("payment: %d %v", code, m)
		}
	}
	reportExchanges := func(inv map[string]any) []map[string]any {
		var out []map[string]any
		for _, e := range r.events(tn, inv["id"].(string)) {
			if e["kind"] == "exchange" && (e["operation"] == "vat_report" || e["operation"] == "post_payment") {
				out = append(out, e)
			}
		}
		return out
	}

	// Off (the default): no report.
	off := submit("INVOFF1")
	pay(off)
	if err := r.waitReport(off["id"].(string)); err != nil {
		t.Fatalf("report workflow with the setting off: %v", err)
	}
	if c := r.counts(tn, off["irn"].(string)); c.Reports != 0 || len(reportExchanges(off)) != 0 {
		t.Fatalf("setting off: %d reports, exchanges %v", c.Reports, reportExchanges(off))
	}

	// postpayment: one report, with the invoice's figures.
	if code, m := r.asUser("PATCH", path, tn, `{"post_payment_report":"postpayment"}`); code != 200 || m["post_payment_report"] != "postpayment" {
		t.Fatalf("set postpayment: %d %v", code, m)
	}
	on := submit("INVON1")
	pay(on)
	if err := r.waitReport(on["id"].(string)); err != nil {
		t.Fatalf("report workflow: %v", err)
	}
	if c := r.counts(tn, on["irn"].(string)); c.Reports != 1 {
		t.Fatalf("reports %d, want 1", c.Reports)
	}
	ex := reportExchanges(on)
	if len(ex) != 1 || ex[0]["operation"] != "vat_report" || ex[0]["http_status"] != float64(200) {
		t.Fatalf("report exchanges: %v", ex)
	}
	var sent map[string]string
	if err := json.Unmarshal([]byte(ex[0]["request_body"].(string)), &sent); err != nil {
		t.Fatalf("report body: %v %v", err, ex[0])
	}
	doc, err := workflows.SamplePayload(model.InvoiceKindB2B, *tn.Project.Authority.BusinessID, "2026-03-15")
	if err != nil {
		t.Fatal(err)
	}
	party := func(k string) string { return doc[k].(map[string]any)["tin"].(string) }
	total := doc["legal_monetary_total"].(map[string]any)
	num := func(v any) string {
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		if err != nil {
			t.Fatalf("amount %v: %v", v, err)
		}
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	tax, ok := doc["tax_total"].(map[string]any)
	if !ok {
		tax = doc["tax_total"].([]any)[0].(map[string]any)
	}
	category := tax["tax_subtotal"].([]any)[0].(map[string]any)["tax_category"].(map[string]any)
	want := map[string]string{
		"irn": on["irn"].(string), "agent_tin": party("accounting_supplier_party"), "beneficiary_tin": party("accounting_customer_party"),
		"currency": doc["document_currency_code"].(string), "integrator_service_id": *tn.Project.Authority.ServiceID,
		"base_amount": num(total["line_extension_amount"]), "total_amount": num(total["payable_amount"]),
		"vat_calculated": num(tax["tax_amount"]), "other_taxes": "0.00", "vat_status": category["id"].(string),
		"vat_rate":         fmt.Sprint(category["percent"]),
		"transaction_date": time.Now().In(time.FixedZone("WAT", 3600)).Format(time.DateOnly),
	}
	for k, v := range want {
		if sent[k] != v {
			t.Errorf("report %s = %q, want %q (body %v)", k, sent[k], v, sent)
		}
	}
	if sent["item_description"] == "" || len(sent) != 13 {
		t.Errorf("report fields: %v", sent)
	}
	// PAID again: NRS gets the update, not a second report.
	pay(on)
	if c := r.counts(tn, on["irn"].(string)); c.Reports != 1 || len(reportExchanges(on)) != 1 {
		t.Fatalf("second PAID: %d reports, exchanges %v", c.Reports, reportExchanges(on))
	}

	// legacy: the older route, which the stand-in answers 404 as NRS's sandbox did.
	if code, m := r.asUser("PATCH", path, tn, `{"post_payment_report":"legacy"}`); code != 200 || m["post_payment_report"] != "legacy" {
		t.Fatalf("set legacy: %d %v", code, m)
	}
	old := submit("INVOLD1")
	pay(old)
	if err := r.waitReport(old["id"].(string)); err == nil {
		t.Fatal("the legacy report went through a stand-in without the route")
	}
	ex = reportExchanges(old)
	if c := r.counts(tn, old["irn"].(string)); c.Reports != 0 || len(ex) != 1 || ex[0]["operation"] != "post_payment" || ex[0]["http_status"] != float64(404) {
		t.Fatalf("legacy: %d reports, exchanges %v", c.Reports, ex)
	}
}

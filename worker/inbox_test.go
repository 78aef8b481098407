package worker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"

	"github.com/einvoice-ng/einvoice/worker"
)

// startInboxWorker starts a worker running invoice workflows, inbox pulls
// and webhook deliveries, with a dispatcher; stop stops them.
func (r *rig) startInboxWorker() (stop func()) {
	r.t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Submissions: r.e.App.SubmissionSteps, Webhooks: r.e.App.Deliveries,
		Inbox: r.e.App.InboxSteps, TaskQueue: r.queue, Logger: quiet(),
		SubmissionMBS: workflows.SubmissionClients(egress.Policy{}, invoiceCallTimeout), SubmissionCallTimeout: invoiceCallTimeout})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		r.t.Fatal(err)
	}
	d, err := r.e.App.Dispatcher()
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, 20*time.Millisecond) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			w.Stop()
		})
	}
	r.t.Cleanup(stop)
	return stop
}

// graphql sends a GraphQL query with tn's user token and answers its data
// and errors.
func (r *rig) graphql(tn certtest.Tenant, query string, vars map[string]any) (map[string]any, []any) {
	r.t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	hr := httptest.NewRequest("POST", "/graphql", bytes.NewReader(b))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+tn.Token)
	rec := httptest.NewRecorder()
	rest.New(r.e.App, rest.Options{Version: "test", Logger: quiet(), GraphQL: graph.NewHandler(r.e.App, graph.Options{Logger: quiet()})}).ServeHTTP(rec, hr)
	var out struct {
		Data   map[string]any `json:"data"`
		Errors []any          `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		r.t.Fatalf("graphql: %d %s", rec.Code, rec.Body)
	}
	if out.Data == nil && out.Errors == nil {
		r.t.Fatalf("graphql: %d %s", rec.Code, rec.Body)
	}
	return out.Data, out.Errors
}

// tinOf reads the TIN NRS (the stand-in) holds for a tenant's business,
// through the tenant's own credentials.
func (r *rig) tinOf(tn certtest.Tenant) string {
	r.t.Helper()
	ctx := context.Background()
	creds, err := r.e.App.InboxSteps.Credentials(ctx, tn.Project.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	c, err := mbs.New(mbs.Config{BaseURL: creds.BaseURL, APIKey: creds.APIKey, APISecret: creds.APISecret})
	if err != nil {
		r.t.Fatal(err)
	}
	p, _, err := c.SearchEntities(ctx, mbs.EntityQuery{})
	if err != nil || len(p.Items) != 1 || p.Items[0].TIN == "" {
		r.t.Fatalf("entity: %+v %v", p, err)
	}
	return p.Items[0].TIN
}

// sellToBuyer submits a B2B invoice of seller's to buyer's business and
// waits until NRS confirmed it; it returns the IRN.
func (r *rig) sellToBuyer(seller certtest.Tenant, buyerTIN, ref string) string {
	r.t.Helper()
	body := submitBody(r.t, seller, model.InvoiceKindB2B, ref, func(doc map[string]any) {
		doc["accounting_customer_party"].(map[string]any)["tin"] = buyerTIN
	})
	code, inv, err := r.call("POST", "/api/v2/invoices", seller, body)
	if err != nil || code != 202 {
		r.t.Fatalf("submit: %d %v %v", code, inv, err)
	}
	done := r.waitInvoice(seller, inv["id"].(string), time.Minute, settled)
	if done["status"] != "confirmed" || done["transmitted_at"] == nil {
		r.t.Fatalf("seller's invoice: %v", done)
	}
	return done["irn"].(string)
}

// waitReceived polls the buyer's inbox until the IRN is there with its
// receipt confirmed.
func (r *rig) waitReceived(buyer certtest.Tenant, irn string) map[string]any {
	r.t.Helper()
	var got map[string]any
	waitFor(r.t, time.Minute, "the invoice in the buyer's inbox, confirmed", func() bool {
		code, m, err := r.call("GET", "/api/v2/received-invoices?irn="+irn, buyer, "")
		if err != nil || code != 200 {
			r.t.Fatalf("inbox: %d %v %v", code, m, err)
		}
		items := m["items"].([]any)
		if len(items) == 1 && items[0].(map[string]any)["confirmed"] == true {
			got = items[0].(map[string]any)
			return true
		}
		return false
	})
	return got
}

// Two sandbox projects of different organizations exchange a B2B invoice
// through the stand-in: the seller submits, the buyer's pull stores it
// once, confirms its receipt once (NRS counts one confirmation), and the
// buyer sees it on REST, GraphQL and its webhook; another tenant does not.
func TestInboxExchange(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { inboxExchange(t, d) })
	}
}

func inboxExchange(t *testing.T, d storetest.Dialect) {
	ctx := context.Background()
	r := newInvoiceHookRig(t, d)
	seller := r.e.Tenant
	buyer := r.e.NewTenant(t)
	rc := newReceiverIn(t, 19700, 19800)
	ep, err := r.e.App.Webhooks.Create(ctx, buyer.User, buyer.Project.ID, webhooks.EndpointInput{URL: rc.url, EventTypes: []string{"received_invoice.*"}})
	if err != nil {
		t.Fatal(err)
	}
	rc.secret.Store(ep.Secret)
	r.startInboxWorker()

	irn := r.sellToBuyer(seller, r.tinOf(buyer), "XCH1")
	code, m, err := r.call("POST", "/api/v2/received-invoices/pull", buyer, "")
	if err != nil || code != 202 || m["workflow_id"] == nil {
		t.Fatalf("pull: %d %v %v", code, m, err)
	}
	got := r.waitReceived(buyer, irn)
	if got["sealed"] != true || got["supplier_tin"] == "" || got["document"] != nil {
		t.Fatalf("listed: %v", got)
	}
	// A second pull finds nothing new and doubles nothing.
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/pull", buyer, ""); code != 202 {
		t.Fatalf("second pull: %d %v", code, m)
	}
	id := got["id"].(string)
	code, one, _ := r.call("GET", "/api/v2/received-invoices/"+id, buyer, "")
	if code != 200 || one["document"].(map[string]any)["irn"] != irn {
		t.Fatalf("get: %d %v", code, one)
	}
	pdf := r.raw("GET", "/api/v2/received-invoices/"+id+"/pdf", buyer, "", "", "")
	if pdf.Code != 200 || !strings.HasPrefix(pdf.Body.String(), "%PDF") {
		t.Fatalf("pdf: %d %.100s", pdf.Code, pdf.Body.String())
	}
	// The seller's key and another tenant's see nothing of the buyer's inbox.
	if code, m, _ := r.call("GET", "/api/v2/received-invoices/"+id, seller, ""); code != 404 {
		t.Fatalf("seller reads the buyer's inbox: %d %v", code, m)
	}
	if code, m, _ := r.call("GET", "/api/v2/received-invoices", seller, ""); code != 200 || len(m["items"].([]any)) != 0 {
		t.Fatalf("seller's inbox: %d %v", code, m)
	}
	// GraphQL: the same inbox for the buyer's members, not found for others.
	const q = `query($p: ID!, $id: ID!) {
		project(id: $p) { receivedInvoices(first: 10) { edges { node { id irn confirmed sealed } } } }
		receivedInvoice(projectId: $p, id: $id) { irn supplierTin document }
	}`
	vars := map[string]any{"p": buyer.Project.ID.String(), "id": id}
	data, errs := r.graphql(buyer, q, vars)
	if len(errs) != 0 || data["project"] == nil {
		t.Fatalf("graphql: %v %v", data, errs)
	}
	edges := data["project"].(map[string]any)["receivedInvoices"].(map[string]any)["edges"].([]any)
	node := edges[0].(map[string]any)["node"].(map[string]any)
	ri := data["receivedInvoice"].(map[string]any)
	if len(edges) != 1 || node["irn"] != irn || node["confirmed"] != true || ri["document"].(map[string]any)["irn"] != irn {
		t.Fatalf("graphql data: %v", data)
	}
	if data, errs := r.graphql(seller, `query($p: ID!, $id: ID!) { receivedInvoice(projectId: $p, id: $id) { irn } }`, vars); len(errs) == 0 || data != nil && data["receivedInvoice"] != nil {
		t.Fatalf("the seller reads the buyer's inbox on GraphQL: %v %v", data, errs)
	}
	// The decision is recorded (NRS-silent), with its event.
	code, dec, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"accepted","reason":"goods received"}`)
	if code != 200 || dec["decision"] != "accepted" {
		t.Fatalf("decide: %d %v", code, dec)
	}
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"maybe"}`); code != 422 {
		t.Fatalf("bad decision: %d %v", code, m)
	}

	inboxMutations(t, r, seller, buyer, id)

	c := r.counts(seller, irn)
	if c.Confirmations != 1 || c.ConfirmRepeats != 0 || c.Downloads != 1 || c.Transmits != 1 {
		t.Fatalf("NRS counts %+v", c)
	}
	// One row, one of each event, each delivered to the buyer's webhook.
	evs, _, err := r.e.Store.Events().List(ctx, buyer.Project.ID, store.EventFilter{}, model.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ev := range evs {
		if strings.HasPrefix(ev.Type, "received_invoice.") {
			types = append(types, ev.Type)
			waitFor(t, time.Minute, "delivery of "+ev.Type, func() bool { return rc.count(ev.ID.String()) >= 1 })
		}
	}
	if strings.Join(types, ",") != "received_invoice.accepted,received_invoice.rejected,received_invoice.accepted,received_invoice.confirmed,received_invoice.received" {
		t.Fatalf("events %v", types)
	}
}

// gqlError is the code and message of a GraphQL answer's only error.
func gqlError(t *testing.T, data map[string]any, errs []any, field string) (code, message string) {
	t.Helper()
	if len(errs) != 1 || data != nil && data[field] != nil {
		t.Fatalf("%s: want one error and no data: %v %v", field, data, errs)
	}
	e := errs[0].(map[string]any)
	ext, _ := e["extensions"].(map[string]any)
	code, _ = ext["code"].(string)
	message, _ = e["message"].(string)
	return code, message
}

// inboxMutations pulls and decides on the buyer's received invoice id on
// GraphQL as on REST: the same answers, the same validation, and another
// tenant's invoice or project not found, with the same message, on both.
func inboxMutations(t *testing.T, r *rig, seller, buyer certtest.Tenant, id string) {
	const pull = `mutation($p: ID!) { pullReceivedInvoices(projectId: $p) { workflowId } }`
	const decide = `mutation($p: ID!, $id: ID!, $d: String!, $why: String) {
		decideReceivedInvoice(projectId: $p, id: $id, decision: $d, reason: $why) { id irn decision decisionReason decidedAt }
	}`
	bp := buyer.Project.ID.String()
	code, m, _ := r.call("POST", "/api/v2/received-invoices/pull", buyer, "")
	data, errs := r.graphql(buyer, pull, map[string]any{"p": bp})
	if len(errs) != 0 || code != 202 || data["pullReceivedInvoices"].(map[string]any)["workflowId"] != m["workflow_id"] {
		t.Fatalf("pull: REST %d %v, GraphQL %v %v", code, m, data, errs)
	}
	data, errs = r.graphql(buyer, decide, map[string]any{"p": bp, "id": id, "d": "REJECTED", "why": "wrong quantity"})
	if len(errs) != 0 {
		t.Fatalf("decide on GraphQL: %v", errs)
	}
	dec := data["decideReceivedInvoice"].(map[string]any)
	if dec["id"] != id || dec["decision"] != "rejected" || dec["decisionReason"] != "wrong quantity" || dec["decidedAt"] == nil {
		t.Fatalf("decided on GraphQL: %v", dec)
	}
	code, one, _ := r.call("GET", "/api/v2/received-invoices/"+id, buyer, "")
	if code != 200 || one["decision"] != "rejected" || one["decision_reason"] != "wrong quantity" {
		t.Fatalf("the GraphQL decision read on REST: %d %v", code, one)
	}
	// The same decision again changes nothing (no event), on both.
	if _, errs := r.graphql(buyer, decide, map[string]any{"p": bp, "id": id, "d": "rejected", "why": "wrong quantity"}); len(errs) != 0 {
		t.Fatalf("the same decision again: %v", errs)
	}
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"rejected","reason":"wrong quantity"}`); code != 200 {
		t.Fatalf("the same decision again on REST: %d %v", code, m)
	}
	// Bad input: the same problem, under the body on REST and the argument on GraphQL.
	code, bad, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"maybe"}`)
	data, errs = r.graphql(buyer, decide, map[string]any{"p": bp, "id": id, "d": "maybe"})
	gcode, _ := gqlError(t, data, errs, "decideReceivedInvoice")
	restLoc, _ := json.Marshal(bad["detail"].([]any)[0].(map[string]any)["loc"])
	gqlLoc, _ := json.Marshal(errs[0].(map[string]any)["extensions"].(map[string]any)["detail"].([]any)[0].(map[string]any)["loc"])
	if code != 422 || gcode != "invalid" || string(restLoc) != `["body","decision"]` || string(gqlLoc) != `["decision"]` {
		t.Fatalf("bad decision: REST %d %v (%s), GraphQL %s (%s) %v", code, bad, restLoc, gcode, gqlLoc, errs)
	}
	long := strings.Repeat("x", 513)
	code, _, _ = r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"accepted","reason":"`+long+`"}`)
	data, errs = r.graphql(buyer, decide, map[string]any{"p": bp, "id": id, "d": "accepted", "why": long})
	if gcode, _ := gqlError(t, data, errs, "decideReceivedInvoice"); code != 422 || gcode != "invalid" {
		t.Fatalf("a reason of 513 characters: REST %d, GraphQL %s", code, gcode)
	}
	// Another tenant: the buyer's invoice through the seller's own project,
	// and the buyer's project itself, are not found, as on REST.
	sp := seller.Project.ID.String()
	code, rm, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", seller, `{"decision":"accepted"}`)
	data, errs = r.graphql(seller, decide, map[string]any{"p": sp, "id": id, "d": "accepted"})
	gcode, gmsg := gqlError(t, data, errs, "decideReceivedInvoice")
	if code != 404 || gcode != "not_found" || gmsg != rm["detail"] {
		t.Fatalf("another tenant's invoice: REST %d %v, GraphQL %s %q", code, rm, gcode, gmsg)
	}
	data, errs = r.graphql(seller, decide, map[string]any{"p": bp, "id": id, "d": "accepted"})
	if gcode, _ := gqlError(t, data, errs, "decideReceivedInvoice"); gcode != "not_found" {
		t.Fatalf("another tenant's project: %s %v", gcode, errs)
	}
	data, errs = r.graphql(seller, pull, map[string]any{"p": bp})
	if gcode, _ := gqlError(t, data, errs, "pullReceivedInvoices"); gcode != "not_found" {
		t.Fatalf("pulling another tenant's project: %s %v", gcode, errs)
	}
	// Nothing the refused calls sent changed the invoice.
	if _, one, _ := r.call("GET", "/api/v2/received-invoices/"+id, buyer, ""); one["decision"] != "rejected" || one["decision_reason"] != "wrong quantity" {
		t.Fatalf("after the refused calls: %v", one)
	}
	// Back to accepted on REST, for the events below.
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/"+id+"/decision", buyer, `{"decision":"accepted","reason":"goods received"}`); code != 200 {
		t.Fatalf("accept again: %d %v", code, m)
	}
}

// A pull that dies mid-way (its worker stopped and its workflow gone after
// an invoice was stored, while NRS refused its confirmation) and runs
// again stores nothing twice and confirms nothing twice; a lost confirm
// answer is settled without a second confirmation, and a download failing
// once is retried.
func TestInboxPullDiesMidway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newInvoiceHookRig(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	seller := r.e.Tenant
	buyer := r.e.NewTenant(t)
	stop := r.startInboxWorker()
	tin := r.tinOf(buyer)
	first := r.sellToBuyer(seller, tin, "MID7")
	lost := r.sellToBuyer(seller, tin, nrssandbox.ScenarioLostConfirm+"7")
	flaky := r.sellToBuyer(seller, tin, nrssandbox.ScenarioDownloadFailOnce+"7")

	// NRS refuses the buyer's confirmations for now.
	buyerBiz := *buyer.Project.Authority.BusinessID
	if _, err := r.e.Sandbox.SetSandboxFault(ctx, buyerBiz, nrssandbox.Fault{Kind: nrssandbox.FaultOutage,
		Endpoint: string(mbs.OpConfirmReceipt), Duration: "1h"}); err != nil {
		t.Fatal(err)
	}
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/pull", buyer, ""); code != 202 {
		t.Fatalf("pull: %d %v", code, m)
	}
	waitFor(t, time.Minute, "the first invoice stored", func() bool {
		has, err := r.e.App.InboxSteps.Has(ctx, buyer.Project.ID, first)
		return err == nil && has
	})
	// Kill the pull mid-way.
	stop()
	if err := r.c.TerminateWorkflow(ctx, workflows.InboxWorkflowID(buyer.Project.ID), "", "killed mid-pull"); err != nil {
		t.Fatal(err)
	}
	if code, m, _ := r.call("GET", "/api/v2/received-invoices?confirmed=false", buyer, ""); code != 200 || len(m["items"].([]any)) != 1 {
		t.Fatalf("after the kill: %d %v", code, m)
	}
	if _, err := r.e.Sandbox.ClearSandboxFaults(ctx, buyerBiz, "", ""); err != nil {
		t.Fatal(err)
	}
	r.startInboxWorker()
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/pull", buyer, ""); code != 202 {
		t.Fatalf("pull again: %d %v", code, m)
	}
	for _, irn := range []string{first, lost, flaky} {
		r.waitReceived(buyer, irn)
	}
	// Later pulls change nothing.
	if code, m, _ := r.call("POST", "/api/v2/received-invoices/pull", buyer, ""); code != 202 {
		t.Fatalf("pull a third time: %d %v", code, m)
	}
	waitFor(t, time.Minute, "the third pull done", func() bool {
		d, err := r.c.DescribeWorkflowExecution(ctx, workflows.InboxWorkflowID(buyer.Project.ID), "")
		return err == nil && d.WorkflowExecutionInfo.GetCloseTime() != nil
	})
	code, m, _ := r.call("GET", "/api/v2/received-invoices?limit=10", buyer, "")
	if code != 200 || len(m["items"].([]any)) != 3 {
		t.Fatalf("inbox: %d %v", code, m)
	}
	for _, irn := range []string{first, lost, flaky} {
		c := r.counts(seller, irn)
		if c.Confirmations != 1 || c.ConfirmRepeats != 0 {
			t.Errorf("%s: NRS counts %+v", irn, c)
		}
	}
	if c := r.counts(seller, first); c.Downloads != 1 {
		t.Errorf("the stored invoice was downloaded again: %+v", c)
	}
	if c := r.counts(seller, flaky); c.Downloads != 2 {
		t.Errorf("the download failing once: %+v", c)
	}
	evs, _, err := r.e.Store.Events().List(ctx, buyer.Project.ID, store.EventFilter{}, model.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, ev := range evs {
		n[ev.Type]++
	}
	if n[model.EventReceivedInvoiceReceived] != 3 || n[model.EventReceivedInvoiceConfirmed] != 3 {
		t.Fatalf("events %v", n)
	}
}

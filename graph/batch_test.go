package graph_test

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
)

const batchFields = `id projectId itemCount counts { status count }
  items { index status invoiceId irn problems { loc msg type } error { code detail } }`

const submitBatchMutation = `mutation($p: ID!, $inv: [SubmitInvoiceInput!]!) { submitInvoiceBatch(projectId: $p, invoices: $inv) { ` + batchFields + ` } }`

type batchNode struct {
	ID, ProjectID string
	ItemCount     int
	Counts        []struct {
		Status string
		Count  int
	}
	Items []struct {
		Index     int
		Status    string
		InvoiceID *string
		IRN       *string
		Problems  []struct {
			Loc       []any
			Msg, Type string
		}
		Error *struct{ Code, Detail string }
	}
}

func (b batchNode) count(status string) int {
	for _, c := range b.Counts {
		if c.Status == status {
			return c.Count
		}
	}
	return -1
}

// TestInvoiceBatchGraphQL submits a batch through submitInvoiceBatch
// (workflows started on a queue no worker serves: the invoices stay
// queued) and reads it back through invoiceBatch, with the same checks as
// REST: bounds, item problems, another project's id, tenant isolation.
func TestInvoiceBatchGraphQL(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		rig := newTemporalRig(t)
		s := newCertServer(t, d, rig.runs)
		a, b := s.tenant("batcha"), s.tenant("batchb")
		var pr struct {
			Project struct{ Authority struct{ BusinessID string } }
		}
		s.must(a.Token, `query($id: ID!) { project(id: $id) { authority { businessId } } }`, map[string]any{"id": a.ProjectID}, &pr)
		doc, err := workflows.SamplePayload(model.InvoiceKindB2B, pr.Project.Authority.BusinessID, "2026-03-15")
		if err != nil {
			t.Fatal(err)
		}
		item := func(project, ref string) map[string]any {
			return map[string]any{"projectId": project, "invoiceType": "b2b", "invoiceReference": ref, "payload": doc}
		}

		// More than 100 invoices, or none: invalid, nothing stored.
		many := make([]any, model.MaxBatchItems+1)
		for i := range many {
			many[i] = item(a.ProjectID, "GQL1")
		}
		for _, inv := range [][]any{many, {}} {
			if locs := s.do(a.Token, submitBatchMutation, map[string]any{"p": a.ProjectID, "inv": inv}).locs(t); len(locs) != 1 || locs[0] != "value_error@invoices" {
				t.Fatalf("%d invoices: %v", len(inv), locs)
			}
		}
		// Another tenant's project is not found, and names nothing of it.
		r := s.do(a.Token, submitBatchMutation, map[string]any{"p": b.ProjectID, "inv": []any{item(b.ProjectID, "GQL1")}})
		if r.code(t) != "not_found" || strings.Contains(string(r.Raw), b.ProjectID) {
			t.Fatalf("another tenant's project: %s", r.Raw)
		}

		var out struct{ SubmitInvoiceBatch batchNode }
		s.must(a.Token, submitBatchMutation, map[string]any{"p": a.ProjectID, "inv": []any{
			item(a.ProjectID, "GQL1"),
			item(b.ProjectID, "GQL2"), // another project than the batch's
			map[string]any{"projectId": a.ProjectID, "invoiceType": "B2X", "payload": doc},
			item(a.ProjectID, "GQL3"),
		}}, &out)
		got := out.SubmitInvoiceBatch
		if got.ItemCount != 4 || len(got.Items) != 4 || got.count("accepted") != 2 || got.count("invalid") != 2 {
			t.Fatalf("batch: %+v", got)
		}
		for i, want := range []string{"accepted", "invalid", "invalid", "accepted"} {
			it := got.Items[i]
			if it.Index != i || it.Status != want || (want == "accepted") != (it.InvoiceID != nil) {
				t.Fatalf("item %d: %+v", i, it)
			}
		}
		if p := got.Items[1].Problems; len(p) != 1 || p[0].Loc[0] != "projectId" {
			t.Fatalf("item 1's problems: %+v", p)
		}
		if p := got.Items[2].Problems; len(p) == 0 || p[0].Loc[0] != "invoice_type" || p[0].Type != "enum" {
			t.Fatalf("item 2's problems: %+v", p)
		}

		// Read back: each accepted invoice as it stands (queued: no
		// worker serves this queue); another tenant's user finds nothing.
		const readBatch = `query($id: ID!) { invoiceBatch(id: $id) { ` + batchFields + ` } }`
		var read struct{ InvoiceBatch batchNode }
		s.must(a.Token, readBatch, map[string]any{"id": got.ID}, &read)
		if rb := read.InvoiceBatch; rb.ID != got.ID || rb.count("queued") != 2 || rb.count("invalid") != 2 || rb.Items[0].Status != "queued" ||
			*rb.Items[3].InvoiceID != *got.Items[3].InvoiceID {
			t.Fatalf("read back: %+v", rb)
		}
		if r := s.do(b.Token, readBatch, map[string]any{"id": got.ID}); r.code(t) != "not_found" {
			t.Fatalf("another tenant reads the batch: %s", r.Raw)
		}
		// The accepted invoice is an invoice like any other.
		var inv struct{ Invoice struct{ Status string } }
		s.must(a.Token, `query($id: ID!) { invoice(id: $id) { status } }`, map[string]any{"id": *got.Items[0].InvoiceID}, &inv)
		if inv.Invoice.Status != "QUEUED" {
			t.Fatalf("the accepted invoice: %+v", inv)
		}
	})
}

package worker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackInvoiceWorkflowIDs: invoices' workflow ids carried the IRN in
// clear (invoice-<project>-<IRN>), readable in Temporal's lists, Web UI
// and database by anyone who could read Temporal, unlike everything else
// in its histories. The id is now keyed: an invoice is cleared under it,
// and no workflow of the project names the IRN.
func TestAttackInvoiceWorkflowIDs(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, "WFID1", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	irn := m["irn"].(string)
	if inv := r.waitInvoice(tn, m["id"].(string), time.Minute, settled); inv["status"] != "confirmed" {
		t.Fatalf("invoice ended %v", inv)
	}
	q := fmt.Sprintf("ProjectId = '%s'", tn.Project.ID)
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := r.c.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Namespace: temporalNamespace, Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if ex := resp.GetExecutions(); len(ex) > 0 {
			for _, e := range ex {
				id := e.GetExecution().GetWorkflowId()
				if strings.Contains(id, irn) || strings.Contains(id, strings.Split(irn, "-")[0]) {
					t.Fatalf("workflow id %q names the IRN %s", id, irn)
				}
				if !strings.HasPrefix(id, "invoice-"+tn.Project.ID.String()+"-") {
					t.Fatalf("workflow id %q", id)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no workflow of the project listed by %q", q)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

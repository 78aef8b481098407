package worker_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

var updateHistories = flag.Bool("update", false, "record testdata/histories again from the runs of TestCertificationHistories and TestInvoiceQueueHistories")

// TestCertificationHistories runs a certification run of every invoice kind
// through REST on the in-process Temporal server, its payloads encrypted
// under certtest.HistoryKey as every einvoice client encrypts them, and
// replays each run's history with the workflow as built now. With -update
// it records the histories in testdata/histories, which workflows'
// TestReplayRecordedHistories replays in every later build.
func TestCertificationHistories(t *testing.T) {
	t.Parallel()
	r := newCodecRig(t, certtest.Options{Open: storetest.SQLite})
	c := r.c
	r.startWorker()
	ids := map[string]string{}
	for _, kind := range certtest.HistoryKinds {
		ids[string(kind)] = r.start(`{"invoice_type":"` + string(kind) + `","issue_date":"2026-03-15"}`)
	}
	for _, kind := range certtest.HistoryKinds {
		t.Run(string(kind), func(t *testing.T) {
			run := r.wait(ids[string(kind)], time.Minute, final)
			if run["status"] != "passed" {
				t.Fatalf("run did not pass: %v", run)
			}
			h := history(t, c, ids[string(kind)])
			if err := certtest.Replay(h, certtest.HistoryKey, sdklog.NewStructuredLogger(quiet())); err != nil {
				t.Fatalf("the run's own history does not replay: %v", err)
			}
			if *updateHistories {
				if err := certtest.WriteHistory(certtest.HistoryFile(kind), h); err != nil {
					t.Fatal(err)
				}
				t.Logf("recorded %d events in %s", len(h.GetEvents()), certtest.HistoryFile(kind))
			}
		})
	}
}

// newCodecRig is newRig with a client that encrypts payloads under
// certtest.HistoryKey, as every einvoice client encrypts them under its
// own key, so that its histories can be recorded for the replay test.
func newCodecRig(t *testing.T, opts certtest.Options) *rig {
	t.Helper()
	codec, err := workflows.NewPayloadCodec(certtest.HistoryKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(workflows.ClientOptions(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())}, codec))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), queues.Add(1))
	opts.Runs = workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue})
	return &rig{t: t, c: c, queue: queue, e: certtest.New(t, opts)}
}

// history reads the whole history of a run's workflow as the server keeps
// it (payloads encrypted).
func history(t *testing.T, c client.Client, runID string) *historypb.History {
	t.Helper()
	return historyOf(t, c, workflows.WorkflowID(uuid.MustParse(runID)))
}

// historyOf reads the whole history of the last execution of a workflow id
// as the server keeps it.
func historyOf(t *testing.T, c client.Client, workflowID string) *historypb.History {
	t.Helper()
	h := new(historypb.History)
	it := c.GetWorkflowHistory(context.Background(), workflowID, "", false, 0)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// TestInvoiceQueueHistories submits an invoice through REST during an
// outage of the stand-in, on the in-process Temporal server, its payloads
// encrypted under certtest.HistoryKey: the invoice waits in its project's
// queue (having woken the drain, version invoice-queue-wake), the drain
// (version invoice-queue-release) probes until the outage ends and
// releases it, and the invoice is confirmed. Both histories replay with
// the workflows as built now; with -update they are recorded in
// testdata/histories (certtest.QueueHistoryFiles), which workflows'
// TestReplayRecordedHistories replays in every later build.
func TestInvoiceQueueHistories(t *testing.T) {
	r := newCodecRig(t, certtest.Options{Open: storetest.SQLite, LateDelay: 3 * time.Second, Sandbox: func(o *nrssandbox.Options) {
		o.BusinessRate = nrssandbox.RateLimit{Count: -1}
		o.MaxConcurrent = -1
	}})
	registerAttrs.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := workflows.RegisterSearchAttributes(ctx, r.c, temporalNamespace, workflows.SearchAttributes()...); err != nil {
			t.Fatal(err)
		}
	})
	// MaxProbeWait is package-level: the test does not call t.Parallel.
	prevProbe := workflows.MaxProbeWait
	workflows.MaxProbeWait = 200 * time.Millisecond
	t.Cleanup(func() { workflows.MaxProbeWait = prevProbe })
	r.startInvoiceWorker()
	tn := r.e.Tenant
	ctx := context.Background()
	biz := *tn.Project.Authority.BusinessID
	if _, err := r.e.Sandbox.SetSandboxFault(ctx, biz, nrssandbox.Fault{Kind: model.SandboxFaultOutage, Duration: "1h", RetryAfter: 1}); err != nil {
		t.Fatal(err)
	}
	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, "HIST0001", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	id, irn := m["id"].(string), m["irn"].(string)

	// The invoice found NRS not answering and woke its project's drain,
	// which probes it; the outage then ends.
	drainID := workflows.QueueDrainID(tn.Project.ID)
	for deadline := time.Now().Add(time.Minute); ; {
		if _, err := r.c.DescribeWorkflowExecution(ctx, drainID, ""); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queued invoice did not start its project's drain within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // a few probes in the outage
	if cleared, err := r.e.Sandbox.ClearSandboxFaults(ctx, biz, model.SandboxFaultOutage, ""); err != nil || cleared != 1 {
		t.Fatalf("ending the outage: %d %v", cleared, err)
	}
	if inv := r.waitInvoice(tn, id, 2*time.Minute, settled); inv["status"] != "confirmed" {
		t.Fatalf("invoice ended %v", inv)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	// The invoice's workflow ends once its invoice is confirmed: a
	// workflow that went back to the queue after the confirmation would
	// wait there until its fallback timer, and again after it.
	var res workflows.InvoiceResult
	if err := r.c.GetWorkflow(wctx, submissions.WorkflowID(app.WorkflowKey(apptest.AuditKey), tn.Project.ID, irn), "").Get(wctx, &res); err != nil || res.Status != model.InvoiceConfirmed {
		t.Fatalf("the invoice's workflow did not end confirmed within a minute of the confirmation: %+v %v", res, err)
	}
	if err := r.c.GetWorkflow(wctx, drainID, "").Get(wctx, nil); err != nil {
		t.Fatalf("the drain did not end once its queue was empty: %v", err)
	}

	invoiceFile, drainFile := certtest.QueueHistoryFiles()
	for _, tc := range []struct {
		name, workflowID, file, marker string
	}{
		{"invoice", submissions.WorkflowID(app.WorkflowKey(apptest.AuditKey), tn.Project.ID, irn), invoiceFile, "invoice-queue-wake"},
		{"drain", drainID, drainFile, "invoice-queue-release"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := historyOf(t, r.c, tc.workflowID)
			markers, err := certtest.VersionMarkers(h, certtest.HistoryKey)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(markers, tc.marker) {
				t.Fatalf("the history records the version markers %v, not %s: it did not take the queue's path", markers, tc.marker)
			}
			if err := certtest.Replay(h, certtest.HistoryKey, sdklog.NewStructuredLogger(quiet())); err != nil {
				t.Fatalf("the workflow's own history does not replay: %v", err)
			}
			if *updateHistories {
				if err := certtest.WriteHistory(tc.file, h); err != nil {
					t.Fatal(err)
				}
				t.Logf("recorded %d events in %s", len(h.GetEvents()), tc.file)
			}
		})
	}
}

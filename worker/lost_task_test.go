package worker_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// lostTask loses one workflow task of the invoice workflows: the first
// that goes on to wake the queue's drain, that is the task in which a
// validation sent its invoice back to the queue. The task fails (a panic
// of the workflow, as a task that timed out on a loaded worker), so that
// the validation's answer is never recorded and its next attempt replays
// the history and runs the validation again. Every validation of IRN runs
// in a task of its own, after a timer, so that BeginInvoice's answer is
// recorded before it (as when a slow validation makes the worker
// heartbeat its task).
type lostTask struct {
	interceptor.WorkerInterceptorBase
	lost atomic.Bool
}

func (l *lostTask) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	i := &lostTaskInbound{root: l}
	i.Next = next
	return i
}

type lostTaskInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	root *lostTask
}

func (i *lostTaskInbound) Init(out interceptor.WorkflowOutboundInterceptor) error {
	o := &lostTaskOutbound{root: i.root}
	o.Next = out
	return i.Next.Init(o)
}

type lostTaskOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	root *lostTask
}

func (o *lostTaskOutbound) ExecuteLocalActivity(ctx workflow.Context, name string, args ...any) workflow.Future {
	switch name {
	case workflows.ActivityValidateInvoiceIRN:
		_ = o.Next.Sleep(ctx, time.Millisecond)
	case workflows.ActivityWakeQueue:
		if !o.Next.IsReplaying(ctx) && o.root.lost.CompareAndSwap(false, true) {
			panic("the workflow task is lost")
		}
	}
	return o.Next.ExecuteLocalActivity(ctx, name, args...)
}

// stallFirst makes the first irn/validate call wait past the client's
// timeout: its answer never arrives.
type stallFirst struct{ stalled atomic.Bool }

func (s *stallFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/invoice/irn/validate") && s.stalled.CompareAndSwap(false, true) {
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestInvoiceQueuedStepRunAgain: a validation whose call times out sends
// its invoice back to the queue, and the workflow task that took its
// answer is lost, so that the validation runs again on the queued
// invoice. The invoice still waits for its release and is confirmed,
// signed once; it is never signed while queued (which would leave it
// queued for good: a queued invoice cannot become signed).
func TestInvoiceQueuedStepRunAgain(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	tn := r.e.Tenant
	tr := &stallFirst{}
	build := func(c *authority.Credentials) (*mbs.Client, error) {
		return mbs.New(mbs.Config{BaseURL: c.BaseURL, APIKey: c.APIKey, APISecret: c.APISecret,
			HTTPClient: &http.Client{Transport: tr}, Timeout: invoiceCallTimeout, UserAgent: "einvoice-test",
			Retry: mbs.RetryPolicy{MaxAttempts: 1}, Environment: string(c.Environment)})
	}
	acts, err := workflows.NewInvoiceActivities(workflows.InvoiceActivitiesConfig{Steps: r.e.App.SubmissionSteps,
		MBS: build, CallTimeout: invoiceCallTimeout, Logger: quiet(), Queue: r.c, QueueTaskQueue: r.queue})
	if err != nil {
		t.Fatal(err)
	}
	lost := &lostTask{}
	w := sdkworker.New(r.c, r.queue, sdkworker.Options{Interceptors: []interceptor.WorkerInterceptor{lost}})
	w.RegisterWorkflowWithOptions(workflows.InvoiceSubmission, workflow.RegisterOptions{Name: workflows.InvoiceWorkflowName})
	w.RegisterWorkflowWithOptions(workflows.InvoiceQueueDrain, workflow.RegisterOptions{Name: workflows.QueueDrainWorkflowName})
	w.RegisterActivity(acts)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)

	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, "LOSTTASK1", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	id, irn := m["id"].(string), m["irn"].(string)
	inv := r.waitInvoice(tn, id, 2*time.Minute, settled)
	if inv["status"] != "confirmed" {
		t.Fatalf("invoice: %v", inv)
	}
	if !tr.stalled.Load() || !lost.lost.Load() {
		t.Fatalf("the validation did not time out (%v) or no workflow task was lost (%v)", tr.stalled.Load(), lost.lost.Load())
	}
	if c := r.counts(tn, irn); c.Signs != 1 || c.SignRepeats != 0 || c.Transmits != 1 || c.TransmitRepeats != 0 {
		t.Fatalf("sent %+v", c)
	}
	// The validation sent the invoice back to the queue (others may have
	// timed out too on a loaded machine), and the lost task shows in the
	// workflow's history.
	back := 0
	for _, e := range r.events(tn, id) {
		if e["from_status"] == "submitting" && e["to_status"] == "queued" {
			back++
		}
	}
	if back == 0 {
		t.Fatal("the invoice never went back to the queue")
	}
	lostTasks := 0
	it := r.c.GetWorkflowHistory(context.Background(), submissions.WorkflowID(app.WorkflowKey(apptest.AuditKey), tn.Project.ID, irn), "", false, 0)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if f := e.GetWorkflowTaskFailedEventAttributes(); f != nil && f.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE &&
			strings.Contains(f.GetFailure().GetMessage(), "the workflow task is lost") {
			lostTasks++
		}
	}
	if lostTasks != 1 {
		t.Fatalf("%d workflow tasks lost, want 1", lostTasks)
	}
}

// TestInvoiceStepsOfAQueuedInvoiceWait runs every step of an invoice that
// a validation sent back to the queue, as steps run again after a lost
// workflow task do: each answers Waiting and none sends anything to NRS.
func TestInvoiceStepsOfAQueuedInvoiceWait(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	tn := r.e.Tenant
	tr := &stallFirst{}
	acts, err := workflows.NewInvoiceActivities(workflows.InvoiceActivitiesConfig{Steps: r.e.App.SubmissionSteps,
		MBS: func(c *authority.Credentials) (*mbs.Client, error) {
			return mbs.New(mbs.Config{BaseURL: c.BaseURL, APIKey: c.APIKey, APISecret: c.APISecret,
				HTTPClient: &http.Client{Transport: tr}, Timeout: invoiceCallTimeout, UserAgent: "einvoice-test",
				Retry: mbs.RetryPolicy{MaxAttempts: 1}, Environment: string(c.Environment)})
		}, CallTimeout: invoiceCallTimeout, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(quiet()))
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	// No worker polls the rig's queue: the invoice's workflow never runs,
	// its steps are run here.
	code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, "QSTEPS1", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, m, err)
	}
	step := workflows.InvoiceStep{ProjectID: tn.Project.ID, IRN: m["irn"].(string)}
	run := func(fn any) workflows.InvoiceStepResult {
		t.Helper()
		v, err := env.ExecuteActivity(fn, step)
		if err != nil {
			t.Fatalf("%T: %v", fn, err)
		}
		var out workflows.InvoiceStepResult
		if err := v.Get(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := run(acts.BeginInvoice); out.Status != model.InvoiceSubmitting || out.Waiting {
		t.Fatalf("begin: %+v", out)
	}
	step.InvoiceID = uuid.MustParse(m["id"].(string))
	if out := run(acts.ValidateInvoiceIRN); out.Status != model.InvoiceQueued || !out.Waiting || !tr.stalled.Load() {
		t.Fatalf("validation timed out: %+v", out)
	}
	for name, fn := range map[string]any{"validate IRN": acts.ValidateInvoiceIRN, "validate payload": acts.ValidateInvoicePayload,
		"sign": acts.SignSubmitted, "transmit": acts.TransmitSubmitted} {
		if out := run(fn); out.Status != model.InvoiceQueued || !out.Waiting {
			t.Fatalf("%s run again on the queued invoice: %+v", name, out)
		}
	}
	if c := r.counts(tn, step.IRN); c.Signs != 0 || c.Transmits != 0 {
		t.Fatalf("sent %+v", c)
	}
	inv, err := r.e.App.SubmissionSteps.Invoice(context.Background(), step.InvoiceID)
	if err != nil || inv.Status != model.InvoiceQueued || inv.SignSent != 0 || inv.TransmitSent != 0 {
		t.Fatalf("invoice %+v %v", inv, err)
	}
	// Released, it begins again and is sent.
	if out := run(acts.BeginInvoice); out.Status != model.InvoiceSubmitting || out.Waiting {
		t.Fatalf("begin again: %+v", out)
	}
	for _, fn := range []any{acts.ValidateInvoiceIRN, acts.ValidateInvoicePayload, acts.SignSubmitted} {
		if out := run(fn); out.Waiting || out.Status == model.InvoiceQueued {
			t.Fatalf("%T after the release: %+v", fn, out)
		}
	}
	if c := r.counts(tn, step.IRN); c.Signs != 1 {
		t.Fatalf("sent %+v after the release", c)
	}
}

package workflows

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/workflows/mbs"
)

// The queue.
//
// An invoice that cannot be sent because NRS does not answer (the circuit
// breaker of a first endpoint is open, a 429 holds calls back, or a
// validation found no answer) stays queued, or goes back to queued when
// nothing was signed yet. Its workflow then makes sure its project's
// drain (QueueDrainWorkflowName, workflow id QueueDrainID) runs and waits,
// durably, for the drain's release signal (ReleaseSignal), at most the
// fallback wait, before it begins again.
//
// The drain probes NRS with one read-only call (irn/validate of the queued
// invoice with the earliest deadline), through the breakers, so that while
// a breaker is open nothing but its probes is sent. Once NRS answers, it
// releases the queued invoices in deadline order, at most the project's
// rate a minute (a tick a second), and goes back to probing whenever an
// invoice comes back to the queue or a breaker opens. It flags the
// deadlines (at risk, missed) on every pass, and ends when the queue is
// empty. It continues as new every drainPasses passes to bound its history.

// Names of the queue's workflow, signal and activities.
const (
	QueueDrainWorkflowName = "InvoiceQueueDrain"
	ReleaseSignal          = "invoice-release"
	ActivityProbeQueue     = "ProbeInvoiceQueue"
	ActivityNextQueued     = "NextQueuedInvoices"
)

// QueueDrainID is the workflow id of a project's drain.
func QueueDrainID(projectID uuid.UUID) string { return "invoice-queue-" + projectID.String() }

// DrainInput is the drain's state, carried across ContinueAsNew.
type DrainInput struct {
	ProjectID     uuid.UUID  `json:"project_id"`
	AfterDeadline *time.Time `json:"after_deadline,omitempty"`
	AfterID       uuid.UUID  `json:"after_id"`
	// Answering says NRS answered the last probe.
	Answering bool `json:"answering"`
}

// ProbeResult is what a probe of NRS found.
type ProbeResult struct {
	Depth    int           `json:"depth"`
	Answered bool          `json:"answered"`
	Wait     time.Duration `json:"wait"`
	Rate     int           `json:"rate"`
}

// drainTick is how often the drain releases a share of its rate.
const drainTick = time.Second

// drainPasses bounds the passes of one run of the drain.
const drainPasses = 500

// MaxProbeWait bounds the wait between the drain's probes (a variable for
// tests, whose breakers run on a controlled clock).
var MaxProbeWait = time.Minute

// FallbackWait is the longest a waiting invoice waits for a release
// before trying again on its own (a drain that ended as it began to
// wait); a variable for tests.
var FallbackWait = 10 * time.Minute

var drainActivityOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
	},
}

// InvoiceQueueDrain sends a project's queued invoices once NRS answers,
// earliest deadline first, at the project's pace.
func InvoiceQueueDrain(ctx workflow.Context, in DrainInput) error {
	ctx = workflow.WithLocalActivityOptions(ctx, drainActivityOptions)
	for pass := 0; pass < drainPasses; pass++ {
		if !in.Answering {
			var pr ProbeResult
			if err := workflow.ExecuteLocalActivity(ctx, ActivityProbeQueue, in.ProjectID).Get(ctx, &pr); err != nil {
				return err
			}
			if pr.Depth == 0 {
				return nil
			}
			if !pr.Answered {
				if err := workflow.Sleep(ctx, min(max(pr.Wait, drainTick), MaxProbeWait)); err != nil {
					return err
				}
				continue
			}
			in.Answering, in.AfterDeadline, in.AfterID = true, nil, uuid.Nil
		}
		var b NextQueuedResult
		if err := workflow.ExecuteLocalActivity(ctx, ActivityNextQueued, in).Get(ctx, &b); err != nil {
			return err
		}
		if b.Depth == 0 {
			return nil
		}
		if b.Hold {
			in.Answering = false
			continue
		}
		if len(b.IRNs) == 0 {
			// Past the end: start again from the earliest deadline
			// (invoices that came back, or arrived with an earlier one).
			in.AfterDeadline, in.AfterID = nil, uuid.Nil
		} else {
			in.AfterDeadline, in.AfterID = b.AfterDeadline, b.AfterID
		}
		for _, irn := range b.IRNs {
			// A signal to an invoice that finished fails; nothing to do.
			_ = workflow.SignalExternalWorkflow(ctx, submissions.WorkflowID(in.ProjectID, irn), "", ReleaseSignal, nil).Get(ctx, nil)
		}
		if err := workflow.Sleep(ctx, drainTick); err != nil {
			return err
		}
	}
	return workflow.NewContinueAsNewError(ctx, QueueDrainWorkflowName, in)
}

// NextQueuedResult is the drain's next release.
type NextQueuedResult struct {
	submissions.QueuedBatch
	// Hold says NRS stopped answering (a breaker of the first endpoints
	// opened): probe again before releasing more.
	Hold bool `json:"hold"`
}

// ProbeInvoiceQueue flags the project's deadlines and probes NRS with a
// read-only call for the queued invoice with the earliest deadline.
func (a *InvoiceActivities) ProbeInvoiceQueue(ctx context.Context, projectID uuid.UUID) (ProbeResult, error) {
	out := ProbeResult{Rate: a.steps.RatePerMinute()}
	if _, err := a.steps.FlagDeadlines(ctx, projectID); err != nil {
		return out, a.fail(ctx, err)
	}
	first, err := a.steps.EarliestQueued(ctx, projectID)
	if model.ErrorCodeOf(err) == model.CodeNotFound {
		return out, nil
	}
	if err != nil {
		return out, a.fail(ctx, err)
	}
	out.Depth = 1
	cl, err := a.open(ctx, InvoiceStep{ProjectID: projectID, IRN: first.IRN, InvoiceID: first.ID})
	if err != nil {
		return out, a.fail(ctx, err)
	}
	var ack mbs.Ack
	var c mbs.Call
	p, perr := nrs.ParseIRN(cl.inv.IRN)
	if perr != nil {
		// Not an IRN NRS can be asked about: release, its own step rejects it.
		out.Answered = true
		return out, nil
	}
	ack, c, err = cl.c.ValidateIRN(ctx, mbs.ValidateIRNRequest{InvoiceReference: p.InvoiceReference, BusinessID: cl.creds.BusinessID, IRN: cl.inv.IRN})
	_ = ack
	var me *mbs.Error
	switch {
	case err == nil, refused(err):
		out.Answered = true
	case errors.As(err, &me):
		out.Wait = waitFor(err)
	default:
		out.Wait = 5 * time.Second
	}
	if c.Operation != "" {
		if _, rerr := a.steps.Record(ctx, cl.inv.ID, cl.exchange(ctx, c, nil, ack.Data, err), "", submissions.Detail{}); rerr != nil {
			return out, a.fail(ctx, rerr)
		}
	}
	return out, nil
}

// NextQueuedInvoices flags the project's deadlines and reads the next
// share of its queue to release (its rate for one tick), unless a breaker
// of the first endpoints opened again.
func (a *InvoiceActivities) NextQueuedInvoices(ctx context.Context, in DrainInput) (NextQueuedResult, error) {
	if _, err := a.steps.FlagDeadlines(ctx, in.ProjectID); err != nil {
		return NextQueuedResult{}, a.fail(ctx, err)
	}
	per := max(1, int((int64(a.steps.RatePerMinute())*int64(drainTick)+int64(time.Minute)-1)/int64(time.Minute)))
	b, err := a.steps.NextQueued(ctx, in.ProjectID, in.AfterDeadline, in.AfterID, per)
	if err != nil {
		return NextQueuedResult{}, a.fail(ctx, err)
	}
	out := NextQueuedResult{QueuedBatch: *b}
	if b.Depth > 0 && a.breakers != nil {
		if first, err := a.steps.EarliestQueued(ctx, in.ProjectID); err == nil && a.holdFor(first.Environment) > 0 {
			out.Hold, out.IRNs = true, nil
		}
	}
	return out, nil
}

// waitInQueue makes sure the project's drain runs and waits for its
// release, at most FallbackWait.
func waitInQueue(ctx workflow.Context, projectID uuid.UUID, release workflow.ReceiveChannel) {
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            QueueDrainID(projectID),
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	})
	child := workflow.ExecuteChildWorkflow(cctx, QueueDrainWorkflowName, DrainInput{ProjectID: projectID})
	// Started, or already running: either way the drain runs.
	_ = child.GetChildWorkflowExecution().Get(ctx, nil)
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	timer := workflow.NewTimer(tctx, FallbackWait)
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(release, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
	sel.AddFuture(timer, func(workflow.Future) {})
	sel.Select(ctx)
}

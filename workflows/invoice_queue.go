package workflows

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// The queue.
//
// An invoice that cannot be sent because NRS does not answer (the circuit
// breaker of a first endpoint is open, a 429 holds calls back, or a
// validation found no answer) stays queued, or goes back to queued when
// nothing was signed yet. Its workflow then makes sure its project's
// drain (QueueDrainWorkflowName, workflow id QueueDrainID) runs and waits,
// durably, for the drain's release signal (ReleaseSignal), at most the
// fallback wait, before it begins again. It wakes the drain with one
// signal-with-start (WakeSignal; a local activity, WakeQueueDrain): the
// Temporal server starts the drain when none runs, else signals it, and
// refuses to let a drain end while a signal it has not seen is pending.
// A drain that found its queue empty checks for wakes before it ends and
// reads the queue again, so an invoice that begins to wait as its
// project's drain ends is not left to the fallback wait.
//
// The drain probes NRS with one read-only call (irn/validate of the queued
// invoice with the earliest deadline), through the breakers, so that while
// a breaker is open nothing but its probes is sent. Once NRS answers, it
// releases the queued invoices in deadline order, at most the project's
// rate a minute (its queue_rate_per_minute, else the operator's default;
// a share every tick, see paceOf), and goes back to probing whenever an
// invoice comes back to the queue or a breaker opens. It flags the
// deadlines (at risk by the projected send time or the margin, missed) on
// every pass, and ends when the queue is empty and no wake is pending. It continues as new every drainPasses passes to bound its history.

// Names of the queue's workflow, signal and activities.
const (
	QueueDrainWorkflowName = "InvoiceQueueDrain"
	ReleaseSignal          = "invoice-release"
	WakeSignal             = "invoice-queue-wake"
	ActivityProbeQueue     = "ProbeInvoiceQueue"
	ActivityNextQueued     = "NextQueuedInvoices"
	ActivityWakeQueue      = "WakeQueueDrain"
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

// drainTick is how often the drain releases a share of its rate, at
// most (a slower rate releases one invoice a tick of 60/rate seconds).
const drainTick = time.Second

// paceOf is how many invoices the drain releases a tick, and how long a
// tick is, at rate a minute: rate/60 a second from 60 a minute up (6,000:
// 100 a second), one every 60/rate seconds below (1: one a minute), so
// that the rate is kept exactly when it divides by 60 and within one
// invoice a second otherwise.
func paceOf(rate int) (per int, tick time.Duration) {
	rate = max(rate, 1)
	per = max(1, rate/60)
	return per, time.Duration(per) * time.Minute / time.Duration(rate)
}

// releaseChange is the version of the drain that sends a tick's release
// signals together and counts the pass's own time in the tick
// (workflow.GetVersion): runs from before it replay as they ran, one signal
// after another, then a whole tick's sleep.
const releaseChange = "invoice-queue-release"

// wakeChange is the version of the invoices' wait that wakes a running
// drain (workflow.GetVersion): histories from before it replay without.
const wakeChange = "invoice-queue-wake"

// drainPasses bounds the passes of one run of the drain.
const drainPasses = 500

// MaxProbeWait bounds the wait between the drain's probes (a variable for
// tests, whose breakers run on a controlled clock).
var MaxProbeWait = time.Minute

// FallbackWait is the longest a waiting invoice waits for a release
// before trying again on its own (a drain that ended as it began to
// wait); a variable for tests.
var FallbackWait = 10 * time.Minute

// drainActivityOptions retry the drain's reads for as long as an invoice's
// steps are retried (a day): a database that fails for a while must not
// end the drain, whose waiting invoices would then sit out FallbackWait.
// (Without ScheduleToCloseTimeout a local activity's retries end with its
// first attempt's StartToCloseTimeout, two minutes after it was scheduled.)
var drainActivityOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
	},
}

// InvoiceQueueDrain sends a project's queued invoices once NRS answers,
// earliest deadline first, at the project's pace.
func InvoiceQueueDrain(ctx workflow.Context, in DrainInput) error {
	ctx = workflow.WithLocalActivityOptions(ctx, drainActivityOptions)
	wake := workflow.GetSignalChannel(ctx, WakeSignal)
	// woken takes every pending wake and reports whether there was one.
	woken := func() bool {
		got := false
		for wake.ReceiveAsync(nil) {
			got = true
		}
		return got
	}
	// again reports whether an empty queue must be read again: an invoice
	// woke the drain since the pass began (it may have been queued after
	// the read). The drain then starts over from the earliest deadline.
	again := func() (bool, error) {
		if !woken() {
			return false, nil
		}
		in.AfterDeadline, in.AfterID = nil, uuid.Nil
		return true, workflow.Sleep(ctx, drainTick)
	}
	together := workflow.GetVersion(ctx, releaseChange, workflow.DefaultVersion, 1) >= 1
	for pass := 0; pass < drainPasses; pass++ {
		began := workflow.Now(ctx)
		// Wakes sent before this pass's reads are answered by them.
		woken()
		if !in.Answering {
			var pr ProbeResult
			if err := workflow.ExecuteLocalActivity(ctx, ActivityProbeQueue, in.ProjectID).Get(ctx, &pr); err != nil {
				return err
			}
			if pr.Depth == 0 {
				if ok, err := again(); ok || err != nil {
					if err != nil {
						return err
					}
					continue
				}
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
			if ok, err := again(); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
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
		tick := b.Tick
		if tick <= 0 {
			tick = drainTick
		}
		if together {
			// The tick's releases go out at once (one round trip, not one
			// each), and the pass's own time counts in the tick, so that
			// the pace is the rate.
			sent := make([]workflow.Future, 0, len(b.IRNs))
			for i := range b.IRNs {
				sent = append(sent, workflow.SignalExternalWorkflow(ctx, b.workflowID(in.ProjectID, i), "", ReleaseSignal, nil))
			}
			for _, f := range sent {
				// A signal to an invoice that finished fails; nothing to do.
				_ = f.Get(ctx, nil)
			}
			tick = max(tick-workflow.Now(ctx).Sub(began), time.Millisecond)
		} else {
			for i := range b.IRNs {
				_ = workflow.SignalExternalWorkflow(ctx, b.workflowID(in.ProjectID, i), "", ReleaseSignal, nil).Get(ctx, nil)
			}
		}
		if err := workflow.Sleep(ctx, tick); err != nil {
			return err
		}
	}
	woken()
	return workflow.NewContinueAsNewError(ctx, QueueDrainWorkflowName, in)
}

// workflowID is the id of the workflow of the i-th invoice of b: as its row
// keeps it, or (a result recorded in a history from before ids were keyed,
// replayed) the legacy id.
func (b *NextQueuedResult) workflowID(projectID uuid.UUID, i int) string {
	if i < len(b.WorkflowIDs) && b.WorkflowIDs[i] != "" {
		return b.WorkflowIDs[i]
	}
	return submissions.LegacyWorkflowID(projectID, b.IRNs[i])
}

// NextQueuedResult is the drain's next release.
type NextQueuedResult struct {
	submissions.QueuedBatch
	// Hold says NRS stopped answering (a breaker of the first endpoints
	// opened): probe again before releasing more.
	Hold bool `json:"hold"`
	// Tick is how long the drain waits before its next release (paceOf
	// the project's rate); zero: drainTick.
	Tick time.Duration `json:"tick,omitempty"`
}

// ProbeInvoiceQueue flags the project's deadlines and probes NRS with a
// read-only call for the queued invoice with the earliest deadline.
func (a *InvoiceActivities) ProbeInvoiceQueue(ctx context.Context, projectID uuid.UUID) (ProbeResult, error) {
	rate, err := a.steps.QueueRate(ctx, projectID)
	if err != nil {
		return ProbeResult{}, a.fail(ctx, err)
	}
	out := ProbeResult{Rate: rate}
	first, err := a.steps.EarliestQueued(ctx, projectID)
	empty := model.ErrorCodeOf(err) == model.CodeNotFound
	if err != nil && !empty {
		return out, a.fail(ctx, err)
	}
	// Nothing is sent before the open breaker's next probe: the queue's
	// projected send times start there.
	pace := submissions.Pace{RatePerMinute: rate}
	if !empty {
		pace.Wait = a.holdFor(first.Environment)
	}
	if _, err := a.steps.FlagDeadlines(ctx, projectID, pace); err != nil {
		return out, a.fail(ctx, err)
	}
	if empty {
		return out, nil
	}
	out.Depth = 1
	cl, err := a.open(ctx, InvoiceStep{ProjectID: projectID, IRN: first.IRN, InvoiceID: first.ID})
	if err != nil {
		return out, a.fail(ctx, err)
	}
	if !cl.has(submissions.CallValidateIRN) {
		// An authority without a read-only check: release.
		out.Answered = true
		return out, nil
	}
	ex, err := cl.conn.Validate(ctx, cl.inv, submissions.CallValidateIRN)
	if ex.Operation == "" && model.ErrorCodeOf(err) == model.CodeInvalid {
		// Not an IRN NRS can be asked about: release, its own step rejects it.
		out.Answered = true
		return out, nil
	}
	var ce *submissions.CallError
	switch {
	case err == nil, refused(err):
		out.Answered = true
	case errors.As(err, &ce):
		out.Wait = waitFor(err)
	default:
		out.Wait = 5 * time.Second
	}
	if ex.Operation != "" && !notSent(err) {
		// A probe that reached NRS is kept in the invoice's log.
		if _, rerr := a.steps.Record(ctx, cl.inv.ID, cl.exchange(ctx, ex), "", submissions.Detail{}); rerr != nil {
			return out, a.fail(ctx, rerr)
		}
	}
	return out, nil
}

// NextQueuedInvoices flags the project's deadlines and reads the next
// share of its queue to release (its rate for one tick), unless a breaker
// of the first endpoints opened again.
func (a *InvoiceActivities) NextQueuedInvoices(ctx context.Context, in DrainInput) (NextQueuedResult, error) {
	rate, err := a.steps.QueueRate(ctx, in.ProjectID)
	if err != nil {
		return NextQueuedResult{}, a.fail(ctx, err)
	}
	if _, err := a.steps.FlagDeadlines(ctx, in.ProjectID, submissions.Pace{RatePerMinute: rate}); err != nil {
		return NextQueuedResult{}, a.fail(ctx, err)
	}
	per, tick := paceOf(rate)
	b, err := a.steps.NextQueued(ctx, in.ProjectID, in.AfterDeadline, in.AfterID, per)
	if err != nil {
		return NextQueuedResult{}, a.fail(ctx, err)
	}
	out := NextQueuedResult{QueuedBatch: *b, Tick: tick}
	if b.Depth > 0 && a.holds {
		if first, err := a.steps.EarliestQueued(ctx, in.ProjectID); err == nil && a.holdFor(first.Environment) > 0 {
			out.Hold, out.IRNs = true, nil
		}
	}
	return out, nil
}

// QueueWaker starts a workflow or signals it when it runs, atomically
// (client.Client).
type QueueWaker interface {
	SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
		options client.StartWorkflowOptions, workflow any, workflowArgs ...any) (client.WorkflowRun, error)
}

// WakeQueueDrain wakes the project's drain, starting it when none runs,
// with one signal-with-start; false when the activities have no Temporal
// client (the workflow then starts the drain as its child).
func (a *InvoiceActivities) WakeQueueDrain(ctx context.Context, projectID uuid.UUID) (bool, error) {
	if a.queue == nil {
		return false, nil
	}
	_, err := a.queue.SignalWithStartWorkflow(ctx, QueueDrainID(projectID), WakeSignal, nil, client.StartWorkflowOptions{
		ID: QueueDrainID(projectID), TaskQueue: a.queueTasks,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, QueueDrainWorkflowName, DrainInput{ProjectID: projectID})
	if err != nil {
		return false, a.fail(ctx, err)
	}
	return true, nil
}

// waitInQueue makes sure the project's drain runs and waits for its
// release, at most FallbackWait. The drain is woken (started when none
// runs) with a signal-with-start, so that a drain ending on an empty read
// made before this invoice was queued reads the queue again.
func waitInQueue(ctx workflow.Context, projectID uuid.UUID, release workflow.ReceiveChannel) {
	woken := false
	if workflow.GetVersion(ctx, wakeChange, workflow.DefaultVersion, 1) >= 1 {
		lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: 30 * time.Second, ScheduleToCloseTimeout: 2 * time.Minute,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 10 * time.Second},
		})
		// A failure (Temporal unreachable for two minutes) falls back to
		// the child start below.
		_ = workflow.ExecuteLocalActivity(lctx, ActivityWakeQueue, projectID).Get(ctx, &woken)
	}
	if !woken {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            QueueDrainID(projectID),
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		})
		child := workflow.ExecuteChildWorkflow(cctx, QueueDrainWorkflowName, DrainInput{ProjectID: projectID})
		// Started, or already running: either way the drain runs.
		_ = child.GetChildWorkflowExecution().Get(ctx, nil)
	}
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	timer := workflow.NewTimer(tctx, FallbackWait)
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(release, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
	sel.AddFuture(timer, func(workflow.Future) {})
	sel.Select(ctx)
}

package workflows

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// ErrOutcomeUnknown: the answer of a sign or transmit call never arrived;
// retried, and the retry asks the authority before sending again.
const ErrOutcomeUnknown = "OutcomeUnknown"

// InvoiceActivitiesConfig configures NewInvoiceActivities.
type InvoiceActivitiesConfig struct {
	// Steps is the activities' entry point to the database. Required.
	Steps *submissions.Steps
	// MBS builds the client of a project's tax authority API. It must not
	// repeat a call on its own (mbs.RetryPolicy.MaxAttempts 1): a call
	// whose answer was lost is settled by the activity. Default
	// SubmissionClients(egress.Policy{}, DefaultSubmissionCallTimeout).
	MBS func(c *authority.Credentials) (*mbs.Client, error)
	// CallTimeout is the MBS client's timeout of one call (SubmissionClients'
	// timeout): an earlier request is settled only once it has certainly
	// been given up, CallTimeout plus a grace after it was sent. Default
	// DefaultSubmissionCallTimeout.
	CallTimeout time.Duration
	// Breakers, when set, are the breakers the MBS clients go through:
	// an invoice not yet begun waits in the queue while a breaker of its
	// environment's validation or signing endpoints is not closed.
	Breakers *mbs.Breakers
	// Gateway, when set, is the tax authority invoices are submitted to,
	// instead of NRS through MBS and Breakers (mbs.NewGateway).
	Gateway submissions.Gateway
	// Metrics, when set, observes every call to the authority.
	Metrics CallObserver
	// Queue, when set, wakes or starts a project's drain for an invoice
	// that begins to wait (WakeQueueDrain), on the task queue QueueTaskQueue:
	// one signal-with-start, atomic at the Temporal server. Without it
	// the invoice starts the drain as its child.
	Queue          QueueWaker
	QueueTaskQueue string
	// Logger receives unexpected failures; default slog.Default().
	Logger *slog.Logger
}

// CallObserver is told about every call to the tax authority and every
// state an invoice reaches, for metrics.
type CallObserver interface {
	ObserveCall(operation string, status int, d time.Duration)
	ObserveState(status model.InvoiceStatus)
}

// InvoiceActivities does the I/O of invoice workflows: each activity
// makes its authority calls through the submissions.Gateway, records each
// exchange and the invoice's new state through submissions.Steps, and is
// safe to repeat.
type InvoiceActivities struct {
	queue      QueueWaker
	queueTasks string
	// holds says that the gateway may hold queued invoices (breakers).
	holds   bool
	steps   *submissions.Steps
	settle  time.Duration
	gateway submissions.Gateway
	metrics CallObserver
	log     *slog.Logger
}

// settleGrace is how long after a request's client timeout the authority
// may still be finishing it: the earliest an earlier request is settled is
// CallTimeout + settleGrace after it was sent, so that the check never
// races a request still under way (a worker that stopped mid-call, an
// attempt still running elsewhere).
const settleGrace = 2 * time.Second

// DefaultSubmissionCallTimeout bounds one call to the authority made for
// an invoice.
const DefaultSubmissionCallTimeout = 30 * time.Second

// SubmissionClients returns the builder of projects' MBS clients for
// invoice submission: the egress rules of MBSClients, one attempt per
// call (never a repeat inside the client: a sign or transmit whose answer
// was lost must be settled first), each call bounded by timeout.
func SubmissionClients(policy egress.Policy, timeout time.Duration) func(c *authority.Credentials) (*mbs.Client, error) {
	return SubmissionClientsWith(policy, timeout, nil)
}

// SubmissionClientsWith is SubmissionClients whose clients go through the
// process's circuit breakers and 429 paces (nil: none): a call refused by
// an open breaker or held back by a pace is never sent, and the invoice
// waits in the queue (or its step is retried after the wait).
func SubmissionClientsWith(policy egress.Policy, timeout time.Duration, breakers *mbs.Breakers) func(c *authority.Credentials) (*mbs.Client, error) {
	guarded := policy.Client()
	operator := &http.Client{Transport: egress.Policy{AllowPrivate: true}.Transport(), CheckRedirect: egress.NoRedirects}
	if timeout <= 0 {
		timeout = DefaultSubmissionCallTimeout
	}
	return func(c *authority.Credentials) (*mbs.Client, error) {
		hc := guarded
		if c.Environment == model.EnvironmentSandbox {
			hc = operator
		}
		return mbs.New(mbs.Config{
			BaseURL: c.BaseURL, APIKey: c.APIKey, APISecret: c.APISecret, HTTPClient: hc,
			Timeout: timeout, UserAgent: "einvoice-submission", Retry: mbs.RetryPolicy{MaxAttempts: 1},
			Environment: string(c.Environment), Breakers: breakers,
			ReportBaseURL: c.ReportBaseURL, LegacyReportRoute: c.PostPaymentReport == model.PostPaymentReportLegacy,
		})
	}
}

// NewInvoiceActivities builds the activities.
func NewInvoiceActivities(cfg InvoiceActivitiesConfig) (*InvoiceActivities, error) {
	if cfg.Steps == nil {
		return nil, errors.New("workflows: the invoices' steps are required")
	}
	if cfg.MBS == nil {
		cfg.MBS = SubmissionClients(egress.Policy{}, DefaultSubmissionCallTimeout)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultSubmissionCallTimeout
	}
	gw, holds := cfg.Gateway, true
	if gw == nil {
		gw, holds = mbs.NewGateway(cfg.MBS, cfg.Breakers), cfg.Breakers != nil
	}
	return &InvoiceActivities{queue: cfg.Queue, queueTasks: cfg.QueueTaskQueue, holds: holds, steps: cfg.Steps, settle: cfg.CallTimeout + settleGrace, gateway: gw, metrics: cfg.Metrics, log: cfg.Logger}, nil
}

// InvoiceStep names the invoice an activity works on. InvoiceID is zero
// until BeginInvoice found it.
type InvoiceStep struct {
	ProjectID uuid.UUID `json:"project_id"`
	IRN       string    `json:"irn"`
	InvoiceID uuid.UUID `json:"invoice_id"`
	// Transmit says that the invoice is transmitted to its buyer (B2B,
	// B2G): ClearInvoice runs TransmitSubmitted.
	Transmit bool `json:"transmit,omitempty"`
}

// InvoiceStepResult is the invoice's state after an activity. Waiting
// says that the invoice is (back) in the queue because NRS does not
// answer: the workflow waits for the project's queue to release it (or
// Wait at most, as a fallback) and begins again. Every step that finds
// its invoice queued answers Waiting: a step run again after it sent the
// invoice back to the queue (its answer lost with a workflow task that
// failed or timed out, the invoice's earlier steps recorded) must not go
// on as if the invoice were being submitted.
type InvoiceStepResult struct {
	InvoiceID uuid.UUID           `json:"invoice_id"`
	Status    model.InvoiceStatus `json:"status"`
	Waiting   bool                `json:"waiting,omitempty"`
	Wait      time.Duration       `json:"wait,omitempty"`
}

func result(inv *model.SubmittedInvoice) InvoiceStepResult {
	return InvoiceStepResult{InvoiceID: inv.ID, Status: inv.Status, Waiting: inv.Status == model.InvoiceQueued}
}

// BeginInvoice moves the queued invoice to submitting. It waits for the
// invoice's row, which Submit commits after starting the workflow: first
// within the attempt (rowWait), then by failing retryably, up to
// maxRowWaitAttempts attempts.
func (a *InvoiceActivities) BeginInvoice(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	_, out, err := a.begin(ctx, in, false)
	return out, err
}

// begin is BeginInvoice, which also answers the invoice as it left it.
// With later, a queued invoice that may go on is only read, and answered
// still queued but not Waiting: the caller writes its move to submitting
// (submissions.BeganChange) with its next write.
func (a *InvoiceActivities) begin(ctx context.Context, in InvoiceStep, later bool) (*model.SubmittedInvoice, InvoiceStepResult, error) {
	beginOnce := func() (*model.SubmittedInvoice, error) {
		if later {
			return a.steps.BeginLater(ctx, in.ProjectID, in.IRN)
		}
		return a.steps.Begin(ctx, in.ProjectID, in.IRN, a.hold)
	}
	inv, err := beginOnce()
	for wait := rowWaitFirst; model.ErrorCodeOf(err) == model.CodeNotFound && wait <= rowWaitLast; wait *= 2 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, InvoiceStepResult{}, temporal.NewApplicationError("the invoice's row is not committed yet", ErrNotYet)
		case <-t.C:
		}
		inv, err = beginOnce()
	}
	if model.ErrorCodeOf(err) == model.CodeNotFound {
		if activity.GetInfo(ctx).Attempt >= maxRowWaitAttempts {
			return nil, InvoiceStepResult{}, temporal.NewNonRetryableApplicationError("the invoice "+in.IRN+" was never recorded", ErrRunMissing, nil)
		}
		return nil, InvoiceStepResult{}, temporal.NewApplicationError("the invoice's row is not committed yet", ErrNotYet)
	}
	if err != nil {
		return nil, InvoiceStepResult{}, a.fail(ctx, err)
	}
	if later && inv.Status == model.InvoiceQueued && !a.hold(inv) {
		return inv, InvoiceStepResult{InvoiceID: inv.ID, Status: inv.Status}, nil
	}
	a.observe(inv)
	if inv.Status == model.InvoiceQueued {
		return inv, InvoiceStepResult{InvoiceID: inv.ID, Status: inv.Status, Waiting: true, Wait: a.holdFor(inv.Environment)}, nil
	}
	return inv, result(inv), nil
}

// rowWait: an attempt of BeginInvoice that finds no row for its invoice
// looks again after rowWaitFirst, then after waits that double up to
// rowWaitLast (about 0.5 s in all, well under the activity's timeout),
// before it fails and is retried with the retry policy's backoff. The
// workflow starts (eagerly, on this process's worker) before Submit
// commits the row, so the first look usually misses it by milliseconds; a
// failed attempt costs a round trip through the SDK and at least the
// policy's first backoff (200 ms).
const (
	rowWaitFirst = 4 * time.Millisecond
	rowWaitLast  = 256 * time.Millisecond
)

// hold reports whether a queued invoice must stay queued: a breaker of
// its environment's first endpoints is open or probing.
func (a *InvoiceActivities) hold(inv *model.SubmittedInvoice) bool {
	return a.holdFor(inv.Environment) > 0
}

// holdFor is how long a queued invoice of env should wait before trying
// again on its own (0: it need not wait): the gateway's Hold.
func (a *InvoiceActivities) holdFor(env model.Environment) time.Duration {
	if !a.holds {
		return 0
	}
	return a.gateway.Hold(env)
}

// waitFor is how long an invoice sent back to the queue by err waits at
// most before trying on its own.
func waitFor(err error) time.Duration {
	var ce *submissions.CallError
	if errors.As(err, &ce) && ce.RetryAfter > 0 {
		return ce.RetryAfter
	}
	return 5 * time.Second
}

// notSent reports a call that certainly never reached the authority
// (submissions.CallError.NotSent).
func notSent(err error) bool {
	var ce *submissions.CallError
	return errors.As(err, &ce) && ce.NotSent
}

// call is one activity's view of its invoice and its authority.
type call struct {
	a     *InvoiceActivities
	inv   *model.SubmittedInvoice
	creds *authority.Credentials
	conn  submissions.Connection
	// batch (within ClearInvoice) defers what a step that succeeded
	// writes to the invoice's next write (pending), in the same
	// transaction: a validation's exchange, and a sign or transmit's
	// exchange and state (inv then shows that state ahead of the
	// database). Nothing waits on them: the next write that must come
	// before a call to NRS (MarkSent) carries them, and ClearInvoice
	// writes what is left when it returns. A worker that stops before
	// leaves the invoice as the last write did, which the next attempt
	// settles with NRS as after any lost answer.
	batch   bool
	pending []submissions.Change
}

// take returns the changes pending, followed by c when it holds
// anything, and forgets them: the caller writes them.
func (cl *call) take(c submissions.Change) []submissions.Change {
	out := cl.pending
	cl.pending = nil
	if len(c.Exchanges) > 0 || c.To != "" {
		out = append(out, c)
	}
	return out
}

// change is the Change of an exchange (nil: none) and a state.
func change(ex *submissions.Exchange, to model.InvoiceStatus, d submissions.Detail) submissions.Change {
	c := submissions.Change{To: to, Detail: d}
	if ex != nil {
		c.Exchanges = []*submissions.Exchange{ex}
	}
	return c
}

// later keeps a step's successful write for the next one (batch only),
// and shows its state in cl.inv meanwhile.
func (cl *call) later(ex *submissions.Exchange, to model.InvoiceStatus) InvoiceStepResult {
	cl.pending = append(cl.pending, change(ex, to, submissions.Detail{}))
	if to != "" {
		inv := *cl.inv
		inv.Status = to
		cl.inv = &inv
		cl.a.observe(cl.inv)
	}
	return result(cl.inv)
}

// ClearInvoice runs an invoice's steps one after the other in one
// activity: BeginInvoice, ValidateInvoiceIRN, ValidateInvoicePayload,
// SignSubmitted, TransmitSubmitted (when in.Transmit) and
// ConfirmSubmitted, each exactly as on its own, and answers the state the
// invoice stopped in: rejected, waiting in the queue, or confirmed. The
// invoice is read once, when it begins, and the steps go on from the row
// each write returns (the steps are its only writers). A failure is the
// failing step's, and the next attempt begins again from the database:
// every step is safe to repeat, and the sign and transmit requests are
// settled with NRS before they are sent again, as on their own.
func (a *InvoiceActivities) ClearInvoice(ctx context.Context, in InvoiceStep) (out InvoiceStepResult, err error) {
	inv, out, err := a.begin(ctx, in, true)
	if err != nil || out.Waiting || out.Status == model.InvoiceRejected || out.Status == model.InvoiceConfirmed {
		return out, err
	}
	in.InvoiceID = out.InvoiceID
	cl, err := a.openWith(ctx, inv)
	if err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	cl.batch = true
	if inv.Status == model.InvoiceQueued {
		// Begun: the move to submitting is written with the invoice's
		// next write (the validations are safe to repeat; the first
		// write that must come before a call, MarkSent, carries it).
		cl.pending = append(cl.pending, submissions.BeganChange())
		began := *inv
		began.Status = model.InvoiceSubmitting
		cl.inv = &began
		a.observe(cl.inv)
	}
	ctx = context.WithValue(ctx, keptCallKey{}, &keptCall{cl: cl})
	defer func() {
		if len(cl.pending) == 0 {
			return
		}
		inv, ferr := a.steps.Apply(ctx, cl.inv.ID, cl.take(submissions.Change{}), "")
		if ferr != nil {
			if err == nil {
				out, err = InvoiceStepResult{}, a.fail(ctx, ferr)
			}
			return
		}
		a.observe(inv)
		if err == nil {
			out = result(inv)
		}
	}()
	steps := []func(context.Context, InvoiceStep) (InvoiceStepResult, error){a.ValidateInvoiceIRN, a.ValidateInvoicePayload, a.SignSubmitted}
	if in.Transmit {
		steps = append(steps, a.TransmitSubmitted)
	}
	steps = append(steps, a.ConfirmSubmitted)
	for _, step := range steps {
		if out, err = step(ctx, in); err != nil || out.Waiting || out.Status == model.InvoiceRejected {
			return out, err
		}
	}
	return out, nil
}

// keptCall holds the call of ClearInvoice's steps, opened by the first
// and used by the next ones, with the invoice as the last write left it.
type keptCall struct{ cl *call }

type keptCallKey struct{}

// open loads the invoice and its project's client; within ClearInvoice,
// once.
func (a *InvoiceActivities) open(ctx context.Context, in InvoiceStep) (*call, error) {
	kept, _ := ctx.Value(keptCallKey{}).(*keptCall)
	if kept != nil && kept.cl != nil && kept.cl.inv.ID == in.InvoiceID {
		return kept.cl, nil
	}
	inv, err := a.steps.Invoice(ctx, in.InvoiceID)
	if err != nil {
		return nil, err
	}
	cl, err := a.openWith(ctx, inv)
	if err == nil && kept != nil {
		kept.cl = cl
	}
	return cl, err
}

// openWith builds the call of inv.
func (a *InvoiceActivities) openWith(ctx context.Context, inv *model.SubmittedInvoice) (*call, error) {
	kept, _ := ctx.Value(shardConnsKey{}).(*shardConns)
	if creds, conn, ok := kept.get(inv.ProjectID); ok {
		return &call{a: a, inv: inv, creds: creds, conn: withSlots(ctx, conn)}, nil
	}
	creds, err := a.steps.Credentials(ctx, inv.ProjectID)
	if err != nil {
		return nil, err
	}
	if err := creds.RequireAPI(); err != nil {
		return nil, err
	}
	conn, err := a.gateway.Open(creds)
	if err != nil {
		return nil, model.Wrap(model.CodeAuthorityNotConfigured, err, "the project's tax authority API settings are unusable")
	}
	kept.put(inv.ProjectID, creds, conn)
	return &call{a: a, inv: inv, creds: creds, conn: withSlots(ctx, conn)}, nil
}

// exchange completes an exchange the connection described (its request,
// answer, timing and status, without secrets): the activity's attempt,
// and the call's metrics.
func (cl *call) exchange(ctx context.Context, ex *submissions.Exchange) *submissions.Exchange {
	ex.Attempt = int(activity.GetInfo(ctx).Attempt)
	if cl.a.metrics != nil {
		cl.a.metrics.ObserveCall(ex.Operation, ex.HTTPStatus, ex.Duration)
	}
	return ex
}

// has reports whether the invoice's authority takes the call.
func (cl *call) has(call string) bool {
	return slices.Contains(cl.conn.Steps(cl.inv.InvoiceType), call)
}

// record writes an exchange and the state to ("" for none).
func (cl *call) record(ctx context.Context, ex *submissions.Exchange, to model.InvoiceStatus, d submissions.Detail) (InvoiceStepResult, error) {
	inv, err := cl.a.steps.Apply(ctx, cl.inv.ID, cl.take(change(ex, to, d)), "")
	if err != nil {
		return InvoiceStepResult{}, cl.a.fail(ctx, err)
	}
	cl.inv = inv
	cl.a.observe(inv)
	return result(inv), nil
}

// reject records NRS's refusal and ends the invoice rejected.
func (cl *call) reject(ctx context.Context, ex *submissions.Exchange, err error) (InvoiceStepResult, error) {
	var ce *submissions.CallError
	d := submissions.Detail{NRSErrorMessage: err.Error()}
	if errors.As(err, &ce) {
		d.NRSErrorID, d.NRSErrorMessage = ce.ID, ce.Message
	}
	d.Message = "NRS refused " + ex.Operation + ": " + d.NRSErrorMessage
	return cl.record(ctx, ex, model.InvoiceRejected, d)
}

// past reports whether the invoice is in one of the states an activity
// has nothing left to do in.
func past(inv *model.SubmittedInvoice, states ...model.InvoiceStatus) bool {
	for _, s := range states {
		if inv.Status == s {
			return true
		}
	}
	return false
}

// ValidateInvoiceIRN has the authority validate the invoice's IRN. It is
// skipped once a sign request was sent (validation is for before), and
// when the authority takes no such call.
func (a *InvoiceActivities) ValidateInvoiceIRN(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	return a.validate(ctx, in, submissions.CallValidateIRN)
}

// ValidateInvoicePayload has the authority validate the invoice.
func (a *InvoiceActivities) ValidateInvoicePayload(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	return a.validate(ctx, in, submissions.CallValidatePayload)
}

func (a *InvoiceActivities) validate(ctx context.Context, in InvoiceStep, check string) (InvoiceStepResult, error) {
	stop := heartbeat(ctx, activity.GetInfo(ctx).HeartbeatTimeout)
	defer stop()
	cl, err := a.open(ctx, in)
	if err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	if cl.inv.Status != model.InvoiceSubmitting || cl.inv.SignSent > 0 || !cl.has(check) {
		return result(cl.inv), nil
	}
	ex, err := cl.conn.Validate(ctx, cl.inv, check)
	var ce *submissions.CallError
	if err != nil && !refused(err) && errors.As(err, &ce) && ce.Retryable {
		// NRS did not answer (or refused before any work) and nothing was
		// signed: the invoice goes back to the queue and waits.
		var rex *submissions.Exchange
		if ex.Operation != "" {
			rex = cl.exchange(ctx, ex)
		}
		inv, rerr := a.steps.Apply(ctx, cl.inv.ID, cl.take(change(rex, model.InvoiceQueued, submissions.Detail{
			Message: "NRS is not answering (" + ce.Message + "): back in the queue until it answers"})), "")
		if rerr != nil {
			return InvoiceStepResult{}, a.fail(ctx, rerr)
		}
		a.observe(inv)
		return InvoiceStepResult{InvoiceID: inv.ID, Status: inv.Status, Waiting: true, Wait: waitFor(err)}, nil
	}
	if ex.Operation == "" && err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	ex = cl.exchange(ctx, ex)
	switch {
	case err == nil && cl.batch:
		return cl.later(ex, ""), nil
	case err == nil:
		return cl.record(ctx, ex, "", submissions.Detail{})
	case refused(err):
		return cl.reject(ctx, ex, err)
	}
	if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
		return InvoiceStepResult{}, rerr
	}
	return InvoiceStepResult{}, a.fail(ctx, err)
}

// SignSubmitted has the authority sign the invoice, exactly once: when a
// sign request was sent before (its answer lost, or the worker stopped),
// the authority is first asked (confirm) whether it holds the invoice
// signed, and the request is sent again only when it does not.
func (a *InvoiceActivities) SignSubmitted(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	return a.once(ctx, in, onceCall{
		name: model.CallSign, from: model.InvoiceSubmitting, to: model.InvoiceSigned,
		done: []model.InvoiceStatus{model.InvoiceSigned, model.InvoiceTransmitted, model.InvoiceConfirmed, model.InvoiceRejected},
		sent: func(inv *model.SubmittedInvoice) int { return inv.SignSent },
	})
}

// TransmitSubmitted has the authority transmit a B2B or B2G invoice to its
// buyer, exactly once: after a lost answer, the transmission is looked up
// before it is sent again.
func (a *InvoiceActivities) TransmitSubmitted(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	return a.once(ctx, in, onceCall{
		name: model.CallTransmit, from: model.InvoiceSigned, to: model.InvoiceTransmitted,
		done: []model.InvoiceStatus{model.InvoiceTransmitted, model.InvoiceConfirmed, model.InvoiceRejected},
		sent: func(inv *model.SubmittedInvoice) int { return inv.TransmitSent },
	})
}

// onceCall describes a call that must reach the authority exactly once:
// the connection's Send of name, and its Find to ask whether an earlier
// request went through (found true when it did; a 404 answer means it
// did not).
type onceCall struct {
	name     string
	from, to model.InvoiceStatus
	done     []model.InvoiceStatus
	sent     func(*model.SubmittedInvoice) int
}

func (a *InvoiceActivities) once(ctx context.Context, in InvoiceStep, oc onceCall) (InvoiceStepResult, error) {
	stop := heartbeat(ctx, activity.GetInfo(ctx).HeartbeatTimeout)
	defer stop()
	cl, err := a.open(ctx, in)
	if err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	if past(cl.inv, oc.done...) || cl.inv.Status == model.InvoiceQueued || !cl.has(oc.name) {
		// Done, or back in the queue (nothing was sent: a queued invoice
		// is never signed): the workflow waits for its release. Or not a
		// call of this authority (no transmission).
		return result(cl.inv), nil
	}
	if oc.sent(cl.inv) > 0 {
		// A request was sent before and its answer never recorded: settle,
		// once that request has certainly been given up.
		if cl.inv.LastSentAt != nil {
			if wait := cl.inv.LastSentAt.Add(a.settle).Sub(a.steps.Now()); wait > 0 {
				return InvoiceStepResult{}, temporal.NewApplicationErrorWithOptions(
					"an earlier "+oc.name+" request may still be under way", ErrNotYet,
					temporal.ApplicationErrorOptions{NextRetryDelay: wait})
			}
		}
		found, ex, err := cl.conn.Find(ctx, cl.inv, oc.name)
		ex = cl.exchange(ctx, ex)
		switch {
		case found:
			return cl.record(ctx, ex, oc.to, submissions.Detail{
				Message: "settled: NRS holds the invoice " + string(oc.to) + "; the earlier " + oc.name + " went through"})
		case err == nil || isAnswer(err, http.StatusNotFound):
			if _, err := cl.record(ctx, ex, oc.from, submissions.Detail{
				Message: "settled: NRS does not hold the invoice " + string(oc.to) + "; sending " + oc.name + " again"}); err != nil {
				return InvoiceStepResult{}, err
			}
		default:
			if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
				return InvoiceStepResult{}, rerr
			}
			return InvoiceStepResult{}, a.fail(ctx, err)
		}
	}
	inv, err := a.steps.Apply(ctx, cl.inv.ID, cl.take(submissions.Change{}), oc.name)
	if err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	cl.inv = inv
	ex, err := cl.conn.Send(ctx, cl.inv, oc.name)
	if notSent(err) {
		// Never reached NRS: take the count back, so that the next
		// attempt sends without asking first, and wait as told.
		if _, uerr := a.steps.MarkUnsent(ctx, cl.inv.ID, oc.name); uerr != nil {
			return InvoiceStepResult{}, a.fail(ctx, uerr)
		}
		if ex.Operation != "" {
			if _, rerr := cl.record(ctx, cl.exchange(ctx, ex), "", submissions.Detail{}); rerr != nil {
				return InvoiceStepResult{}, rerr
			}
		}
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	ex = cl.exchange(ctx, ex)
	switch {
	case err == nil && cl.batch:
		return cl.later(ex, oc.to), nil
	case err == nil:
		return cl.record(ctx, ex, oc.to, submissions.Detail{})
	case refused(err):
		if oc.sent(cl.inv) > 1 {
			// Refused after an earlier request whose answer was lost: it
			// may be "already done"; look before rejecting.
			if found, ex2, _ := cl.conn.Find(ctx, cl.inv, oc.name); found {
				if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
					return InvoiceStepResult{}, rerr
				}
				return cl.record(ctx, cl.exchange(ctx, ex2), oc.to, submissions.Detail{
					Message: "settled: an earlier " + oc.name + " went through"})
			}
		}
		return cl.reject(ctx, ex, err)
	case isAnswer(err, http.StatusTooManyRequests):
		// Refused before any work: not sent, retried after the wait.
		if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
			return InvoiceStepResult{}, rerr
		}
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	// The answer was lost (timeout, reset connection, 5xx): the outcome is
	// unknown until the next attempt settles it.
	if _, rerr := cl.record(ctx, ex, model.InvoiceOutcomeUnknown, submissions.Detail{PendingCall: oc.name,
		Message: "the answer of " + oc.name + " was lost (" + ex.Message + "); NRS will be asked before sending again"}); rerr != nil {
		return InvoiceStepResult{}, rerr
	}
	return InvoiceStepResult{}, temporal.NewApplicationError("the answer of "+oc.name+" was lost: "+ex.Message, ErrOutcomeUnknown)
}

// ConfirmSubmitted asks the authority where the invoice stands and records
// it confirmed, with its QR: the authority's, else one built locally.
func (a *InvoiceActivities) ConfirmSubmitted(ctx context.Context, in InvoiceStep) (InvoiceStepResult, error) {
	stop := heartbeat(ctx, activity.GetInfo(ctx).HeartbeatTimeout)
	defer stop()
	cl, err := a.open(ctx, in)
	if err != nil {
		return InvoiceStepResult{}, a.fail(ctx, err)
	}
	if past(cl.inv, model.InvoiceConfirmed, model.InvoiceRejected) {
		return result(cl.inv), nil
	}
	st, ex, err := cl.conn.Confirm(ctx, cl.inv)
	ex = cl.exchange(ctx, ex)
	switch {
	case err == nil:
		qr := st.QRCode
		if qr == "" {
			if qr, err = a.steps.QRCode(ctx, cl.inv.ProjectID, cl.inv.IRN); err != nil {
				a.log.WarnContext(ctx, "invoice QR not built", "irn", cl.inv.IRN, "error", err.Error())
				qr = ""
			}
		}
		return cl.record(ctx, ex, model.InvoiceConfirmed, submissions.Detail{QRCodeData: qr,
			Message: "NRS confirms the invoice: " + st.Message})
	case refused(err) && !isAnswer(err, http.StatusNotFound):
		return cl.reject(ctx, ex, err)
	}
	if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
		return InvoiceStepResult{}, rerr
	}
	return InvoiceStepResult{}, a.fail(ctx, err)
}

// UpdatePaymentStatus sends an invoice's payment status to the authority
// and records it with the exchange. NRS's refusal is non-retryable.
func (a *InvoiceActivities) UpdatePaymentStatus(ctx context.Context, in submissions.PaymentInput) error {
	cl, err := a.open(ctx, InvoiceStep{ProjectID: in.ProjectID, IRN: in.IRN, InvoiceID: in.InvoiceID})
	if err != nil {
		return a.fail(ctx, err)
	}
	ex, err := cl.conn.UpdatePayment(ctx, cl.inv, in)
	ex = cl.exchange(ctx, ex)
	status := ""
	if err == nil {
		status = in.PaymentStatus
	}
	if rerr := a.steps.SetPaymentStatus(ctx, cl.inv.ID, ex, status); rerr != nil {
		return a.fail(ctx, rerr)
	}
	if err != nil {
		if refused(err) {
			return temporal.NewNonRetryableApplicationError(ex.Message, ErrRejected, nil)
		}
		return a.fail(ctx, err)
	}
	return nil
}

// refused reports an answer of the authority that refuses the call for
// good: a 4xx other than 408 and 429.
func refused(err error) bool {
	s := answerStatus(err)
	return s >= 400 && s < 500 && s != http.StatusTooManyRequests && s != http.StatusRequestTimeout
}

// fail turns an activity's failure into the application error Temporal
// acts on: everything is retried but invalid input.
func (a *InvoiceActivities) fail(ctx context.Context, err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return err
	}
	var ce *submissions.CallError
	if errors.As(err, &ce) {
		return temporal.NewApplicationErrorWithOptions(ce.Message, ErrUnavailable, temporal.ApplicationErrorOptions{NextRetryDelay: ce.RetryAfter})
	}
	var e *model.Error
	if errors.As(err, &e) {
		switch e.Code {
		case model.CodeInvalid, model.CodeAuthorityNotConfigured:
			return temporal.NewNonRetryableApplicationError(e.Message, ErrInvalid, nil)
		case model.CodeInternal:
			a.log.ErrorContext(ctx, "invoice step failed", "error", err.Error())
			return temporal.NewApplicationError("internal error", ErrUnavailable)
		}
		return temporal.NewApplicationError(e.Message, ErrUnavailable)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return temporal.NewApplicationError("the step was interrupted: "+err.Error(), ErrUnavailable)
	}
	a.log.ErrorContext(ctx, "invoice step failed", "error", err.Error())
	return temporal.NewApplicationError("internal error", ErrUnavailable)
}

func (a *InvoiceActivities) observe(inv *model.SubmittedInvoice) {
	if a.metrics != nil {
		a.metrics.ObserveState(inv.Status)
	}
}

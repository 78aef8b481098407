package workflows

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// Clearing in shards (model/submissions, "Clearing in shards"): one
// workflow per project shard, InvoiceClearing, runs ClearShard, an
// activity that takes the shard's invoices from the database and clears
// many at once, each with ClearInvoice exactly as an invoice's own
// workflow does. An invoice that ClearInvoice leaves waiting (NRS not
// answering) or that failed is handed to a workflow of its own
// (InvoiceSubmission, with the id its row keeps), which waits in the
// project's queue and retries as before; the shard then gives the row up.
// Per invoice this saves the workflow's start, its visibility records,
// its workflow tasks and its close: a shard's workflow costs a few
// history events per ClearShard run, whatever the number of invoices.

// Names of the clearing shards' workflow, signal and activity.
const (
	ClearingWorkflowName = "InvoiceClearing"
	ClearingWakeSignal   = "invoice-clearing-wake"
	ActivityClearShard   = "ClearShard"
)

// ClearingID is the workflow id of a project's clearing shard.
func ClearingID(projectID uuid.UUID, shard int) string {
	return "invoice-clearing-" + projectID.String() + "-" + strconv.Itoa(shard)
}

// ClearingInput names a clearing shard; carried across ContinueAsNew.
type ClearingInput struct {
	ProjectID      uuid.UUID `json:"project_id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	Shard          int       `json:"shard"`
}

// ClearShardResult is what a ClearShard run did.
type ClearShardResult struct {
	// Taken counts the invoices it began; Cleared those it left confirmed
	// or rejected; HandedOff those given a workflow of their own.
	Taken     int `json:"taken"`
	Cleared   int `json:"cleared"`
	HandedOff int `json:"handed_off"`
	// More says it stopped at its time bound with invoices left.
	More bool `json:"more,omitempty"`
}

// clearShardOptions: a run of ClearShard lasts at most clearRunBound
// plus the calls under way; it heartbeats, so that a worker that stops
// hands the shard to another within the heartbeat timeout. Retried
// without a bound on attempts: the invoices stay in the database.
var clearShardOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Minute,
	HeartbeatTimeout:    10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
	},
}

// clearingIdle is how long a shard's workflow waits for a wake once its
// shard is empty before it ends; clearingRounds bounds the ClearShard
// runs of one execution (then it continues as new).
const (
	clearingIdle   = time.Minute
	clearingRounds = 100
)

// InvoiceClearing clears a project shard's invoices: ClearShard again
// and again while it finds any or a wake came, then waits for a wake,
// and ends after clearingIdle without one. Wakes are signals
// (ClearingWakeSignal) sent with signal-with-start, so that a wake
// finds the workflow running or starts it, and the server refuses to let
// it end with a wake it has not seen.
func InvoiceClearing(ctx workflow.Context, in ClearingInput) error {
	ctx = workflow.WithActivityOptions(ctx, clearShardOptions)
	wake := workflow.GetSignalChannel(ctx, ClearingWakeSignal)
	woken := func() bool {
		got := false
		for wake.ReceiveAsync(nil) {
			got = true
		}
		return got
	}
	for round := 0; round < clearingRounds; round++ {
		woken()
		var out ClearShardResult
		if err := workflow.ExecuteActivity(ctx, ActivityClearShard, in).Get(ctx, &out); err != nil {
			return err
		}
		if out.More || woken() {
			continue
		}
		idle, stop := workflow.WithCancel(ctx)
		timedOut := false
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(wake, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
		sel.AddFuture(workflow.NewTimer(idle, clearingIdle), func(workflow.Future) { timedOut = true })
		sel.Select(ctx)
		stop()
		if timedOut && !woken() {
			return nil
		}
	}
	return workflow.NewContinueAsNewError(ctx, ClearingWorkflowName, in)
}

// ClearingActivities runs the clearing shards' activity.
type ClearingActivities struct {
	inv     *InvoiceActivities
	steps   *submissions.Steps
	handoff *Starter
	log     *slog.Logger

	// Concurrency is how many invoices a shard clears at once; InFlight
	// how many calls to the authority a shard's invoices have under way
	// at once (the others wait their turn, in their database work or for
	// a slot), so that a project's shards together stay within what the
	// authority takes from one taxpayer: a call the authority refused for
	// too many at once would send its invoice to the queue's slow path.
	// Poll how often it reads its shard again while invoices are under
	// way; Idle how long it reads an empty shard before it returns;
	// RunBound how long it takes new invoices before it returns (More).
	Concurrency int
	InFlight    int
	Poll, Idle  time.Duration
	RunBound    time.Duration
}

// Defaults of ClearingActivities.
const (
	DefaultClearingConcurrency = 16
	// DefaultClearingInFlight is a shard's calls to the authority in
	// flight: with the default two shards, 16 per project, the bound the
	// NRS stand-in keeps per business (MBS publishes none).
	DefaultClearingInFlight = 8
	defaultClearingPoll     = 20 * time.Millisecond
	defaultClearingIdle     = 2 * time.Second
	defaultClearingRunBound = 2 * time.Minute
)

// NewClearingActivities builds the shards' activity over the invoice
// activities (ClearInvoice) and a starter for the invoices handed to
// workflows of their own.
func NewClearingActivities(inv *InvoiceActivities, handoff *Starter) (*ClearingActivities, error) {
	if inv == nil || handoff == nil {
		return nil, errors.New("workflows: clearing needs the invoice activities and a starter")
	}
	return &ClearingActivities{inv: inv, steps: inv.steps, handoff: handoff, log: inv.log,
		Concurrency: DefaultClearingConcurrency, InFlight: DefaultClearingInFlight, Poll: defaultClearingPoll, Idle: defaultClearingIdle, RunBound: defaultClearingRunBound}, nil
}

// cleared is one invoice's ClearInvoice outcome.
type cleared struct {
	inv *model.SubmittedInvoice
	out InvoiceStepResult
	err error
}

// ClearShard clears the shard's invoices, Concurrency at once, reading
// the shard again as they finish (every Poll while any is under way),
// and returns once the shard stayed empty for Idle, or at RunBound. An
// invoice ClearInvoice leaves confirmed or rejected is given up by the
// shard; any other (waiting for NRS, failed) is handed to a workflow of
// its own first. A failure to read the shard or to hand an invoice over
// fails the run, which is retried: the invoices stay with the shard.
func (c *ClearingActivities) ClearShard(ctx context.Context, in ClearingInput) (out ClearShardResult, err error) {
	began := time.Now()
	obs, _ := c.inv.metrics.(ClearingObserver)
	if c.InFlight > 0 {
		ctx = context.WithValue(ctx, callSlotsKey{}, &callSlots{ch: make(chan struct{}, c.InFlight), obs: obs})
	}
	ctx = context.WithValue(ctx, shardConnsKey{}, &shardConns{})
	// The shard's invoices write their steps in shared transactions
	// (submissions.Steps.Group), ended once every invoice under way is.
	ctx, endGroup := c.steps.Group(ctx)
	defer endGroup()
	busy := map[uuid.UUID]bool{}
	var done []uuid.UUID
	results := make(chan cleared, c.Concurrency)
	running := 0
	var wg sync.WaitGroup
	defer wg.Wait()
	// flush gives the finished invoices back, in one statement.
	flush := func() error {
		if len(done) == 0 {
			return nil
		}
		if err := c.steps.ClearingDone(ctx, done); err != nil {
			return err
		}
		for _, id := range done {
			delete(busy, id)
		}
		done = done[:0]
		return nil
	}
	settle := func(r cleared) error {
		running--
		final := r.err == nil && !r.out.Waiting && (r.out.Status == model.InvoiceConfirmed || r.out.Status == model.InvoiceRejected)
		if !final {
			if ctx.Err() != nil {
				return ctx.Err() // stopped: the next run goes on with it
			}
			if err := c.handoff.HandOff(ctx, submissions.HandOff(r.inv)); err != nil {
				return err
			}
			out.HandedOff++
			// Given up at once: the invoice is its workflow's now, and a
			// run that stopped before giving it up would take it again.
			done = append(done, r.inv.ID)
			return flush()
		}
		out.Cleared++
		done = append(done, r.inv.ID)
		return nil
	}
	defer func() {
		// Wait for the invoices under way and account for them.
		for running > 0 {
			if serr := settle(<-results); serr != nil && err == nil {
				err = serr
			}
		}
		if ferr := flush(); ferr != nil && err == nil {
			err = ferr
		}
		if err != nil {
			err = c.inv.fail(ctx, err)
		}
	}()
	idleSince := time.Now()
	lastBeat := time.Now()
	for {
		if time.Since(lastBeat) >= 2*time.Second {
			activity.RecordHeartbeat(ctx, out.Taken)
			lastBeat = time.Now()
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		more := time.Since(began) < c.RunBound
		if free := c.Concurrency - running; free > 0 && more {
			rows, err := c.steps.ClearingRows(ctx, in.ProjectID, in.Shard, keys(busy), free)
			if err != nil {
				return out, err
			}
			for i := range rows {
				inv := &rows[i]
				if inv.Status == model.InvoiceConfirmed || inv.Status == model.InvoiceRejected {
					busy[inv.ID] = true
					done = append(done, inv.ID) // cleared by a run that stopped before giving it up
					continue
				}
				busy[inv.ID] = true
				running++
				out.Taken++
				wg.Add(1)
				go func() {
					defer wg.Done()
					step := InvoiceStep{ProjectID: inv.ProjectID, IRN: inv.IRN, InvoiceID: inv.ID, Transmit: inv.InvoiceType.Transmitted()}
					began := time.Now()
					r, err := c.inv.ClearInvoice(ctx, step)
					if obs != nil {
						obs.ObserveClearing(ClearingStageInvoice, time.Since(began))
					}
					results <- cleared{inv: inv, out: r, err: err}
				}()
			}
		}
		if len(done) >= c.Concurrency || (running == 0 && len(done) > 0) {
			if err := flush(); err != nil {
				return out, err
			}
		}
		if running == 0 {
			if !more {
				rows, err := c.steps.ClearingRows(ctx, in.ProjectID, in.Shard, nil, 1)
				out.More = err == nil && len(rows) > 0
				return out, nil
			}
			if time.Since(idleSince) >= c.Idle {
				return out, nil
			}
		} else {
			idleSince = time.Now()
		}
		poll := c.Poll
		if running == 0 {
			poll = 5 * c.Poll // an empty shard is read less often
		}
		t := time.NewTimer(poll)
		select {
		case r := <-results:
			t.Stop()
			if err := settle(r); err != nil {
				return out, err
			}
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// shardConns keeps, for one ClearShard run, the project's authority
// credentials and connection for up to connFresh after they were read,
// so that the shard's invoices do not each read and decrypt the project's
// settings and build a client: a change of the settings reaches the
// shard's next invoices within connFresh.
type shardConns struct {
	mu sync.Mutex
	m  map[uuid.UUID]shardConn
}

type shardConn struct {
	creds *authority.Credentials
	conn  submissions.Connection
	at    time.Time
}

type shardConnsKey struct{}

// connFresh is how long a shard reuses a project's credentials.
const connFresh = time.Second

// get is the project's kept credentials and connection, if fresh; a nil
// shardConns (outside a shard) keeps none.
func (k *shardConns) get(project uuid.UUID) (*authority.Credentials, submissions.Connection, bool) {
	if k == nil {
		return nil, nil, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	c, ok := k.m[project]
	if !ok || time.Since(c.at) >= connFresh {
		return nil, nil, false
	}
	return c.creds, c.conn, true
}

// put keeps the project's credentials and connection.
func (k *shardConns) put(project uuid.UUID, creds *authority.Credentials, conn submissions.Connection) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[uuid.UUID]shardConn{}
	}
	k.m[project] = shardConn{creds: creds, conn: conn, at: time.Now()}
}

// callSlots bounds the calls to the authority under way at once: a call
// takes a slot for as long as it is in flight. obs (if set) is told how
// long each call waited for its slot.
type callSlots struct {
	ch  chan struct{}
	obs ClearingObserver
}

// ClearingObserver is told how long a clearing shard's steps took, for
// metrics: ClearingStageInvoice, an invoice's ClearInvoice in the shard
// (from its start to its answer); ClearingStageSlotWait, a call's wait
// for one of the shard's slots for calls to the authority. A
// CallObserver that is one is told.
type ClearingObserver interface {
	ObserveClearing(stage string, d time.Duration)
}

// Stages of ClearingObserver.
const (
	ClearingStageInvoice  = "invoice"
	ClearingStageSlotWait = "slot_wait"
)

type callSlotsKey struct{}

// slotted is a connection whose calls each take one of slots for their
// duration: the invoices of a clearing shard share its slots.
type slotted struct {
	submissions.Connection
	slots *callSlots
}

// withSlots is conn bounded by the slots ctx carries (ClearShard's), or
// conn itself. A connection that reports keeps doing so.
func withSlots(ctx context.Context, conn submissions.Connection) submissions.Connection {
	slots, _ := ctx.Value(callSlotsKey{}).(*callSlots)
	if slots == nil {
		return conn
	}
	s := &slotted{Connection: conn, slots: slots}
	if rp, ok := conn.(submissions.Reporter); ok {
		return &slottedReporter{slotted: s, rp: rp}
	}
	return s
}

// take waits for a slot: the returned error is ctx's when it ended first.
func (s *slotted) take(ctx context.Context) error {
	select {
	case s.slots.ch <- struct{}{}:
		if s.slots.obs != nil {
			s.slots.obs.ObserveClearing(ClearingStageSlotWait, 0)
		}
		return nil
	default:
	}
	began := time.Now()
	select {
	case s.slots.ch <- struct{}{}:
		if s.slots.obs != nil {
			s.slots.obs.ObserveClearing(ClearingStageSlotWait, time.Since(began))
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slotted) give() { <-s.slots.ch }

// noSlot is the exchange and error of a call that never left for want
// of a slot (the shard is stopping).
func noSlot(call string, err error) (*submissions.Exchange, error) {
	return &submissions.Exchange{}, &submissions.CallError{Message: call + " not sent: " + err.Error(), Retryable: true, NotSent: true, Err: err}
}

func (s *slotted) Validate(ctx context.Context, inv *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		return noSlot(call, err)
	}
	defer s.give()
	return s.Connection.Validate(ctx, inv, call)
}

func (s *slotted) Send(ctx context.Context, inv *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		return noSlot(call, err)
	}
	defer s.give()
	return s.Connection.Send(ctx, inv, call)
}

func (s *slotted) Find(ctx context.Context, inv *model.SubmittedInvoice, call string) (bool, *submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		ex, err := noSlot(call, err)
		return false, ex, err
	}
	defer s.give()
	return s.Connection.Find(ctx, inv, call)
}

func (s *slotted) Confirm(ctx context.Context, inv *model.SubmittedInvoice) (submissions.Confirmation, *submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		ex, err := noSlot(submissions.CallConfirm, err)
		return submissions.Confirmation{}, ex, err
	}
	defer s.give()
	return s.Connection.Confirm(ctx, inv)
}

func (s *slotted) UpdatePayment(ctx context.Context, inv *model.SubmittedInvoice, in submissions.PaymentInput) (*submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		return noSlot("update_payment", err)
	}
	defer s.give()
	return s.Connection.UpdatePayment(ctx, inv, in)
}

// slottedReporter is a slotted connection that reports.
type slottedReporter struct {
	*slotted
	rp submissions.Reporter
}

func (s *slottedReporter) ReportOperations() []string { return s.rp.ReportOperations() }

func (s *slottedReporter) Report(ctx context.Context, inv *model.SubmittedInvoice, paidAt time.Time) (*submissions.Exchange, error) {
	if err := s.take(ctx); err != nil {
		return noSlot("report", err)
	}
	defer s.give()
	return s.rp.Report(ctx, inv, paidAt)
}

func keys(m map[uuid.UUID]bool) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	return out
}

// wakeInterval is the least time between two wakes of one shard sent by
// one process: wakes in between are coalesced into one sent after it.
// While ClearShard runs (it reads the shard until it stayed empty for its
// Idle, longer than this) the wakes are not needed; a shard that went idle
// just before is woken at most this late.
const wakeInterval = time.Second

// WakeClearing wakes a project's clearing shard (submissions.Clearer):
// one signal-with-start, sent in the background; wakes of the same shard
// while one is being sent, or within wakeInterval of it, are coalesced
// into one more sent after it, so that a wake always follows the last
// call. A wake that fails is logged; the worker's sweep (SweepClearing)
// makes it up.
func (s *Starter) WakeClearing(projectID, organizationID uuid.UUID, shard int) {
	in := ClearingInput{ProjectID: projectID, OrganizationID: organizationID, Shard: shard}
	id := ClearingID(projectID, shard)
	s.wakeMu.Lock()
	if s.wakes == nil {
		s.wakes = map[string]*bool{}
	}
	if pending, ok := s.wakes[id]; ok {
		*pending = true
		s.wakeMu.Unlock()
		return
	}
	pending := new(bool)
	s.wakes[id] = pending
	s.wakeMu.Unlock()
	go func() {
		for {
			if err := s.signalClearing(context.Background(), id, in); err != nil {
				s.log.Warn("invoice clearing shard not woken", "workflow_id", id, "error", err.Error())
			}
			time.Sleep(wakeInterval)
			s.wakeMu.Lock()
			if !*pending {
				delete(s.wakes, id)
				s.wakeMu.Unlock()
				return
			}
			*pending = false
			s.wakeMu.Unlock()
		}
	}()
}

// signalClearing sends one wake to a shard, starting its workflow when
// none runs.
func (s *Starter) signalClearing(ctx context.Context, id string, in ClearingInput) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, err := s.c.SignalWithStartWorkflow(ctx, id, ClearingWakeSignal, nil, client.StartWorkflowOptions{
		ID: id, TaskQueue: s.taskQueue,
		Priority:              temporal.Priority{FairnessKey: FairnessKey(in.OrganizationID)},
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, ClearingWorkflowName, in)
	return err
}

// Sweep of the clearing shards: how often, and how old an invoice of a
// shard must be to count as missed.
const (
	DefaultClearingSweepEvery = 15 * time.Second
	DefaultClearingSweepAge   = 10 * time.Second
)

// SweepClearing wakes, every `every` until ctx ends, the clearing shards
// owning an invoice accepted more than `age` ago (zero: the defaults): a
// wake lost with the process that accepted it, or refused by an
// unreachable engine, is made up within half a minute.
func SweepClearing(ctx context.Context, steps *submissions.Steps, s *Starter, every, age time.Duration) {
	if every <= 0 {
		every = DefaultClearingSweepEvery
	}
	if age <= 0 {
		age = DefaultClearingSweepAge
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		shards, err := steps.StaleClearing(ctx, age, 1000)
		if err != nil {
			s.log.Warn("invoice clearing shards not swept", "error", err.Error())
			continue
		}
		for _, sh := range shards {
			s.WakeClearing(sh.ProjectID, sh.OrganizationID, sh.Shard)
		}
	}
}

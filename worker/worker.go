// Package worker builds the Temporal worker of einvoice: it polls the
// certification task queue and runs the CertificationRun workflow and its
// activities and the invoice workflows, and the webhook task queue, with
// slots of its own, for the WebhookDelivery workflow and its activities. `einvoice worker` runs it against TEMPORAL_ADDRESS;
// `einvoice dev` runs it in-process next to an embedded Temporal server
// (worker/devtemporal). It builds no HTTP server: what it needs of the
// application is the runs' steps (app.NewWorker).
package worker

import (
	"errors"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/workflows"
)

// Defaults of Options. A step spends most of its time waiting on the
// authority and the database, so many activities run at once; several
// pollers keep a run's next task from queueing behind another run's.
const (
	DefaultActivityPollers      = 8
	DefaultWorkflowPollers      = 4
	DefaultConcurrentActivities = 200
	// DefaultConcurrentDeliveries bounds the webhook deliveries in flight
	// at once on the webhook task queue; each waits at most the delivery
	// timeout on a receiver.
	DefaultConcurrentDeliveries = 50
)

// Options configures New.
type Options struct {
	// Runs is the activities' entry point to the database and the use
	// cases they share with the API (app.Worker's Steps). Required.
	Runs *runs.Steps
	// Webhooks is the delivery activities' entry point (app.Worker's
	// Deliveries); nil leaves webhook deliveries to other workers.
	Webhooks *webhooks.Deliveries
	// MBS builds the tax authority client of a project; default
	// workflows.NewMBSClient.
	MBS func(c *authority.Credentials) (*mbs.Client, error)
	// Submissions is the invoice workflow activities' entry point to the
	// database (app.Worker's Submissions); nil registers no invoice
	// workflow.
	Submissions *submissions.Steps
	// Inbox, when set, registers the inbox pull (its clients are
	// SubmissionMBS's).
	Inbox *inbox.Steps
	// SubmissionMBS builds the tax authority client of invoice
	// submissions; default workflows.SubmissionClients with the strict
	// egress policy.
	SubmissionMBS func(c *authority.Credentials) (*mbs.Client, error)
	// SubmissionCallTimeout is the timeout of SubmissionMBS's clients
	// (workflows.InvoiceActivitiesConfig.CallTimeout); default
	// workflows.DefaultSubmissionCallTimeout.
	SubmissionCallTimeout time.Duration
	// Gateway, when set, is the tax authority invoices are submitted to
	// (workflows.InvoiceActivitiesConfig.Gateway) instead of NRS through
	// SubmissionMBS and Breakers.
	Gateway submissions.Gateway
	// ClearingConcurrency is how many invoices a clearing shard clears at
	// once on this worker; default workflows.DefaultClearingConcurrency.
	ClearingConcurrency int
	// ClearingInFlight is how many calls to the authority a clearing
	// shard has under way at once; default
	// workflows.DefaultClearingInFlight.
	ClearingInFlight int
	// Breakers are the circuit breakers SubmissionMBS's clients go
	// through (workflows.SubmissionClientsWith): while one of a first
	// endpoint is not closed, invoices wait in their project's queue.
	Breakers *mbs.Breakers
	// Metrics observes the invoice workflows' calls and states.
	Metrics workflows.CallObserver
	// Logger receives the activities' failures to record evidence; default
	// slog.Default().
	Logger *slog.Logger
	// TaskQueue is the queue polled; default workflows.TaskQueue.
	TaskQueue string
	// WebhookTaskQueue is the queue of webhook deliveries, polled by a
	// worker of its own with MaxConcurrentDeliveries slots, so that slow
	// receivers never take the slots of runs and invoices. Its default is
	// workflows.WebhookTaskQueue when TaskQueue is the default, and none
	// when TaskQueue is set (a caller with a queue of its own names its
	// webhook queue too). Deliveries started on TaskQueue (before the
	// webhook queue existed, or by a starter given TaskQueue) are still
	// run there: the webhook workflow stays registered on both.
	WebhookTaskQueue string
	// MaxConcurrentDeliveries bounds the delivery activities executing at
	// once on WebhookTaskQueue; zero means DefaultConcurrentDeliveries.
	MaxConcurrentDeliveries int
	// ActivityPollers and WorkflowPollers are the numbers of concurrent
	// long polls per task type; MaxConcurrentActivities bounds the
	// activities executing at once. Zero means the defaults.
	ActivityPollers         int
	WorkflowPollers         int
	MaxConcurrentActivities int
}

// Worker is einvoice's worker: one Temporal worker on the certification
// task queue and, when webhooks are delivered, one on the webhook task
// queue. Start, Stop and Run act on both.
type Worker struct {
	main   sdkworker.Worker
	hooks  sdkworker.Worker // nil without a webhook task queue
	queues []string
	fatal  chan error // the first fatal error of either worker
}

// Start starts the workers; if the second cannot start, the first is
// stopped again.
func (w *Worker) Start() error {
	if err := w.main.Start(); err != nil {
		return err
	}
	if w.hooks != nil {
		if err := w.hooks.Start(); err != nil {
			w.main.Stop()
			return err
		}
	}
	return nil
}

// Stop stops the workers, the webhook one first.
func (w *Worker) Stop() {
	if w.hooks != nil {
		w.hooks.Stop()
	}
	w.main.Stop()
}

// Run starts the workers and blocks until interrupt is closed or sends, or
// either worker fails for good (its namespace gone, say), then stops them;
// it returns that failure.
func (w *Worker) Run(interrupt <-chan any) error {
	if err := w.Start(); err != nil {
		return err
	}
	var err error
	select {
	case <-interrupt:
	case err = <-w.fatal:
	}
	w.Stop()
	return err
}

// TaskQueues are the queues polled: the certification one, then the webhook
// one if any.
func (w *Worker) TaskQueues() []string { return w.queues }

// New builds a worker on the certification task queue with the workflow
// and activities registered, and one on the webhook task queue when
// opts.Webhooks is set. Start it with Start or Run; stop it before closing
// c.
func New(c client.Client, opts Options) (*Worker, error) {
	if c == nil {
		return nil, errors.New("worker: a Temporal client is required")
	}
	acts, err := workflows.NewActivities(workflows.ActivitiesConfig{Runs: opts.Runs, MBS: opts.MBS, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	if opts.ActivityPollers <= 0 {
		opts.ActivityPollers = DefaultActivityPollers
	}
	if opts.WorkflowPollers <= 0 {
		opts.WorkflowPollers = DefaultWorkflowPollers
	}
	if opts.MaxConcurrentActivities <= 0 {
		opts.MaxConcurrentActivities = DefaultConcurrentActivities
	}
	if opts.TaskQueue == "" {
		opts.TaskQueue = workflows.TaskQueue
		if opts.WebhookTaskQueue == "" {
			opts.WebhookTaskQueue = workflows.WebhookTaskQueue
		}
	}
	if opts.MaxConcurrentDeliveries <= 0 {
		opts.MaxConcurrentDeliveries = DefaultConcurrentDeliveries
	}
	fatal := make(chan error, 2)
	onFatal := func(err error) {
		select {
		case fatal <- err:
		default:
		}
	}
	w := sdkworker.New(c, opts.TaskQueue, sdkworker.Options{
		OnFatalError:                           onFatal,
		MaxConcurrentActivityTaskPollers:       opts.ActivityPollers,
		MaxConcurrentWorkflowTaskPollers:       opts.WorkflowPollers,
		MaxConcurrentActivityExecutionSize:     opts.MaxConcurrentActivities,
		MaxConcurrentWorkflowTaskExecutionSize: opts.MaxConcurrentActivities,
	})
	var hw sdkworker.Worker
	w.RegisterWorkflowWithOptions(workflows.CertificationRun, workflow.RegisterOptions{Name: workflows.WorkflowName})
	w.RegisterActivity(acts)
	if opts.Webhooks != nil {
		hooks, err := workflows.NewWebhookActivities(opts.Webhooks)
		if err != nil {
			return nil, err
		}
		w.RegisterWorkflowWithOptions(workflows.WebhookDelivery, workflow.RegisterOptions{Name: workflows.WebhookWorkflowName})
		w.RegisterActivity(hooks)
		if opts.WebhookTaskQueue != "" && opts.WebhookTaskQueue != opts.TaskQueue {
			hw = sdkworker.New(c, opts.WebhookTaskQueue, sdkworker.Options{
				OnFatalError:                           onFatal,
				MaxConcurrentActivityTaskPollers:       2,
				MaxConcurrentWorkflowTaskPollers:       2,
				MaxConcurrentActivityExecutionSize:     opts.MaxConcurrentDeliveries,
				MaxConcurrentWorkflowTaskExecutionSize: opts.MaxConcurrentDeliveries,
			})
			hw.RegisterWorkflowWithOptions(workflows.WebhookDelivery, workflow.RegisterOptions{Name: workflows.WebhookWorkflowName})
			hw.RegisterActivity(hooks)
		}
	}
	if opts.Submissions != nil {
		inv, err := workflows.NewInvoiceActivities(workflows.InvoiceActivitiesConfig{
			Steps: opts.Submissions, MBS: opts.SubmissionMBS, CallTimeout: opts.SubmissionCallTimeout,
			Metrics: opts.Metrics, Logger: opts.Logger, Breakers: opts.Breakers, Gateway: opts.Gateway, Queue: c, QueueTaskQueue: opts.TaskQueue})
		if err != nil {
			return nil, err
		}
		w.RegisterWorkflowWithOptions(workflows.InvoiceSubmission, workflow.RegisterOptions{Name: workflows.InvoiceWorkflowName})
		w.RegisterWorkflowWithOptions(workflows.InvoicePaymentUpdate, workflow.RegisterOptions{Name: workflows.PaymentWorkflowName})
		w.RegisterWorkflowWithOptions(workflows.PaymentReport, workflow.RegisterOptions{Name: workflows.PaymentReportWorkflowName})
		w.RegisterWorkflowWithOptions(workflows.InvoiceQueueDrain, workflow.RegisterOptions{Name: workflows.QueueDrainWorkflowName})
		w.RegisterActivity(inv)
		clearing, err := workflows.NewClearingActivities(inv, workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: opts.TaskQueue, Logger: opts.Logger}))
		if err != nil {
			return nil, err
		}
		if opts.ClearingConcurrency > 0 {
			clearing.Concurrency = opts.ClearingConcurrency
		}
		if opts.ClearingInFlight > 0 {
			clearing.InFlight = opts.ClearingInFlight
		}
		w.RegisterWorkflowWithOptions(workflows.InvoiceClearing, workflow.RegisterOptions{Name: workflows.ClearingWorkflowName})
		w.RegisterActivity(clearing)
	}
	if opts.Inbox != nil {
		clients := opts.SubmissionMBS
		if clients == nil {
			clients = workflows.SubmissionClientsWith(egress.Policy{}, opts.SubmissionCallTimeout, opts.Breakers)
		}
		pull, err := workflows.NewInboxActivities(opts.Inbox, clients, opts.Logger)
		if err != nil {
			return nil, err
		}
		w.RegisterWorkflowWithOptions(workflows.InboxPull, workflow.RegisterOptions{Name: workflows.InboxWorkflowName})
		w.RegisterActivity(pull)
	}
	out := &Worker{main: w, hooks: hw, queues: []string{opts.TaskQueue}, fatal: fatal}
	if hw != nil {
		out.queues = append(out.queues, opts.WebhookTaskQueue)
	}
	return out, nil
}

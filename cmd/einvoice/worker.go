package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"golang.org/x/sync/errgroup"

	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
)

// defaultTemporalNamespace is used when TEMPORAL_NAMESPACE is unset.
const defaultTemporalNamespace = "default"

// temporalDialWait bounds how long the worker waits for Temporal at start
// (a container started alongside it may take a while).
const temporalDialWait = 2 * time.Minute

// runWorker runs the Temporal worker of certification runs, configured like
// the api plus TEMPORAL_ADDRESS. It builds only what polling the task queue
// needs: the database, the runs' steps and what they use (app.NewWorker),
// and the Temporal client; no API, GraphQL, Redis or background jobs of the
// API. With EINVOICE_WORKER_HTTP_ADDR it also serves /health, /ready and
// /metrics there (workerProbes).
func runWorker(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("worker takes no arguments; configure it with EINVOICE_* and TEMPORAL_* environment variables")
	}
	c, err := envConfig(getenv)
	if err != nil {
		return err
	}
	if c.TemporalAddress == "" {
		return errors.New("missing required configuration: TEMPORAL_ADDRESS (host:port of the Temporal frontend, e.g. temporal:7233)")
	}
	log := newLogger(stderr, c.LogLevel)
	// The probes' listener is opened first, so that an address in use
	// fails the start at once rather than after Temporal is reached.
	var probes *workerProbes
	if addr := getenv("EINVOICE_WORKER_HTTP_ADDR"); addr != "" {
		if probes, err = newWorkerProbes(addr, c, log); err != nil {
			return err
		}
		defer probes.close()
	}
	st, err := openStore(ctx, c, log)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := appConfig(c, log)
	if err != nil {
		return err
	}
	topts := c.temporalOptions(stderr)
	if probes != nil {
		topts.MetricsHandler = probes.temporal
	}
	tc, err := dialTemporal(ctx, topts, log)
	if err != nil {
		return err
	}
	defer tc.Close()
	registerSearchAttributes(ctx, tc, c.TemporalNamespace, log)
	cfg.Webhooks.Engine = workflows.NewWebhookStarter(tc, workflows.StarterOptions{})
	steps, err := application.NewWorker(st, cfg)
	if err != nil {
		return err
	}
	defer steps.Close()
	wopts := worker.Options{Runs: steps.Steps, Webhooks: steps.Deliveries, Logger: log, MBS: workflows.MBSClientsWith(c.Egress, c.Breakers),
		Submissions: steps.Submissions, SubmissionMBS: workflows.SubmissionClientsWith(c.Egress, 0, c.Breakers), Breakers: c.Breakers,
		ClearingConcurrency: c.Queue.ClearingConcurrency, ClearingInFlight: c.Queue.ClearingInFlight,
		Inbox: steps.Inbox}
	if probes != nil {
		wopts.Metrics = probes.invoices
	}
	w, err := worker.New(tc, wopts)
	if err != nil {
		return err
	}
	// The webhook dispatcher drains the events outbox into delivery
	// workflows while the worker polls.
	dispatcher, err := steps.Dispatcher()
	if err != nil {
		return err
	}
	if err := deliverFirst(dispatcher, steps.Deliveries); err != nil {
		return err
	}
	dctx, stopDispatch := context.WithCancel(ctx)
	dispatched := make(chan struct{})
	go func() { defer close(dispatched); dispatcher.Run(dctx, 0) }()
	defer func() { stopDispatch(); <-dispatched }()
	// Every configured project's inbox is pulled on a schedule.
	pulled := make(chan struct{})
	go func() {
		defer close(pulled)
		steps.Inbox.Schedule(dctx, c.Queue.InboxInterval, workflows.NewStarter(tc, workflows.StarterOptions{Namespace: c.TemporalNamespace}))
	}()
	defer func() { stopDispatch(); <-pulled }()
	// Clearing shards whose wake was lost are woken again.
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		workflows.SweepClearing(dctx, steps.Submissions, workflows.NewStarter(tc, workflows.StarterOptions{Namespace: c.TemporalNamespace, Logger: log}), 0, 0)
	}()
	defer func() { stopDispatch(); <-swept }()
	log.Info("einvoice worker polling", "temporal", c.TemporalAddress, "namespace", c.TemporalNamespace,
		"task_queues", w.TaskQueues(), "version", version, "database", st.Dialect())
	// The worker's view of NRS (its circuit breakers) is shared through the
	// database, so that the API's /health shows it.
	hctx, stopHealth := context.WithCancel(ctx)
	healthDone := make(chan struct{})
	go func() { defer close(healthDone); steps.NRSHealth.Run(hctx) }()
	defer func() { stopHealth(); <-healthDone }()
	g, gctx := errgroup.WithContext(ctx)
	if probes != nil {
		h := probes.handler(steps, workflows.NewStarter(tc, workflows.StarterOptions{Namespace: c.TemporalNamespace}))
		g.Go(func() error { return probes.serve(gctx, h, log) })
	}
	g.Go(func() error {
		stop := make(chan any)
		go func() {
			<-gctx.Done()
			close(stop)
		}()
		return w.Run(stop)
	})
	return g.Wait()
}

// registerSearchAttributes registers the workflows' search attributes in
// the namespace (a no-op when they are). A refusal (a cluster that does not
// grant the operator API to workers) is logged: runs still start, without
// the attributes, until an operator creates them with the Temporal CLI.
func registerSearchAttributes(ctx context.Context, tc client.Client, namespace string, log *slog.Logger) {
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := workflows.RegisterSearchAttributes(rctx, tc, namespace, workflows.SearchAttributes()...); err != nil {
		names := make([]string, 0, len(workflows.SearchAttributes()))
		for _, k := range workflows.SearchAttributes() {
			names = append(names, k.GetName())
		}
		log.Warn("Temporal search attributes not registered; create them with `temporal operator search-attribute create` (docs/api-guide.md, Temporal search attributes)",
			"namespace", namespace, "attributes", strings.Join(names, ","), "error", err.Error())
	}
}

// temporalLogger is the SDK's logger: warnings and errors only, so that
// the SDK's routine lines do not drown the service's.
func temporalLogger(stderr io.Writer) sdklog.Logger {
	return sdklog.NewStructuredLogger(newLogger(stderr, "warn").With("component", "temporal-sdk"))
}

// dialTemporal connects to Temporal, retrying while it is not up yet.
func dialTemporal(ctx context.Context, opts client.Options, log *slog.Logger) (client.Client, error) {
	addr := opts.HostPort
	deadline := time.Now().Add(temporalDialWait)
	for {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		c, err := client.DialContext(dctx, opts)
		cancel()
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return nil, fmt.Errorf("connect to Temporal at %s: %w", addr, err)
		}
		log.Warn("Temporal not reachable yet; retrying", "temporal", addr, "error", err.Error())
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// temporalStarter connects the api to Temporal lazily, so that the api
// starts (and serves everything else) while Temporal is down; a run started
// then answers 503. Without an address it returns nils.
func temporalStarter(opts client.Options) (client.Client, *workflows.Starter, error) {
	if opts.HostPort == "" {
		return nil, nil, nil
	}
	c, err := client.NewLazyClient(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("TEMPORAL_ADDRESS %q: %w", opts.HostPort, err)
	}
	return c, workflows.NewStarter(c, workflows.StarterOptions{Namespace: opts.Namespace}), nil
}

// temporalCheck is the /health check of Temporal.
func temporalCheck(s *workflows.Starter) func(context.Context) error {
	if s == nil {
		return func(context.Context) error { return errors.New("TEMPORAL_ADDRESS is not set") }
	}
	return s.Check
}

// deliverFirst has the dispatcher make each delivery's first attempt
// itself, with the delivery activities' client and records: a workflow
// is started only for a delivery that needs a retry.
func deliverFirst(d *webhooks.Dispatcher, deliveries *webhooks.Deliveries) error {
	wa, err := workflows.NewWebhookActivities(deliveries)
	if err != nil {
		return err
	}
	d.DeliverFirst(wa.DeliverFirst)
	return nil
}

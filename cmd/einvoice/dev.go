//go:build !prod

package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"

	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/worker/devtemporal"
	"github.com/einvoice-ng/einvoice/workflows"
)

// runDev runs the whole service on embedded defaults: the API, a Temporal
// server with its Web UI (state under the data dir, so runs survive a
// restart), the worker of certification runs and the NRS sandbox stand-in.
func runDev(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "HTTP listen address")
	dataDir := fs.String("data-dir", "./data", "directory for the SQLite databases and generated secrets")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	temporalAddr := fs.String("temporal-addr", devtemporal.DefaultFrontendAddr, "Temporal frontend (gRPC) listen address")
	temporalUIAddr := fs.String("temporal-ui-addr", "127.0.0.1:8233", "Temporal Web UI listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		return err
	}
	secrets, err := loadDevSecrets(dir)
	if err != nil {
		return err
	}
	c := &config{DatabaseURL: filepath.Join(dir, "einvoice.db"), HTTPAddr: *addr, AutoMigrate: true, LogLevel: *logLevel}
	for _, kv := range []struct {
		dst *[]byte
		src string
	}{{&c.JWTSecret, secrets.JWTSecret}, {&c.EncryptionKey, secrets.EncryptionKey}, {&c.APIKeyPepper, secrets.APIKeyPepper}, {&c.AuditKey, secrets.AuditKey}} {
		if *kv.dst, err = base64.StdEncoding.DecodeString(kv.src); err != nil {
			return fmt.Errorf("data dir secrets: %w", err)
		}
	}
	c.TokenTTL = defaultTokenTTL
	// Usage is journalled beside the database, so a killed dev server
	// loses no count.
	c.UsageJournalDir = filepath.Join(dir, "usage-journal")
	// Rate limits, Redis, metrics and GraphQL read the same variables as
	// `einvoice api`; unset, the limits are the defaults, kept in memory,
	// and GraphiQL, introspection and /metrics are open.
	if c.Ops, err = opsFromEnv(getenv, modeDev); err != nil {
		return err
	}
	if c.Quotas, err = quotasFromEnv(getenv); err != nil {
		return err
	}
	if c.Idempotency, err = idempotencyFromEnv(getenv); err != nil {
		return err
	}
	// Development runs authorities on this host: special-purpose addresses
	// are allowed unless EINVOICE_EGRESS_ALLOW_PRIVATE=false.
	if c.Breakers, err = breakersFromEnv(getenv); err != nil {
		return err
	}
	if c.Queue, err = queueFromEnv(getenv); err != nil {
		return err
	}
	if c.Egress, err = egressFromEnv(getenv, true); err != nil {
		return err
	}
	// Webhook endpoints may be on this host and use plain http, unless
	// EINVOICE_WEBHOOK_ALLOW_PRIVATE or _HTTP say false.
	if c.Webhooks, err = webhooksFromEnv(getenv, true); err != nil {
		return err
	}
	// Payloads written to the dev Temporal server are encrypted like
	// everywhere else; its Web UI decodes them through the same codec.
	if c.TemporalCodec, err = payloadCodecFromEnv(getenv, c.EncryptionKey); err != nil {
		return err
	}
	log := newLogger(stderr, c.LogLevel)

	ln, err := listen(c.HTTPAddr)
	if err != nil {
		return err
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String()

	// Deferred calls run in reverse: after the HTTP server has stopped, the
	// worker stops, then the client closes, then the Temporal server.
	ts, err := devtemporal.Start(ctx, devtemporal.Options{
		DataDir: filepath.Join(dir, "temporal"), FrontendAddr: *temporalAddr, UIAddr: *temporalUIAddr, Logger: log,
		Codec: c.TemporalCodec,
	})
	if err != nil {
		return err
	}
	defer ts.Stop() //nolint:errcheck // logged by Stop
	c.TemporalAddress, c.TemporalNamespace = ts.FrontendAddr(), ts.Namespace()
	// /metrics serves the Temporal SDK's metrics (workflow tasks,
	// activities, local activities, polls) beside einvoice's own.
	reg := prometheus.NewRegistry()
	sdkMetrics, closeSDKMetrics := worker.TemporalMetrics(reg, func(err error) {
		log.Warn("a Temporal SDK metric is not exported", "error", err.Error())
	})
	defer closeSDKMetrics.Close() //nolint:errcheck // only stops the reporting
	topts := c.temporalOptions(stderr)
	topts.MetricsHandler = sdkMetrics
	tc, err := client.DialContext(ctx, topts)
	if err != nil {
		return fmt.Errorf("connect to the dev Temporal server: %w", err)
	}
	defer tc.Close()
	// The search attributes operators filter runs by (ProjectId, ...).
	if err := workflows.RegisterSearchAttributes(ctx, tc, ts.Namespace(), workflows.SearchAttributes()...); err != nil {
		return fmt.Errorf("register the search attributes on the dev Temporal server: %w", err)
	}
	starter := workflows.NewStarter(tc, workflows.StarterOptions{Logger: log, Namespace: c.TemporalNamespace})
	c.Webhooks.Engine = workflows.NewWebhookStarter(tc, workflows.StarterOptions{})

	// The stand-in keeps its state in a database of its own under the data
	// dir, so certification runs survive a restart of this process.
	sc, err := sandboxFromEnv(getenv, "")
	if err != nil {
		return err
	}
	if sc.DatabaseURL == "" {
		sc.DatabaseURL = filepath.Join(dir, "nrs-sandbox.db")
	}
	sandbox, sandboxDB, err := openStandIn(ctx, sc, nrssandbox.Options{SealKey: standInSealKey(c.EncryptionKey)}, log)
	if err != nil {
		return fmt.Errorf("NRS sandbox stand-in: %w", err)
	}
	defer sandboxDB.Close()
	c.SandboxBaseURL = base + sandboxPrefix
	c.SandboxRegistrar = sandbox
	c.Runs, c.Submissions, c.Inbox = starter, starter, starter
	c.TemporalNamespace = ts.Namespace()
	if ts.UIAddr() != "" {
		c.TemporalUIURL = "http://" + ts.UIAddr()
	}
	invoiceMetrics := worker.NewMetrics()
	a, err := buildApp(ctx, c, log, rest.Options{
		Registry:        reg,
		Collectors:      invoiceMetrics.Collectors(),
		HealthChecks:    map[string]func(context.Context) error{"temporal": starter.Check},
		ReadinessChecks: map[string]func(context.Context) error{"temporal": starter.Check},
		Mount:           func(r chi.Router) { r.Mount(sandboxPrefix, sandbox) },
	})
	if err != nil {
		return err
	}
	defer a.close(context.WithoutCancel(ctx)) //nolint:errcheck // logged by close's callers
	n, err := a.svc.Portal.RegisterSandboxBusinesses(ctx)
	if err != nil {
		return fmt.Errorf("register sandbox projects with the NRS sandbox stand-in: %w", err)
	}
	log.Info("sandbox projects registered with the NRS sandbox stand-in", "count", n)

	w, err := worker.New(tc, worker.Options{Runs: a.svc.Steps, Webhooks: a.svc.Deliveries, Logger: log, MBS: workflows.MBSClientsWith(c.Egress, c.Breakers),
		Submissions: a.svc.SubmissionSteps, SubmissionMBS: workflows.SubmissionClientsWith(c.Egress, 0, c.Breakers), Breakers: c.Breakers, Metrics: invoiceMetrics,
		ClearingConcurrency: c.Queue.ClearingConcurrency, ClearingInFlight: c.Queue.ClearingInFlight,
		Inbox: a.svc.InboxSteps})
	if err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return fmt.Errorf("start the worker: %w", err)
	}
	defer w.Stop()
	dispatcher, err := a.svc.Dispatcher()
	if err != nil {
		return err
	}
	if err := deliverFirst(dispatcher, a.svc.Deliveries); err != nil {
		return err
	}
	dctx, stopDispatch := context.WithCancel(ctx)
	dispatched := make(chan struct{})
	go func() { defer close(dispatched); dispatcher.Run(dctx, 0) }()
	defer func() { stopDispatch(); <-dispatched }()
	// Every configured project's inbox is pulled on a schedule.
	pulled := make(chan struct{})
	go func() { defer close(pulled); a.svc.InboxSteps.Schedule(dctx, c.Queue.InboxInterval, starter) }()
	defer func() { stopDispatch(); <-pulled }()
	// Clearing shards whose wake was lost are woken again.
	swept := make(chan struct{})
	go func() { defer close(swept); workflows.SweepClearing(dctx, a.svc.SubmissionSteps, starter, 0, 0) }()
	defer func() { stopDispatch(); <-swept }()

	ui := "disabled"
	if ts.UIAddr() != "" {
		ui = "http://" + ts.UIAddr()
	}
	metrics := base + "/metrics"
	switch {
	case c.Ops.MetricsAddr != "":
		metrics = "http://" + c.Ops.MetricsAddr + "/metrics"
	case c.Ops.MetricsToken != "":
		metrics += " (bearer EINVOICE_METRICS_TOKEN)"
	}
	fmt.Fprintf(stdout, `einvoice %s (dev)
  Portal       %s/
  API          %s/api/v2
  GraphQL      %s/graphql
  Health       %s/health
  Docs         %s/docs
  Metrics      %s
  NRS sandbox  %s%s/api
  Temporal     %s (namespace %s, task queues %s)
  Temporal UI  %s
  Data         %s
Press Ctrl+C to stop.
`, version, base, base, base, base, base, metrics, base, sandboxPrefix, ts.FrontendAddr(), ts.Namespace(), strings.Join(w.TaskQueues(), ", "), ui, dir)
	return a.serve(ctx, ln, c.Ops.MetricsAddr, log)
}

package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
)

const defaultTokenTTL = time.Hour

// sandboxPrefix is where `einvoice dev` (and `einvoice api` with
// EINVOICE_NRS_SANDBOX_EMBEDDED) serves the NRS sandbox stand-in.
const sandboxPrefix = "/nrs-sandbox"

// runAPI runs the production API server from the environment.
func runAPI(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("api takes no arguments; configure it with EINVOICE_* environment variables")
	}
	c, err := envConfig(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, c.LogLevel)
	ln, err := listen(c.HTTPAddr)
	if err != nil {
		return err
	}
	defer ln.Close()
	// /metrics serves the Temporal SDK client's metrics (requests, their
	// latencies and failures: the workflow starts) beside einvoice's own.
	reg := prometheus.NewRegistry()
	sdkMetrics, closeSDKMetrics := worker.TemporalMetrics(reg, func(err error) {
		log.Warn("a Temporal SDK metric is not exported", "error", err.Error())
	})
	defer closeSDKMetrics.Close() //nolint:errcheck // only stops the reporting
	topts := c.temporalOptions(stderr)
	topts.MetricsHandler = sdkMetrics
	tc, starter, err := temporalStarter(topts)
	if err != nil {
		return err
	}
	if tc != nil {
		defer tc.Close()
		c.Runs, c.Submissions, c.Inbox = starter, starter, starter
		c.Webhooks.Engine = workflows.NewWebhookStarter(tc, workflows.StarterOptions{})
	} else {
		log.Warn("TEMPORAL_ADDRESS is not set: certification runs answer 503")
	}
	// /health shows Temporal; /ready requires it (its namespace answers).
	opts := rest.Options{
		Registry:        reg,
		HealthChecks:    map[string]func(context.Context) error{"temporal": temporalCheck(starter)},
		ReadinessChecks: map[string]func(context.Context) error{"temporal": temporalCheck(starter)},
	}
	var standIn *nrssandbox.Handler
	switch {
	case c.Sandbox.Embedded:
		// Serve the NRS sandbox stand-in from this process (any number of
		// api processes may, over one database). Workers reach it at
		// EINVOICE_NRS_SANDBOX_URL.
		if c.SandboxBaseURL == "" {
			return fmt.Errorf("EINVOICE_NRS_SANDBOX_EMBEDDED needs EINVOICE_NRS_SANDBOX_URL: the address where workers reach this process's %s (e.g. http://api:8080%s)", sandboxPrefix, sandboxPrefix)
		}
		h, db, err := openStandIn(ctx, c.Sandbox, nrssandbox.Options{SealKey: standInSealKey(c.EncryptionKey)}, log)
		if err != nil {
			return fmt.Errorf("NRS sandbox stand-in: %w", err)
		}
		defer db.Close()
		standIn, c.SandboxRegistrar = h, h
		opts.Mount = func(r chi.Router) { r.Mount(sandboxPrefix, h) }
	case c.SandboxBaseURL != "" && c.Sandbox.AdminToken != "":
		// The stand-in runs elsewhere (its own process, or embedded in
		// another api): register sandbox projects through its admin
		// endpoint.
		ac, err := nrssandbox.NewAdminClient(c.SandboxBaseURL, c.Sandbox.AdminToken, nil)
		if err != nil {
			return fmt.Errorf("EINVOICE_NRS_SANDBOX_URL: %w", err)
		}
		c.SandboxRegistrar = ac
	case c.SandboxBaseURL != "":
		log.Warn("EINVOICE_NRS_SANDBOX_URL is set without EINVOICE_NRS_SANDBOX_ADMIN_TOKEN: new sandbox projects are not registered with the NRS sandbox stand-in")
	}
	a, err := buildApp(ctx, c, log, opts)
	if err != nil {
		return err
	}
	defer a.close(context.WithoutCancel(ctx)) //nolint:errcheck
	if standIn != nil {
		n, err := a.svc.Portal.RegisterSandboxBusinesses(ctx)
		if err != nil {
			return fmt.Errorf("register sandbox projects with the NRS sandbox stand-in: %w", err)
		}
		log.Info("NRS sandbox stand-in served by this process", "path", sandboxPrefix, "sandbox_projects", n)
	} else if c.SandboxRegistrar != nil {
		// A stand-in elsewhere may start after this api: repair the
		// registrations in the background rather than refuse to start.
		done := make(chan struct{})
		defer func() { <-done }()
		go func() {
			defer close(done)
			n, err := a.svc.Portal.RegisterSandboxBusinesses(ctx)
			if err != nil {
				log.Warn("sandbox projects not all registered with the NRS sandbox stand-in; they are at the next start", "registered", n, "error", err.Error())
				return
			}
			log.Info("sandbox projects registered with the NRS sandbox stand-in", "url", c.SandboxBaseURL, "count", n)
		}()
	}
	if c.Ops.MetricsAddr == "" && c.Ops.MetricsToken == "" {
		log.Warn("/metrics is not served: set EINVOICE_METRICS_TOKEN to serve it behind a bearer token, or EINVOICE_METRICS_ADDR to serve it on a listener of its own")
	}
	log.Info("einvoice api listening", "addr", ln.Addr().String(), "version", version, "database", a.store.Dialect(),
		"temporal", c.TemporalAddress, "graphiql", c.Ops.GraphQL.GraphiQL, "introspection", c.Ops.GraphQL.Introspection)
	return a.serve(ctx, ln, c.Ops.MetricsAddr, log)
}

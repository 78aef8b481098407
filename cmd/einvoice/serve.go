package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/graph/portal"
	"github.com/einvoice-ng/einvoice/model"
	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrshealth"
	modelportal "github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/rest"
)

// newLogger builds the structured JSON logger.
func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil || level == "" {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}))
}

// authorities builds the registry of tax authorities. A new authority is a
// new package under model/ and one more entry here.
func authorities() (model.Authorities, error) {
	n, err := nrs.New(nrs.Options{})
	if err != nil {
		return nil, err
	}
	return model.NewAuthorities([]model.Authority{n}, map[string]string{"FIRS": nrs.Code}), nil
}

// app is a running API server's parts.
type app struct {
	store   *store.Store
	svc     *application.App
	handler http.Handler
	// metrics is the metrics handler when it is served on a listener of
	// its own (EINVOICE_METRICS_ADDR), else nil.
	metrics http.Handler
	stopOps func()
}

// openStore opens the database and, when asked, migrates it; the upgrade
// that keys the audit chain re-chains the entries written before under
// the audit key, once.
func openStore(ctx context.Context, c *config, log *slog.Logger) (*store.Store, error) {
	st, err := store.Open(ctx, c.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if !c.AutoMigrate {
		return st, nil
	}
	applied, err := st.Migrations().Up(ctx)
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "names", applied)
	}
	if slices.Contains(applied, store.AuditKeyingMigration) {
		n, err := st.Audit().Rechain(ctx, c.AuditKey)
		if err != nil {
			log.Error("audit entries not re-chained under the audit key; einvoice audit verify reports the chains", "error", err.Error())
		} else {
			log.Info("audit entries re-chained under the audit key", "entries", n)
		}
	}
	return st, nil
}

// appConfig is the application's configuration from c; the API adds its
// attempt limits.
func appConfig(c *config, log *slog.Logger) (application.Config, error) {
	box, err := secret.NewBox(c.EncryptionKey)
	if err != nil {
		return application.Config{}, err
	}
	reg, err := authorities()
	if err != nil {
		return application.Config{}, err
	}
	return application.Config{
		JWTSecret: c.JWTSecret, TokenTTL: c.TokenTTL, Box: box, Hasher: secret.NewHasher(c.APIKeyPepper), AuditKey: c.AuditKey,
		Authorities: reg, Logger: log, SandboxBaseURL: c.SandboxBaseURL, ProductionBaseURL: c.ProductionBaseURL, ReportBaseURL: c.ReportBaseURL,
		SandboxRegistrar: c.SandboxRegistrar, Runs: c.Runs, Submissions: c.Submissions, Inbox: c.Inbox, Quotas: c.Quotas, Idempotency: c.Idempotency, Egress: c.Egress,
		UsageJournalDir: c.UsageJournalDir,
		NRSHealth:       nrsLocal(c), SandboxFaults: sandboxFaults(c),
		Webhooks:    c.Webhooks,
		B2CDeadline: c.Queue.B2CWindow, DeadlineAtRiskMargin: c.Queue.AtRiskMargin, QueueRatePerMinute: c.Queue.RatePerMinute,
		ClearingShards: c.Queue.ClearingShards, ClearingBacklog: c.Queue.ClearingBacklog,
	}, nil
}

// sandboxFaults is the stand-in's fault switch when the process reaches it
// (in process, or through its admin endpoint).
func sandboxFaults(c *config) modelportal.SandboxFaults {
	if f, ok := c.SandboxRegistrar.(modelportal.SandboxFaults); ok {
		return f
	}
	return nil
}

// nrsLocal reads the process's circuit breakers, if it has any.
func nrsLocal(c *config) nrshealth.Local {
	if c.Breakers == nil {
		return nil
	}
	return breakersHealth(c.Breakers)
}

// buildApp opens the database, migrates it when asked and wires the
// application, the HTTP transports (REST, GraphQL, the portal, metrics) and
// the background jobs of the API process.
func buildApp(ctx context.Context, c *config, log *slog.Logger, mount rest.Options) (*app, error) {
	st, err := openStore(ctx, c, log)
	if err != nil {
		return nil, err
	}
	cfg, err := appConfig(c, log)
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	limits, closeLimits, err := c.Ops.limitStore(ctx, log)
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	cfg.Auth = c.Ops.authLimits(limits)
	svc, err := application.New(st, cfg)
	if err != nil {
		closeLimits()
		_ = st.Close()
		return nil, err
	}
	opts := mount
	opts.Version, opts.Logger, opts.TrustedProxies = version, log, c.TrustProxy
	gopts := c.Ops.GraphQL
	gopts.Logger = log
	gopts.RateLimit = rest.ProjectLimiter(rest.RateLimits{Sandbox: c.Ops.Limits.Sandbox, Production: c.Ops.Limits.Production, Store: limits})
	gopts.RateLimitN = rest.ProjectLimiterN(rest.RateLimits{Sandbox: c.Ops.Limits.Sandbox, Production: c.Ops.Limits.Production, Store: limits})
	gopts.TemporalUI, gopts.TemporalNamespace = c.TemporalUIURL, c.TemporalNamespace
	opts.GraphQL = graph.NewHandler(svc, gopts)
	opts.Portal = portal.Handler()
	a := &app{store: st, svc: svc}
	opts.NRSHealth = svc.NRSHealth.Health
	opts.Collectors = append(opts.Collectors, nrsHealthGauge(svc.NRSHealth.Health))
	if c.Breakers != nil {
		opts.Collectors = append(opts.Collectors, c.Breakers)
	}
	c.Ops.routerOptions(&opts, limits, &a.metrics)
	a.handler = rest.New(svc, opts)
	stopBackground := background(ctx, svc, log)
	hctx, stopHealth := context.WithCancel(ctx)
	healthDone := make(chan struct{})
	go func() { defer close(healthDone); svc.NRSHealth.Run(hctx) }()
	a.stopOps = func() {
		stopHealth()
		<-healthDone
		stopBackground()
		closeLimits()
	}
	return a, nil
}

// close stops background work, flushes usage and closes the database.
func (a *app) close(ctx context.Context) error {
	a.stopOps()
	return errors.Join(a.svc.Close(ctx), a.store.Close())
}

// serve serves the API on ln, and the metrics on their own listener when
// configured, until ctx ends; either failing stops both.
func (a *app) serve(ctx context.Context, ln net.Listener, metricsAddr string, log *slog.Logger) error {
	if a.metrics == nil {
		return serveHTTP(ctx, ln, a.handler, log)
	}
	mln, err := listen(metricsAddr)
	if err != nil {
		return err
	}
	defer mln.Close()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics)
	log.Info("metrics listening", "addr", mln.Addr().String())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return serveHTTP(gctx, ln, a.handler, log) })
	g.Go(func() error { return serveHTTP(gctx, mln, mux, log) })
	return g.Wait()
}

// listen opens the HTTP listener (so the banner can print the real address).
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// serveHTTP serves h on ln until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

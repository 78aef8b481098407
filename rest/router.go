package rest

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
)

// Options configure the router.
type Options struct {
	// Version is reported by /health.
	Version string
	// Logger receives request logs; default slog.Default().
	Logger *slog.Logger
	// MaxBodyBytes bounds request bodies; default 1 MiB.
	MaxBodyBytes int64
	// TrustedProxies are the proxies in front of the API whose
	// X-Forwarded-For entries tell the client's address (for rate limits
	// and the audit log); the zero value trusts none.
	TrustedProxies ProxyTrust
	// HealthChecks are extra dependency checks shown by /health, by name.
	HealthChecks map[string]func(context.Context) error
	// ReadinessChecks are extra checks /ready requires to pass, by name,
	// besides the database and its migrations (the api adds Temporal).
	ReadinessChecks map[string]func(context.Context) error
	// NRSHealth, when set, says how NRS answers in an environment (ok,
	// degraded or down, from the circuit breakers): /health shows it as
	// checks.nrs_sandbox and checks.nrs_production, and invoice routes
	// answer with NRS-Status while it is not ok.
	NRSHealth func(model.Environment) string
	// GraphQL, when set, is served at /graphql behind optional bearer
	// authentication (the same token check as the portal routes).
	GraphQL http.Handler
	// Mount adds routes (other transports, tools) to the root router.
	Mount func(r chi.Router)
	// Portal, when set, serves the web portal: GET and HEAD of every path
	// no route claims, outside the API's own prefixes.
	Portal http.Handler
	// RateLimits are the per-key and per-IP request limits; zero limits
	// impose none (cmd/einvoice applies the defaults).
	RateLimits RateLimits
	// Collectors are extra Prometheus collectors served at /metrics beside
	// the request metrics.
	Collectors []prometheus.Collector
	// Registry, when set, is the registry /metrics serves and the router
	// registers its metrics and Collectors into; the caller may register
	// more into it at any time (the Temporal SDK's metrics are registered
	// as they are first reported). Nil: a registry of the router's own.
	Registry *prometheus.Registry
	// MetricsToken, when set, is the bearer token /metrics requires.
	MetricsToken string
	// ExportMetrics, when set, takes the metrics handler instead of the
	// router serving it at /metrics: to serve it on another listener, or
	// nowhere (a function that drops it).
	ExportMetrics func(http.Handler)
	// RequestTimeout bounds the work of each request: its context ends
	// then, which stops database queries and calls to other services and
	// makes GraphQL stop resolving. WebSocket connections are exempt (their
	// lifetime is their token's). Default DefaultRequestTimeout; negative
	// imposes none.
	RequestTimeout time.Duration
	// InvoicesInFlight bounds a project's requests to the submitted
	// invoices' routes served at once by this process; default
	// DefaultInvoicesInFlight.
	InvoicesInFlight int
}

// DefaultRequestTimeout is Options.RequestTimeout's default: generous for
// a PDF rendering or a certification start, short of the HTTP server's
// write timeout.
const DefaultRequestTimeout = 30 * time.Second

type api struct {
	app     *app.App
	opts    Options
	log     *slog.Logger
	limits  LimitStore
	metrics *httpMetrics
	// limitErrAt is the Unix time a failing limit store was last logged.
	limitErrAt atomic.Int64
}

// New builds the REST router over the application svc.
func New(svc *app.App, opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	a := &api{app: svc, opts: opts, log: opts.Logger, limits: opts.RateLimits.Store}
	if a.limits == nil {
		a.limits = NewMemoryLimitStore(nil)
	}
	reg, m, err := newMetrics(svc, opts.Registry, opts.Collectors)
	if err != nil {
		panic("rest: register metrics: " + err.Error())
	}
	a.metrics = m

	r := chi.NewRouter()
	r.Use(a.requestID, a.recoverer, a.logRequests, a.limitBody)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		if opts.Portal != nil && isPortalPath(r) {
			opts.Portal.ServeHTTP(w, r)
			return
		}
		markUnmatched(w)
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		markUnmatched(w)
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method Not Allowed"})
	})

	r.Get("/health", a.adapt(a.health))
	r.Get("/ready", a.adapt(a.ready))
	if opts.ExportMetrics != nil {
		opts.ExportMetrics(metricsHandler(reg, opts.MetricsToken))
	} else {
		r.Handle("/metrics", metricsHandler(reg, opts.MetricsToken))
	}
	// The v2 routes sit in the root's own table (see prefixed), which
	// spares the busiest routes a sub-router; they answer as under
	// r.Route("/api/v2", a.v2), unknown paths and methods with the root's
	// handlers, which a sub-router would have copied.
	a.v2(prefixed{Router: r, prefix: "/api/v2"})
	// v1 is the legacy prefix: the same routes, answering with Deprecation
	// and Sunset headers until the sunset date (its unknown paths too:
	// hence a sub-router behind the middleware).
	r.With(deprecated).Route("/api/v1", a.v2)
	a.docsRoutes(r)
	if opts.GraphQL != nil {
		r.With(a.limitAnonymousGraphQL, a.optionalUser).Handle("/graphql", a.limitGraphQL(opts.GraphQL))
		r.Get("/graphql/assets/*", opts.GraphQL.ServeHTTP) // GraphiQL's embedded files
	}
	if opts.Mount != nil {
		opts.Mount(r)
	}
	return r
}

// v2 declares the versioned routes.
func (a *api) v2(r chi.Router) {
	// Signup and login attempts are limited by model/auth, per client
	// address and per e-mail, whichever transport carries them.
	r.Post("/auth/signup", a.adapt(a.signup))
	r.Post("/auth/login", a.adapt(a.login))
	r.With(a.requireUser).Post("/auth/logout", a.adapt(a.logout))

	r.Group(func(r chi.Router) {
		r.Use(a.requireUser)
		r.Post("/organizations", a.adapt(a.createOrganization))
		r.Get("/organizations", a.adapt(a.listOrganizations))
		r.Get("/organizations/{organization_id}/audit-chain", a.adapt(a.auditChain))
		r.Post("/projects", a.adapt(a.createProject))
		r.Get("/projects", a.adapt(a.listProjects))
		r.Patch("/projects/{project_id}", a.adapt(a.updateProject))
		r.Put("/projects/{project_id}/authority", a.adapt(a.updateAuthority))
		r.Post("/projects/{project_id}/sandbox/faults", a.adapt(a.setSandboxFault))
		r.Get("/projects/{project_id}/sandbox/faults", a.adapt(a.listSandboxFaults))
		r.Delete("/projects/{project_id}/sandbox/faults", a.adapt(a.clearSandboxFaults))
		r.Post("/projects/{project_id}/keys", a.adapt(a.createKey))
		r.Get("/projects/{project_id}/keys", a.adapt(a.listKeys))
		r.Post("/projects/{project_id}/keys/{key_id}/rotate", a.adapt(a.rotateKey))
		r.Delete("/projects/{project_id}/keys/{key_id}", a.adapt(a.revokeKey))
		r.Get("/audit-logs", a.adapt(a.auditLogs))
	})

	r.With(a.requireKey(model.ScopeUsageRead, "usage.read")).Get("/usage", a.adapt(a.usage))
	a.invoiceRoutes(r)
	a.submissionRoutes(r)
	a.certificationRoutes(r)
	a.eventRoutes(r)
}

type healthBody struct {
	Status  string            `json:"status"`
	Version string            `json:"version"`
	Checks  map[string]string `json:"checks"`
}

// health answers 200 while the process can serve; a failing dependency
// shows in checks and turns the status to degraded.
func (a *api) health(w http.ResponseWriter, r *http.Request) error {
	writeHealth(w, r, a.opts.Version, a.app.Health(r.Context()), a.opts.HealthChecks, a.opts.NRSHealth)
	return nil
}

// writeHealth completes the process's own checks with the extra checks and
// NRS's state, and answers 200 with them: ok, or degraded when any check
// is not ok.
func writeHealth(w http.ResponseWriter, r *http.Request, version string, checks map[string]string,
	extra map[string]func(context.Context) error, nrsHealth func(model.Environment) string) {
	runChecks(r.Context(), checks, extra)
	if nrsHealth != nil {
		checks["nrs_sandbox"] = nrsHealth(model.EnvironmentSandbox)
		checks["nrs_production"] = nrsHealth(model.EnvironmentProduction)
	}
	status := "ok"
	for _, v := range checks {
		// unknown (NRS never called by this process) is no failure.
		if v != "ok" && v != model.AuthorityUnknown {
			status = "degraded"
		}
	}
	writeJSON(w, http.StatusOK, healthBody{Status: status, Version: version, Checks: checks})
}

// runChecks records each check of extra in checks: ok, or unavailable when
// it fails or takes longer than 2 seconds.
func runChecks(ctx context.Context, checks map[string]string, extra map[string]func(context.Context) error) {
	for name, check := range extra {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if err := check(cctx); err != nil {
			checks[name] = "unavailable"
		} else {
			checks[name] = "ok"
		}
		cancel()
	}
}

type readyBody struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// readyRetryAfter is the Retry-After of a 503 from /ready.
const readyRetryAfter = 5

// ready answers 200 when this process can take traffic (the database
// answers, its migrations are current, every readiness check passes),
// else 503 with the failing checks: a load balancer's readiness probe.
// /health stays the liveness probe.
func (a *api) ready(w http.ResponseWriter, r *http.Request) error {
	writeReady(w, r, a.app.Ready(r.Context()), a.opts.ReadinessChecks)
	return nil
}

// writeReady completes the process's own readiness checks with the extra
// ones and answers 200 when all are ok, else 503 with Retry-After.
func writeReady(w http.ResponseWriter, r *http.Request, checks map[string]string, extra map[string]func(context.Context) error) {
	runChecks(r.Context(), checks, extra)
	status, code := "ready", http.StatusOK
	for _, v := range checks {
		if v != "ok" {
			status, code = "not_ready", http.StatusServiceUnavailable
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if code != http.StatusOK {
		w.Header().Set("Retry-After", strconv.Itoa(readyRetryAfter))
	}
	writeJSON(w, code, readyBody{Status: status, Checks: checks})
}

// apiPrefixes are the paths that answer as the API (JSON 404s), never with
// the portal.
var apiPrefixes = []string{"/api/", "/graphql", "/openapi/", "/docs", "/metrics", "/health", "/ready", "/nrs-sandbox"}

// isPortalPath tells a browser's GET of a portal page or asset from a miss
// on the API.
func isPortalPath(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	for _, p := range apiPrefixes {
		if strings.HasPrefix(r.URL.Path, p) {
			return false
		}
	}
	return true
}

package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/model"
)

// ProbeOptions configure Probes.
type ProbeOptions struct {
	// Version is reported by /health.
	Version string
	// Health and Ready are the process's own checks (app.Worker's Health
	// and Ready: the database, its migrations). Required.
	Health, Ready func(context.Context) map[string]string
	// HealthChecks and ReadinessChecks are extra checks by name, as in
	// Options (the worker adds Temporal to both).
	HealthChecks, ReadinessChecks map[string]func(context.Context) error
	// NRSHealth, when set, is shown by /health as in Options.
	NRSHealth func(model.Environment) string
	// Metrics is served at /metrics in the Prometheus exposition format;
	// nil serves no /metrics.
	Metrics prometheus.Gatherer
	// MetricsToken, when set, is the bearer token /metrics requires.
	MetricsToken string
	// InFlight bounds the probes answered at once; default
	// DefaultProbesInFlight.
	InFlight int
}

// DefaultProbesInFlight is ProbeOptions.InFlight's default: a few
// scrapers and orchestrators' probes at once, each check bounded to two
// seconds, so that a flood of probes cannot take the database's
// connections from the work the process exists for.
const DefaultProbesInFlight = 8

// probesRetryAfter is the Retry-After, in seconds, of a probe refused
// because too many are in flight.
const probesRetryAfter = "1"

// Probes serves an operator's view of a process that serves no API (the
// worker): GET /health (liveness, with the checks' states, always 200),
// GET /ready (readiness: 503 unless every check is ok) and GET /metrics,
// in the same shapes as the API's. Requests carry no body; past InFlight
// at once they answer 503 unavailable with Retry-After.
func Probes(opts ProbeOptions) http.Handler {
	if opts.InFlight <= 0 {
		opts.InFlight = DefaultProbesInFlight
	}
	slots := make(chan struct{}, opts.InFlight)
	r := chi.NewRouter()
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				w.Header().Set("Retry-After", probesRetryAfter)
				writeJSON(w, http.StatusServiceUnavailable, errorBody{Detail: "too many probes at once", Code: model.CodeUnavailable})
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, 0)
			next.ServeHTTP(w, r)
		})
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method Not Allowed"})
	})
	r.Get("/health", func(w http.ResponseWriter, r *http.Request) {
		writeHealth(w, r, opts.Version, opts.Health(r.Context()), opts.HealthChecks, opts.NRSHealth)
	})
	r.Get("/ready", func(w http.ResponseWriter, r *http.Request) {
		writeReady(w, r, opts.Ready(r.Context()), opts.ReadinessChecks)
	})
	if opts.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", metricsHandler(opts.Metrics, opts.MetricsToken))
	}
	return r
}

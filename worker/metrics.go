package worker

import (
	"io"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	sdktally "go.temporal.io/sdk/contrib/tally"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/workflows"
)

// Metrics counts the states invoices reach and times every call to the
// tax authority, per operation and HTTP status (0: no answer). Serve its
// Collectors where the process serves /metrics (einvoice dev and the api
// beside an in-process worker, einvoice worker's EINVOICE_WORKER_HTTP_ADDR).
type Metrics struct {
	states   *prometheus.CounterVec
	calls    *prometheus.HistogramVec
	clearing *prometheus.HistogramVec
}

var (
	_ workflows.CallObserver     = (*Metrics)(nil)
	_ workflows.ClearingObserver = (*Metrics)(nil)
)

// NewMetrics builds the invoice workflows' metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		states: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "einvoice_invoice_states_total",
			Help: "Submitted invoices reaching each state (queued is counted when a workflow begins).",
		}, []string{"status"}),
		calls: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "einvoice_nrs_call_duration_seconds",
			Help:    "Calls to the tax authority made for submitted invoices, by operation and HTTP status (0: no answer).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"operation", "status"}),
		clearing: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "einvoice_clearing_stage_duration_seconds",
			Help:    "Clearing shards: an invoice's clearing from its start in the shard to its answer (stage invoice), and a call's wait for one of the shard's slots for calls to the tax authority (stage slot_wait).",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"stage"}),
	}
}

// Collectors are the metrics to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.states, m.calls, m.clearing}
}

// ObserveCall implements workflows.CallObserver.
func (m *Metrics) ObserveCall(operation string, status int, d time.Duration) {
	m.calls.WithLabelValues(operation, strconv.Itoa(status)).Observe(d.Seconds())
}

// ObserveClearing implements workflows.ClearingObserver.
func (m *Metrics) ObserveClearing(stage string, d time.Duration) {
	m.clearing.WithLabelValues(stage).Observe(d.Seconds())
}

// ObserveState implements workflows.CallObserver.
func (m *Metrics) ObserveState(status model.InvoiceStatus) {
	m.states.WithLabelValues(string(status)).Inc()
}

// temporalReportEvery is how often the Temporal SDK's counters and gauges
// reach the Prometheus registry (its timers reach it at once).
const temporalReportEvery = time.Second

// temporalBuckets are the buckets of the Temporal SDK's latencies, in
// seconds: poll and schedule-to-start latencies run from milliseconds to a
// long poll's minute.
var temporalBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// TemporalMetrics is the Temporal SDK's metrics handler (client.Options'
// MetricsHandler) reporting into reg: task slots, poll and
// schedule-to-start latencies, workflow and activity task failures and the
// rest of the SDK's metrics, under its names with Prometheus's suffixes
// (temporal_workflow_task_schedule_to_start_latency_seconds,
// temporal_activity_execution_failed_total, ...). onError receives the
// metrics reg refused (a name registered twice with other labels); nil
// drops them. Close the returned closer after the client, to report the
// last counts and stop reporting.
func TemporalMetrics(reg *prometheus.Registry, onError func(error)) (client.MetricsHandler, io.Closer) {
	if onError == nil {
		onError = func(error) {}
	}
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:              reg,
		DefaultTimerType:        tallyprom.HistogramTimerType,
		DefaultHistogramBuckets: temporalBuckets,
		OnRegisterError:         onError,
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:  reporter,
		Separator:       tallyprom.DefaultSeparator,
		SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
		// tally's own series counts are of no use to an operator.
		OmitCardinalityMetrics: true,
	}, temporalReportEvery)
	return sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope)), closer
}

package worker

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/workflows"
)

// Metrics counts the states invoices reach and times every call to the
// tax authority, per operation and HTTP status (0: no answer). Serve its
// Collectors where the process serves /metrics (einvoice dev and the api
// beside an in-process worker).
type Metrics struct {
	states *prometheus.CounterVec
	calls  *prometheus.HistogramVec
}

var _ workflows.CallObserver = (*Metrics)(nil)

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
	}
}

// Collectors are the metrics to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.states, m.calls}
}

// ObserveCall implements workflows.CallObserver.
func (m *Metrics) ObserveCall(operation string, status int, d time.Duration) {
	m.calls.WithLabelValues(operation, strconv.Itoa(status)).Observe(d.Seconds())
}

// ObserveState implements workflows.CallObserver.
func (m *Metrics) ObserveState(status model.InvoiceStatus) {
	m.states.WithLabelValues(string(status)).Inc()
}

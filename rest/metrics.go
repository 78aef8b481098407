package rest

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/render"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// httpMetrics are the request metrics, labelled by route pattern (never the
// raw path, which holds ids), method and status. Every label comes from a
// known set, so that no request can add series: the route is a pattern of
// the routing table or "unmatched", the method one of the standard methods
// or "other", the status a status code HTTP defines or "other".
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// series caches the children of both vectors by label values, so that
	// a request costs no label hashing and no allocation.
	mu     sync.RWMutex
	series map[seriesKey]*series
}

type seriesKey struct {
	route, method string
	status        int
}

type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// newMetrics builds the router's registry: process and Go runtime
// metrics, request counts and latencies, the usage flush lag, certification
// runs by status and opts.Collectors, registered into reg (a new registry
// when nil).
func newMetrics(svc *app.App, reg *prometheus.Registry, extra []prometheus.Collector) (*prometheus.Registry, *httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "einvoice_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "einvoice_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method", "status"}),
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	cs := []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.duration,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "einvoice_usage_flush_lag_seconds",
			Help: "Seconds since buffered API usage was last written to the database.",
		}, func() float64 { return svc.Usage.FlushLag().Seconds() }),
	}
	cs = append(cs,
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "einvoice_pdf_qr_checks_total",
			Help: "Invoice PDFs whose QR code this process read back before sending them.",
		}, func() float64 { c, _, _ := render.QRCheckCounts(); return float64(c) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "einvoice_pdf_qr_decodes_total",
			Help: "QR code checks that ran the decoder (the others found the samples already decoded for the same payload).",
		}, func() float64 { _, d, _ := render.QRCheckCounts(); return float64(d) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "einvoice_pdf_qr_check_failures_total",
			Help: "Invoice PDFs withheld because their QR code did not decode back to the QR payload (answered 500).",
		}, func() float64 { _, _, f := render.QRCheckCounts(); return float64(f) }),
	)
	cs = append(cs, runsCollector{counts: svc.Runs.Counts, desc: prometheus.NewDesc("einvoice_certification_runs",
		"Certification runs by status (queued, running, passed, failed, cancelled), counted in the database at scrape time, so every API and worker process agrees.",
		[]string{"status"}, nil)})
	cs = append(cs, queueCollector{totals: svc.Submissions.QueueByEnvironment,
		depth: prometheus.NewDesc("einvoice_invoice_queue_depth",
			"Invoices accepted and not yet sent to NRS (queued), by environment, counted in the database at scrape time (one query for every project).",
			[]string{"environment"}, nil),
		oldest: prometheus.NewDesc("einvoice_invoice_queue_oldest_seconds",
			"Age of the oldest queued invoice of any project, by environment; 0 when none is queued.",
			[]string{"environment"}, nil)})
	cs = append(cs, extra...)
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, nil, err
		}
	}
	return reg, m, nil
}

// unmatchedRoute labels requests no route matched.
const unmatchedRoute = "unmatched"

// otherLabel labels a method or status outside the known set.
const otherLabel = "other"

// methodLabel bounds the method label to the methods of RFC 9110 and
// PATCH; any other token a client sends is "other".
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return otherLabel
}

// statusLabel bounds the status label to the codes HTTP defines.
func statusLabel(status int) string {
	if http.StatusText(status) == "" {
		return otherLabel
	}
	return strconv.Itoa(status)
}

// observe records one request and returns the method label it used.
func (m *httpMetrics) observe(route, method string, status int, elapsed time.Duration) string {
	if route == "" {
		route = unmatchedRoute
	}
	method = methodLabel(method)
	if http.StatusText(status) == "" {
		status = 0 // "other"
	}
	k := seriesKey{route, method, status}
	m.mu.RLock()
	s := m.series[k]
	m.mu.RUnlock()
	if s == nil {
		st := statusLabel(status)
		s = &series{
			requests: m.requests.WithLabelValues(route, method, st),
			duration: m.duration.WithLabelValues(route, method, st),
		}
		m.mu.Lock()
		if m.series == nil {
			m.series = map[seriesKey]*series{}
		}
		m.series[k] = s
		m.mu.Unlock()
	}
	s.requests.Inc()
	s.duration.Observe(elapsed.Seconds())
	return method
}

// metricsHandler serves the registry in the Prometheus exposition format,
// behind a bearer token when one is configured.
func metricsHandler(reg prometheus.Gatherer, token string) http.Handler {
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeJSON(w, http.StatusUnauthorized, errorBody{Detail: "missing or wrong metrics token", Code: "unauthenticated"})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// runsCollector reports certification runs by status from the database when
// scraped. Runs move on in worker processes, so counting rows, not events
// seen by this process, is what stays true.
type runsCollector struct {
	counts func(context.Context) (map[model.RunStatus]int64, error)
	desc   *prometheus.Desc
}

// Describe implements prometheus.Collector.
func (c runsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c runsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := c.counts(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	for status, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), string(status))
	}
}

// queueCollector exports the invoice queues by environment. A label per
// project would grow without bound; the per-project figures are in
// GET /api/v2/invoices/queue and Project.invoiceQueue.
type queueCollector struct {
	totals        func(context.Context) (map[model.Environment]submissions.QueueTotals, error)
	depth, oldest *prometheus.Desc
}

// Describe implements prometheus.Collector.
func (c queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.depth; ch <- c.oldest }

// Collect implements prometheus.Collector.
func (c queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	totals, err := c.totals(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.depth, err)
		ch <- prometheus.NewInvalidMetric(c.oldest, err)
		return
	}
	for env, t := range totals {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(t.Depth), string(env))
		ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, t.OldestSecond, string(env))
	}
}

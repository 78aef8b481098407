package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.temporal.io/sdk/client"

	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
)

// workerProbes is what `einvoice worker` serves at EINVOICE_WORKER_HTTP_ADDR
// for operators: /health (liveness), /ready (the database, its migrations
// and the Temporal namespace answer: the API's checks) and /metrics (the
// Temporal SDK's metrics, the invoice workflows' calls and states, the
// circuit breakers, the process and the Go runtime).
type workerProbes struct {
	ln  net.Listener
	reg *prometheus.Registry
	// temporal is the Temporal client's metrics handler, reporting into
	// reg; closeTemporal stops its reporting.
	temporal      client.MetricsHandler
	closeTemporal io.Closer
	// invoices observes the invoice workflows' calls and states.
	invoices     *worker.Metrics
	metricsToken string
}

// newWorkerProbes listens on addr and builds the registry /metrics serves.
func newWorkerProbes(addr string, c *config, log *slog.Logger) (*workerProbes, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, err
	}
	p := &workerProbes{ln: ln, reg: prometheus.NewRegistry(), invoices: worker.NewMetrics(), metricsToken: c.Ops.MetricsToken}
	cs := append([]prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}, p.invoices.Collectors()...)
	if c.Breakers != nil {
		cs = append(cs, c.Breakers)
	}
	for _, col := range cs {
		if err := p.reg.Register(col); err != nil {
			_ = ln.Close()
			return nil, err
		}
	}
	p.temporal, p.closeTemporal = worker.TemporalMetrics(p.reg, func(err error) {
		log.Warn("a Temporal SDK metric is not exported", "error", err.Error())
	})
	return p, nil
}

// handler serves the probes of the worker built over steps, Temporal
// checked through s.
func (p *workerProbes) handler(steps *application.Worker, s *workflows.Starter) http.Handler {
	temporal := map[string]func(context.Context) error{"temporal": s.Check}
	return rest.Probes(rest.ProbeOptions{
		Version: version, Health: steps.Health, Ready: steps.Ready,
		HealthChecks: temporal, ReadinessChecks: temporal,
		Metrics: p.reg, MetricsToken: p.metricsToken,
	})
}

// serve serves h until ctx ends.
func (p *workerProbes) serve(ctx context.Context, h http.Handler, log *slog.Logger) error {
	log.Info("einvoice worker probes listening", "addr", p.ln.Addr().String())
	return serveHTTP(ctx, p.ln, h, log)
}

// close stops the Temporal metrics' reporting and closes the listener.
func (p *workerProbes) close() {
	_ = p.closeTemporal.Close()
	_ = p.ln.Close()
}

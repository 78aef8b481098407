// Package metrics holds the Prometheus metrics that code beyond the HTTP
// transport records, such as certification runs. The REST router registers
// them on its /metrics registry; any package may increment them.
package metrics

import "github.com/prometheus/client_golang/prometheus"

// CertificationRunStatuses are the states a certification run ends or
// passes through, as counted by CertificationRuns.
var CertificationRunStatuses = []string{"queued", "running", "passed", "failed", "cancelled"}

// CertificationRuns counts certification runs by status; the certification
// code increments it when a run is queued and when it reaches a state:
//
//	metrics.CertificationRuns.WithLabelValues("passed").Inc()
var CertificationRuns = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "einvoice_certification_runs_total",
	Help: "Certification runs by status (queued, running, passed, failed, cancelled).",
}, []string{"status"})

func init() {
	for _, s := range CertificationRunStatuses {
		CertificationRuns.WithLabelValues(s) // show every series from the start, at 0
	}
}

// Collectors returns the collectors of this package, for a registry.
func Collectors() []prometheus.Collector {
	return []prometheus.Collector{CertificationRuns}
}

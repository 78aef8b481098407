package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/nrshealth"
)

// breakersFromEnv builds the process's circuit breakers of NRS from
// EINVOICE_NRS_BREAKER_FAILURES (consecutive failures that open a breaker,
// default 5), EINVOICE_NRS_BREAKER_OPEN_FOR (how long it stays open before
// probing, default 30s) and EINVOICE_NRS_BREAKER_MAX_OPEN_FOR (the cap of
// the doubling wait after failed probes, default 5m).
func breakersFromEnv(getenv func(string) string) (*mbs.Breakers, error) {
	var opts mbs.BreakerOptions
	if v := getenv("EINVOICE_NRS_BREAKER_FAILURES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("EINVOICE_NRS_BREAKER_FAILURES: want a number from 1 to 1000, got %q", v)
		}
		opts.Failures = n
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
	}{{"EINVOICE_NRS_BREAKER_OPEN_FOR", &opts.OpenFor}, {"EINVOICE_NRS_BREAKER_MAX_OPEN_FOR", &opts.MaxOpenFor}} {
		if v := getenv(d.name); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t < time.Second || t > 24*time.Hour {
				return nil, fmt.Errorf("%s: want a duration from 1s to 24h (e.g. 30s), got %q", d.name, v)
			}
			*d.dst = t
		}
	}
	return mbs.NewBreakers(opts), nil
}

// breakersHealth reads the process's breakers for the application's shared
// view of NRS: unknown for an environment no breaker has seen a call to.
func breakersHealth(b *mbs.Breakers) nrshealth.Local {
	return func(env model.Environment) (string, []string) {
		snaps := b.Snapshot()
		var open []string
		seen := false
		for _, s := range snaps {
			if s.Environment != string(env) {
				continue
			}
			seen = true
			if s.State != mbs.BreakerClosed {
				open = append(open, string(s.Operation))
			}
		}
		paced := b.Paced(string(env))
		if !seen && !paced {
			return model.AuthorityUnknown, nil
		}
		return mbs.HealthOf(snaps, string(env), paced), open
	}
}

// nrsHealthGauge exports the shared view of NRS (every process's breakers)
// as einvoice_nrs_health{environment}: 0 ok, 1 degraded, 2 down.
func nrsHealthGauge(h func(model.Environment) string) prometheus.Collector {
	return nrsHealthCollector{h: h, desc: prometheus.NewDesc("einvoice_nrs_health",
		"How NRS answers in an environment, from the circuit breakers of every process that calls it: 0 ok, 1 degraded, 2 down.",
		[]string{"environment"}, nil)}
}

type nrsHealthCollector struct {
	h    func(model.Environment) string
	desc *prometheus.Desc
}

func (c nrsHealthCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c nrsHealthCollector) Collect(ch chan<- prometheus.Metric) {
	for _, env := range nrshealth.Environments {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue,
			float64(model.AuthorityHealthRank(c.h(env))), string(env))
	}
}

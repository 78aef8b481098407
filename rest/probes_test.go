package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/rest"
)

// TestProbes: the worker's probes answer in the API's shapes: /health 200
// (degraded when a check fails), /ready 503 with Retry-After naming the
// failing check, /metrics behind its token, JSON 404 and 405 elsewhere,
// and 503 unavailable past the probes in flight.
func TestProbes(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "probe_test_total", Help: "A counter."}))
	dbOK := true
	own := func(context.Context) map[string]string {
		if dbOK {
			return map[string]string{"database": "ok", "migrations": "ok"}
		}
		return map[string]string{"database": "unavailable", "migrations": "unavailable"}
	}
	var temporalErr error
	temporal := map[string]func(context.Context) error{"temporal": func(context.Context) error { return temporalErr }}
	entered, release := make(chan struct{}), make(chan struct{})
	blocking := false
	h := rest.Probes(rest.ProbeOptions{
		Version: "v-test", Health: own,
		Ready: func(ctx context.Context) map[string]string {
			if blocking {
				entered <- struct{}{}
				<-release
			}
			return own(ctx)
		},
		HealthChecks: temporal, ReadinessChecks: temporal,
		Metrics: reg, MetricsToken: "probe-metrics-token-0123", InFlight: 1,
	})
	do := func(method, path string, header ...string) (*httptest.ResponseRecorder, map[string]any) {
		t.Helper()
		r := httptest.NewRequest(method, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var m map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &m)
		return w, m
	}
	checks := func(m map[string]any) map[string]any { c, _ := m["checks"].(map[string]any); return c }

	if w, m := do("GET", "/health"); w.Code != 200 || m["status"] != "ok" || m["version"] != "v-test" || checks(m)["temporal"] != "ok" {
		t.Fatalf("health: %d %s", w.Code, w.Body)
	}
	if w, m := do("GET", "/ready"); w.Code != 200 || m["status"] != "ready" || checks(m)["database"] != "ok" {
		t.Fatalf("ready: %d %s", w.Code, w.Body)
	}
	for _, tc := range []struct {
		name            string
		db              bool
		temporal        error
		failing, others string
	}{
		{"database down", false, nil, "database", "temporal"},
		{"temporal down", true, errors.New("no namespace"), "temporal", "database"},
	} {
		dbOK, temporalErr = tc.db, tc.temporal
		w, m := do("GET", "/ready")
		if w.Code != 503 || m["status"] != "not_ready" || checks(m)[tc.failing] != "unavailable" || checks(m)[tc.others] != "ok" ||
			w.Header().Get("Retry-After") == "" {
			t.Fatalf("%s: ready %d %s", tc.name, w.Code, w.Body)
		}
		if w, m := do("GET", "/health"); w.Code != 200 || m["status"] != "degraded" || checks(m)[tc.failing] != "unavailable" {
			t.Fatalf("%s: health %d %s", tc.name, w.Code, w.Body)
		}
	}
	dbOK, temporalErr = true, nil

	if w, _ := do("GET", "/metrics"); w.Code != 401 {
		t.Fatalf("metrics without the token: %d", w.Code)
	}
	if w, _ := do("GET", "/metrics", "Authorization", "Bearer probe-metrics-token-0123"); w.Code != 200 || !strings.Contains(w.Body.String(), "probe_test_total 0") {
		t.Fatalf("metrics with the token: %d %s", w.Code, w.Body)
	}
	if w, m := do("GET", "/api/v2/projects"); w.Code != 404 || m["detail"] == nil {
		t.Fatalf("an unknown path: %d %s", w.Code, w.Body)
	}
	if w, m := do("POST", "/ready"); w.Code != 405 || m["detail"] == nil {
		t.Fatalf("POST /ready: %d %s", w.Code, w.Body)
	}

	// One probe in flight holds the only slot: the next answers 503.
	blocking = true
	done := make(chan struct{})
	go func() {
		defer close(done)
		do("GET", "/ready")
	}()
	<-entered
	w, m := do("GET", "/health")
	close(release)
	<-done
	if w.Code != 503 || m["code"] != "unavailable" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("a probe past the one in flight: %d %s", w.Code, w.Body)
	}
	blocking = false
	if w, _ := do("GET", "/health"); w.Code != 200 {
		t.Fatalf("health once the slot is free: %d %s", w.Code, w.Body)
	}
}

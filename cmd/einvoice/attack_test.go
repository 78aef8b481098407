package main

// Replays of the attacks of the security review against the binary's
// wiring (run them all with `make security`).

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/rest"
)

// apiApp builds the app `einvoice api` would build from env (plus a fresh
// SQLite database and the required secrets).
func apiApp(t *testing.T, extra map[string]string) *app {
	t.Helper()
	kv := map[string]string{
		"EINVOICE_DATABASE_URL":   filepath.Join(t.TempDir(), "api.db"),
		"EINVOICE_JWT_SECRET":     strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": strings.Repeat("0f", 32),
	}
	for k, v := range extra {
		kv[k] = v
	}
	c, err := envConfig(env(kv))
	if err != nil {
		t.Fatal(err)
	}
	a, err := buildApp(context.Background(), c, slog.New(slog.NewTextHandler(io.Discard, nil)), rest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.close(context.Background()) })
	return a
}

func get(h http.Handler, path string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestAttackAPIModeExposure: in api mode /metrics was open without a
// token, and GraphiQL and introspection were served. Now api mode serves
// /metrics only behind a token or on a listener of its own, and GraphiQL
// and introspection only when enabled.
func TestAttackAPIModeExposure(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		a := apiApp(t, nil)
		if w := get(a.handler, "/metrics", nil); w.Code != http.StatusNotFound {
			t.Fatalf("/metrics without configuration: %d", w.Code)
		}
		if a.metrics != nil {
			t.Fatal("metrics exported without EINVOICE_METRICS_ADDR")
		}
		if w := get(a.handler, "/graphql", map[string]string{"Accept": "text/html"}); w.Code != http.StatusNotFound {
			t.Fatalf("GraphiQL: %d", w.Code)
		}
		r := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{ __schema { types { name } } }"}`))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		a.handler.ServeHTTP(w, r)
		if !strings.Contains(w.Body.String(), "INTROSPECTION_DISABLED") {
			t.Fatalf("introspection: %d %s", w.Code, w.Body)
		}
	})
	t.Run("metrics token", func(t *testing.T) {
		a := apiApp(t, map[string]string{"EINVOICE_METRICS_TOKEN": "0123456789abcdef"})
		if w := get(a.handler, "/metrics", nil); w.Code != http.StatusUnauthorized {
			t.Fatalf("/metrics without the token: %d", w.Code)
		}
		if w := get(a.handler, "/metrics", map[string]string{"Authorization": "Bearer 0123456789abcdef"}); w.Code != http.StatusOK ||
			!strings.Contains(w.Body.String(), "einvoice_http_requests_total") {
			t.Fatalf("/metrics with the token: %d", w.Code)
		}
	})
	t.Run("metrics listener", func(t *testing.T) {
		a := apiApp(t, map[string]string{"EINVOICE_METRICS_ADDR": "127.0.0.1:0"})
		if w := get(a.handler, "/metrics", nil); w.Code != http.StatusNotFound {
			t.Fatalf("/metrics on the API listener: %d", w.Code)
		}
		if a.metrics == nil {
			t.Fatal("metrics not exported")
		}
		if w := get(a.metrics, "/metrics", nil); w.Code != http.StatusOK {
			t.Fatalf("exported metrics: %d", w.Code)
		}
	})
	t.Run("enabled", func(t *testing.T) {
		a := apiApp(t, map[string]string{"EINVOICE_GRAPHIQL": "true", "EINVOICE_GRAPHQL_INTROSPECTION": "true"})
		if w := get(a.handler, "/graphql", map[string]string{"Accept": "text/html"}); w.Code != http.StatusOK {
			t.Fatalf("GraphiQL when enabled: %d", w.Code)
		}
	})
}

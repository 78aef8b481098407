package portal_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph/portal"
)

func get(h http.Handler, method, path string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w
}

// TestHandler checks the app's fallback, the cache rules and the policy.
func TestHandler(t *testing.T) {
	h := portal.Handler()
	index := get(h, http.MethodGet, "/")
	if index.Code != 200 || !strings.Contains(index.Body.String(), `<div id="app">`) {
		t.Fatalf("GET /: %d %s", index.Code, index.Body)
	}
	if cc := index.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("index Cache-Control = %q", cc)
	}
	if csp := index.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP = %q", csp)
	}
	// An app route loads the app.
	if w := get(h, http.MethodGet, "/projects/0199/keys"); w.Code != 200 || w.Body.String() != index.Body.String() {
		t.Errorf("app route: %d", w.Code)
	}
	// Its script, with a long immutable cache.
	i := strings.Index(index.Body.String(), `src="/assets/`)
	if i < 0 {
		t.Fatal("index.html names no script under /assets/")
	}
	src := index.Body.String()[i+5:]
	src = src[:strings.IndexByte(src, '"')]
	js := get(h, http.MethodGet, src)
	if js.Code != 200 || !strings.Contains(js.Header().Get("Cache-Control"), "immutable") || !strings.Contains(js.Header().Get("Content-Type"), "javascript") {
		t.Errorf("%s: %d %q %q", src, js.Code, js.Header().Get("Cache-Control"), js.Header().Get("Content-Type"))
	}
	// Missing files are 404, not the app; other methods are refused.
	for _, p := range []string{"/assets/missing.js", "/favicon.ico", "/robots.txt"} {
		if w := get(h, http.MethodGet, p); w.Code != 404 {
			t.Errorf("%s: %d", p, w.Code)
		}
	}
	if w := get(h, http.MethodPost, "/"); w.Code != 405 {
		t.Errorf("POST /: %d", w.Code)
	}
}

package rest_test

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/rest"
)

// withGraphQL serves GraphQL at /graphql beside the REST routes, as the
// binary does.
func withGraphQL(s *server, opts rest.Options) *server {
	s.t.Helper()
	opts.Version, opts.Logger = "test", slog.New(slog.NewJSONHandler(s.logs, nil))
	opts.GraphQL = graph.NewHandler(s.svc, graph.Options{})
	s.h = rest.New(s.svc, opts)
	return s
}

// TestAttackMetricsCardinality replays the review's flood of junk methods
// and paths (2,000 requests once added 34,000 series) and checks that it
// adds no series at all: every label comes from a known set.
func TestAttackMetricsCardinality(t *testing.T) {
	s := withGraphQL(newServer(t, sqlite()), rest.Options{MetricsToken: "metrics-token-for-tests"})
	tn := s.tenant("acme")
	paths := []string{
		"/health", "/api/v2/projects", "/api/v2/invoices/irn/generate", "/graphql",
		"/api/v2/projects/" + tn.ProjectID + "/keys", "/no/such/route", "/api/v2/no/such/route", "/api/v1/nope",
	}
	// One request per path with a standard method, one with a junk one:
	// every series the junk can reach exists before counting.
	for _, p := range paths {
		s.do(req{method: "GET", path: p})
		s.do(req{method: "JUNK", path: p})
	}
	seriesCount(t, s) // the scrape's own series
	before := seriesCount(t, s)

	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_!$&'*+.^`|~"
	word := func(n int) string {
		b := make([]byte, 1+rng.IntN(n))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for i := range 2000 {
		method := word(12)
		path := paths[rng.IntN(len(paths))]
		if i%2 == 0 {
			path = "/" + word(30) + "/" + word(8)
		}
		hr := httptest.NewRequest("GET", "/", nil)
		hr.Method = method
		hr.URL.Path = path
		hr.RequestURI = path
		s.h.ServeHTTP(httptest.NewRecorder(), hr)
	}
	if after := seriesCount(t, s); after != before {
		t.Fatalf("2,000 junk requests added %d series (%d before, %d after)", after-before, before, after)
	}
}

// seriesCount counts the request metrics' series in /metrics.
func seriesCount(t *testing.T, s *server) int {
	t.Helper()
	r := s.do(req{method: "GET", path: "/metrics", header: map[string]string{"Authorization": "Bearer metrics-token-for-tests"}})
	if r.Status != 200 {
		t.Fatalf("/metrics: %d", r.Status)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(r.Body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "einvoice_http_requests_total{") || strings.HasPrefix(line, "einvoice_http_request_duration_seconds_count{") {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no request series in /metrics:\n%s", r.Body)
	}
	return n
}

// TestAttackCachedSecrets checks that no answer carrying a secret or a
// token may be kept by a cache (a shared proxy or the browser's disk), and
// that every API answer forbids content sniffing.
func TestAttackCachedSecrets(t *testing.T) {
	s := withGraphQL(newServer(t, sqlite()), rest.Options{})
	tn := s.tenant("acme")
	keys := "/api/v2/projects/" + tn.ProjectID + "/keys"
	gql := func(token, query string) req {
		return req{method: "POST", path: "/graphql", token: token, body: map[string]any{"query": query}}
	}
	secretBearing := map[string]req{
		"signup": {method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
			"email": "b@example.com", "password": "correct horse battery", "organization_name": "Bee", "organization_slug": "bee"}},
		"login":      {method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": "correct horse battery"}},
		"key create": {method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "second"}},
		"key rotate": {method: "POST", path: keys + "/" + tn.KeyID + "/rotate?grace_seconds=600", token: tn.Token},
		"v1 key create": {method: "POST", path: "/api/v1/projects/" + tn.ProjectID + "/keys", token: tn.Token,
			body: map[string]any{"key_name": "third"}},
		"graphql login": gql("", `mutation { login(input: {email: "acme@example.com", password: "correct horse battery"}) { accessToken } }`),
		"graphql key": gql(tn.Token, fmt.Sprintf(`mutation { createApiKey(input: {projectId: %q, keyName: "gql"}) { clientSecret } }`,
			tn.ProjectID)),
	}
	for name, r := range secretBearing {
		res := s.do(r)
		if res.Status != 200 || bytes.Contains(res.Body, []byte(`"errors"`)) {
			t.Fatalf("%s: %d %s", name, res.Status, res.Body)
		}
		if got := res.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", name, got)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q, want nosniff", name, got)
		}
	}
	// Every JSON answer, errors included, forbids sniffing.
	for _, r := range []req{
		{method: "GET", path: "/health"},
		{method: "GET", path: "/no/such/route"},
		{method: "DELETE", path: "/health"},
		{method: "GET", path: "/api/v2/projects"},
		{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret},
		{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret, body: `{`},
		{method: "GET", path: "/openapi/v2.json"},
	} {
		res := s.do(r)
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("%s %s: content type %q", r.method, r.path, res.Header.Get("Content-Type"))
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s (%d): X-Content-Type-Options %q, want nosniff", r.method, r.path, res.Status, got)
		}
	}
	if got := s.do(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}).Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("a tenant's usage: Cache-Control %q, want no-store", got)
	}
}

package rest_test

import (
	"bytes"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/graph/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

func TestMetrics(t *testing.T) {
	extra := prometheus.NewCounter(prometheus.CounterOpts{Name: "einvoice_test_extra_total", Help: "A collector passed in Options."})
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.Collectors = []prometheus.Collector{extra}
		o.MetricsToken = "metrics-token-for-tests"
	})
	tn := s.tenant("acme")
	s.must(200, irnReq(tn, map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
	s.do(irnReq(tn, map[string]any{"invoice_reference": "INV-1"}))
	s.must(200, req{method: "GET", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token})
	s.do(req{method: "GET", path: "/no/such/route"})

	if r := s.do(req{method: "GET", path: "/metrics"}); r.Status != 401 {
		t.Fatalf("/metrics without its token: %d", r.Status)
	}
	r := s.do(req{method: "GET", path: "/metrics", header: map[string]string{"Authorization": "Bearer metrics-token-for-tests"}})
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	body := string(r.Body)
	for _, want := range []string{
		`einvoice_http_requests_total{method="POST",route="/api/v2/invoices/irn/generate",status="200"} 1`,
		`einvoice_http_requests_total{method="POST",route="/api/v2/invoices/irn/generate",status="422"} 1`,
		`einvoice_http_requests_total{method="GET",route="/api/v2/projects/{project_id}/keys",status="200"} 1`,
		`einvoice_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`einvoice_http_request_duration_seconds_bucket{method="POST",route="/api/v2/invoices/irn/generate",status="200",le="+Inf"} 1`,
		`einvoice_usage_flush_lag_seconds `,
		`einvoice_pdf_qr_checks_total `,
		`einvoice_pdf_qr_decodes_total `,
		`einvoice_pdf_qr_check_failures_total `,
		`einvoice_certification_runs{status="failed"} 0`,
		`einvoice_certification_runs{status="passed"} 0`,
		`einvoice_test_extra_total 0`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// Routes are labelled by pattern, never by raw path with ids.
	if strings.Contains(body, tn.ProjectID) {
		t.Errorf("/metrics holds a project id")
	}
}

// TestLogsHoldNoSecrets drives every credential through the router and
// checks that none of them, nor request bodies, reach the logs.
func TestLogsHoldNoSecrets(t *testing.T) {
	s := newServer(t, sqlite())
	const password = "correct horse battery"
	tn := s.tenant("acme")
	login := s.must(200, req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": password}})
	s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": "a-wrong-password-XYZ"}})
	rot := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys/" + tn.KeyID + "/rotate?grace_seconds=60", token: tn.Token})
	const marker = "BODYMARKER0042"
	idem := withKey(irnReq(tn, map[string]any{"invoice_reference": marker, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}), "idem-key-secret-value")
	s.do(idem)
	s.do(idem)
	s.do(req{method: "PUT", path: "/api/v2/projects/" + tn.ProjectID + "/authority", token: tn.Token, body: map[string]any{
		"tax_authority_code": "NRS", "business_id": "not-a-uuid", "service_id": "X", "public_key": "pk", "certificate": "c",
		"api_key": "nrs-api-key-SECRET", "api_secret": "nrs-api-secret-SECRET"}})
	s.do(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: "cs_sandbox_not-the-secret-QQQ"})
	s.do(req{method: "GET", path: "/api/v2/projects", token: "not.a.jwt-TOKENQQQ"})

	logs := s.logs.String()
	if !strings.Contains(logs, `"request_id"`) || !strings.Contains(logs, `"route":"/api/v2/invoices/irn/generate"`) {
		t.Fatalf("request logs missing: %s", logs)
	}
	for name, secret := range map[string]string{
		"password": password, "wrong password": "a-wrong-password-XYZ",
		"access token": tn.Token, "login token": login["access_token"].(string),
		"client secret": tn.Secret, "rotated secret": rot["client_secret"].(string), "bad secret": "not-the-secret-QQQ",
		"bad token": "TOKENQQQ", "idempotent body": marker, "idempotency key": "idem-key-secret-value",
		"authority api key": "nrs-api-key-SECRET", "authority api secret": "nrs-api-secret-SECRET",
	} {
		if strings.Contains(logs, secret) {
			t.Errorf("the logs hold the %s", name)
		}
	}
	// No line carries a header or body field at all.
	if regexp.MustCompile(`(?i)"(authorization|x-client-secret|password|body|headers?)"\s*:`).MatchString(logs) {
		t.Errorf("a log line carries headers or bodies: %s", logs)
	}
}

func TestV1Deprecated(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	v1 := s.do(req{method: "GET", path: "/api/v1/usage", clientID: tn.ClientID, secret: tn.Secret})
	v2 := s.do(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret})
	if v1.Status != 200 || v2.Status != 200 {
		t.Fatalf("v1 %d, v2 %d", v1.Status, v2.Status)
	}
	if got := v1.Header.Get("Deprecation"); got != "@1795219200" {
		t.Errorf("Deprecation %q", got)
	}
	if got := v1.Header.Get("Sunset"); got != "Tue, 30 Nov 2027 00:00:00 GMT" {
		t.Errorf("Sunset %q", got)
	}
	if got := v1.Header.Get("Link"); !strings.Contains(got, `</api/v2/usage>; rel="successor-version"`) {
		t.Errorf("Link %q", got)
	}
	for _, h := range []string{"Deprecation", "Sunset", "Link"} {
		if v2.Header.Get(h) != "" {
			t.Errorf("v2 answers with %s", h)
		}
	}
	// Errors answer the same on both prefixes.
	e1 := s.do(req{method: "POST", path: "/api/v1/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret, body: "{"})
	e2 := s.do(req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret, body: "{"})
	if e1.Status != 422 || string(e1.Body) != string(e2.Body) || e1.Header.Get("Sunset") == "" {
		t.Errorf("v1 error %d %s, v2 %s", e1.Status, e1.Body, e2.Body)
	}
}

func TestDocsPage(t *testing.T) {
	s := newServer(t, sqlite())
	page := s.do(req{method: "GET", path: "/docs"})
	if page.Status != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/docs: %d %s", page.Status, page.Header.Get("Content-Type"))
	}
	csp := page.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Fatalf("CSP %q", csp)
	}
	html := string(page.Body)
	refs := regexp.MustCompile(`(?i)(?:src|href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(html, -1)
	if len(refs) < 4 {
		t.Fatalf("page references %d assets: %s", len(refs), html)
	}
	var scripts []string
	swaggerUI := map[string]bool{}
	for _, m := range refs {
		ref := m[1]
		if !strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "//") {
			t.Errorf("/docs references a non-local asset %q", ref)
			continue
		}
		r := s.do(req{method: "GET", path: ref})
		if r.Status != 200 || len(r.Body) == 0 {
			t.Errorf("asset %s: %d", ref, r.Status)
		}
		if strings.HasSuffix(ref, ".js") {
			scripts = append(scripts, ref)
		}
		// Swagger UI is the portal build's copy of swagger-ui-dist
		// (graph/portal checks the copies against the lockfile).
		if name, ok := strings.CutPrefix(ref, "/docs/assets/swagger-ui/"); ok {
			built, err := fs.ReadFile(portal.ThirdParty("swagger-ui"), name)
			if err != nil || !bytes.Equal(built, r.Body) {
				t.Errorf("%s is not the build's %s (%v)", ref, name, err)
			}
			swaggerUI[name] = true
		}
	}
	for _, name := range []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"} {
		if !swaggerUI[name] {
			t.Errorf("/docs does not load swagger-ui/%s", name)
		}
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
		t.Errorf("/docs names an absolute URL: %s", html)
	}
	// The page's own script loads the documents from this origin, v2 first.
	init := string(s.do(req{method: "GET", path: "/docs/assets/init.js"}).Body)
	if !strings.Contains(init, "/docs/assets/init.js") && !slicesContains(scripts, "/docs/assets/init.js") {
		t.Fatalf("init.js is not loaded by the page")
	}
	v2, v1 := strings.Index(init, `"/openapi/v2.json"`), strings.Index(init, `"/openapi/v1.json"`)
	if v2 < 0 || v1 < 0 || v2 > v1 || !strings.Contains(init, `"urls.primaryName": "v2"`) || !strings.Contains(init, "validatorUrl: null") {
		t.Errorf("init.js does not select v2 by default from local documents:\n%s", init)
	}
	if regexp.MustCompile(`https?://`).MatchString(init) {
		t.Errorf("init.js names an absolute URL")
	}
	for _, path := range []string{"/openapi/v2.json", "/openapi/v1.json", "/docs/assets/swagger-ui/LICENSE"} {
		if r := s.do(req{method: "GET", path: path}); r.Status != 200 {
			t.Errorf("%s: %d", path, r.Status)
		}
	}
	for _, path := range []string{"/docs/assets/", "/docs/assets/swagger-ui/", "/docs/assets/index.html", "/docs/assets/nope.js"} {
		if r := s.do(req{method: "GET", path: path}); r.Status != 404 {
			t.Errorf("%s: %d, want 404", path, r.Status)
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package rest_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/bench/cluster/tcpproxy"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestDatabaseOutageAnswers503: with PostgreSQL cut off (a proxy in front
// of it drops every connection and refuses new ones), every route that
// needs the database answers 503 unavailable in the contract's shape with
// Retry-After, never 500; /health (liveness) stays 200 and shows the
// database unavailable; /ready answers 503. Restored, the same server
// answers again without a restart.
func TestDatabaseOutageAnswers503(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tcpproxy.Start("127.0.0.1:0", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	u.Host = p.Addr()
	ctx := context.Background()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatal(err)
	}
	s := newServerOn(t, st, nil)
	tn := s.tenant("outage")
	irnOf := func(ref string) req {
		return req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret,
			body: map[string]any{"invoice_reference": ref, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}}
	}
	s.must(200, irnOf("INV001"))
	if r := s.do(req{method: "GET", path: "/ready"}); r.Status != 200 || r.json(t)["status"] != "ready" {
		t.Fatalf("ready before the outage: %d %s", r.Status, r.Body)
	}

	p.Cut()
	for _, r := range []req{
		irnOf("INV002"),
		{method: "GET", path: "/api/v2/projects", token: tn.Token},
		{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "outage@example.com", "password": "correct horse battery"}},
		{method: "GET", path: "/api/v2/audit-logs", token: tn.Token},
	} {
		res := s.do(r)
		if res.Status != 503 || res.Header.Get("Retry-After") == "" {
			t.Fatalf("%s %s during the outage: %d (Retry-After %q) %s", r.method, r.path, res.Status, res.Header.Get("Retry-After"), res.Body)
		}
		if b := res.json(t); b["code"] != "unavailable" || !strings.Contains(b["detail"].(string), "database") {
			t.Fatalf("%s %s during the outage: body %s", r.method, r.path, res.Body)
		}
	}
	h := s.do(req{method: "GET", path: "/health"})
	if h.Status != 200 || h.json(t)["checks"].(map[string]any)["database"] != "unavailable" {
		t.Fatalf("health during the outage: %d %s", h.Status, h.Body)
	}
	rd := s.do(req{method: "GET", path: "/ready"})
	if rd.Status != 503 || rd.Header.Get("Retry-After") == "" || rd.json(t)["status"] != "not_ready" ||
		rd.json(t)["checks"].(map[string]any)["database"] != "unavailable" {
		t.Fatalf("ready during the outage: %d %s", rd.Status, rd.Body)
	}

	if err := p.Restore(); err != nil {
		t.Fatal(err)
	}
	s.must(200, irnOf("INV003"))
	s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})
	if r := s.do(req{method: "GET", path: "/ready"}); r.Status != 200 {
		t.Fatalf("ready after the outage: %d %s", r.Status, r.Body)
	}
}

// TestReadyRequiresEveryReadinessCheck: a failing readiness check (here
// Temporal's namespace) makes /ready 503 while /health stays 200.
func TestReadyRequiresEveryReadinessCheck(t *testing.T) {
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.ReadinessChecks = map[string]func(context.Context) error{"temporal": func(context.Context) error {
			return errors.New(`temporal namespace "missing" does not exist`)
		}}
	})
	r := s.do(req{method: "GET", path: "/ready"})
	b := r.json(t)
	checks := b["checks"].(map[string]any)
	if r.Status != 503 || b["status"] != "not_ready" || checks["temporal"] != "unavailable" || checks["database"] != "ok" ||
		checks["migrations"] != "ok" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("ready: %d %s", r.Status, r.Body)
	}
	if h := s.do(req{method: "GET", path: "/health"}); h.Status != 200 {
		t.Fatalf("health: %d %s", h.Status, h.Body)
	}
}

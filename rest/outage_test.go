package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/bench/cluster/tcpproxy"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/idempotency"
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

// TestIdempotencyHolderFailedInOutage: a request under an Idempotency-Key
// whose end (a 503 to release, or a 200 to keep) could not be written
// because the database went away does not leave its key in flight: once
// the database is back, a retry with the same key reaching the same
// process runs again after a 503 and replays after a 200, once; a retry
// reaching another process gets 409 with Retry-After until the holder has
// written it, then the same.
func TestIdempotencyHolderFailedInOutage(t *testing.T) {
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
	open := func() *store.Store {
		st, err := store.Open(ctx, u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	st := open()
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatal(err)
	}
	shared := apptest.Config(t, nil).Box
	sameKey := func(c *app.Config) { c.Box = shared }
	s, other := build(t, st, sameKey, nil), build(t, open(), sameKey, nil)
	tn := s.tenant("holder")
	keyID := uuid.MustParse(tn.KeyID)
	irnBody := func(ref string) map[string]any {
		return map[string]any{"invoice_reference": ref, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
	}
	// claim holds key as the request with irnBody(ref) does while it runs.
	claim := func(key, ref string) *idempotency.Claim {
		t.Helper()
		raw, _ := json.Marshal(irnBody(ref))
		c, stored, err := s.svc.Idempotency.Acquire(ctx, idempotency.Request{Credential: idempotency.KeyCredential(keyID), Key: key,
			Method: "POST", Target: "/api/v2/invoices/irn/generate", Body: raw})
		if err != nil || c == nil || stored != nil {
			t.Fatalf("claim %s: %v %v %v", key, c, stored, err)
		}
		return c
	}
	retry := func(on *server, key, ref string) response {
		return on.do(withKey(irnReq(tn, irnBody(ref)), key))
	}
	failed, answered, elsewhere := claim("failed", "INV001"), claim("answered", "INV002"), claim("elsewhere", "INV003")
	// A request still running when its claim can no longer be renewed is
	// stopped before its lease lapses (here a lease of 300 ms).
	short := idempotency.New(st, idempotency.Config{Box: shared, Lease: 300 * time.Millisecond})
	running, _, err := short.Acquire(ctx, idempotency.Request{Credential: idempotency.KeyCredential(keyID), Key: "running",
		Method: "POST", Target: "/api/v2/invoices/irn/generate", Body: []byte(`{}`)})
	if err != nil || running == nil {
		t.Fatalf("claim running: %v", err)
	}
	held, stop := running.Hold(ctx)
	defer stop()

	p.Cut()
	<-held.Done()
	if cause := context.Cause(held); !errors.Is(cause, idempotency.ErrClaimLost) {
		t.Fatalf("running request's context ended with %v, want ErrClaimLost", cause)
	}
	// The requests end while the database is away: their ends are not
	// written.
	for _, f := range []struct {
		c    *idempotency.Claim
		resp *idempotency.StoredResponse
	}{
		{failed, &idempotency.StoredResponse{Status: 503}},
		{answered, &idempotency.StoredResponse{Status: 200, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"irn":"kept"}`)}},
		{elsewhere, &idempotency.StoredResponse{Status: 503}},
	} {
		if err := f.c.Finish(ctx, f.resp); model.ErrorCodeOf(err) != model.CodeUnavailable {
			t.Fatalf("finish during the outage: %v, want unavailable", err)
		}
	}
	if r := retry(s, "failed", "INV001"); r.Status != 503 {
		t.Fatalf("retry during the outage: %d %s", r.Status, r.Body)
	}
	if err := p.Restore(); err != nil {
		t.Fatal(err)
	}

	// The failed request runs again, once; then it is replayed.
	first := retry(s, "failed", "INV001")
	if first.Status != 200 || first.Header.Get(rest.ReplayedHeader) != "" {
		t.Fatalf("retry after the outage: %d %v %s", first.Status, first.Header, first.Body)
	}
	again := retry(s, "failed", "INV001")
	if again.Status != 200 || again.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(again.Body, first.Body) {
		t.Fatalf("second retry: %d %v %s", again.Status, again.Header, again.Body)
	}
	// The answered request is replayed as it was answered, not run again.
	if r := retry(s, "answered", "INV002"); r.Status != 200 || r.Header.Get(rest.ReplayedHeader) != "true" || string(r.Body) != `{"irn":"kept"}` {
		t.Fatalf("retry of the answered request: %d %v %s", r.Status, r.Header, r.Body)
	}
	// Another process: 409 with Retry-After while the holder has not yet
	// released the key (its settler writes it within seconds), or 503 while
	// its connections to the database come back; then a run.
	var ran response
	for {
		r := retry(other, "elsewhere", "INV003")
		if r.Status == 200 {
			ran = r
			break
		}
		if (r.Status != 409 && r.Status != 503) || r.Header.Get("Retry-After") == "" {
			t.Fatalf("retry on another process: %d %v %s", r.Status, r.Header, r.Body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ran.Header.Get(rest.ReplayedHeader) != "" {
		t.Fatalf("retry on another process replayed: %s", ran.Body)
	}
	if r := retry(s, "elsewhere", "INV003"); r.Status != 200 || r.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(r.Body, ran.Body) {
		t.Fatalf("replay on the holder's process: %d %v %s", r.Status, r.Header, r.Body)
	}
}

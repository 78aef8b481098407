package rest_test

import (
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// /health shows how NRS answers in each environment, and the invoice routes
// of a key whose environment is not ok answer with NRS-Status; other routes
// and the other environment's keys do not.
func TestNRSStatus(t *testing.T) {
	var mu sync.Mutex
	health := map[model.Environment]string{}
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.NRSHealth = func(env model.Environment) string {
			mu.Lock()
			defer mu.Unlock()
			if h := health[env]; h != "" {
				return h
			}
			return model.AuthorityOK
		}
	})
	set := func(env model.Environment, h string) { mu.Lock(); health[env] = h; mu.Unlock() }
	tn := s.tenant("nrsstatus")
	irn := req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret,
		body: map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}}
	usage := req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}

	h := s.must(200, req{method: "GET", path: "/health"})
	checks := h["checks"].(map[string]any)
	if checks["nrs_sandbox"] != "ok" || checks["nrs_production"] != "ok" || h["status"] != "ok" {
		t.Fatalf("health: %v", h)
	}
	if r := s.do(irn); r.Status != 200 || r.Header.Get("NRS-Status") != "" {
		t.Fatalf("ok: %d %v", r.Status, r.Header)
	}

	set(model.EnvironmentProduction, model.AuthorityDown)
	if r := s.do(irn); r.Header.Get("NRS-Status") != "" {
		t.Fatalf("a sandbox key told of production: %v", r.Header)
	}
	set(model.EnvironmentSandbox, model.AuthorityDegraded)
	if r := s.do(irn); r.Status != 200 || r.Header.Get("NRS-Status") != "degraded" {
		t.Fatalf("degraded: %d %v", r.Status, r.Header)
	}
	if r := s.do(usage); r.Status != 200 || r.Header.Get("NRS-Status") != "" {
		t.Fatalf("a route that is not an invoice route: %d %v", r.Status, r.Header)
	}
	h = s.must(200, req{method: "GET", path: "/health"})
	checks = h["checks"].(map[string]any)
	if checks["nrs_sandbox"] != "degraded" || checks["nrs_production"] != "down" || h["status"] != "degraded" || checks["database"] != "ok" {
		t.Fatalf("health: %v", h)
	}
	// A refused request (bad body) carries it too: the header is about NRS,
	// not the request.
	bad := irn
	bad.body = map[string]any{}
	if r := s.do(bad); r.Status != 422 || r.Header.Get("NRS-Status") != "degraded" {
		t.Fatalf("422: %d %v", r.Status, r.Header)
	}
}

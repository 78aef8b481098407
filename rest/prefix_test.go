package rest_test

import (
	"testing"
)

// TestPrefixRoutesAnswerAlike checks the v2 routes, which sit in the root's
// table, against their v1 twins behind a sub-router: the same answers to
// known routes, to unknown paths and to unknown methods, v1 adding its
// Deprecation header to all of them.
func TestPrefixRoutesAnswerAlike(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"POST", "/invoices/irn/generate", 200},
		{"GET", "/projects/" + tn.ProjectID + "/keys", 401}, // a bearer route, with a key
		{"GET", "/invoices/irn/generate", 405},
		{"POST", "/invoices/irn/generate/", 404},
		{"POST", "/invoices/nothing-here", 405}, // GET /invoices/{id} exists
		{"POST", "/nothing-here", 404},
		{"GET", "", 404},
		{"GET", "/", 404},
	} {
		body := `{"invoice_reference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`
		v2 := s.do(req{method: c.method, path: "/api/v2" + c.path, clientID: tn.ClientID, secret: tn.Secret, body: body})
		v1 := s.do(req{method: c.method, path: "/api/v1" + c.path, clientID: tn.ClientID, secret: tn.Secret, body: body})
		if v2.Status != c.status || v1.Status != c.status || string(v1.Body) != string(v2.Body) {
			t.Errorf("%s %s: v2 %d %s, v1 %d %s; want %d alike", c.method, c.path, v2.Status, v2.Body, v1.Status, v1.Body, c.status)
		}
		if v2.Header.Get("Deprecation") != "" || v1.Header.Get("Deprecation") == "" {
			t.Errorf("%s %s: Deprecation on v2 %q, on v1 %q", c.method, c.path, v2.Header.Get("Deprecation"), v1.Header.Get("Deprecation"))
		}
	}
}

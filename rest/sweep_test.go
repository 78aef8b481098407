package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestMalformedRequestSweep sends every routed operation, with valid
// credentials of both kinds, a battery of broken requests: bad path ids,
// unknown ids, no body, malformed JSON, wrong JSON types at the top and in
// every field. Nothing may answer 5xx, and every 422 must be in the
// contract's shape.
func TestMalformedRequestSweep(t *testing.T) {
	// With the NRS sandbox stand-in in process: the sandbox fault routes
	// reach it (without one they answer 503 by design).
	s, _ := withStandIn(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("acme")
	ops := routedOperations(t, s.h)
	bodies := []any{
		nil, "", "{", "[]", "null", `"text"`, "42", "{} trailing", `{"a":}`, "\xff\xfe",
		map[string]any{},
		map[string]any{"payload": "x", "invoice_type": 5, "invoice_reference": []int{1}, "issue_date": true, "irn": map[string]any{}},
		map[string]any{"email": 1, "password": nil, "name": false, "slug": 2.5, "organization_id": "x", "environment": []any{}},
		map[string]any{"key_name": strings.Repeat("k", 5000), "scopes": "all", "timestamp": "soon", "business_id": 7},
		map[string]any{"tax_authority_code": 1, "service_id": nil, "public_key": []any{}, "certificate": map[string]any{}, "base_url": 3},
		map[string]any{"invoice_type_code": map[string]any{}, "schema_version": 1.1, "payload": []any{1}, "invoice_payload": "x"},
	}
	ids := map[string][]string{
		"project_id": {"not-a-uuid", uuid.NewString(), tn.ProjectID},
		// Never the tenant's own key: rotating or revoking it would turn
		// the rest of the sweep into 401s.
		"key_id":    {"123", uuid.NewString()},
		"run_id":    {"%20", uuid.NewString()},
		"authority": {"NRS", "XYZ"},
		"version":   {"1.1", "9"},
	}
	var paths func(route string) []string
	paths = func(route string) []string {
		i := strings.Index(route, "{")
		if i < 0 {
			return []string{route}
		}
		j := strings.Index(route[i:], "}") + i
		var out []string
		for _, v := range ids[route[i+1:j]] {
			out = append(out, paths(route[:i]+v+route[j+1:])...)
		}
		return out
	}
	n := 0
	for _, version := range []string{"v2", "v1"} {
		for _, op := range ops[version] {
			method, route, _ := strings.Cut(op, " ")
			for _, path := range paths(route) {
				for _, creds := range []req{{token: tn.Token}, {clientID: tn.ClientID, secret: tn.Secret}} {
					for _, b := range bodies {
						r := creds
						r.method, r.path, r.body = method, path, b
						res := s.do(r)
						n++
						if res.Status >= 500 {
							t.Fatalf("%s %s body %v: %d %s", method, path, b, res.Status, res.Body)
						}
						if res.Status == 422 {
							detail(t, res)
						} else if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
							var v any
							if err := json.Unmarshal(res.Body, &v); err != nil {
								t.Fatalf("%s %s: a JSON answer that is not JSON: %s", method, path, res.Body)
							}
						}
						if res.Header.Get("X-Request-ID") == "" {
							t.Fatalf("%s %s: no X-Request-ID", method, path)
						}
					}
				}
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d requests swept: the route table walk found too little", n)
	}
	// The tenant's key still works and its project is intact.
	s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret})
}

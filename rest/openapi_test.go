package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/rest"
)

// infraRoutes are served beside the API and described elsewhere: the
// documents themselves, their UI, metrics and GraphQL.
var infraRoutes = map[string]bool{
	"/metrics": true, "/docs": true, "/docs/": true, "/docs/assets/*": true,
	"/openapi/v1.json": true, "/openapi/v2.json": true, "/graphql": true, "/graphql/assets/*": true,
}

// routedOperations walks the router's table: "METHOD /pattern" per
// version ("v1" for /api/v1, else "v2").
func routedOperations(t testing.TB, h http.Handler) map[string][]string {
	t.Helper()
	routes, ok := h.(chi.Routes)
	if !ok {
		t.Fatalf("router %T is not a chi.Routes", h)
	}
	out := map[string][]string{}
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/*/") // chi's sub-router joints
		route = strings.ReplaceAll(route, "/*/", "/")
		if infraRoutes[route] || method == "*" || method == "CONNECT" || method == "TRACE" || method == "OPTIONS" || method == "HEAD" {
			return nil
		}
		v := "v2"
		if strings.HasPrefix(route, "/api/v1/") {
			v = "v1"
		}
		op := method + " " + route
		if !slices.Contains(out[v], op) {
			out[v] = append(out[v], op)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

func TestOpenAPIRoutes(t *testing.T) {
	s := newServer(t, sqlite())
	routed := routedOperations(t, s.h)
	for _, version := range []string{"v1", "v2"} {
		t.Run(version, func(t *testing.T) {
			documented, err := rest.OpenAPIOperations(version)
			if err != nil {
				t.Fatal(err)
			}
			if len(routed[version]) == 0 {
				t.Fatalf("no %s routes found in the router", version)
			}
			for _, op := range routed[version] {
				if !slices.Contains(documented, op) {
					t.Errorf("%s is routed but missing from /openapi/%s.json (rest/openapi/openapi.yaml)", op, version)
				}
			}
			for _, op := range documented {
				if !slices.Contains(routed[version], op) {
					t.Errorf("%s is documented in /openapi/%s.json but not routed", op, version)
				}
			}
		})
	}
}

// openAPIValidator parses a served document and builds a validator over it,
// failing on any problem in the document itself.
func openAPIValidator(t testing.TB, s *server, version string) validator.Validator {
	t.Helper()
	res := s.do(req{method: "GET", path: "/openapi/" + version + ".json"})
	if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi/%s.json: %d %s", version, res.Status, res.Header.Get("Content-Type"))
	}
	doc, err := libopenapi.NewDocument(res.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", version, err)
	}
	if _, err := doc.BuildV3Model(); err != nil {
		t.Fatalf("%s does not build: %v", version, err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", version, errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("%s is not a valid OpenAPI 3.1 document: %s", version, e.Error())
			for _, f := range e.SchemaValidationErrors {
				t.Errorf("  at %s: %s", f.FieldPath, f.Reason)
			}
		}
		t.FailNow()
	}
	return v
}

func TestOpenAPIDocumentsValid(t *testing.T) {
	s := newServer(t, sqlite())
	for _, version := range []string{"v1", "v2"} {
		t.Run(version, func(t *testing.T) {
			openAPIValidator(t, s, version)
			var doc struct {
				OpenAPI    string `json:"openapi"`
				Components struct {
					Schemas map[string]struct {
						Enum []string `json:"enum"`
					} `json:"schemas"`
					SecuritySchemes map[string]map[string]any `json:"securitySchemes"`
				} `json:"components"`
				Paths map[string]map[string]struct {
					Deprecated bool `json:"deprecated"`
				} `json:"paths"`
			}
			raw := s.do(req{method: "GET", path: "/openapi/" + version + ".json"}).Body
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.OpenAPI != "3.1.0" {
				t.Errorf("openapi %q, want 3.1.0", doc.OpenAPI)
			}
			var types []string
			for _, p := range model.ProblemTypes {
				types = append(types, string(p))
			}
			if got := doc.Components.Schemas["ProblemType"].Enum; !slices.Equal(got, types) {
				t.Errorf("ProblemType enum %v, want model.ProblemTypes %v", got, types)
			}
			for _, code := range []model.ErrorCode{model.CodeUnauthenticated, model.CodeForbidden, model.CodeNotFound,
				model.CodeConflict, model.CodeAuthorityNotConfigured, model.CodeUnsupportedMediaType, model.CodeRateLimited, model.CodeUnavailable, model.CodeInternal} {
				if !slices.Contains(doc.Components.Schemas["ErrorCode"].Enum, string(code)) {
					t.Errorf("ErrorCode enum lacks %q", code)
				}
			}
			for name, want := range map[string]string{"bearerAuth": "http", "clientId": "apiKey", "clientSecret": "apiKey"} {
				if doc.Components.SecuritySchemes[name]["type"] != want {
					t.Errorf("security scheme %s: %v", name, doc.Components.SecuritySchemes[name])
				}
			}
			for path, item := range doc.Paths {
				for method, op := range item {
					if version == "v1" && !op.Deprecated {
						t.Errorf("v1 %s %s is not marked deprecated", method, path)
					}
					if version == "v2" && op.Deprecated {
						t.Errorf("v2 %s %s is marked deprecated", method, path)
					}
				}
			}
		})
	}
}

// TestOpenAPIResponsesMatch drives the API and checks every answer against
// the documents: status, headers and body schema.
func TestOpenAPIResponsesMatch(t *testing.T) {
	s := newServer(t, sqlite())
	validators := map[string]validator.Validator{"v1": openAPIValidator(t, s, "v1"), "v2": openAPIValidator(t, s, "v2")}
	tn := s.tenant("acme")
	bid := s.projectBusinessID(tn)
	irnBody := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
	irn := s.must(200, irnReq(tn, irnBody))["irn"].(string)
	renderBody := map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, "invoice-b2b-1.1.json")}
	bearer := func(method, path string, body any) req {
		return req{method: method, path: path, token: tn.Token, body: body}
	}
	key := func(method, path string, body any) req {
		return req{method: method, path: path, clientID: tn.ClientID, secret: tn.Secret, body: body}
	}
	cases := []struct {
		name   string
		r      req
		status int
	}{
		{"health", req{method: "GET", path: "/health"}, 200},
		{"signup", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "b@example.com", "password": "correct horse battery", "organization_name": "Bee", "organization_slug": "bee"}}, 200},
		{"signup duplicate", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "b@example.com", "password": "correct horse battery", "organization_name": "Bee", "organization_slug": "bee"}}, 409},
		{"signup invalid", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": 3}}, 422},
		{"login", req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": "correct horse battery"}}, 200},
		{"login wrong", req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": "wrong password"}}, 401},
		{"organizations", bearer("GET", "/api/v2/organizations", nil), 200},
		{"organization create", bearer("POST", "/api/v2/organizations", map[string]any{"name": "Second", "slug": "second"}), 200},
		{"organization create as a form", req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: "name=Third&slug=third",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 415},
		{"organization create with an unknown field", bearer("POST", "/api/v2/organizations", map[string]any{"name": "Third", "slug": "third", "plan": "pro"}), 422},
		{"projects", bearer("GET", "/api/v2/projects", nil), 200},
		{"project create", bearer("POST", "/api/v2/projects", map[string]any{"organization_id": tn.OrgID, "name": "Prod shop", "environment": "production"}), 200},
		{"project in another org", bearer("POST", "/api/v2/projects", map[string]any{"organization_id": "00000000-0000-4000-8000-000000000000", "name": "Nope", "environment": "sandbox"}), 404},
		{"keys", bearer("GET", "/api/v2/projects/"+tn.ProjectID+"/keys", nil), 200},
		{"key create", bearer("POST", "/api/v2/projects/"+tn.ProjectID+"/keys", map[string]any{"key_name": "second"}), 200},
		{"key bad path", bearer("GET", "/api/v2/projects/not-a-uuid/keys", nil), 422},
		{"audit", bearer("GET", "/api/v2/audit-logs", nil), 200},
		{"no token", req{method: "GET", path: "/api/v2/projects"}, 401},
		{"usage", key("GET", "/api/v2/usage", nil), 200},
		{"irn", key("POST", "/api/v2/invoices/irn/generate", irnBody), 200},
		{"irn conflict", key("POST", "/api/v2/invoices/irn/generate", map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-16"}), 409},
		{"irn invalid", key("POST", "/api/v2/invoices/irn/generate", map[string]any{"invoice_reference": "INV-1"}), 422},
		{"irn validate", key("POST", "/api/v2/invoices/irn/validate", map[string]any{"invoice_reference": "INV001", "business_id": bid, "irn": irn}), 200},
		{"qr", key("POST", "/api/v2/invoices/qr/generate?include=png", map[string]any{"irn": irn}), 200},
		{"validate", key("POST", "/api/v2/invoices/schema/validate", map[string]any{"invoice_type_code": "381", "tax_authority_code": "NRS", "payload": map[string]any{}}), 200},
		{"bad secret", req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: "cs_sandbox_wrong", body: irnBody}, 401},
		{"idempotent irn", withKey(key("POST", "/api/v2/invoices/irn/generate", irnBody), "doc-1"), 200},
		{"idempotent irn replayed", withKey(key("POST", "/api/v2/invoices/irn/generate", irnBody), "doc-1"), 200},
		{"idempotency key reuse", withKey(key("POST", "/api/v2/invoices/irn/generate", map[string]any{"invoice_reference": "INV002", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}), "doc-1"), 422},
		{"render", key("POST", "/api/v2/invoices/render", renderBody), 200},
		{"render an empty invoice", key("POST", "/api/v2/invoices/render", map[string]any{"invoice_type": "b2c", "payload": map[string]any{}}), 200},
		{"render an invalid invoice", key("POST", "/api/v2/invoices/render", map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, "invalid-missing-supplier-tin.json")}), 200},
		{"render pdf", req{method: "POST", path: "/api/v2/invoices/render", clientID: tn.ClientID, secret: tn.Secret, body: renderBody, header: map[string]string{"Accept": "application/pdf"}}, 200},
		{"render pdf by query", key("POST", "/api/v2/invoices/render?format=pdf", renderBody), 200},
		{"render invalid", key("POST", "/api/v2/invoices/render", map[string]any{"invoice_type": "B2X"}), 422},
		{"certification run missing", key("GET", "/api/v2/certification/runs/00000000-0000-4000-8000-000000000000", nil), 404},
		{"certification run bad id", key("GET", "/api/v2/certification/runs/nope", nil), 422},
		{"certification smoke invalid", key("POST", "/api/v2/certification/nrs/smoke", map[string]any{"invoice_type": "B2X"}), 422},
		{"schema", req{method: "GET", path: "/api/v2/invoices/schemas/NRS/1.1"}, 200},
		{"v1 irn", key("POST", "/api/v1/invoices/irn/generate", irnBody), 200},
		{"v1 projects", bearer("GET", "/api/v1/projects", nil), 200},
		{"v1 no token", req{method: "GET", path: "/api/v1/organizations"}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.do(c.r)
			if res.Status != c.status {
				t.Fatalf("status %d, want %d: %s", res.Status, c.status, res.Body)
			}
			version := "v2"
			if strings.HasPrefix(c.r.path, "/api/v1/") {
				version = "v1"
			}
			hr := httptest.NewRequest(c.r.method, c.r.path, nil)
			hr.Header.Set("Content-Type", "application/json")
			resp := &http.Response{StatusCode: res.Status, Header: res.Header, Body: io.NopCloser(bytes.NewReader(res.Body)), Request: hr}
			if ok, errs := validators[version].ValidateHttpResponse(hr, resp); !ok {
				for _, e := range errs {
					t.Errorf("%s %s -> %d does not match /openapi/%s.json: %s", c.r.method, c.r.path, res.Status, version, e.Error())
				}
			}
		})
	}
}

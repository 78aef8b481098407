package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// restRequest is how one request body of the interface document is sent:
// its route, its credentials, fresh valid values, and where an accepted
// request's answer shows each field.
type restRequest struct {
	method, path string
	cred         func(r req) req
	values       apptest.Values
	// echo maps a field to the answer's member (dotted path) that shows
	// its value, as sent or canonical, or its default when absent.
	echo map[string]string
	// prepare runs before an accepted case is sent (login: create the
	// account the case logs in to).
	prepare func(t *testing.T, body map[string]any)
}

// conformanceServer is a server whose certification runs start nothing
// and whose sandbox projects count as configured.
func conformanceServer(t *testing.T, d storetest.Dialect) *server {
	t.Helper()
	return build(t, d.Open(t), func(c *app.Config) {
		c.Runs = &recordingRuns{}
		c.SandboxBaseURL = "http://127.0.0.1:9" // never called: runs start nothing
		// Every accepted run stays queued: bounds, not the concurrency
		// quota, are under test.
		c.Quotas.RunsPerProject = -1
	}, nil)
}

// restRequests describes every request body of model.Requests for s.
func restRequests(t *testing.T, s *server) map[string]restRequest {
	t.Helper()
	tn := s.tenant("conformance")
	bid := s.projectBusinessID(tn)
	irnBody := map[string]any{"invoice_reference": "CONF001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
	res := s.do(irnReq(tn, irnBody))
	if res.Status != 200 {
		t.Fatalf("IRN: %d %s", res.Status, res.Body)
	}
	irn := res.json(t)["irn"].(string)
	bearer := func(r req) req { r.token = tn.Token; return r }
	key := func(r req) req { r.clientID, r.secret = tn.ClientID, tn.Secret; return r }
	none := func(r req) req { return r }
	text := func(field string, n int) (string, bool) {
		switch field {
		case "email":
			return apptest.Email(n), true
		case "organization_slug", "slug":
			return apptest.Slug(n), true
		}
		return "", false
	}
	b2b := loadFixture(t, "invoice-b2b-1.1.json")
	return map[string]restRequest{
		"SignupRequest": {method: "POST", path: "/auth/signup", cred: none,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"email": apptest.Email(20), "password": "correct horse battery",
					"organization_name": "Conformance Ltd", "organization_slug": apptest.Slug(12)}
			}},
			echo: map[string]string{"email": "user.email", "organization_name": "organization.name", "organization_slug": "organization.slug"}},
		"LoginRequest": {method: "POST", path: "/auth/login", cred: none,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"email": apptest.Email(20), "password": "correct horse battery"}
			}},
			echo: map[string]string{"email": "user.email"},
			prepare: func(t *testing.T, body map[string]any) {
				_, err := s.svc.Auth.Signup(context.Background(), auth.SignupInput{Email: body["email"].(string),
					Password: body["password"].(string), OrganizationName: "Login Ltd", OrganizationSlug: apptest.Slug(12)})
				if err != nil {
					t.Fatalf("create the account to log in to: %v", err)
				}
			}},
		"OrganizationCreate": {method: "POST", path: "/organizations", cred: bearer,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"name": "Second Org", "slug": apptest.Slug(12)}
			}},
			echo: map[string]string{"name": "name", "slug": "slug"}},
		"ProjectCreate": {method: "POST", path: "/projects", cred: bearer,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"organization_id": tn.OrgID, "name": "Web shop", "environment": "sandbox"}
			}},
			echo: map[string]string{"name": "name", "environment": "environment", "organization_id": "organization_id"}},
		"ApiKeyCreate": {method: "POST", path: "/projects/" + tn.ProjectID + "/keys", cred: bearer,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"key_name": "erp", "scopes": []any{"usage:read"}}
			}},
			echo: map[string]string{"key_name": "key_name", "scopes": "scopes"}},
		"InvoiceSchemaValidateRequest": {method: "POST", path: "/invoices/schema/validate", cred: key,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "schema_version": "1.1", "payload": b2b}
			}},
			echo: map[string]string{"schema_version": "schema_version", "tax_authority_code": "tax_authority_code", "profile": "profile"}},
		"IrnGenerateRequest": {method: "POST", path: "/invoices/irn/generate", cred: key,
			values: apptest.Values{Base: func() map[string]any { return clone(irnBody) }},
			echo:   map[string]string{"invoice_reference": "invoice_reference", "invoice_type_code": "invoice_type_code", "issue_date": "issue_date"}},
		"IrnValidateRequest": {method: "POST", path: "/invoices/irn/validate", cred: key,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"invoice_reference": "CONF001", "business_id": bid, "irn": irn}
			}},
			echo: map[string]string{"irn": "irn"}},
		"QrGenerateRequest": {method: "POST", path: "/invoices/qr/generate", cred: key,
			values: apptest.Values{Base: func() map[string]any { return map[string]any{"irn": irn} }},
			echo:   map[string]string{"irn": "irn", "timestamp": "timestamp"}},
		"RenderRequest": {method: "POST", path: "/invoices/render", cred: key,
			values: apptest.Values{Base: func() map[string]any { return map[string]any{"invoice_type": "B2B", "payload": b2b} }},
			echo:   map[string]string{"invoice_type": "invoice_type"}},
		"CertificationRunRequest": {method: "POST", path: "/certification/nrs/smoke", cred: key,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"invoice_type": "B2B", "issue_date": "2026-03-15", "invoice_payload": b2b}
			}},
			echo: map[string]string{"invoice_type": "invoice_type", "issue_date": "issue_date"}},
	}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// member reads a dotted path of a decoded JSON object.
func member(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, p := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// expectedEcho is what an accepted case's answer shows for its field.
func expectedEcho(c apptest.BoundCase) (any, bool) {
	f := c.Field
	switch {
	case f.Name == "scopes" && c.Absent:
		return toAny(model.ScopeNames()), true
	case f.Name == "timestamp" && (c.Absent || c.Value == nil):
		return nil, false // now: checked to be a number below
	case c.Absent:
		if f.Default == "" {
			return nil, false
		}
		return f.Default, true
	}
	if s, ok := c.Value.(string); ok {
		if k, kind := model.ParseInvoiceKind(s); kind && slices.Equal(f.Enum, model.InvoiceKinds) {
			return string(k), true
		}
		return s, true
	}
	if n, ok := c.Value.(int); ok {
		return float64(n), true
	}
	return c.Value, true
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// TestConformance sends, for every field of every request body of the
// interface document, its boundary values (min-1, min, max, max+1
// characters), its allowed values and its absence, on /api/v2 and /api/v1,
// on SQLite and PostgreSQL: the limit itself and every allowed value are
// accepted (and shown back as sent, or canonical), one past a limit is a
// 422 of the contract's type at exactly that field, an absent optional
// field takes its default, and an absent required field is missing.
func TestConformance(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := conformanceServer(t, d)
			requests := restRequests(t, s)
			for _, version := range []string{"v2", "v1"} {
				t.Run(version, func(t *testing.T) {
					for _, spec := range model.Requests {
						rr, ok := requests[spec.Name]
						if !ok {
							t.Fatalf("no route for %s", spec.Name)
						}
						t.Run(spec.Name, func(t *testing.T) {
							for _, c := range apptest.BoundCases(spec, rr.values) {
								t.Run(c.Name, func(t *testing.T) {
									conformanceCase(t, s, version, rr, c)
								})
							}
						})
					}
				})
			}
		})
	}
}

func conformanceCase(t *testing.T, s *server, version string, rr restRequest, c apptest.BoundCase) {
	if c.Want == "" && rr.prepare != nil {
		rr.prepare(t, c.Body)
	}
	res := s.do(rr.cred(req{method: rr.method, path: "/api/" + version + rr.path, body: c.Body}))
	if c.Want != "" {
		if res.Status != 422 {
			t.Fatalf("status %d, want 422 %s at %s: %s", res.Status, c.Want, c.Field.Name, res.Body)
		}
		got := locs(detail(t, res))
		want := string(c.Want) + "@body/" + c.Field.Name
		if !slices.Equal(got, []string{want}) {
			t.Fatalf("problems %v, want exactly [%s]", got, want)
		}
		return
	}
	if res.Status != 200 {
		t.Fatalf("status %d, want 200: %s", res.Status, res.Body)
	}
	body := res.json(t)
	path, ok := rr.echo[c.Field.Name]
	if !ok {
		return
	}
	got, present := member(body, path)
	want, check := expectedEcho(c)
	if !check {
		if c.Field.Name == "timestamp" {
			if n, ok := got.(float64); !ok || n <= 0 {
				t.Fatalf("timestamp %v: want now in Unix seconds", got)
			}
		}
		return
	}
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(got)
	if !present || string(wantJSON) != string(gotJSON) {
		t.Fatalf("%s is %s, want %s", path, truncateFor(gotJSON), truncateFor(wantJSON))
	}
}

func truncateFor(b []byte) string {
	if len(b) > 80 {
		return fmt.Sprintf("%s… (%d bytes)", b[:80], len(b))
	}
	return string(b)
}

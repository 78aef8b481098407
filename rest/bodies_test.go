package rest_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// rawPost sends body as is with the given Content-Type ("" for none).
func (s *server) rawPost(path, contentType, body string, tn tenant, key bool) response {
	s.t.Helper()
	hr := httptest.NewRequest("POST", path, strings.NewReader(body))
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	if key {
		hr.Header.Set("X-Client-Id", tn.ClientID)
		hr.Header.Set("X-Client-Secret", tn.Secret)
	} else if tn.Token != "" {
		hr.Header.Set("Authorization", "Bearer "+tn.Token)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// TestContentType: a body declared as anything but JSON is a 415 with
// code unsupported_media_type and changes nothing; JSON media types, a
// UTF-8 charset and no Content-Type at all are read as JSON.
func TestContentType(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	org := `{"name":"Second","slug":"second-%s"}`
	for i, c := range []struct {
		contentType string
		want        int
	}{
		{"application/x-www-form-urlencoded", 415}, // what curl -d sends
		{"text/plain", 415},
		{"multipart/form-data; boundary=x", 415},
		{"application/xml", 415},
		{"application/json; charset=utf-16", 415},
		{"application/jsonp", 415},
		{"not a media type", 415},
		{"application/json", 200},
		{"application/json; charset=utf-8", 200},
		{"Application/JSON; charset=UTF-8", 200},
		{"application/merge-patch+json", 200},
		{"application/vnd.einvoice+json", 200},
		{"", 200},
	} {
		t.Run(c.contentType, func(t *testing.T) {
			res := s.rawPost("/api/v2/organizations", c.contentType, strings.Replace(org, "%s", string(rune('a'+i)), 1), tn, false)
			if res.Status != c.want {
				t.Fatalf("status %d, want %d: %s", res.Status, c.want, res.Body)
			}
			if c.want == 415 {
				if got := res.json(t); got["code"] != "unsupported_media_type" || !strings.Contains(got["detail"].(string), "application/json") {
					t.Fatalf("415 body: %s", res.Body)
				}
			}
		})
	}
	// The 415s created nothing: the tenant's organization and the six
	// accepted ones.
	orgs := s.must(200, req{method: "GET", path: "/api/v2/organizations", token: tn.Token})["items"].([]any)
	if len(orgs) != 7 {
		t.Fatalf("%d organizations, want 7", len(orgs))
	}
	// API-key routes and v1 answer the same.
	irn := `{"invoice_reference":"INV1","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`
	for _, path := range []string{"/api/v2/invoices/irn/generate", "/api/v1/invoices/irn/generate"} {
		if res := s.rawPost(path, "application/x-www-form-urlencoded", irn, tn, true); res.Status != 415 {
			t.Fatalf("%s: status %d: %s", path, res.Status, res.Body)
		}
	}
}

// TestUnknownFields: our own request bodies are closed (extra_forbidden at
// each unknown field, with every other problem), while an invoice payload
// stays free-form.
func TestUnknownFields(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	key := func(path string, body any) req {
		return req{method: "POST", path: path, clientID: tn.ClientID, secret: tn.Secret, body: body}
	}
	for _, c := range []struct {
		name string
		r    req
		want []string
	}{
		{"signup", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
			"email": "b@example.com", "password": "correct horse battery", "organization_name": "Bee", "organization_slug": "bee",
			"role": "admin", "is_staff": true}}, []string{"extra_forbidden@body/is_staff", "extra_forbidden@body/role"}},
		{"with other problems, declared fields first", req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{
			"email": "", "password": "correct horse battery", "remember_me": true}},
			[]string{"string_too_short@body/email", "extra_forbidden@body/remember_me"}},
		{"project", req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
			"organization_id": tn.OrgID, "name": "Shop", "environment": "sandbox", "base_url": "http://10.0.0.1"}},
			[]string{"extra_forbidden@body/base_url"}},
		{"key", req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token, body: map[string]any{
			"key_name": "erp", "client_secret": "cs_sandbox_mine"}}, []string{"extra_forbidden@body/client_secret"}},
		{"authority", req{method: "PUT", path: "/api/v2/projects/" + tn.ProjectID + "/authority", token: tn.Token, body: func() map[string]any {
			b := authorityBody(t)
			b["private_key"] = "x"
			return b
		}()}, []string{"extra_forbidden@body/private_key"}},
		{"irn", key("/api/v2/invoices/irn/generate", map[string]any{"invoice_reference": "INV1", "invoice_type_code": "381",
			"tax_authority_code": "NRS", "issue_date": "2026-03-15", "service_id": "ABCDEFGH"}), []string{"extra_forbidden@body/service_id"}},
		{"qr", key("/api/v1/invoices/qr/generate", map[string]any{"irn": "X", "timestamp_ms": 1}), []string{"extra_forbidden@body/timestamp_ms"}},
		{"certification", key("/api/v2/certification/nrs/smoke", map[string]any{"invoice_type": "B2B", "issue_date": "2026-03-15", "payload": map[string]any{}}),
			[]string{"extra_forbidden@body/payload"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := locs(detail(t, s.do(c.r))); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	// Unknown members inside an invoice payload are the validator's to
	// report: the request itself is accepted.
	p := loadFixture(t, "invoice-b2b-1.1.json")
	p["x_custom_field"] = "kept"
	res := s.do(key("/api/v2/invoices/schema/validate", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "payload": p}))
	if res.Status != 200 {
		t.Fatalf("payload with an unknown member: %d %s", res.Status, res.Body)
	}
	// Nothing was created by the refused requests.
	if n := len(s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any)); n != 1 {
		t.Fatalf("%d projects", n)
	}
}

// TestDuplicateNames: a name given twice in one object, at any depth, is a
// 422 value_error at that name; encoding/json would silently keep the last.
func TestDuplicateNames(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	fixture := string(mustJSON(t, loadFixture(t, "invoice-b2b-1.1.json")))
	for _, c := range []struct {
		name, path, body string
		key              bool
		want             []string
	}{
		{"top level", "/api/v2/auth/signup",
			`{"email":"c@example.com","password":"correct horse battery","organization_name":"Cee","organization_slug":"cee","organization_slug":"acme"}`,
			false, []string{"value_error@body/organization_slug"}},
		{"environment twice", "/api/v2/projects",
			`{"organization_id":"` + tn.OrgID + `","name":"Shop","environment":"sandbox","environment":"production"}`,
			false, []string{"value_error@body/environment"}},
		{"inside the payload", "/api/v2/invoices/schema/validate",
			`{"invoice_type_code":"B2B","tax_authority_code":"NRS","payload":` + strings.Replace(fixture, `"irn":`, `"irn":"A","irn":`, 1) + `}`,
			true, []string{"value_error@body/payload/irn"}},
		{"inside an array", "/api/v2/invoices/render",
			`{"invoice_type":"B2B","payload":{"invoice_line":[{"a":1},{"price":1,"price":2}]}}`,
			true, []string{"value_error@body/payload/invoice_line/1/price"}},
		{"names equal once unescaped", "/api/v1/invoices/qr/generate", `{"irn":"X","\u0069rn":"Y"}`, true, []string{"value_error@body/irn"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := s.rawPost(c.path, "application/json", c.body, tn, c.key)
			if got := locs(detail(t, res)); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	// The refused signup created nobody.
	if res := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "c@example.com", "password": "correct horse battery"}}); res.Status != 401 {
		t.Fatalf("login after a refused signup: %d", res.Status)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNamesRefuseControlCharacters: organization, project and key names
// refuse NUL, other C0 and C1 controls and bidirectional formatting
// characters with 422 value_error at the field, on SQLite and PostgreSQL
// (which would otherwise lose a NUL), and store nothing.
func TestNamesRefuseControlCharacters(t *testing.T) {
	bad := map[string]string{
		"NUL": "Acme\x00Ltd", "tab": "Acme\tLtd", "newline": "Acme\nLtd", "escape": "Acme\x1b[31mLtd", "DEL": "Acme\x7fLtd",
		"C1 NEL": "Acme\u0085Ltd", "RLO": "Acme\u202edtL", "LRE": "\u202aAcme", "PDF": "Acme\u202c", "LRI": "\u2066Acme",
		"PDI": "Acme\u2069", "LRM": "Acme\u200e", "RLM": "\u200fAcme", "ALM": "Acme\u061c",
	}
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			for name, v := range bad {
				t.Run(name, func(t *testing.T) {
					for _, c := range []struct {
						r   req
						loc string
					}{
						{req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "n@example.com", "password": "correct horse battery",
							"organization_name": v, "organization_slug": "nul"}}, "value_error@body/organization_name"},
						{req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": v, "slug": "nul"}}, "value_error@body/name"},
						{req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{"organization_id": tn.OrgID, "name": v}}, "value_error@body/name"},
						{req{method: "POST", path: "/api/v1/projects/" + tn.ProjectID + "/keys", token: tn.Token, body: map[string]any{"key_name": v}}, "value_error@body/key_name"},
						{req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme\x00@example.com", "password": "correct horse battery"}}, "value_error@body/email"},
					} {
						if got := locs(detail(t, s.do(c.r))); !slices.Equal(got, []string{c.loc}) {
							t.Fatalf("%s: got %v, want [%s]", c.r.path, got, c.loc)
						}
					}
				})
			}
			orgs := s.must(200, req{method: "GET", path: "/api/v2/organizations", token: tn.Token})["items"].([]any)
			projects := s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any)
			keys := s.must(200, req{method: "GET", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token})["items"].([]any)
			if len(orgs) != 1 || len(projects) != 1 || len(keys) != 1 {
				t.Fatalf("refused names were stored: %d organizations, %d projects, %d keys", len(orgs), len(projects), len(keys))
			}
			// Letters of right-to-left scripts, combining marks and
			// emoji are names like any other, stored as sent.
			name := "شركة Ọ̀yọ́ 👩🏾‍💻 שלום"
			got := s.must(200, req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": name, "slug": "intl"}})
			if got["name"] != name {
				t.Fatalf("name %q, want %q", got["name"], name)
			}
		})
	}
}

// TestCertificationPayloadNUL: a certification payload is stored, and
// neither database keeps U+0000 in JSON as sent, so it is refused where it
// is, on both.
func TestCertificationPayloadNUL(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := conformanceServer(t, d)
			tn := s.tenant("acme")
			p := loadFixture(t, "invoice-b2b-1.1.json")
			p["note"] = "paid\x00in full"
			res := s.do(req{method: "POST", path: "/api/v2/certification/nrs/smoke", clientID: tn.ClientID, secret: tn.Secret,
				body: map[string]any{"invoice_type": "b2b", "issue_date": "2026-03-15", "invoice_payload": p}})
			if got := locs(detail(t, res)); !slices.Equal(got, []string{"value_error@body/invoice_payload/note"}) {
				t.Fatalf("got %v", got)
			}
		})
	}
}

// TestScopesDefaultIsExplicit: a key created without scopes or with null
// holds every scope, stored as the full list and shown
// as the full list by create, list and rotate; a repeated scope is kept
// once.
func TestScopesDefaultIsExplicit(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			keys := "/api/v2/projects/" + tn.ProjectID + "/keys"
			all := toAny(model.ScopeNames())
			for _, c := range []struct {
				name string
				body map[string]any
				want []any
			}{
				{"omitted", map[string]any{"key_name": "omitted"}, all},
				{"null", map[string]any{"key_name": "null", "scopes": nil}, all},
				{"repeated", map[string]any{"key_name": "repeated", "scopes": []any{"usage:read", "usage:read"}}, []any{"usage:read"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					created := s.must(200, req{method: "POST", path: keys, token: tn.Token, body: c.body})
					if !slices.Equal(created["scopes"].([]any), c.want) {
						t.Fatalf("create shows %v, want %v", created["scopes"], c.want)
					}
					id := created["id"].(string)
					rotated := s.must(200, req{method: "POST", path: keys + "/" + id + "/rotate", token: tn.Token})
					if !slices.Equal(rotated["scopes"].([]any), c.want) {
						t.Fatalf("rotate shows %v", rotated["scopes"])
					}
					stored, err := s.st.Keys().Get(context.Background(), uuid.MustParse(tn.ProjectID), uuid.MustParse(id))
					if err != nil {
						t.Fatal(err)
					}
					var want []string
					for _, w := range c.want {
						want = append(want, w.(string))
					}
					if stored.Scopes != strings.Join(want, " ") {
						t.Fatalf("stored scopes %q, want %q", stored.Scopes, strings.Join(want, " "))
					}
				})
			}
			for _, it := range s.must(200, req{method: "GET", path: keys, token: tn.Token})["items"].([]any) {
				k := it.(map[string]any)
				if k["key_name"] != "repeated" && !slices.Equal(k["scopes"].([]any), all) {
					t.Fatalf("list shows %v for %s", k["scopes"], k["key_name"])
				}
			}
		})
	}
}

// TestQRTimestampForms: timestamp takes an integer or null; a whole number
// written with a fraction or an exponent is that integer, anything else is
// int_type.
func TestQRTimestampForms(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	irn := s.must(200, irnReq(tn, map[string]any{"invoice_reference": "INV1", "invoice_type_code": "b2b", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
	if irn["invoice_type_code"] != "B2B" {
		t.Fatalf("invoice_type_code %v, want the canonical B2B", irn["invoice_type_code"])
	}
	for _, c := range []struct {
		ts   string
		want float64 // 0: refused
	}{
		{"1773568800", 1773568800}, {"1773568800.0", 1773568800}, {"1.7735688e9", 1773568800}, {"null", -1},
		{"1773568800.5", 0}, {`"1773568800"`, 0}, {"true", 0}, {"1e400", 0},
	} {
		t.Run(c.ts, func(t *testing.T) {
			res := s.rawPost("/api/v2/invoices/qr/generate", "application/json", `{"irn":"`+irn["irn"].(string)+`","timestamp":`+c.ts+`}`, tn, true)
			switch {
			case c.want == 0:
				if got := locs(detail(t, res)); !slices.Equal(got, []string{"int_type@body/timestamp"}) {
					t.Fatalf("got %v", got)
				}
			case res.Status != 200:
				t.Fatalf("status %d: %s", res.Status, res.Body)
			case c.want > 0 && res.json(t)["timestamp"] != c.want:
				t.Fatalf("timestamp %v, want %v", res.json(t)["timestamp"], c.want)
			}
		})
	}
}

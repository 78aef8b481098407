package rest_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// authorityBody is a valid PUT …/authority body with a fresh RSA key.
func authorityBody(t testing.TB) map[string]any {
	t.Helper()
	k, err := testSandboxKeys()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"tax_authority_code": "NRS",
		"business_id":        uuid.NewString(),
		"service_id":         "94ND90NR",
		"public_key":         base64.StdEncoding.EncodeToString([]byte(k.PublicKeyPEM)),
		"certificate":        "b3BhcXVlLWNlcnRpZmljYXRlLXRva2VuLWZvci10ZXN0aW5nLW9ubHk=",
	}
}

func TestValidation(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("acme")
	proj := "/api/v2/projects/" + tn.ProjectID
	key := proj + "/keys/" + tn.KeyID
	long := strings.Repeat("x", 256)
	weak, _ := rsa.GenerateKey(rand.Reader, 1024)
	weakDER, _ := x509.MarshalPKIXPublicKey(&weak.PublicKey)
	weakPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: weakDER}))
	with := func(kv ...any) map[string]any {
		b := authorityBody(t)
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(b, kv[i].(string))
			} else {
				b[kv[i].(string)] = kv[i+1]
			}
		}
		return b
	}
	cases := []struct {
		name string
		req  req
		want []string // type@loc, in order
	}{
		{"signup missing body", req{method: "POST", path: "/api/v2/auth/signup"}, []string{"missing@body"}},
		{"signup malformed", req{method: "POST", path: "/api/v2/auth/signup", body: `{"email": "a@b.co",`}, []string{"json_invalid@body/19"}},
		{"signup trailing data", req{method: "POST", path: "/api/v2/auth/signup", body: `{} {}`}, []string{"json_invalid@body/4"}},
		{"signup not an object", req{method: "POST", path: "/api/v2/auth/signup", body: `[1,2]`}, []string{"dict_type@body"}},
		{"signup empty object", req{method: "POST", path: "/api/v2/auth/signup", body: `{}`}, []string{
			"missing@body/email", "missing@body/password", "missing@body/organization_name", "missing@body/organization_slug"}},
		{"signup every problem", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
			"email": "not-an-email", "password": "short", "organization_name": 7, "organization_slug": "Bad Slug"}},
			[]string{"value_error@body/email", "string_too_short@body/password", "string_type@body/organization_name", "string_pattern_mismatch@body/organization_slug"}},
		{"signup null and long", req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
			"email": nil, "password": strings.Repeat("p", 256), "organization_name": long, "organization_slug": "ok"}},
			[]string{"string_type@body/email", "string_too_long@body/password", "string_too_long@body/organization_name"}},
		{"login wrong types", req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": true, "password": []int{1}}},
			[]string{"string_type@body/email", "string_type@body/password"}},
		{"login empty", req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "", "password": ""}},
			[]string{"string_too_short@body/email", "string_too_short@body/password"}},
		{"organization", req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": "x", "slug": "-bad-"}},
			[]string{"string_too_short@body/name", "string_pattern_mismatch@body/slug"}},
		{"organization list limit", req{method: "GET", path: "/api/v2/organizations?limit=0", token: tn.Token}, []string{"value_error@query/limit"}},
		{"organization list limit type", req{method: "GET", path: "/api/v2/organizations?limit=ten", token: tn.Token}, []string{"int_type@query/limit"}},
		{"organization list limit high", req{method: "GET", path: "/api/v2/organizations?limit=201", token: tn.Token}, []string{"value_error@query/limit"}},
		{"organization list cursor", req{method: "GET", path: "/api/v2/organizations?cursor=%25%25", token: tn.Token}, []string{"value_error@query/cursor"}},
		{"project", req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{"organization_id": "nope", "name": "a", "environment": "staging"}},
			[]string{"uuid_parsing@body/organization_id", "string_too_short@body/name", "enum@body/environment"}},
		{"project types", req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{"organization_id": 12, "name": "Good name", "environment": []string{}}},
			[]string{"string_type@body/organization_id", "string_type@body/environment"}},
		{"project list filter", req{method: "GET", path: "/api/v2/projects?organization_id=xyz", token: tn.Token}, []string{"uuid_parsing@query/organization_id"}},
		{"key bad path", req{method: "POST", path: "/api/v2/projects/not-a-uuid/keys", token: tn.Token, body: map[string]any{"key_name": "k"}}, []string{"uuid_parsing@path/project_id"}},
		{"key list bad path", req{method: "GET", path: "/api/v2/projects/123/keys", token: tn.Token}, []string{"uuid_parsing@path/project_id"}},
		{"key body", req{method: "POST", path: proj + "/keys", token: tn.Token, body: map[string]any{"key_name": "", "scopes": []any{"irn:generate", "admin", 3}}},
			[]string{"string_too_short@body/key_name", "enum@body/scopes/1", "string_type@body/scopes/2"}},
		{"key scopes not a list", req{method: "POST", path: proj + "/keys", token: tn.Token, body: map[string]any{"key_name": "k1", "scopes": "irn:generate"}},
			[]string{"list_type@body/scopes"}},
		{"key missing name", req{method: "POST", path: proj + "/keys", token: tn.Token, body: map[string]any{}}, []string{"missing@body/key_name"}},
		{"rotate bad key id", req{method: "POST", path: proj + "/keys/zzz/rotate", token: tn.Token}, []string{"uuid_parsing@path/key_id"}},
		{"rotate grace type", req{method: "POST", path: key + "/rotate?grace_seconds=soon", token: tn.Token}, []string{"int_type@query/grace_seconds"}},
		{"rotate grace bounds", req{method: "POST", path: key + "/rotate?grace_seconds=604801", token: tn.Token}, []string{"value_error@query/grace_seconds"}},
		{"rotate grace negative", req{method: "POST", path: key + "/rotate?grace_seconds=-1", token: tn.Token}, []string{"value_error@query/grace_seconds"}},
		{"revoke bad ids", req{method: "DELETE", path: "/api/v2/projects/x/keys/y", token: tn.Token}, []string{"uuid_parsing@path/project_id"}},
		{"authority missing body", req{method: "PUT", path: proj + "/authority", token: tn.Token}, []string{"missing@body"}},
		{"authority empty", req{method: "PUT", path: proj + "/authority", token: tn.Token, body: map[string]any{}}, []string{
			"missing@body/tax_authority_code", "missing@body/business_id", "missing@body/service_id", "missing@body/public_key", "missing@body/certificate"}},
		{"authority values", req{method: "PUT", path: proj + "/authority", token: tn.Token, body: with(
			"tax_authority_code", "ZATCA", "business_id", "1234", "service_id", "SHORT", "public_key", "not a key", "certificate", "",
			"base_url", "ftp://x", "qr_encryption", "RSA-OAEP-SHA1", "api_key", "only-key")},
			[]string{"enum@body/tax_authority_code", "uuid_parsing@body/business_id", "string_pattern_mismatch@body/service_id",
				"value_error@body/public_key", "string_too_short@body/certificate", "missing@body/api_secret", "value_error@body/base_url", "enum@body/qr_encryption"}},
		{"authority weak key", req{method: "PUT", path: proj + "/authority", token: tn.Token, body: with("public_key", weakPEM)}, []string{"value_error@body/public_key"}},
		{"authority types", req{method: "PUT", path: proj + "/authority", token: tn.Token, body: with("service_id", 12345678, "base_url", false)},
			[]string{"string_type@body/service_id", "string_type@body/base_url"}},
		{"audit filters", req{method: "GET", path: "/api/v2/audit-logs?organization_id=1&action=drop", token: tn.Token},
			[]string{"uuid_parsing@query/organization_id", "enum@query/action"}},
		{"usage dates", req{method: "GET", path: "/api/v2/usage?from=2026-02-30&to=tomorrow", clientID: tn.ClientID, secret: tn.Secret},
			[]string{"date_from_datetime_parsing@query/to", "date_from_datetime_parsing@query/from"}},
		{"usage order", req{method: "GET", path: "/api/v2/usage?from=2026-03-02&to=2026-03-01", clientID: tn.ClientID, secret: tn.Secret},
			[]string{"value_error@query/from"}},
		{"usage key", req{method: "GET", path: "/api/v2/usage?key_id=k", clientID: tn.ClientID, secret: tn.Secret}, []string{"uuid_parsing@query/key_id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := locs(detail(t, s.do(c.req)))
			if !slices.Equal(got, c.want) {
				t.Fatalf("problems:\n got  %v\n want %v", got, c.want)
			}
		})
	}
	// Nothing above changed anything: still one project, one key.
	if n := len(s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any)); n != 1 {
		t.Fatalf("projects after invalid requests: %d", n)
	}
	keys := s.must(200, req{method: "GET", path: proj + "/keys", token: tn.Token})["items"].([]any)
	if len(keys) != 1 || keys[0].(map[string]any)["rotated_at"] != nil {
		t.Fatalf("keys after invalid requests: %v", keys)
	}
}

func TestBodyLimit(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	big := `{"email":"` + strings.Repeat("a", 2<<20) + `@example.com"}`
	got := locs(detail(t, s.do(req{method: "POST", path: "/api/v2/auth/signup", body: big})))
	if !slices.Equal(got, []string{"value_error@body"}) {
		t.Fatalf("oversized body: %v", got)
	}
}

func TestAuthorityUpdate(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			pr := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
				"organization_id": tn.OrgID, "name": "Production ERP", "environment": "production"}})
			body := authorityBody(t)
			body["tax_authority_code"] = "firs"
			body["service_id"] = "ab12cd34"
			body["qr_encryption"] = "RSA-OAEP-SHA256"
			body["base_url"] = "https://einvoice1.nrs.gov.ng/"
			res := s.must(200, req{method: "PUT", path: "/api/v2/projects/" + pr["id"].(string) + "/authority", token: tn.Token, body: body})
			a := res["authority"].(map[string]any)
			if a["tax_authority_code"] != "NRS" || a["configured"] != true || a["service_id"] != "AB12CD34" ||
				a["business_id"] != body["business_id"] || a["qr_encryption"] != "RSA-OAEP-SHA256" ||
				a["base_url"] != "https://einvoice1.nrs.gov.ng" || a["public_key_fingerprint"] == nil {
				t.Fatalf("authority view: %v", a)
			}
			for _, k := range []string{"public_key", "certificate", "api_key", "api_secret"} {
				if _, ok := a[k]; ok {
					t.Errorf("authority view shows %s", k)
				}
			}
			// PEM form accepted too.
			k, _ := testSandboxKeys()
			body["public_key"] = k.PublicKeyPEM
			s.must(200, req{method: "PUT", path: "/api/v2/projects/" + pr["id"].(string) + "/authority", token: tn.Token, body: body})
		})
	}
}

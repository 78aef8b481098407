package rest_test

import (
	"encoding/base64"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func TestPortalFlow(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			su := s.must(200, req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
				"email": "  Ada@Example.COM ", "password": "correct horse battery", "organization_name": "Acme Ltd", "organization_slug": "acme",
			}})
			if su["token_type"] != "bearer" || su["expires_in"].(float64) != 3600 || su["access_token"] == "" {
				t.Fatalf("signup token fields: %v", su)
			}
			if su["user"].(map[string]any)["email"] != "ada@example.com" {
				t.Fatalf("email not normalized: %v", su["user"])
			}
			org := su["organization"].(map[string]any)
			if org["role"] != "owner" || org["slug"] != "acme" {
				t.Fatalf("organization: %v", org)
			}

			li := s.must(200, req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "ADA@example.com", "password": "correct horse battery"}})
			tok := li["access_token"].(string)
			if orgs := li["organizations"].([]any); len(orgs) != 1 {
				t.Fatalf("login organizations: %v", orgs)
			}
			if _, ok := li["organization"]; ok {
				t.Fatalf("login answers organizations, not organization: %v", li)
			}

			org2 := s.must(200, req{method: "POST", path: "/api/v2/organizations", token: tok, body: map[string]any{"name": "Acme Two", "slug": "acme-two"}})
			if org2["role"] != "owner" {
				t.Fatalf("new organization role: %v", org2)
			}
			orgs := s.must(200, req{method: "GET", path: "/api/v2/organizations", token: tok})
			if items := orgs["items"].([]any); len(items) != 2 || orgs["next_cursor"] != nil {
				t.Fatalf("organizations: %v", orgs)
			}
			page := s.must(200, req{method: "GET", path: "/api/v2/organizations?limit=1", token: tok})
			if len(page["items"].([]any)) != 1 || page["next_cursor"] == nil {
				t.Fatalf("first page: %v", page)
			}
			page2 := s.must(200, req{method: "GET", path: "/api/v2/organizations?limit=1&cursor=" + url.QueryEscape(page["next_cursor"].(string)), token: tok})
			if items := page2["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] == page["items"].([]any)[0].(map[string]any)["id"] {
				t.Fatalf("second page: %v", page2)
			}

			sb := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tok, body: map[string]any{
				"organization_id": org["id"], "name": "Web shop", "environment": "sandbox"}})
			auth := sb["authority"].(map[string]any)
			if auth["tax_authority_code"] != "NRS" || auth["configured"] != true || len(auth["service_id"].(string)) != 8 {
				t.Fatalf("sandbox authority: %v", auth)
			}
			if _, err := model.ParseUUID(auth["business_id"].(string)); err != nil {
				t.Fatalf("sandbox business id: %v", auth)
			}
			prod := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tok, body: map[string]any{
				"organization_id": org2["id"], "name": "ERP production", "environment": "production"}})
			pa := prod["authority"].(map[string]any)
			if pa["configured"] != false || pa["business_id"] != nil || pa["service_id"] != nil {
				t.Fatalf("production project must start unconfigured: %v", pa)
			}
			filtered := s.must(200, req{method: "GET", path: "/api/v2/projects?organization_id=" + org2["id"].(string), token: tok})
			if items := filtered["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != prod["id"] {
				t.Fatalf("filtered projects: %v", filtered)
			}

			pid := sb["id"].(string)
			key := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pid + "/keys", token: tok, body: map[string]any{"key_name": "ci"}})
			cid, sec := key["client_id"].(string), key["client_secret"].(string)
			if !strings.HasPrefix(cid, "ck_sandbox_") || !strings.HasPrefix(sec, "cs_sandbox_") || len(sec) < len("cs_sandbox_")+32 {
				t.Fatalf("key formats: %s %s", cid, sec)
			}
			if key["status"] != "active" || key["last_used_at"] != nil || len(key["scopes"].([]any)) != len(model.AllScopes) {
				t.Fatalf("new key: %v", key)
			}

			// The key works, and its use is metered once it succeeded (the
			// first read is counted in the second's report).
			s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec})
			use := s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec})
			if use["project_id"] != pid || use["total"].(float64) != 1 || use["by_operation"].(map[string]any)["usage.read"].(float64) != 1 {
				t.Fatalf("usage: %v", use)
			}
			list := s.must(200, req{method: "GET", path: "/api/v2/projects/" + pid + "/keys", token: tok})
			item := list["items"].([]any)[0].(map[string]any)
			if _, ok := item["client_secret"]; ok {
				t.Fatalf("key list shows a secret: %v", item)
			}
			if item["secret_last4"] != sec[len(sec)-4:] || item["last_used_at"] == nil {
				t.Fatalf("key list item: %v", item)
			}

			// Rotate with a grace period: both secrets work.
			rot := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pid + "/keys/" + key["id"].(string) + "/rotate?grace_seconds=3600", token: tok})
			sec2 := rot["client_secret"].(string)
			if sec2 == sec || rot["client_id"] != cid {
				t.Fatalf("rotation: %v", rot)
			}
			s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec})
			s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec2})
			// Rotate without grace: only the newest works.
			rot2 := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pid + "/keys/" + key["id"].(string) + "/rotate", token: tok})
			sec3 := rot2["client_secret"].(string)
			for _, old := range []string{sec, sec2} {
				if r := s.do(req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: old}); r.Status != 401 {
					t.Fatalf("rotated-out secret: status %d", r.Status)
				}
			}
			s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec3})

			// Revoke: refused at once; revoking again answers the same.
			rev := s.must(200, req{method: "DELETE", path: "/api/v2/projects/" + pid + "/keys/" + key["id"].(string), token: tok})
			if rev["status"] != "revoked" || rev["id"] != key["id"] {
				t.Fatalf("revoke: %v", rev)
			}
			r401 := s.do(req{method: "GET", path: "/api/v2/usage", clientID: cid, secret: sec3})
			if r401.Status != 401 || r401.json(t)["code"] != "unauthenticated" {
				t.Fatalf("revoked key: %d %s", r401.Status, r401.Body)
			}
			rev2 := s.must(200, req{method: "DELETE", path: "/api/v2/projects/" + pid + "/keys/" + key["id"].(string), token: tok})
			if rev2["revoked_at"] != rev["revoked_at"] {
				t.Fatalf("revoke is not idempotent: %v vs %v", rev, rev2)
			}
			if r := s.do(req{method: "POST", path: "/api/v2/projects/" + pid + "/keys/" + key["id"].(string) + "/rotate", token: tok}); r.Status != 409 {
				t.Fatalf("rotating a revoked key: %d", r.Status)
			}

			// The audit log holds every mutation, chained.
			var actions []string
			cursor := ""
			for {
				path := "/api/v2/audit-logs?limit=3"
				if cursor != "" {
					path += "&cursor=" + url.QueryEscape(cursor)
				}
				al := s.must(200, req{method: "GET", path: path, token: tok})
				for _, it := range al["items"].([]any) {
					e := it.(map[string]any)
					actions = append(actions, e["action"].(string))
					if e["hash"] == "" || e["request_id"] == "" || e["actor"].(map[string]any)["type"] != "user" {
						t.Fatalf("audit entry: %v", e)
					}
				}
				if al["next_cursor"] == nil {
					break
				}
				cursor = al["next_cursor"].(string)
			}
			for _, want := range []string{"signup", "login", "organization.create", "project.create", "key.create", "key.rotate", "key.revoke"} {
				if !slices.Contains(actions, want) {
					t.Errorf("audit log lacks %s: %v", want, actions)
				}
			}
			filtered = s.must(200, req{method: "GET", path: "/api/v2/audit-logs?action=key.rotate&organization_id=" + org["id"].(string), token: tok})
			if n := len(filtered["items"].([]any)); n != 2 {
				t.Fatalf("filtered audit: %d entries, want 2", n)
			}
			orgID, _ := model.ParseUUID(org["id"].(string))
			if c, err := s.st.Audit().Verify(t.Context(), &orgID, apptest.AuditKey); err != nil || !c.Valid() {
				t.Fatalf("audit chain: %+v %v", c, err)
			}
		})
	}
}

func TestLoginFailures(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("acme")
	wrong := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": "wrong password"}})
	unknown := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "nobody@example.com", "password": "wrong password"}})
	for _, r := range []response{wrong, unknown} {
		if r.Status != 401 || r.json(t)["code"] != "unauthenticated" || r.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("failed login: %d %v %s", r.Status, r.Header, r.Body)
		}
	}
	if wrong.json(t)["detail"] != unknown.json(t)["detail"] {
		t.Fatalf("wrong password and unknown email must answer alike: %s vs %s", wrong.Body, unknown.Body)
	}
	// Failed logins are an unknown actor's: they go to the system chain,
	// never to the organization's.
	al := s.must(200, req{method: "GET", path: "/api/v2/audit-logs?action=login_failed", token: tn.Token})
	if n := len(al["items"].([]any)); n != 0 {
		t.Fatalf("failed logins in the organization's chain: %d, want 0", n)
	}
	sys, err := s.st.Audit().Verify(t.Context(), nil, apptest.AuditKey)
	if err != nil || !sys.Valid() || sys.Entries != 2 {
		t.Fatalf("system chain: %+v %v, want 2 failed logins", sys, err)
	}
}

func TestConflicts(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			for name, r := range map[string]req{
				"email":          {method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "ACME@example.com", "password": "correct horse battery", "organization_name": "Other", "organization_slug": "other"}},
				"slug at signup": {method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "b@example.com", "password": "correct horse battery", "organization_name": "Other", "organization_slug": "acme"}},
				"slug":           {method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": "Again", "slug": "acme"}},
			} {
				res := s.do(r)
				if res.Status != 409 || res.json(t)["code"] != "conflict" {
					t.Errorf("%s: %d %s", name, res.Status, res.Body)
				}
			}
			// The failed signup left no user behind.
			if r := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "b@example.com", "password": "correct horse battery"}}); r.Status != 401 {
				t.Fatalf("half-created user after a conflict: %d", r.Status)
			}
		})
	}
}

func TestScopesAndCredentials(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("acme")
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token,
		body: map[string]any{"key_name": "narrow", "scopes": []string{"irn:generate", "irn:generate"}}})
	if sc := k["scopes"].([]any); len(sc) != 1 || sc[0] != "irn:generate" {
		t.Fatalf("scopes: %v", sc)
	}
	r := s.do(req{method: "GET", path: "/api/v2/usage", clientID: k["client_id"].(string), secret: k["client_secret"].(string)})
	if r.Status != 403 || r.json(t)["code"] != "forbidden" {
		t.Fatalf("missing scope: %d %s", r.Status, r.Body)
	}
	for name, rq := range map[string]req{
		"no headers":     {method: "GET", path: "/api/v2/usage"},
		"unknown id":     {method: "GET", path: "/api/v2/usage", clientID: "ck_sandbox_nope", secret: tn.Secret},
		"wrong secret":   {method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret + "x"},
		"token on key":   {method: "GET", path: "/api/v2/usage", token: tn.Token},
		"key on portal":  {method: "GET", path: "/api/v2/projects", clientID: tn.ClientID, secret: tn.Secret},
		"bad token":      {method: "GET", path: "/api/v2/projects", token: "abc.def.ghi"},
		"no token":       {method: "GET", path: "/api/v2/projects"},
		"alg none token": {method: "GET", path: "/api/v2/projects", token: noneToken(tn.Token)},
	} {
		res := s.do(rq)
		if res.Status != 401 || res.json(t)["code"] != "unauthenticated" {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
		if strings.HasPrefix(rq.path, "/api/v2/projects") && res.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: portal 401 without WWW-Authenticate", name)
		}
	}
}

// noneToken rewrites a token's header to alg "none" and drops the signature.
func noneToken(tok string) string {
	parts := strings.Split(tok, ".")
	return base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
}

func TestTenantIsolation(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			a := s.tenant("alpha")
			b := s.tenant("bravo")
			for name, r := range map[string]req{
				"create project in foreign org": {method: "POST", path: "/api/v2/projects", token: b.Token, body: map[string]any{"organization_id": a.OrgID, "name": "Sneaky", "environment": "sandbox"}},
				"list foreign keys":             {method: "GET", path: "/api/v2/projects/" + a.ProjectID + "/keys", token: b.Token},
				"create foreign key":            {method: "POST", path: "/api/v2/projects/" + a.ProjectID + "/keys", token: b.Token, body: map[string]any{"key_name": "xy"}},
				"rotate foreign key":            {method: "POST", path: "/api/v2/projects/" + a.ProjectID + "/keys/" + a.KeyID + "/rotate", token: b.Token},
				"revoke foreign key":            {method: "DELETE", path: "/api/v2/projects/" + a.ProjectID + "/keys/" + a.KeyID, token: b.Token},
				"foreign key via own project":   {method: "DELETE", path: "/api/v2/projects/" + b.ProjectID + "/keys/" + a.KeyID, token: b.Token},
				"foreign authority":             {method: "PUT", path: "/api/v2/projects/" + a.ProjectID + "/authority", token: b.Token, body: authorityBody(t)},
				"foreign audit logs":            {method: "GET", path: "/api/v2/audit-logs?organization_id=" + a.OrgID, token: b.Token},
			} {
				res := s.do(r)
				if res.Status != 404 || res.json(t)["code"] != "not_found" {
					t.Errorf("%s: %d %s", name, res.Status, res.Body)
				}
			}
			// Lists never show the other tenant's objects.
			for _, path := range []string{"/api/v2/projects", "/api/v2/organizations", "/api/v2/audit-logs", "/api/v2/projects?organization_id=" + a.OrgID} {
				body := string(s.do(req{method: "GET", path: path, token: b.Token}).Body)
				for _, id := range []string{a.OrgID, a.ProjectID, a.KeyID} {
					if strings.Contains(body, id) {
						t.Errorf("%s shows tenant A's %s", path, id)
					}
				}
			}
			// A's key still works: B's attempts changed nothing.
			s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: a.ClientID, secret: a.Secret})
			// Usage is the caller's project's only.
			u := s.must(200, req{method: "GET", path: "/api/v2/usage?key_id=" + a.KeyID, clientID: b.ClientID, secret: b.Secret})
			if u["total"].(float64) != 0 || u["project_id"] != b.ProjectID {
				t.Fatalf("usage across tenants: %v", u)
			}
		})
	}
}

func TestSecretsStayHidden(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("acme")
	body := authorityBody(t)
	body["api_key"], body["api_secret"] = "nrs-api-key-value", "nrs-api-secret-value"
	res := s.must(200, req{method: "PUT", path: "/api/v2/projects/" + tn.ProjectID + "/authority", token: tn.Token, body: body})
	if res["authority"].(map[string]any)["has_api_credentials"] != true {
		t.Fatalf("authority: %v", res)
	}
	rot := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys/" + tn.KeyID + "/rotate", token: tn.Token})
	secrets := []string{tn.Secret, rot["client_secret"].(string), "correct horse battery", "nrs-api-key-value", "nrs-api-secret-value", body["certificate"].(string)}
	var seen strings.Builder
	for _, path := range []string{"/api/v2/projects", "/api/v2/projects/" + tn.ProjectID + "/keys", "/api/v2/organizations", "/api/v2/audit-logs"} {
		seen.Write(s.do(req{method: "GET", path: path, token: tn.Token}).Body)
	}
	seen.WriteString(s.logs.String())
	for _, sec := range secrets {
		if strings.Contains(seen.String(), sec) {
			t.Errorf("secret %q appears in a list response or the logs", sec[:8])
		}
	}
	if !strings.Contains(s.logs.String(), `"route":"/api/v2/projects/{project_id}/keys"`) {
		t.Fatalf("request logs missing: %s", s.logs.String())
	}
}

func TestRequestID(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	r := s.do(req{method: "GET", path: "/health", header: map[string]string{"X-Request-ID": "abc-123"}})
	if r.Header.Get("X-Request-ID") != "abc-123" {
		t.Fatalf("sane request id not echoed: %q", r.Header.Get("X-Request-ID"))
	}
	r = s.do(req{method: "GET", path: "/health", header: map[string]string{"X-Request-ID": "bad id\twith spaces<script>"}})
	if got := r.Header.Get("X-Request-ID"); got == "" || strings.ContainsAny(got, " \t<") {
		t.Fatalf("insane request id echoed: %q", got)
	}
	for _, rq := range []req{{method: "GET", path: "/nope"}, {method: "POST", path: "/api/v2/auth/signup", body: "{"}} {
		if s.do(rq).Header.Get("X-Request-ID") == "" {
			t.Fatalf("%s %s: no X-Request-ID", rq.method, rq.path)
		}
	}
}

func TestHealthAndFallbacks(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	h := s.must(200, req{method: "GET", path: "/health"})
	if h["status"] != "ok" || h["version"] != "test" || h["checks"].(map[string]any)["database"] != "ok" {
		t.Fatalf("health: %v", h)
	}
	nf := s.do(req{method: "GET", path: "/api/v2/nothing-here"})
	if nf.Status != 404 || string(nf.Body) != "{\"detail\":\"Not Found\"}\n" {
		t.Fatalf("404: %d %q", nf.Status, nf.Body)
	}
	na := s.do(req{method: "PATCH", path: "/api/v2/auth/signup"})
	if na.Status != 405 || na.json(t)["detail"] != "Method Not Allowed" {
		t.Fatalf("405: %d %s", na.Status, na.Body)
	}
	_ = s.st.Close()
	h = s.must(200, req{method: "GET", path: "/health"})
	if h["status"] != "degraded" || h["checks"].(map[string]any)["database"] == "ok" {
		t.Fatalf("health with the database down: %v", h)
	}
}

func TestRevocationSeenByAnotherProcessWithinASecond(t *testing.T) {
	st := storetest.SQLite(t)
	clock := &fakeClock{}
	a := newServerOn(t, st, clock.Now)
	b := newServerOn(t, st, clock.Now) // a second API process on the same database
	tn := a.tenant("acme")
	b.must(200, req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}) // warms b's cache
	a.must(200, req{method: "DELETE", path: "/api/v2/projects/" + tn.ProjectID + "/keys/" + tn.KeyID, token: tn.Token})
	if r := a.do(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}); r.Status != 401 {
		t.Fatalf("the revoking process still accepts the key: %d", r.Status)
	}
	clock.Advance(time.Second)
	if r := b.do(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}); r.Status != 401 {
		t.Fatalf("another process accepts the revoked key one second later: %d", r.Status)
	}
}

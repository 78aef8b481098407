package rest_test

// Replays of the attacks of the security review against the REST routes
// (run them all with `make security`). Each asserts the defence, never a
// duration.

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackRequestWithoutDeadline: a request's work had no deadline. Every
// request's context now ends after Options.RequestTimeout.
func TestAttackRequestWithoutDeadline(t *testing.T) {
	var left time.Duration
	var had bool
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.RequestTimeout = 7 * time.Second
		o.Mount = func(r chi.Router) {
			r.Get("/probe", func(w http.ResponseWriter, r *http.Request) {
				var d time.Time
				d, had = r.Context().Deadline()
				left = time.Until(d)
			})
		}
	})
	s.do(req{method: "GET", path: "/probe"})
	if !had || left <= 0 || left > 7*time.Second {
		t.Fatalf("deadline: %v, %s left", had, left)
	}
	t.Run("default", func(t *testing.T) {
		s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
			o.Mount = func(r chi.Router) {
				r.Get("/probe", func(w http.ResponseWriter, r *http.Request) { _, had = r.Context().Deadline() })
			}
		})
		had = false
		s.do(req{method: "GET", path: "/probe"})
		if !had {
			t.Fatal("no deadline by default")
		}
	})
}

// TestAttackAccountLockout: logins spread over many addresses escaped the
// per-address limit. Each e-mail has its own budget, spent alike whether
// or not the address has an account, so the refusal reveals nothing.
func TestAttackAccountLockout(t *testing.T) {
	s := authLimited(t, auth.Rate{}, auth.Rate{Count: 3, Period: time.Hour})
	s.tenant("victim") // its signup spends one attempt of victim@example.com
	login := func(email, ip string) response {
		return s.do(req{method: "POST", path: "/api/v2/auth/login", header: map[string]string{"X-Forwarded-For": ip},
			body: map[string]any{"email": email, "password": "wrong password"}})
	}
	details := map[string]string{}
	for _, email := range []string{"victim@example.com", "nobody@example.com"} {
		n := 3
		if email == "victim@example.com" {
			n = 2
		}
		for i := 0; i < n; i++ {
			if r := login(email, "198.51.100."+strconv.Itoa(i+1)); r.Status != http.StatusUnauthorized {
				t.Fatalf("%s attempt %d: %d %s", email, i+1, r.Status, r.Body)
			}
		}
		r := login(email, "203.0.113.99")
		if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Fatalf("%s over its budget: %d %v %s", email, r.Status, r.Header, r.Body)
		}
		details[email] = r.json(t)["detail"].(string)
	}
	if details["victim@example.com"] != details["nobody@example.com"] {
		t.Fatalf("the refusals differ: %q", details)
	}
	// The right password is refused too while the e-mail is locked.
	r := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "victim@example.com", "password": "correct horse battery"}})
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("right password while locked: %d", r.Status)
	}
	if r := login("other@example.com", "203.0.113.99"); r.Status != http.StatusUnauthorized {
		t.Fatalf("another e-mail: %d %s", r.Status, r.Body)
	}
}

// TestAttackTokenAfterLogout: there was no logout. POST /auth/logout
// revokes the request's token; this process refuses it at once and
// another API process sharing the database within its cache lifetime.
func TestAttackTokenAfterLogout(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			stores := sharedStores(t, d, 2)
			fast := func(c *app.Config) { c.RevocationCacheTTL = 20 * time.Millisecond }
			a, b := build(t, stores[0], fast, nil), build(t, stores[1], fast, nil)
			tn := a.tenant("leaving")
			other := a.must(200, req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{
				"email": "leaving@example.com", "password": "correct horse battery"}})["access_token"].(string)
			list := req{method: "GET", path: "/api/v2/organizations", token: tn.Token}
			b.must(200, list) // b has read the revocations before the logout

			out := a.must(200, req{method: "POST", path: "/api/v1/auth/logout", token: tn.Token})
			if out["revoked"] != true || out["revoked_at"] == nil {
				t.Fatalf("logout: %v", out)
			}
			if r := a.do(list); r.Status != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("the revoking process: %d", r.Status)
			}
			deadline := time.Now().Add(5 * time.Second)
			for b.do(list).Status != http.StatusUnauthorized {
				if time.Now().After(deadline) {
					t.Fatal("the other process still accepts the revoked token")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if r := a.do(req{method: "POST", path: "/api/v2/auth/logout", token: tn.Token}); r.Status != http.StatusUnauthorized {
				t.Fatalf("logout again: %d", r.Status)
			}
			b.must(200, req{method: "GET", path: "/api/v2/organizations", token: other})
			al := a.must(200, req{method: "GET", path: "/api/v2/audit-logs?action=logout", token: other})
			if items := al["items"].([]any); len(items) != 1 {
				t.Fatalf("logout audit entries: %v", al)
			}
		})
	}
}

// TestAttackKeyWithoutRunScope: REST's half of the run-start checks (see
// graph's TestAttackMemberStartsRun): a key without certification:run is
// refused and nothing is started.
func TestAttackKeyWithoutRunScope(t *testing.T) {
	runs := &recordingRuns{}
	s := newCertServer(t, runs)
	k, err := s.e.App.Keys.Create(context.Background(), s.e.Tenant.User, s.e.Tenant.Project.ID,
		keys.Input{KeyName: "reader", Scopes: []string{"certification:read", "irn:generate"}})
	if err != nil {
		t.Fatal(err)
	}
	res := s.do("POST", smokePath, certtest.Tenant{ClientID: k.ClientID, ClientSecret: k.ClientSecret}, `{"invoice_type":"B2C","issue_date":"2026-03-15"}`)
	if res.Status != http.StatusForbidden || len(runs.started) != 0 {
		t.Fatalf("start without certification:run: %d %s, %d started", res.Status, res.Body, len(runs.started))
	}
}

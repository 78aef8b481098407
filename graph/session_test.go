package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// clock is a settable clock for the service.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// post sends one operation over HTTP with optional cookie, Origin and Host,
// and returns the response and its decoded body.
func (s *server) postSession(query, cookie, origin, host string) (*http.Response, result) {
	s.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: graph.SessionCookie, Value: cookie})
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	var out struct {
		Data   json.RawMessage
		Errors []gqlError
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		s.t.Fatalf("decode %s: %v", rec.Body.Bytes(), err)
	}
	return rec.Result(), result{Data: out.Data, Errors: out.Errors, Raw: rec.Body.Bytes()}
}

func sessionCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == graph.SessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", graph.SessionCookie, resp.Header.Values("Set-Cookie"))
	return nil
}

const refreshMutation = `mutation { refreshSession { accessToken expiresIn user { email } organizations { slug } } }`

// TestSessionRefresh follows a sign-in through signup, refreshes with
// rotation, a second tab's simultaneous refresh, a stolen token replayed
// later, and logout.
func TestSessionRefresh(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		clk := &clock{now: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)}
		s := newServerOn(t, d.Open(t), graph.Options{}, func(c *app.Config) { c.Now = clk.Now }, nil)

		resp, r := s.postSession(`mutation { signup(input: {email: "ada@example.com", password: "correct horse battery",
			organizationName: "Sango", organizationSlug: "sango"}) { accessToken } }`, "", "", "127.0.0.1:8080")
		if len(r.Errors) > 0 {
			t.Fatalf("signup: %s", r.Raw)
		}
		c1 := sessionCookie(t, resp)
		if !c1.HttpOnly || c1.SameSite != http.SameSiteStrictMode || c1.Path != "/graphql" || c1.Secure {
			t.Fatalf("cookie over plain HTTP to a loopback address: %+v", c1)
		}
		if !strings.HasPrefix(c1.Value, "rt_") || c1.MaxAge <= 0 {
			t.Fatalf("cookie value or lifetime: %+v", c1)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Fatalf("Cache-Control = %q", cc)
		}

		// A refresh answers a working access token and rotates the cookie.
		resp, r = s.postSession(refreshMutation, c1.Value, "http://127.0.0.1:8080", "127.0.0.1:8080")
		if len(r.Errors) > 0 {
			t.Fatalf("refresh: %s", r.Raw)
		}
		var out struct {
			RefreshSession struct {
				AccessToken   string
				User          struct{ Email string }
				Organizations []struct{ Slug string }
			}
		}
		r.decode(t, &out)
		if out.RefreshSession.User.Email != "ada@example.com" || len(out.RefreshSession.Organizations) != 1 {
			t.Fatalf("refresh answer: %s", r.Raw)
		}
		var me struct{ Me struct{ Email string } }
		s.must(out.RefreshSession.AccessToken, `{ me { email } }`, nil, &me)
		c2 := sessionCookie(t, resp)
		if c2.Value == c1.Value {
			t.Fatal("the refresh token was not rotated")
		}

		// The rotated token again, at once (another tab): refused alone.
		_, r = s.postSession(refreshMutation, c1.Value, "", "127.0.0.1:8080")
		if r.code(t) != "unauthenticated" {
			t.Fatalf("reused within the grace: %s", r.Raw)
		}
		resp, r = s.postSession(refreshMutation, c2.Value, "", "127.0.0.1:8080")
		if len(r.Errors) > 0 {
			t.Fatalf("the successor must still work: %s", r.Raw)
		}
		c3 := sessionCookie(t, resp)

		// A rotated token replayed later revokes the sign-in.
		clk.add(time.Minute)
		_, r = s.postSession(refreshMutation, c1.Value, "", "127.0.0.1:8080")
		if r.code(t) != "unauthenticated" {
			t.Fatalf("replayed: %s", r.Raw)
		}
		_, r = s.postSession(refreshMutation, c3.Value, "", "127.0.0.1:8080")
		if r.code(t) != "unauthenticated" {
			t.Fatalf("the sign-in must be revoked after a replay: %s", r.Raw)
		}
		var audit struct {
			AuditLogs struct {
				Edges []struct{ Node struct{ Action string } }
			}
		}
		s.must(out.RefreshSession.AccessToken, `{ auditLogs(action: "session.reuse") { edges { node { action } } } }`, nil, &audit)
		if len(audit.AuditLogs.Edges) != 1 {
			t.Fatalf("session.reuse audited %d times", len(audit.AuditLogs.Edges))
		}

		// A new login; endSession ends it and clears the cookie.
		resp, r = s.postSession(`mutation { login(input: {email: "ada@example.com", password: "correct horse battery"}) { accessToken } }`, "", "", "portal.example.com")
		if len(r.Errors) > 0 {
			t.Fatalf("login: %s", r.Raw)
		}
		c4 := sessionCookie(t, resp)
		if !c4.Secure {
			t.Fatalf("a cookie for a non-loopback host must be Secure: %+v", c4)
		}
		_, r = s.postSession(refreshMutation, c4.Value, "https://evil.example", "portal.example.com")
		if r.code(t) != "forbidden" {
			t.Fatalf("a refresh from another site: %s", r.Raw)
		}
		resp, r = s.postSession(`mutation { endSession { ended } }`, c4.Value, "https://portal.example.com", "portal.example.com")
		if len(r.Errors) > 0 {
			t.Fatalf("endSession: %s", r.Raw)
		}
		if c := sessionCookie(t, resp); c.MaxAge >= 0 || c.Value != "" {
			t.Fatalf("endSession must clear the cookie: %+v", c)
		}
		_, r = s.postSession(refreshMutation, c4.Value, "", "portal.example.com")
		if r.code(t) != "unauthenticated" {
			t.Fatalf("refresh after endSession: %s", r.Raw)
		}

		// Without a cookie, or with a made-up one; and an idle sign-in ends.
		for _, v := range []string{"", "rt_madeup", strings.Repeat("x", 200)} {
			if _, r = s.postSession(refreshMutation, v, "", ""); r.code(t) != "unauthenticated" {
				t.Fatalf("refresh with %q: %s", v, r.Raw)
			}
		}
		resp, _ = s.postSession(`mutation { login(input: {email: "ada@example.com", password: "correct horse battery"}) { accessToken } }`, "", "", "")
		c5 := sessionCookie(t, resp)
		clk.add(auth.SessionIdleTTL + time.Second)
		if _, r = s.postSession(refreshMutation, c5.Value, "", ""); r.code(t) != "unauthenticated" {
			t.Fatalf("refresh of an idle sign-in: %s", r.Raw)
		}
	})
}

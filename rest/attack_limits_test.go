package rest_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestAttackIPv6Rotation: per-address limits keyed IPv6 clients by the
// whole address, so one /64 (2^64 addresses, all the client's) had
// unlimited budgets. They are now counted per /64.
func TestAttackIPv6Rotation(t *testing.T) {
	s := authLimited(t, auth.Rate{Count: 3, Period: time.Hour}, auth.Rate{})
	login := func(ip string) int {
		return s.do(req{method: "POST", path: "/api/v2/auth/login", header: map[string]string{"X-Forwarded-For": ip},
			body: map[string]any{"email": "nobody@example.com", "password": "wrong password"}}).Status
	}
	limited := 0
	for i := 1; i <= 10; i++ {
		if login("2001:db8:1:2::"+strconv.FormatInt(int64(i), 16)) == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 7 {
		t.Fatalf("%d of 10 attempts from one /64 were limited, want 7", limited)
	}
	if code := login("2001:db8:1:3::1"); code != http.StatusUnauthorized {
		t.Fatalf("another /64: %d", code)
	}
	// An IPv4 address written as IPv6 is the IPv4 address.
	for i := 0; i < 3; i++ {
		if code := login("198.51.100.9"); code != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i, code)
		}
	}
	if code := login("::ffff:198.51.100.9"); code != http.StatusTooManyRequests {
		t.Fatalf("the same IPv4 address mapped into IPv6: %d", code)
	}
}

// TestAttackMemoryLimiterFlood: without Redis, the in-memory limiter
// cleared every bucket once it held 200,000 keys, per-e-mail lockouts
// included, so a flood of addresses lifted every lockout. It now evicts
// the least recently used address buckets only, and keeps lockouts apart.
func TestAttackMemoryLimiterFlood(t *testing.T) {
	ctx := context.Background()
	m := rest.NewMemoryLimitStore(nil)
	tight := rest.Limit{Count: 2, Period: time.Hour}
	spend := func(key string) {
		t.Helper()
		for i := 0; i < tight.Count; i++ {
			if res, _ := m.Allow(ctx, key, tight); !res.Allowed {
				t.Fatalf("%s: refused within its budget", key)
			}
		}
	}
	refused := func(key string) bool {
		res, _ := m.Allow(ctx, key, tight)
		return !res.Allowed
	}
	lockout := auth.AccountKeyPrefix + "0123456789abcdef0123456789abcdef"
	spend(lockout)
	spend("ip:203.0.113.1")
	flood := func(from, to int) {
		for i := from; i < to; i++ {
			_, _ = m.Allow(ctx, "ip:flood-"+strconv.Itoa(i), rest.Limit{Count: 1, Period: time.Hour}) // spent at once
		}
	}
	flood(0, 150_000)
	if !refused("ip:203.0.113.1") { // used again: now the most recent
		t.Fatal("a spent address bucket was dropped before the cache was full")
	}
	flood(150_000, 300_000)
	if !refused(lockout) {
		t.Fatal("a flood of 300,000 addresses lifted an e-mail's lockout")
	}
	if !refused("ip:203.0.113.1") {
		t.Fatal("a recently used address bucket was dropped with the least recently used ones")
	}
	// The oldest flood keys were evicted: a fresh budget again.
	if refused("ip:flood-0") {
		t.Fatal("the least recently used bucket was kept")
	}
}

// TestAttackEmptyScopes: `"scopes": []` created a key with every scope;
// an explicit empty list must never mean everything. It is a 422 naming
// the scopes allowed, and no key is created; omitting scopes keeps the
// documented default (every scope).
func TestAttackEmptyScopes(t *testing.T) {
	s := build(t, storetest.SQLite(t), nil, nil)
	tn := s.tenant("scopes")
	keys := "/api/v2/projects/" + tn.ProjectID + "/keys"
	before := len(s.must(200, req{method: "GET", path: keys, token: tn.Token})["items"].([]any))
	r := s.do(req{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "nothing", "scopes": []any{}}})
	body := string(r.Body)
	if r.Status != 422 || !strings.Contains(body, `"scopes"`) {
		t.Fatalf("empty scopes: %d %s", r.Status, body)
	}
	for _, sc := range model.ScopeNames() {
		if !strings.Contains(body, sc) {
			t.Fatalf("the refusal does not name %s: %s", sc, body)
		}
	}
	if after := len(s.must(200, req{method: "GET", path: keys, token: tn.Token})["items"].([]any)); after != before {
		t.Fatalf("a key was created: %d keys, were %d", after, before)
	}
	k := s.must(200, req{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "default"}})
	if len(k["scopes"].([]any)) != len(model.ScopeNames()) {
		t.Fatalf("omitted scopes: %v", k["scopes"])
	}
}

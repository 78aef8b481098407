package rest_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// envRedis names the variable holding the Redis URL for tests.
const envRedis = "EINVOICE_TEST_REDIS_URL"

// testRedis connects to the test Redis (EINVOICE_TEST_REDIS_URL, default
// the local one): it skips when Redis does not answer and, with CI set,
// fails instead.
func testRedis(t testing.TB) *redis.Client {
	t.Helper()
	url := os.Getenv(envRedis)
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("%s: %v", envRedis, err)
	}
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Redis at %s is unreachable (set %s): %v", url, envRedis, err)
		}
		t.Skipf("Redis at %s is unreachable (set %s): %v", url, envRedis, err)
	}
	return c
}

func TestParseLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want rest.Limit
		bad  bool
	}{
		{in: "50/s", want: rest.Limit{Count: 50, Period: time.Second}},
		{in: "10/m", want: rest.Limit{Count: 10, Period: time.Minute}},
		{in: "1000/h", want: rest.Limit{Count: 1000, Period: time.Hour}},
		{in: "5/10s", want: rest.Limit{Count: 5, Period: 10 * time.Second}},
		{in: "off"},
		{in: "0"},
		{in: "50", bad: true},
		{in: "-1/s", bad: true},
		{in: "5/fortnight", bad: true},
		{in: "x/s", bad: true},
	} {
		got, err := rest.ParseLimit(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseLimit(%q) = %v, %v", c.in, got, err)
		}
		if err == nil && !c.bad {
			if back, _ := rest.ParseLimit(got.String()); back != got {
				t.Errorf("%q does not round-trip: %q", c.in, got.String())
			}
		}
	}
}

// checkLimited sends r until its limit of n is used up and checks the
// headers of every answer and the 429 that follows.
func checkLimited(t *testing.T, s *server, r req, n int, ok int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		res := s.do(r)
		if res.Status != ok {
			t.Fatalf("request %d: %d %s", i, res.Status, res.Body)
		}
		if res.Header.Get("RateLimit-Limit") != strconv.Itoa(n) || res.Header.Get("RateLimit-Remaining") != strconv.Itoa(n-i) ||
			res.Header.Get("RateLimit-Reset") == "" || res.Header.Get("Retry-After") != "" {
			t.Fatalf("request %d headers: %v", i, res.Header)
		}
	}
	res := s.do(r)
	if res.Status != 429 || res.json(t)["code"] != "rate_limited" {
		t.Fatalf("over the limit: %d %s", res.Status, res.Body)
	}
	if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 {
		t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	if res.Header.Get("RateLimit-Remaining") != "0" || res.Header.Get("RateLimit-Limit") != strconv.Itoa(n) {
		t.Fatalf("429 headers: %v", res.Header)
	}
}

func TestRateLimitPerKey(t *testing.T) {
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		// Per hour, so that nothing refills while the test runs.
		o.RateLimits = rest.RateLimits{Sandbox: rest.Limit{Count: 3, Period: time.Hour}, Production: rest.Limit{Count: 5, Period: time.Hour}}
	})
	tn := s.tenant("acme")
	usage := req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}
	checkLimited(t, s, usage, 3, 200)
	// Every key route shares the key's budget, v1 included.
	if r := s.do(irnReq(tn, map[string]any{"invoice_reference": "A1", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"})); r.Status != 429 {
		t.Fatalf("other route of a limited key: %d", r.Status)
	}
	if r := s.do(req{method: "GET", path: "/api/v1/usage", clientID: tn.ClientID, secret: tn.Secret}); r.Status != 429 || r.Header.Get("Sunset") == "" {
		t.Fatalf("v1 route of a limited key: %d %v", r.Status, r.Header)
	}
	// Another key has its own budget; a production key the production one.
	other := s.tenant("other")
	if r := s.do(req{method: "GET", path: "/api/v2/usage", clientID: other.ClientID, secret: other.Secret}); r.Status != 200 {
		t.Fatalf("another key: %d", r.Status)
	}
	pr := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{"organization_id": tn.OrgID, "name": "Live shop", "environment": "production"}})
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pr["id"].(string) + "/keys", token: tn.Token, body: map[string]any{"key_name": "live"}})
	checkLimited(t, s, req{method: "GET", path: "/api/v2/usage", clientID: k["client_id"].(string), secret: k["client_secret"].(string)}, 5, 200)
	// Portal routes are not limited per key.
	if r := s.do(req{method: "GET", path: "/api/v2/projects", token: tn.Token}); r.Status != 200 || r.Header.Get("RateLimit-Limit") != "" {
		t.Fatalf("portal route: %d %v", r.Status, r.Header)
	}
}

// authLimited builds a server whose service limits signup and login
// attempts per address (perIP) and per e-mail (perAccount) in one memory
// store, shared with the router.
func authLimited(t testing.TB, perIP, perAccount auth.Rate) *server {
	t.Helper()
	limits := rest.NewMemoryLimitStore(nil)
	return build(t, storetest.SQLite(t), func(c *app.Config) {
		c.Auth = auth.Limits{Limiter: rest.AttemptLimiter(limits), PerIP: perIP, PerAccount: perAccount}
	}, func(o *rest.Options) {
		o.TrustedProxies = rest.ProxyTrust{Hops: 1}
		o.RateLimits.Store = limits
	})
}

func TestRateLimitAuthPerIP(t *testing.T) {
	s := authLimited(t, auth.Rate{Count: 2, Period: time.Hour}, auth.Rate{})
	from := func(ip string, r req) req {
		r.header = map[string]string{"X-Forwarded-For": ip}
		return r
	}
	login := req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "nobody@example.com", "password": "wrong password"}}
	checkLimited(t, s, from("198.51.100.7", login), 2, 401)
	// Signup shares the IP's budget; another IP has its own.
	signup := req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "a@example.com", "password": "correct horse battery", "organization_name": "Aa", "organization_slug": "aa"}}
	if r := s.do(from("198.51.100.7", signup)); r.Status != 429 {
		t.Fatalf("signup from a limited IP: %d", r.Status)
	}
	if r := s.do(from("198.51.100.8", signup)); r.Status != 200 {
		t.Fatalf("signup from another IP: %d %s", r.Status, r.Body)
	}
}

// TestRateLimitRedisShared runs two routers (two API processes) over one
// database and one Redis: they share each key's budget.
func TestRateLimitRedisShared(t *testing.T) {
	client := testRedis(t)
	prefix := "einvoice-test:" + uuid.NewString() + ":"
	stores := sharedStores(t, storetest.Dialect{Name: "sqlite"}, 2)
	limits := rest.RateLimits{Sandbox: rest.Limit{Count: 4, Period: time.Hour}, Store: rest.NewRedisLimitStore(client, prefix)}
	a := newServerWith(t, stores[0], func(o *rest.Options) { o.RateLimits = limits })
	b := newServerWith(t, stores[1], func(o *rest.Options) { o.RateLimits = limits })
	tn := a.tenant("acme")
	usage := req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}
	for i, s := range []*server{a, b, a, b} {
		r := s.do(usage)
		if r.Status != 200 || r.Header.Get("RateLimit-Remaining") != strconv.Itoa(3-i) {
			t.Fatalf("request %d: %d remaining %q", i+1, r.Status, r.Header.Get("RateLimit-Remaining"))
		}
	}
	for _, s := range []*server{a, b} {
		if r := s.do(usage); r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("over the shared limit: %d %v", r.Status, r.Header)
		}
	}
	keys, err := client.Keys(context.Background(), "*"+prefix+"*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("no limiter keys under the prefix in Redis: %v %v", keys, err)
	}
	t.Cleanup(func() { client.Del(context.Background(), keys...) })
}

// TestRateLimitStoreDown keeps limiting, in memory, when Redis cannot be
// reached: an outage of the limiter neither stops the API nor lifts the
// limits.
func TestRateLimitStoreDown(t *testing.T) {
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second, DialerRetries: 1})
	t.Cleanup(func() { dead.Close() })
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{Sandbox: rest.Limit{Count: 2, Period: time.Hour}, Store: rest.NewRedisLimitStore(dead, "x:")}
	})
	tn := s.tenant("acme")
	checkLimited(t, s, req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}, 2, 200)
	if !strings.Contains(s.logs.String(), "rate limit store failed") {
		t.Fatalf("the limiter failure was not logged: %s", s.logs.String())
	}
}

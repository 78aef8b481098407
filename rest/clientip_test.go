package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

func TestParseProxyTrust(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "", want: "off"}, {in: "false", want: "off"}, {in: "off", want: "off"},
		{in: "true", want: "1"}, {in: "2", want: "2"},
		{in: "10.0.0.0/8, 192.0.2.7", want: "10.0.0.0/8,192.0.2.7/32"},
		{in: "fd00::/8,10.1.2.3/8", want: "fd00::/8,10.0.0.0/8"},
		{in: "11", bad: true}, {in: "-1", bad: true}, {in: "proxy.local", bad: true}, {in: "10.0.0.0/99", bad: true},
	} {
		got, err := rest.ParseProxyTrust(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: accepted as %s", tc.in, got)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%q: %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestProxyTrustClientIP(t *testing.T) {
	hops := func(n int) rest.ProxyTrust { return rest.ProxyTrust{Hops: n} }
	nets, _ := rest.ParseProxyTrust("10.0.0.0/8, 2001:db8:1::/48")
	for _, tc := range []struct {
		name  string
		trust rest.ProxyTrust
		peer  string
		xff   []string
		want  string
	}{
		{"no trust ignores the header", rest.ProxyTrust{}, "192.0.2.1:4711", []string{"203.0.113.9"}, "192.0.2.1"},
		{"one hop takes the rightmost", hops(1), "10.0.0.1:4711", []string{"203.0.113.9, 198.51.100.7"}, "198.51.100.7"},
		{"two hops", hops(2), "10.0.0.1:4711", []string{"203.0.113.9, 198.51.100.7, 10.0.0.2"}, "198.51.100.7"},
		{"fewer entries than hops", hops(2), "10.0.0.1:4711", []string{"198.51.100.7"}, "198.51.100.7"},
		{"no header behind hops", hops(1), "10.0.0.1:4711", nil, "10.0.0.1"},
		{"several header lines", hops(1), "10.0.0.1:4711", []string{"203.0.113.9", "203.0.113.10, 198.51.100.7"}, "198.51.100.7"},
		{"entry with a port", hops(1), "10.0.0.1:4711", []string{"198.51.100.7:5555"}, "198.51.100.7"},
		{"networks skip proxies", nets, "10.0.0.1:4711", []string{"203.0.113.9, 198.51.100.7, 10.9.9.9"}, "198.51.100.7"},
		{"networks: untrusted peer", nets, "192.0.2.1:4711", []string{"203.0.113.9"}, "192.0.2.1"},
		{"networks: IPv6 proxies", nets, "[2001:db8:1::5]:443", []string{"2001:db8:2::7, 2001:db8:1::9"}, "2001:db8:2::7"},
		{"networks: garbage left of proxies", nets, "10.0.0.1:4711", []string{"not-an-ip, 10.0.0.3"}, "10.0.0.3"},
		{"networks: only proxies", nets, "10.0.0.1:4711", []string{"10.0.0.3"}, "10.0.0.3"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		r.Header.Set("X-Real-IP", "203.0.113.200")
		if got := tc.trust.ClientIP(r); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestAttackForwardedForRotation replays the review's attack on the login
// limit and the audit log: a client behind the proxy writes a new
// X-Forwarded-For (and X-Real-IP) value on every attempt. The proxy appends
// the client's real address, which is the one limited and audited.
func TestAttackForwardedForRotation(t *testing.T) {
	for _, trust := range []string{"1", "10.0.0.0/8"} {
		t.Run(trust, func(t *testing.T) {
			pt, err := rest.ParseProxyTrust(trust)
			if err != nil {
				t.Fatal(err)
			}
			limits := rest.NewMemoryLimitStore(nil)
			s := build(t, storetest.SQLite(t), func(c *app.Config) {
				c.Auth = auth.Limits{Limiter: rest.AttemptLimiter(limits), PerIP: auth.Rate{Count: 3, Period: time.Hour}}
			}, func(o *rest.Options) {
				o.TrustedProxies = pt
				o.RateLimits.Store = limits
			})
			const client = "198.51.100.7"
			send := func(i int, path string, body any) (int, []byte) {
				raw, _ := json.Marshal(body)
				r := httptest.NewRequest("POST", path, strings.NewReader(string(raw)))
				r.Header.Set("Content-Type", "application/json")
				r.RemoteAddr = "10.0.0.1:40000" // the proxy
				forged := fmt.Sprintf("203.0.113.%d", i%250)
				r.Header.Set("X-Forwarded-For", forged+", "+client) // the proxy appended the client
				r.Header.Set("X-Real-IP", forged)
				rec := httptest.NewRecorder()
				s.h.ServeHTTP(rec, r)
				return rec.Code, rec.Body.Bytes()
			}
			code, body := send(0, "/api/v2/auth/signup", map[string]any{"email": "v@example.com", "password": "correct horse battery",
				"organization_name": "Victim", "organization_slug": "victim"})
			if code != 200 {
				t.Fatalf("signup: %d %s", code, body)
			}
			var su struct {
				AccessToken string `json:"access_token"`
			}
			_ = json.Unmarshal(body, &su)
			limited := 0
			for i := 1; i <= 20; i++ {
				code, _ := send(i, "/api/v2/auth/login", map[string]any{"email": "v@example.com", "password": fmt.Sprintf("wrong guess %02d", i)})
				if code == 429 {
					limited++
				}
			}
			if limited != 18 { // 3 per hour, the signup included
				t.Fatalf("%d of 20 rotated guesses were limited, want 18", limited)
			}
			logs := s.must(200, req{method: "GET", path: "/api/v2/audit-logs", token: su.AccessToken})
			items := logs["items"].([]any)
			if len(items) == 0 {
				t.Fatal("no audit entries")
			}
			for _, it := range items {
				if ip := it.(map[string]any)["ip"]; ip != client {
					t.Fatalf("audit entry %v: ip %v, want %s", it.(map[string]any)["action"], ip, client)
				}
			}
		})
	}
}

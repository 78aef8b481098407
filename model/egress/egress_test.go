package egress_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/einvoice-ng/einvoice/model/egress"
)

func TestForbidden(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		allowed bool
	}{
		{"127.0.0.1", false}, {"127.255.0.9", false}, {"::1", false}, {"0.0.0.0", false}, {"::", false},
		{"10.1.2.3", false}, {"172.16.0.1", false}, {"172.31.255.255", false}, {"192.168.1.1", false},
		{"169.254.169.254", false}, {"169.254.0.1", false}, {"fd00:ec2::254", false}, {"fe80::1", false},
		{"100.64.0.1", false}, {"100.127.255.254", false}, {"fc00::1", false}, {"fdff::1", false},
		{"::ffff:127.0.0.1", false}, {"::ffff:10.0.0.1", false}, {"::ffff:169.254.169.254", false},
		{"64:ff9b::a9fe:a9fe", false}, {"64:ff9b::7f00:1", false}, {"2002:7f00:1::", false}, {"2001::1", false},
		{"192.0.0.8", false}, {"198.18.0.1", false}, {"224.0.0.1", false}, {"255.255.255.255", false}, {"ff02::1", false},
		{"2001:db8::1", false}, {"192.0.2.10", false},
		{"8.8.8.8", true}, {"41.58.1.1", true}, {"100.63.255.255", true}, {"100.128.0.1", true}, {"172.32.0.1", true},
		{"2606:4700::1111", true}, {"::ffff:8.8.8.8", true}, {"64:ff9b::808:808", true},
	} {
		a := netip.MustParseAddr(tc.addr)
		err := egress.Policy{}.CheckAddr(a)
		if (err == nil) != tc.allowed {
			t.Errorf("%s: %v, want allowed %v", tc.addr, err, tc.allowed)
		}
		if err != nil && !errors.Is(err, egress.ErrForbidden) {
			t.Errorf("%s: error %v is not ErrForbidden", tc.addr, err)
		}
		if err := (egress.Policy{AllowPrivate: true}).CheckAddr(a); err != nil {
			t.Errorf("%s with AllowPrivate: %v", tc.addr, err)
		}
	}
}

// fakeResolver answers every lookup with its addresses.
type fakeResolver []netip.Addr

func (f fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return f, nil
}

func TestCheckURL(t *testing.T) {
	public := fakeResolver{netip.MustParseAddr("41.58.1.1")}
	rebound := fakeResolver{netip.MustParseAddr("41.58.1.1"), netip.MustParseAddr("10.0.0.7")}
	origins, err := egress.NormalizeOrigins([]string{"https://einvoice1.nrs.gov.ng/", "HTTPS://Sandbox.Example.com:443", "http://127.0.0.1:9999"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(origins, " ") != "https://einvoice1.nrs.gov.ng https://sandbox.example.com http://127.0.0.1:9999" {
		t.Fatalf("origins %v", origins)
	}
	for _, tc := range []struct {
		url      string
		resolver fakeResolver
		private  bool
		ok       bool
	}{
		{"https://einvoice1.nrs.gov.ng", public, false, true},
		{"https://einvoice1.nrs.gov.ng/api/", public, false, true},
		{"https://EINVOICE1.nrs.gov.ng:443", public, false, true},
		{"https://einvoice1.nrs.gov.ng", rebound, false, false},
		{"https://einvoice1.nrs.gov.ng:8443", public, false, false},
		{"http://einvoice1.nrs.gov.ng", public, false, false},
		{"https://evil.example", public, false, false},
		{"https://user:pw@einvoice1.nrs.gov.ng", public, false, false},
		{"https://einvoice1.nrs.gov.ng/?x=1", public, false, false},
		{"ftp://einvoice1.nrs.gov.ng", public, false, false},
		{"http://127.0.0.1:9999", nil, false, false},
		{"http://127.0.0.1:9999/api", nil, true, true},
		{"http://169.254.169.254", nil, true, false},
	} {
		p := egress.Policy{Origins: origins, Resolver: tc.resolver, AllowPrivate: tc.private}
		_, err := p.CheckURL(context.Background(), tc.url)
		if (err == nil) != tc.ok {
			t.Errorf("%s (private %v): %v, want ok %v", tc.url, tc.private, err, tc.ok)
		}
	}
	// Without an origin list, any public destination passes.
	if _, err := (egress.Policy{Resolver: public}).CheckURL(context.Background(), "https://hooks.example.org/x"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"einvoice1.nrs.gov.ng", "https://x.example/path", "https://u@x.example"} {
		if _, err := egress.NormalizeOrigins([]string{bad}); err == nil {
			t.Errorf("origin %q accepted", bad)
		}
	}
}

// TestAttackEgressDialer replays the review's SSRF at the connection: a
// tenant's destination that resolves (now, or after rebinding) to a
// loopback or private address is refused by the dialer itself, and a
// redirect is never followed with the credentials and the body.
func TestAttackEgressDialer(t *testing.T) {
	var internalHits atomic.Int64
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		internalHits.Add(1)
		_, _ = w.Write([]byte("internal admin page"))
	}))
	t.Cleanup(internal.Close)
	_, port, _ := net.SplitHostPort(internal.Listener.Addr().String())

	strict := egress.Policy{}.Client()
	for _, u := range []string{internal.URL, "http://localhost:" + port, "http://[::ffff:127.0.0.1]:" + port} {
		_, err := strict.Get(u)
		if err == nil || !errors.Is(err, egress.ErrForbidden) {
			t.Errorf("GET %s: %v, want the dialer's refusal", u, err)
		}
	}
	if n := internalHits.Load(); n != 0 {
		t.Fatalf("the internal service was reached %d times", n)
	}

	// A destination the operator allowed redirects elsewhere: the 3xx
	// comes back, nothing is sent to the Location.
	var leaked atomic.Value
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("X-Api-Secret"))
	}))
	t.Cleanup(collector.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, collector.URL+"/collect", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	req, _ := http.NewRequest("POST", redirector.URL+"/api/v1/invoice/sign", strings.NewReader(`{"irn":"x"}`))
	req.Header.Set("X-Api-Secret", "nrs-secret")
	res, err := egress.Policy{AllowPrivate: true}.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTemporaryRedirect || leaked.Load() != nil {
		t.Fatalf("redirect: status %d, collector saw %v", res.StatusCode, leaked.Load())
	}
}

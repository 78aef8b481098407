package rest_test

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// namesResolver resolves hooks.example.test to a public address and no
// other name, so that tests never query DNS.
type namesResolver struct{}

func (namesResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "hooks.example.test" {
		return []netip.Addr{netip.MustParseAddr("41.58.1.1")}, nil
	}
	return nil, errors.New("no such host")
}

// webhookHostAttacks are URLs whose host is an IPv4 address in a form
// inet_aton reads (all of them loopback or "this network"), or a name that
// does not resolve, with what the refusal must say.
var webhookHostAttacks = []struct{ url, reason string }{
	{"http://2130706433/hooks", "non-canonical"},
	{"http://0x7f.1/hooks", "non-canonical"},
	{"http://127.1/hooks", "non-canonical"},
	{"http://0/hooks", "non-canonical"},
	{"http://0177.0.0.1/hooks", "non-canonical"},
	{"http://0x7f000001/hooks", "non-canonical"},
	{"http://127.0.0.1./hooks", "non-canonical"},
	{"http://hooks.invalid/hooks", "does not resolve"},
}

// TestAttackWebhookHostForms: webhook URLs with numeric hosts in
// inet_aton forms, or hosts that do not resolve, were accepted when saved
// (the dialer refused them later: one layer of defence). They are now
// refused when saved, with the reason, even where private addresses are
// allowed; a canonical address and a name that resolves are accepted.
func TestAttackWebhookHostForms(t *testing.T) {
	for _, allowPrivate := range []bool{false, true} {
		name := "default policy"
		if allowPrivate {
			name = "private addresses allowed"
		}
		t.Run(name, func(t *testing.T) {
			s := build(t, storetest.SQLite(t), func(c *app.Config) {
				c.Webhooks.AllowPrivate, c.Webhooks.Resolver = allowPrivate, namesResolver{}
			}, nil)
			a := s.tenant("hosts")
			base := "/api/v2/projects/" + a.ProjectID + "/webhook-endpoints"
			for _, c := range webhookHostAttacks {
				r := s.do(req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": c.url}})
				if r.Status != 422 || !strings.Contains(string(r.Body), c.reason) || !strings.Contains(string(r.Body), "url") {
					t.Fatalf("create %s: %d %s", c.url, r.Status, r.Body)
				}
			}
			ep := s.must(200, req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": "http://hooks.example.test/hooks"}})
			for _, c := range webhookHostAttacks {
				r := s.do(req{method: "PATCH", path: base + "/" + ep["id"].(string), token: a.Token, body: map[string]any{"url": c.url}})
				if r.Status != 422 || !strings.Contains(string(r.Body), c.reason) {
					t.Fatalf("update to %s: %d %s", c.url, r.Status, r.Body)
				}
			}
			s.must(200, req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": "http://93.184.215.14/hooks"}})
		})
	}
}

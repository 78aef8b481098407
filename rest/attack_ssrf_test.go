package rest_test

import (
	"context"
	"net/netip"
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// rebinding resolves the NRS host to a private address, as a DNS record
// under an attacker's control would.
type rebinding struct{}

func (rebinding) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "einvoice1.nrs.gov.ng" {
		return []netip.Addr{netip.MustParseAddr("10.0.0.7")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("41.58.1.1")}, nil
}

// TestAttackBaseURL replays the review's SSRF at the moment a tenant saves
// base_url: sandbox projects take none, and a production project's must be
// one of the configured NRS hosts, resolving to no special-purpose address.
func TestAttackBaseURL(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := build(t, d.Open(t), func(c *app.Config) {
				c.Egress = egress.Policy{Origins: []string{"https://einvoice1.nrs.gov.ng", "https://sandbox.nrs.example"}, Resolver: rebinding{}}
			}, nil)
			tn := s.tenant("acme")
			put := func(project, baseURL string) response {
				body := authorityBody(t)
				body["base_url"] = baseURL
				return s.do(req{method: "PUT", path: "/api/v2/projects/" + project + "/authority", token: tn.Token, body: body})
			}
			if got := locs(detail(t, put(tn.ProjectID, "https://sandbox.nrs.example"))); !slices.Equal(got, []string{"value_error@body/base_url"}) {
				t.Fatalf("sandbox project with base_url: %v", got)
			}
			prod := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
				"organization_id": tn.OrgID, "name": "Live shop", "environment": "production"}})["id"].(string)
			for _, bad := range []string{
				"http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:8080/admin", "http://[::1]/", "http://10.0.0.7/",
				"http://100.64.0.1/", "http://[fd00:ec2::254]/", "https://evil.example/", "https://einvoice1.nrs.gov.ng.evil.example/",
				"https://einvoice1.nrs.gov.ng/", // resolves to 10.0.0.7
				"https://user:pw@sandbox.nrs.example/", "file:///etc/passwd", "gopher://sandbox.nrs.example/",
			} {
				if got := locs(detail(t, put(prod, bad))); !slices.Equal(got, []string{"value_error@body/base_url"}) {
					t.Errorf("%s: %v", bad, got)
				}
			}
			res := s.must(200, req{method: "PUT", path: "/api/v2/projects/" + prod + "/authority", token: tn.Token, body: func() map[string]any {
				b := authorityBody(t)
				b["base_url"] = "https://sandbox.nrs.example/"
				return b
			}()})
			if a := res["authority"].(map[string]any); a["base_url"] != "https://sandbox.nrs.example" {
				t.Fatalf("allowed base_url: %v", a)
			}
			// Without base_url a production project calls the first host.
			other := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
				"organization_id": tn.OrgID, "name": "Other shop", "environment": "production"}})
			if a := other["authority"].(map[string]any); a["base_url"] != "https://einvoice1.nrs.gov.ng" {
				t.Fatalf("default base_url: %v", a)
			}
		})
	}
}

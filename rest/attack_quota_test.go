package rest_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestAttackQuotas creates organizations, projects and keys past their
// quotas: each create over a quota is a 409 quota_exceeded on REST and
// GraphQL, concurrent creates do not slip past it, and revoking a key makes
// room for another.
func TestAttackQuotas(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := build(t, d.Open(t), func(c *app.Config) {
				c.Quotas = app.Quotas{OrganizationsPerUser: 2, ProjectsPerOrganization: 2, KeysPerProject: 3}
			}, nil)
			s = withGraphQL(s, rest.Options{})
			tn := s.tenant("acme") // one organization, one project, one key
			over := func(name string, r req) {
				t.Helper()
				res := s.do(r)
				if res.Status != 409 || res.json(t)["code"] != "quota_exceeded" {
					t.Fatalf("%s over its quota: %d %s", name, res.Status, res.Body)
				}
			}
			s.must(200, req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": "Second", "slug": "second"}})
			over("organization", req{method: "POST", path: "/api/v2/organizations", token: tn.Token, body: map[string]any{"name": "Third", "slug": "third"}})

			project := func(name string) req {
				return req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
					"organization_id": tn.OrgID, "name": name, "environment": "sandbox"}}
			}
			s.must(200, project("Second shop"))
			over("project", project("Third shop"))

			keys := "/api/v2/projects/" + tn.ProjectID + "/keys"
			// Concurrent creates race for the last two slots.
			var wg sync.WaitGroup
			statuses := make(chan int, 6)
			for i := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses <- s.do(req{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": fmt.Sprintf("k%d", i)}}).Status
				}()
			}
			wg.Wait()
			close(statuses)
			created := 0
			for st := range statuses {
				switch st {
				case 200:
					created++
				case 409:
				default:
					t.Fatalf("concurrent key create: %d", st)
				}
			}
			if created != 2 {
				t.Fatalf("%d concurrent keys created past one existing, want 2 (quota 3)", created)
			}
			over("key", req{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "one too many"}})
			gql := s.do(req{method: "POST", path: "/graphql", token: tn.Token, body: map[string]any{"query": fmt.Sprintf(
				`mutation { createApiKey(input: {projectId: %q, keyName: "gql"}) { clientSecret } }`, tn.ProjectID)}})
			if !strings.Contains(string(gql.Body), `"code":"quota_exceeded"`) {
				t.Fatalf("GraphQL key over its quota: %s", gql.Body)
			}
			s.must(200, req{method: "DELETE", path: keys + "/" + tn.KeyID, token: tn.Token})
			s.must(200, req{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "after a revoke"}})
		})
	}
}

// TestAttackKeyMinting replays minting keys to multiply a project's rate
// limit: each key has its own limit, but all of a project's keys share the
// project's.
func TestAttackKeyMinting(t *testing.T) {
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{
			Sandbox: rest.Limit{Count: 4, Period: time.Hour}, SandboxProject: rest.Limit{Count: 6, Period: time.Hour},
		}
	})
	tn := s.tenant("acme")
	type cred struct{ id, secret string }
	creds := []cred{{tn.ClientID, tn.Secret}}
	for i := range 4 {
		k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token,
			body: map[string]any{"key_name": fmt.Sprintf("minted %d", i)}})
		creds = append(creds, cred{k["client_id"].(string), k["client_secret"].(string)})
	}
	allowed := 0
	var first *response
	for i := range 25 {
		c := creds[i%len(creds)]
		res := s.do(req{method: "GET", path: "/api/v2/usage", clientID: c.id, secret: c.secret})
		switch res.Status {
		case 200:
			allowed++
		case 429:
			if first == nil {
				first = &res
			}
		default:
			t.Fatalf("usage: %d %s", res.Status, res.Body)
		}
	}
	if allowed != 6 {
		t.Fatalf("5 keys of one project made %d requests, want the project's 6", allowed)
	}
	// The first refusal is the project's: every key still had requests left.
	if first.Header.Get("RateLimit-Limit") != "6" || first.Header.Get("Retry-After") == "" {
		t.Fatalf("429 of the project limit: headers %v", first.Header)
	}
	// Another project keeps its own budget.
	other := s.tenant("other")
	s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: other.ClientID, secret: other.Secret})
}

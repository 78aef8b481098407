package graph_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestMeQueryCount checks that the dataloaders make the me tree (every
// organization, its projects, their organization, keys and usage) cost the
// same number of queries for one organization with one project and one key
// as for three organizations with three projects of three keys each.
//
// The batching window is widened from the default so that the assertion
// holds on a slow, loaded machine under the race detector: what is tested is
// that each level is one batch, not how fast goroutines are scheduled.
func TestMeQueryCount(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{LoaderWait: 50 * time.Millisecond})
		// The counter sees every query on the database, the background
		// jobs' (usage flushes, purges) included: those only add, so the
		// fewest of three runs is the request's own cost.
		count := func(token string) int64 {
			t.Helper()
			best := int64(-1)
			for range 3 {
				s.queries.Reset()
				s.must(token, meQuery, nil, nil)
				if n := s.queries.Count(); best < 0 || n < best {
					best = n
				}
			}
			return best
		}

		small := s.tenant("small")
		big := s.tenant("big")
		orgs := []string{big.OrgID}
		for i := range 2 {
			var o struct{ CreateOrganization struct{ ID string } }
			s.must(big.Token, fmt.Sprintf(`mutation { createOrganization(input: {name: "Big %d", slug: "big-%d"}) { id } }`, i, i), nil, &o)
			orgs = append(orgs, o.CreateOrganization.ID)
		}
		projects := []string{big.ProjectID}
		for i, org := range orgs {
			for j := range 3 {
				if i == 0 && j == 0 {
					continue // the signup's project
				}
				projects = append(projects, s.project(big.Token, org, fmt.Sprintf("shop %d-%d", i, j)))
			}
		}
		for i, p := range projects {
			for j := range 3 {
				if i == 0 && j == 0 {
					continue // the signup's key
				}
				s.key(big.Token, p, fmt.Sprintf("key %d", j))
			}
		}

		var tree meTree
		s.must(big.Token, meQuery, nil, &tree)
		nKeys := 0
		for _, o := range tree.Me.Organizations.Edges {
			for _, p := range o.Node.Projects.Edges {
				nKeys += len(p.Node.APIKeys.Edges)
			}
		}
		if len(tree.Me.Organizations.Edges) != 3 || len(projects) != 9 || nKeys != 27 {
			t.Fatalf("big tenant has %d organizations, %d projects, %d keys", len(tree.Me.Organizations.Edges), len(projects), nKeys)
		}

		one, many := count(small.Token), count(big.Token)
		t.Logf("%s: me tree costs %d queries for 1×1×1 and %d for 3×9×27", d.Name, one, many)
		if one != many {
			t.Fatalf("the me tree costs %d queries for one of each and %d for many: a level is not batched", one, many)
		}
		// user, organizations, projects, keys, project organizations,
		// usage (tenant check and counters).
		if one > 7 {
			t.Fatalf("the me tree costs %d queries, want at most 7", one)
		}
	})
}

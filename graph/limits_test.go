package graph_test

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// introspectionQuery is the query GraphiQL and code generators send
// (graphql-js getIntrospectionQuery), nested far deeper than the depth limit.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
}`

// TestLimits checks that abusive operations are rejected before anything
// runs, and that the portal's own queries and introspection pass.
func TestLimits(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{Introspection: true})
		tn := s.tenant("limits")

		cases := []struct {
			name, query string
			code        string // "" when the operation must pass
		}{
			{"the me tree at default page sizes", meQuery, ""},
			{"introspection", introspectionQuery, ""},
			{"12 levels", `{ me { organizations { edges { node { projects { edges { node { organization { projects { edges { node { id } } } } } } } } } } } }`, ""},
			{"13 levels", `{ me { organizations { edges { node { projects { edges { node { organization { projects { edges { node { organization { id } } } } } } } } } } } } }`,
				"DEPTH_LIMIT_EXCEEDED"},
			{"depth through fragments", `{ me { ...O } }
			  fragment O on Viewer { organizations(first: 1) { edges { node { ...P } } } }
			  fragment P on Organization { projects(first: 1) { edges { node { organization { projects(first: 1) { edges { node { organization { id } } } } } } } } }`,
				"DEPTH_LIMIT_EXCEEDED"},
			{"200 rows at three levels", `{ me { organizations(first: 200) { edges { node { projects(first: 200) { edges { node { apiKeys(first: 200) { edges { node { id } } } } } } } } } } }`,
				"COMPLEXITY_LIMIT_EXCEEDED"},
			{"the me tree twice over by aliases", `{ a: me { ...T } b: me { ...T } }
			  fragment T on Viewer { organizations { edges { node { projects { edges { node { apiKeys { edges { node { id } } } usage { total } } } } } } } }`,
				"COMPLEXITY_LIMIT_EXCEEDED"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				s.queries.Reset()
				r := s.do(tn.Token, c.query, nil)
				if c.code == "" {
					if len(r.Errors) > 0 {
						t.Fatalf("rejected: %s", r.Raw)
					}
					return
				}
				if got := r.code(t); got != c.code {
					t.Fatalf("code = %q, want %q: %s", got, c.code, r.Raw)
				}
				if n := s.queries.Count(); n != 0 {
					t.Fatalf("a rejected operation ran %d queries", n)
				}
				if string(r.Data) != "null" {
					t.Fatalf("a rejected operation answered data: %s", r.Raw)
				}
			})
		}

		t.Run("limits are configurable", func(t *testing.T) {
			tight := newServer(t, d, graph.Options{DepthLimit: 3, ComplexityLimit: 10})
			tk := tight.tenant("tight")
			if r := tight.do(tk.Token, `{ me { organizations(first: 1) { edges { cursor } } } }`, nil); r.code(t) != "DEPTH_LIMIT_EXCEEDED" {
				t.Fatalf("depth 4 under a limit of 3: %s", r.Raw)
			}
			if r := tight.do(tk.Token, `{ auditLogs(first: 11) { pageInfo { hasNextPage } } }`, nil); r.code(t) != "COMPLEXITY_LIMIT_EXCEEDED" ||
				!strings.Contains(r.Errors[0].Message, "limit of 10") {
				t.Fatalf("complexity 11 under a limit of 10: %s", r.Raw)
			}
		})
	})
}

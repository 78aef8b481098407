package graph_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestErrorCodes produces every error code the portal can reach through
// GraphQL and checks extensions.code and, for invalid, the detail's loc and
// type (never the message text).
func TestErrorCodes(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		a := s.tenant("alpha")

		// A member (not owner or admin) of alpha's organization.
		m := s.tenant("member")
		orgID := uuid.MustParse(a.OrgID)
		_, err := s.st.DB().NewInsert().Model(&model.Membership{
			OrganizationID: orgID, UserID: uuid.MustParse(m.UserID), Role: model.RoleMember, CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
		}).Exec(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		// A revoked key, which cannot be rotated.
		s.must(a.Token, `mutation($p: ID!, $k: ID!) { revokeApiKey(projectId: $p, keyId: $k) { id } }`, map[string]any{"p": a.ProjectID, "k": a.KeyID}, nil)

		cases := []struct {
			name, token, query string
			vars               map[string]any
			code               string
			locs               []string // for invalid: "type@loc/loc"
		}{
			{name: "me without a token", query: `{ me { id } }`, code: "unauthenticated"},
			{name: "mutation without a token", query: `mutation { createOrganization(input: {name: "Nope", slug: "nope"}) { id } }`, code: "unauthenticated"},
			{name: "wrong password", query: `mutation { login(input: {email: "alpha@example.com", password: "wrong password"}) { accessToken } }`, code: "unauthenticated"},
			{name: "member creates a project", token: m.Token, query: createProjectMutation, vars: map[string]any{"input": map[string]any{
				"organizationId": a.OrgID, "name": "Members only", "environment": "SANDBOX"}}, code: "forbidden"},
			{name: "unknown project", token: a.Token, query: `query($id: ID!) { project(id: $id) { id } }`,
				vars: map[string]any{"id": uuid.NewString()}, code: "not_found"},
			{name: "duplicate email", query: signupMutation, vars: map[string]any{"input": map[string]any{
				"email": "alpha@example.com", "password": "correct horse battery", "organizationName": "Other", "organizationSlug": "other"}}, code: "conflict"},
			{name: "duplicate slug", token: a.Token, query: `mutation { createOrganization(input: {name: "Alpha again", slug: "alpha"}) { id } }`, code: "conflict"},
			{name: "rotate a revoked key", token: a.Token, query: `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k) { clientSecret } }`,
				vars: map[string]any{"p": a.ProjectID, "k": a.KeyID}, code: "conflict"},
			{name: "project name too short", token: a.Token, query: createProjectMutation, vars: map[string]any{"input": map[string]any{
				"organizationId": a.OrgID, "name": "a", "environment": "SANDBOX"}},
				code: "invalid", locs: []string{"string_too_short@input/name"}},
			{name: "every signup problem at once", query: signupMutation, vars: map[string]any{"input": map[string]any{
				"email": "not-an-email", "password": "short", "organizationName": "x", "organizationSlug": "Bad_Slug"}},
				code: "invalid", locs: []string{"value_error@input/email", "string_too_short@input/password",
					"string_too_short@input/organizationName", "string_pattern_mismatch@input/organizationSlug"}},
			{name: "bad organization id in an input", token: a.Token, query: createProjectMutation, vars: map[string]any{"input": map[string]any{
				"organizationId": "nope", "name": "Fine name", "environment": "SANDBOX"}},
				code: "invalid", locs: []string{"uuid_parsing@input/organizationId"}},
			{name: "bad id argument", token: a.Token, query: `{ project(id: "nope") { id } }`,
				code: "invalid", locs: []string{"uuid_parsing@id"}},
			{name: "bad project id in createApiKey", token: a.Token, query: createKeyMutation, vars: map[string]any{"input": map[string]any{
				"projectId": "nope", "keyName": "k"}}, code: "invalid", locs: []string{"uuid_parsing@input/projectId"}},
			{name: "unknown scope", token: a.Token, query: createKeyMutation, vars: map[string]any{"input": map[string]any{
				"projectId": a.ProjectID, "keyName": "k1", "scopes": []string{"irn:generate", "everything"}}},
				code: "invalid", locs: []string{"enum@input/scopes/1"}},
			{name: "grace period out of range", token: a.Token, query: `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k, graceSeconds: -1) { clientSecret } }`,
				vars: map[string]any{"p": a.ProjectID, "k": a.KeyID}, code: "invalid", locs: []string{"value_error@graceSeconds"}},
			{name: "page size out of range", token: a.Token, query: `{ me { organizations(first: 0) { edges { cursor } } } }`,
				code: "invalid", locs: []string{"value_error@first"}},
			{name: "nested page size out of range", token: a.Token, query: `{ me { organizations { edges { node { projects(first: 201) { edges { cursor } } } } } } }`,
				code: "invalid", locs: []string{"value_error@first"}},
			{name: "bad cursor", token: a.Token, query: `{ auditLogs(after: "!!") { edges { cursor } } }`,
				code: "invalid", locs: []string{"value_error@after"}},
			{name: "bad audit organization id", token: a.Token, query: `{ auditLogs(organizationId: "nope") { edges { cursor } } }`,
				code: "invalid", locs: []string{"uuid_parsing@organizationId"}},
			{name: "bad usage date", token: a.Token, query: `query($id: ID!) { project(id: $id) { usage(from: "2026-02-30") { total } } }`,
				vars: map[string]any{"id": a.ProjectID}, code: "invalid", locs: []string{"date_from_datetime_parsing@from"}},
			{name: "bad usage key id", token: a.Token, query: `query($id: ID!) { project(id: $id) { usage(keyId: "nope") { total } } }`,
				vars: map[string]any{"id": a.ProjectID}, code: "invalid", locs: []string{"uuid_parsing@keyId"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := s.do(c.token, c.query, c.vars)
				if got := r.code(t); got != c.code {
					t.Fatalf("code = %q, want %q: %s", got, c.code, r.Raw)
				}
				if c.code != "invalid" {
					return
				}
				got := r.locs(t)
				if !slices.Equal(got, c.locs) {
					t.Fatalf("detail = %v, want %v", got, c.locs)
				}
				for _, d := range r.Errors[0].Extensions.Detail {
					if d.Msg == "" || !slices.Contains(model.ProblemTypes, model.ProblemType(d.Type)) {
						t.Fatalf("problem outside the documented shape: %s", r.Raw)
					}
				}
			})
		}

		t.Run("internal errors hide their cause", func(t *testing.T) {
			s := newServer(t, d, graph.Options{})
			tn := s.tenant("gamma")
			if err := s.st.Close(); err != nil {
				t.Fatal(err)
			}
			r := s.do(tn.Token, `{ me { id } }`, nil)
			if got := r.code(t); got != "internal" {
				t.Fatalf("code = %q, want internal: %s", got, r.Raw)
			}
			if r.Errors[0].Message != "Internal Server Error" {
				t.Fatalf("internal message = %q", r.Errors[0].Message)
			}
			if strings.Contains(string(r.Raw), "closed") {
				t.Fatalf("the cause leaked: %s", r.Raw)
			}
			if logs := s.logs.String(); !strings.Contains(logs, "closed") || !strings.Contains(logs, `"request_id":"`) {
				t.Fatalf("the cause was not logged with the request id: %s", logs)
			}
		})
	})
}

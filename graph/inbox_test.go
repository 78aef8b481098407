package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
)

const (
	pullInboxMutation   = `mutation($p: ID!) { pullReceivedInvoices(projectId: $p) { workflowId } }`
	decideInboxMutation = `mutation($p: ID!, $id: ID!) { decideReceivedInvoice(projectId: $p, id: $id, decision: "accepted") { id } }`
)

// TestInboxMutationLimits checks that pulling and deciding take the
// project's rate limit as REST's routes take the key's and the project's:
// counted under the project before anything else, refused past it; that
// another tenant's project is not found and counts against nobody's
// limit; and that they need a signed-in user.
func TestInboxMutationLimits(t *testing.T) {
	var keys []string
	limit := func(_ context.Context, key string, env model.Environment) error {
		keys = append(keys, key)
		if len(keys) > 2 {
			return model.Errorf(model.CodeRateLimited, "rate limit exceeded")
		}
		return nil
	}
	s := newServer(t, sqlite, graph.Options{RateLimit: limit})
	a, b := s.tenant("acme"), s.tenant("bolt")
	missing := uuid.NewString()

	if r := s.do("", pullInboxMutation, map[string]any{"p": a.ProjectID}); r.code(t) != "unauthenticated" {
		t.Fatalf("anonymous pull: %s", r.Raw)
	}
	if r := s.do(b.Token, decideInboxMutation, map[string]any{"p": a.ProjectID, "id": missing}); r.code(t) != "not_found" {
		t.Fatalf("another tenant's project: %s", r.Raw)
	}
	if r := s.do(b.Token, pullInboxMutation, map[string]any{"p": a.ProjectID}); r.code(t) != "not_found" {
		t.Fatalf("pulling another tenant's project: %s", r.Raw)
	}
	if len(keys) != 0 {
		t.Fatalf("refused calls were counted: %v", keys)
	}
	// A decision on an invoice the project does not hold: counted, then not found.
	if r := s.do(a.Token, decideInboxMutation, map[string]any{"p": a.ProjectID, "id": missing}); r.code(t) != "not_found" {
		t.Fatalf("a missing invoice: %s", r.Raw)
	}
	if r := s.do(a.Token, decideInboxMutation, map[string]any{"p": a.ProjectID, "id": "nope"}); r.code(t) != "invalid" {
		t.Fatalf("a bad id: %s", r.Raw)
	}
	if r := s.do(a.Token, pullInboxMutation, map[string]any{"p": a.ProjectID}); r.code(t) != "rate_limited" {
		t.Fatalf("third call: %s", r.Raw)
	}
	for _, k := range keys {
		if k != "portal:"+a.ProjectID {
			t.Fatalf("limited under %q", k)
		}
	}
	if !strings.HasPrefix(keys[0], "portal:") || len(keys) != 3 {
		t.Fatalf("counted: %v", keys)
	}
}

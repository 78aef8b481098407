package graph_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

const setFaultMutation = `mutation($p: ID!, $input: SandboxFaultInput!) {
  setSandboxFault(projectId: $p, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }
}`

// The same fault operations as REST, with the same tenant checks: a
// sandbox project's owner sets, lists and clears its business's faults at
// the stand-in; another tenant's project is not found; bad input is
// invalid under input.
func TestSandboxFaultsGraphQL(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		h, err := nrssandbox.New(nrssandbox.Options{DB: sandboxdbtest.SQLite(t), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		s := newServerOn(t, d.Open(t), graph.Options{}, func(c *app.Config) { c.SandboxRegistrar, c.SandboxFaults = h, h }, nil)
		a, b := s.tenant("gfaulta"), s.tenant("gfaultb")
		var set struct {
			SetSandboxFault struct {
				Kind, Endpoint, Rate string
				RetryAfter           int
				EndsAt               *string
			}
		}
		s.must(a.Token, setFaultMutation, map[string]any{"p": a.ProjectID, "input": map[string]any{
			"kind": "throttle", "endpoint": "transmit", "rate": "10/m", "retryAfter": 5, "duration": "1h"}}, &set)
		if f := set.SetSandboxFault; f.Kind != "throttle" || f.Rate != "10/m" || f.RetryAfter != 5 || f.EndsAt == nil {
			t.Fatalf("set: %+v", f)
		}
		var list struct {
			SandboxFaults []struct{ Kind, Endpoint string }
		}
		s.must(a.Token, `query($p: ID!) { sandboxFaults(projectId: $p) { kind endpoint } }`, map[string]any{"p": a.ProjectID}, &list)
		if len(list.SandboxFaults) != 1 || list.SandboxFaults[0].Endpoint != "transmit" {
			t.Fatalf("list: %+v", list)
		}
		var pr struct {
			Project struct{ Authority struct{ BusinessID string } }
		}
		s.must(a.Token, `query($p: ID!) { project(id: $p) { authority { businessId } } }`, map[string]any{"p": a.ProjectID}, &pr)
		if got, _ := h.SandboxFaults(context.Background(), pr.Project.Authority.BusinessID); len(got) != 1 {
			t.Fatalf("at the stand-in: %v", got)
		}

		// Another tenant: not found on all three operations.
		if c := s.do(b.Token, setFaultMutation, map[string]any{"p": a.ProjectID, "input": map[string]any{"kind": "outage", "duration": "1h"}}).code(t); c != "not_found" {
			t.Fatalf("set as another tenant: %s", c)
		}
		if c := s.do(b.Token, `query($p: ID!) { sandboxFaults(projectId: $p) { kind } }`, map[string]any{"p": a.ProjectID}).code(t); c != "not_found" {
			t.Fatalf("list as another tenant: %s", c)
		}
		if c := s.do(b.Token, `mutation($p: ID!) { clearSandboxFaults(projectId: $p) }`, map[string]any{"p": a.ProjectID}).code(t); c != "not_found" {
			t.Fatalf("clear as another tenant: %s", c)
		}
		// Bad input: invalid, located under input; nothing changed.
		locs := s.do(a.Token, setFaultMutation, map[string]any{"p": a.ProjectID, "input": map[string]any{"kind": "flood", "duration": "forever"}}).locs(t)
		for _, want := range []string{"enum@input/kind", "value_error@input/duration"} {
			if !slices.Contains(locs, want) {
				t.Errorf("no %s in %v", want, locs)
			}
		}
		var cleared struct{ ClearSandboxFaults int }
		s.must(a.Token, `mutation($p: ID!) { clearSandboxFaults(projectId: $p) }`, map[string]any{"p": a.ProjectID}, &cleared)
		if cleared.ClearSandboxFaults != 1 {
			t.Fatalf("cleared %d", cleared.ClearSandboxFaults)
		}
	})
}

package graph_test

import (
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

const queueRateMutation = `mutation($id: ID!, $input: UpdateProjectInput!) {
  updateProject(projectId: $id, input: $input) { id queueRatePerMinute clearanceDeadlineMinutes invoiceQueue { ratePerMinute } }
}`

// TestUpdateProjectQueueRate sets a project's queue rate over GraphQL, as
// PATCH /api/v2/projects/{project_id} does: shown on the project and in
// its queue's pace, null back to the default, refused outside 1..6000
// with the field named and nothing changed.
func TestUpdateProjectQueueRate(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		tn := s.tenant("acme")
		type project struct {
			ID                       string
			QueueRatePerMinute       *int
			ClearanceDeadlineMinutes int
			InvoiceQueue             struct{ RatePerMinute int }
		}
		read := func() project {
			t.Helper()
			var out struct{ Project project }
			s.must(tn.Token, `query($id: ID!) { project(id: $id) { id queueRatePerMinute clearanceDeadlineMinutes invoiceQueue { ratePerMinute } } }`,
				map[string]any{"id": tn.ProjectID}, &out)
			return out.Project
		}
		if p := read(); p.QueueRatePerMinute != nil || p.InvoiceQueue.RatePerMinute != 600 {
			t.Fatalf("a new project: %+v", p)
		}
		update := func(input map[string]any) project {
			t.Helper()
			var out struct{ UpdateProject project }
			s.must(tn.Token, queueRateMutation, map[string]any{"id": tn.ProjectID, "input": input}, &out)
			return out.UpdateProject
		}
		if p := update(map[string]any{"queueRatePerMinute": 120}); p.QueueRatePerMinute == nil || *p.QueueRatePerMinute != 120 || p.InvoiceQueue.RatePerMinute != 120 {
			t.Fatalf("set 120: %+v", p)
		}
		// Left out keeps it.
		if p := update(map[string]any{"clearanceDeadlineMinutes": 30}); p.QueueRatePerMinute == nil || *p.QueueRatePerMinute != 120 || p.ClearanceDeadlineMinutes != 30 {
			t.Fatalf("another field: %+v", p)
		}
		for _, v := range []int{0, -1, 6001} {
			r := s.do(tn.Token, queueRateMutation, map[string]any{"id": tn.ProjectID, "input": map[string]any{"queueRatePerMinute": v}})
			if got := r.locs(t); !slices.Equal(got, []string{"value_error@input/queueRatePerMinute"}) {
				t.Errorf("%d: %v", v, got)
			}
		}
		if p := read(); p.QueueRatePerMinute == nil || *p.QueueRatePerMinute != 120 {
			t.Fatalf("after refusals: %+v", p)
		}
		// Null goes back to the operator's default.
		if p := update(map[string]any{"queueRatePerMinute": nil}); p.QueueRatePerMinute != nil || p.InvoiceQueue.RatePerMinute != 600 {
			t.Fatalf("null: %+v", p)
		}
		// Only the rate, null, is an input of its own (not missing).
		if p := update(map[string]any{"queueRatePerMinute": nil}); p.QueueRatePerMinute != nil {
			t.Fatalf("null again: %+v", p)
		}
	})
}

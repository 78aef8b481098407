package app_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestCertificationRunsByProject checks the batch behind the GraphQL
// dataloader of Project.certificationRuns: each of the caller's projects
// gets the page ProjectCertificationRuns gives it, any other project an
// empty list, and paging problems are reported once.
func TestCertificationRunsByProject(t *testing.T) {
	e := certtest.New(t, certtest.Options{Runs: &fakeRuns{}})
	ctx := context.Background()
	u := e.Tenant.User
	start := func(u *model.Principal, projectID uuid.UUID) uuid.UUID {
		t.Helper()
		v, err := e.App.Runs.Start(ctx, u, projectID, runs.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
		if err != nil {
			t.Fatal(err)
		}
		return v.RunID
	}
	busy := e.Tenant.Project.ID
	var ids []uuid.UUID // newest first
	for range 3 {
		ids = append([]uuid.UUID{start(u, busy)}, ids...)
	}
	idle, err := e.App.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: e.Tenant.Project.OrganizationID.String(), Name: "Idle shop", Environment: "sandbox"})
	if err != nil {
		t.Fatal(err)
	}
	other := e.NewTenant(t)
	start(other.User, other.Project.ID)
	projects := []uuid.UUID{busy, idle.ID, other.Project.ID}

	two := 2
	for _, tc := range []struct {
		name string
		in   model.PageInput
		want map[uuid.UUID][]uuid.UUID
		next bool // whether busy has another page
	}{
		{"default page", model.PageInput{}, map[uuid.UUID][]uuid.UUID{busy: ids}, false},
		{"first two", model.PageInput{Limit: &two}, map[uuid.UUID][]uuid.UUID{busy: ids[:2]}, true},
		{"after the second", model.PageInput{Limit: &two, Cursor: model.PageCursor(ids[1])}, map[uuid.UUID][]uuid.UUID{busy: ids[2:]}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.App.Runs.ByProject(ctx, u, projects, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(projects) {
				t.Fatalf("%d lists for %d projects", len(got), len(projects))
			}
			for _, p := range projects {
				var runs []uuid.UUID
				for _, v := range got[p].Items {
					if len(v.Steps) != 0 || v.ProjectID != p {
						t.Fatalf("listed run %+v", v)
					}
					runs = append(runs, v.RunID)
				}
				if !slices.Equal(runs, tc.want[p]) {
					t.Fatalf("project %s: runs %v, want %v", p, runs, tc.want[p])
				}
			}
			if next := got[busy].NextCursor != nil; next != tc.next {
				t.Fatalf("next page %v, want %v", next, tc.next)
			}
			// The one-project list agrees.
			one, err := e.App.Runs.List(ctx, u, busy, tc.in)
			if err != nil || len(one.Items) != len(got[busy].Items) || (one.NextCursor == nil) != (got[busy].NextCursor == nil) {
				t.Fatalf("ProjectCertificationRuns: %+v %v", one, err)
			}
		})
	}

	zero := 0
	_, err = e.App.Runs.ByProject(ctx, u, projects, model.PageInput{Limit: &zero, Cursor: "x"})
	if got := locsOf(err); !slices.Equal(got, []string{"value_error@limit", "value_error@cursor"}) || model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("problems %v", got)
	}
}

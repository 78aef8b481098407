package graph_test

import (
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

const updateProjectMutation = `mutation($id: ID!, $input: UpdateProjectInput!) {
  updateProject(projectId: $id, input: $input) { id validationProfile }
}`

// TestUpdateProject sets a project's validation profile over GraphQL, as
// PATCH /api/v2/projects/{project_id} does.
func TestUpdateProject(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite}, graph.Options{})
	tn := s.tenant("acme")
	var read struct {
		Project struct{ ValidationProfile string }
	}
	s.must(tn.Token, `query($id: ID!) { project(id: $id) { validationProfile } }`, map[string]any{"id": tn.ProjectID}, &read)
	if read.Project.ValidationProfile != "NRS" {
		t.Fatalf("new project profile %q", read.Project.ValidationProfile)
	}
	var out struct {
		UpdateProject struct{ ID, ValidationProfile string }
	}
	s.must(tn.Token, updateProjectMutation, map[string]any{"id": tn.ProjectID, "input": map[string]any{"validationProfile": "STRICT"}}, &out)
	if out.UpdateProject.ID != tn.ProjectID || out.UpdateProject.ValidationProfile != "STRICT" {
		t.Fatalf("updateProject = %+v", out.UpdateProject)
	}
	s.must(tn.Token, `query($id: ID!) { project(id: $id) { validationProfile } }`, map[string]any{"id": tn.ProjectID}, &read)
	if read.Project.ValidationProfile != "STRICT" {
		t.Errorf("read back %q", read.Project.ValidationProfile)
	}
	var audit struct {
		AuditLogs struct {
			Edges []struct{ Node struct{ Action string } }
		}
	}
	s.must(tn.Token, `{ auditLogs(action: "project.update") { edges { node { action } } } }`, nil, &audit)
	if len(audit.AuditLogs.Edges) != 1 {
		t.Errorf("audit entries %+v", audit.AuditLogs.Edges)
	}

	// An empty input changes nothing and says which field is missing.
	r := s.do(tn.Token, updateProjectMutation, map[string]any{"id": tn.ProjectID, "input": map[string]any{}})
	if got := r.locs(t); !slices.Equal(got, []string{"missing@input/validationProfile"}) {
		t.Errorf("empty input: %v", got)
	}
	if r := s.do("", updateProjectMutation, map[string]any{"id": tn.ProjectID, "input": map[string]any{"validationProfile": "NRS"}}); r.code(t) != "unauthenticated" {
		t.Errorf("anonymous: %s", r.Raw)
	}
	if r := s.do(tn.Token, updateProjectMutation, map[string]any{"id": tn.ProjectID, "input": map[string]any{"validationProfile": "LENIENT"}}); len(r.Errors) == 0 {
		t.Errorf("an unknown profile was accepted: %s", r.Raw)
	}
}

package portal_test

import (
	"context"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// Organizations and projects: created with every problem of a bad input
// reported at once, listed per owner, settings changed by patch within
// their bounds, and another tenant's never found.
func TestOrganizationsAndProjects(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	if a.Project.Environment != model.EnvironmentSandbox || a.Project.OrganizationID != a.Org.ID {
		t.Fatalf("project = %+v", a.Project)
	}
	org, err := svc.Portal.CreateOrganization(ctx, a.User, portal.OrganizationInput{Name: "Second", Slug: "second-" + a.Org.Slug})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Portal.CreateOrganization(ctx, b.User, portal.OrganizationInput{Name: "Taken", Slug: org.Slug}); model.ErrorCodeOf(err) != model.CodeConflict {
		t.Fatalf("a slug taken: %v, want conflict", err)
	}
	_, err = svc.Portal.CreateOrganization(ctx, a.User, portal.OrganizationInput{Name: " ", Slug: "Not A Slug"})
	if e := model.AsError(err); e.Code != model.CodeInvalid || len(e.Fields) != 2 {
		t.Fatalf("bad organization: %+v, want invalid with both fields", e)
	}

	if _, err := svc.Portal.CreateProject(ctx, a.User, portal.ProjectInput{OrganizationID: org.ID.String(), Name: "Live", Environment: "production"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Portal.CreateProject(ctx, a.User, portal.ProjectInput{OrganizationID: org.ID.String(), Name: "X", Environment: "staging"}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("unknown environment: %v, want invalid", err)
	}
	mine, err := svc.Portal.Projects(ctx, a.User, portal.ProjectsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(mine.Items) != 2 {
		t.Fatalf("a's projects: %d, want 2", len(mine.Items))
	}
	inOrg, err := svc.Portal.Projects(ctx, a.User, portal.ProjectsInput{OrganizationID: org.ID.String()})
	if err != nil {
		t.Fatal(err)
	}
	if len(inOrg.Items) != 1 || inOrg.Items[0].Environment != model.EnvironmentProduction {
		t.Fatalf("projects of the second organization = %+v", inOrg.Items)
	}

	strict := string(model.ProfileStrict)
	mins := 30
	up, err := svc.Portal.UpdateProject(ctx, a.User, a.Project.ID, portal.ProjectUpdate{ValidationProfile: &strict, ClearanceDeadlineMinutes: &mins})
	if err != nil {
		t.Fatal(err)
	}
	if up.ValidationProfile != model.ProfileStrict || up.ClearanceDeadlineMinutes != 30 {
		t.Fatalf("updated = %+v", up)
	}
	never := -1
	if _, err := svc.Portal.UpdateProject(ctx, a.User, a.Project.ID, portal.ProjectUpdate{ClearanceDeadlineMinutes: &never}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("negative deadline: %v, want invalid", err)
	}
	again, err := svc.Portal.Project(ctx, a.User, a.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.ClearanceDeadlineMinutes != 30 {
		t.Fatalf("a refused update changed the project: %+v", again)
	}

	if _, err := svc.Portal.Project(ctx, b.User, a.Project.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b reading a's project: %v, want not_found", err)
	}
	if _, err := svc.Portal.UpdateProject(ctx, b.User, a.Project.ID, portal.ProjectUpdate{ClearanceDeadlineMinutes: &mins}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b updating a's project: %v, want not_found", err)
	}
	if _, err := svc.Portal.CreateProject(ctx, b.User, portal.ProjectInput{OrganizationID: a.Org.ID.String(), Name: "Intruder"}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b creating a project in a's organization: %v, want not_found", err)
	}
}

package app_test

// Replays of the attacks of the security review against the application
// layer (run them all with `make security`). Each asserts the defence,
// never a duration.

import (
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	run "github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackRunStartRoleChecks: the portal's start of a run lacked the
// owner/admin check. The application layer decides for every transport:
// a member is forbidden, an outsider does not see the project, a key needs
// the certification:run scope; owners and scoped keys start runs.
func TestAttackRunStartRoleChecks(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs})
	ctx := context.Background()
	owner := e.Tenant
	member, outsider := e.NewTenant(t), e.NewTenant(t)
	_, err := e.Store.DB().NewInsert().Model(&model.Membership{
		OrganizationID: owner.Project.OrganizationID, UserID: member.User.UserID, Role: model.RoleMember,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
	}).Exec(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"}
	for name, c := range map[string]struct {
		u    *model.Principal
		want model.ErrorCode
	}{
		"member":   {member.User, model.CodeForbidden},
		"outsider": {outsider.User, model.CodeNotFound},
		"owner":    {owner.User, ""},
	} {
		_, err := e.App.Runs.Start(ctx, c.u, owner.Project.ID, in)
		if model.ErrorCodeOf(err) != c.want {
			t.Fatalf("%s: %v, want %q", name, err, c.want)
		}
	}
	readOnly := *owner.Key
	readOnly.Scopes = model.Scopes{model.ScopeCertificationRd}
	if _, err := e.App.Runs.Start(ctx, &readOnly, readOnly.ProjectID, in); model.ErrorCodeOf(err) != model.CodeForbidden {
		t.Fatalf("key without certification:run: %v", err)
	}
	if _, err := e.App.Runs.Start(ctx, owner.Key, owner.Key.ProjectID, in); err != nil {
		t.Fatalf("key with every scope: %v", err)
	}
	if len(runs.started) != 2 {
		t.Fatalf("%d runs started, want the owner's and the scoped key's", len(runs.started))
	}
}

package access_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// The tenant rules, written once: a key reaches its own project only, a
// user the organizations they belong to (changing them asks for an owner
// or admin), and anything else is not found.
func TestTenantRules(t *testing.T) {
	ctx := context.Background()
	st := storetest.SQLite(t)
	svc := apptest.New(t, st, nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	// b's user becomes a plain member of a's organization.
	if _, err := st.DB().NewInsert().Model(&model.Membership{OrganizationID: a.Org.ID, UserID: b.User.UserID, Role: model.RoleMember, CreatedAt: time.Now()}).Exec(ctx); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		who  *model.Principal
		id   uuid.UUID
		need access.Need
		want model.ErrorCode // "" for allowed
	}{
		{"owner reads", a.User, a.Project.ID, access.Read, ""},
		{"owner writes", a.User, a.Project.ID, access.Write, ""},
		{"key reads its project", a.Key, a.Project.ID, access.Read, ""},
		{"key reads another project", a.Key, b.Project.ID, access.Read, model.CodeNotFound},
		{"member reads", b.User, a.Project.ID, access.Read, ""},
		{"member writes", b.User, a.Project.ID, access.Write, model.CodeForbidden},
		{"stranger reads", a.User, b.Project.ID, access.Read, model.CodeNotFound},
		{"missing project", a.User, uuid.New(), access.Read, model.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, err := access.Project(ctx, st, tc.who, tc.id, tc.need)
			if tc.want == "" {
				if err != nil || pr.ID != tc.id {
					t.Fatalf("got %v, %v; want project %s", pr, err, tc.id)
				}
				return
			}
			if model.ErrorCodeOf(err) != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
	// A stranger's answer is the same as a missing record's.
	_, stranger := access.Project(ctx, st, a.User, b.Project.ID, access.Read)
	_, missing := access.Project(ctx, st, a.User, uuid.New(), access.Read)
	if stranger.Error() != missing.Error() {
		t.Fatalf("another tenant's project (%q) is told apart from a missing one (%q)", stranger, missing)
	}
	if _, err := access.Organization(ctx, st, a.Key, a.Org.ID, access.Read); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("a key reaching an organization: %v, want not_found", err)
	}
	if o, err := access.Organization(ctx, st, b.User, a.Org.ID, access.Read); err != nil || o.Role != model.RoleMember {
		t.Fatalf("member's organization = %+v, %v", o, err)
	}
}

// Quota refuses the creation that would pass the limit, and a negative
// limit means none.
func TestQuota(t *testing.T) {
	ctx := context.Background()
	lock := func(context.Context, uuid.UUID) error { return nil }
	count := func(n int) func(context.Context, uuid.UUID) (int, error) {
		return func(context.Context, uuid.UUID) (int, error) { return n, nil }
	}
	if err := access.Quota(ctx, 3, uuid.New(), lock, count(2), "projects", "delete one"); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	if err := access.Quota(ctx, 3, uuid.New(), lock, count(3), "projects", "delete one"); model.ErrorCodeOf(err) != model.CodeQuotaExceeded {
		t.Fatalf("at the limit: %v, want quota_exceeded", err)
	}
	if err := access.Quota(ctx, -1, uuid.New(), lock, count(1000), "projects", "delete one"); err != nil {
		t.Fatalf("no limit: %v", err)
	}
}

package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/usage"
)

// batchService builds a service over st whose usage is flushed only when a
// test asks.
func batchService(tb testing.TB, st *store.Store) *app.App {
	tb.Helper()
	return apptest.New(tb, st, func(c *app.Config) { c.UsageFlushInterval = time.Hour })
}

// owner signs up and returns the principal and its organization.
func owner(tb testing.TB, svc *app.App, slug string) (*model.Principal, uuid.UUID) {
	tb.Helper()
	ctx := context.Background()
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: slug, OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	return u, su.Organization.ID
}

func TestBatch(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			svc := batchService(t, d.Open(t))
			alice, aliceOrg := owner(t, svc, "alice")
			bob, bobOrg := owner(t, svc, "bob")
			aliceOrg2, err := svc.Portal.CreateOrganization(ctx, alice, portal.OrganizationInput{Name: "Alice Two", Slug: "alice-two"})
			if err != nil {
				t.Fatal(err)
			}

			// Alice: three projects in her first organization, one in her
			// second; Bob: one.
			var aliceProjects []uuid.UUID
			for i, org := range []uuid.UUID{aliceOrg, aliceOrg, aliceOrg, aliceOrg2.ID} {
				p, err := svc.Portal.CreateProject(ctx, alice, portal.ProjectInput{OrganizationID: org.String(), Name: fmt.Sprintf("Shop %d", i), Environment: "production"})
				if err != nil {
					t.Fatal(err)
				}
				aliceProjects = append(aliceProjects, p.ID)
			}
			bobProject, err := svc.Portal.CreateProject(ctx, bob, portal.ProjectInput{OrganizationID: bobOrg.String(), Name: "Bob's", Environment: "production"})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := svc.Keys.Create(ctx, alice, aliceProjects[0], keys.Input{KeyName: "k1"}); err != nil {
					t.Fatal(err)
				}
			}
			bobKey, err := svc.Keys.Create(ctx, bob, bobProject.ID, keys.Input{KeyName: "bob"})
			if err != nil {
				t.Fatal(err)
			}

			two := 2
			t.Run("projects by organization page each parent", func(t *testing.T) {
				got, err := svc.Portal.ProjectsByOrganization(ctx, alice, []uuid.UUID{aliceOrg, aliceOrg2.ID, bobOrg}, model.PageInput{Limit: &two})
				if err != nil {
					t.Fatal(err)
				}
				first := got[aliceOrg]
				if len(first.Items) != 2 || first.NextCursor == nil || *first.NextCursor != model.PageCursor(first.Items[1].ID) {
					t.Fatalf("first organization = %+v", first)
				}
				if l := got[aliceOrg2.ID]; len(l.Items) != 1 || l.NextCursor != nil {
					t.Fatalf("second organization = %+v", l)
				}
				if l := got[bobOrg]; l == nil || len(l.Items) != 0 {
					t.Fatalf("another tenant's organization = %+v", l)
				}
				// The cursor continues the page, as Projects' does.
				next, err := svc.Portal.ProjectsByOrganization(ctx, alice, []uuid.UUID{aliceOrg}, model.PageInput{Limit: &two, Cursor: *first.NextCursor})
				if err != nil {
					t.Fatal(err)
				}
				if l := next[aliceOrg]; len(l.Items) != 1 || l.NextCursor != nil || l.Items[0].ID != aliceProjects[2] {
					t.Fatalf("second page = %+v", l)
				}
			})

			t.Run("keys by project", func(t *testing.T) {
				got, err := svc.Keys.ByProject(ctx, alice, []uuid.UUID{aliceProjects[0], aliceProjects[1], bobProject.ID}, model.PageInput{Limit: &two})
				if err != nil {
					t.Fatal(err)
				}
				if l := got[aliceProjects[0]]; len(l.Items) != 2 || l.NextCursor == nil {
					t.Fatalf("keys = %+v", l)
				}
				if l := got[aliceProjects[1]]; len(l.Items) != 0 || l.NextCursor != nil {
					t.Fatalf("keys of a project without any = %+v", l)
				}
				if l := got[bobProject.ID]; len(l.Items) != 0 {
					t.Fatalf("another tenant's keys = %+v", l)
				}
			})

			t.Run("organizations by id", func(t *testing.T) {
				got, err := svc.Portal.OrganizationsByID(ctx, alice, []uuid.UUID{aliceOrg, aliceOrg2.ID, bobOrg})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 || got[aliceOrg].Role != model.RoleOwner || got[bobOrg] != nil {
					t.Fatalf("organizations = %+v", got)
				}
			})

			t.Run("usage", func(t *testing.T) {
				k, err := svc.Keys.Authenticate(ctx, bobKey.ClientID, bobKey.ClientSecret)
				if err != nil {
					t.Fatal(err)
				}
				for range 3 {
					svc.Usage.Meter(k, "irn.generate")
					if err := svc.Usage.Authorize(k, model.ScopeIRNGenerate, "irn.generate"); err != nil {
						t.Fatal(err)
					}
				}
				pending, err := svc.Usage.Report(ctx, bob, bobProject.ID, usage.Input{})
				if err != nil {
					t.Fatal(err)
				}
				if err := svc.Usage.Flush(ctx); err != nil {
					t.Fatal(err)
				}
				flushed, err := svc.Usage.Report(ctx, bob, bobProject.ID, usage.Input{})
				if err != nil {
					t.Fatal(err)
				}
				asKey, err := svc.Usage.Report(ctx, k, k.ProjectID, usage.Input{})
				if err != nil {
					t.Fatal(err)
				}
				for _, rep := range []*usage.Report{pending, flushed} {
					if rep.Total != 3 || rep.ByOperation["irn.generate"] != 3 || len(rep.Daily) != 1 ||
						rep.From != asKey.From || rep.To != asKey.To || rep.Total != asKey.Total {
						t.Fatalf("usage = %+v, the key sees %+v", rep, asKey)
					}
				}
				if _, err := svc.Usage.Report(ctx, alice, bobProject.ID, usage.Input{}); model.ErrorCodeOf(err) != model.CodeNotFound {
					t.Fatalf("another tenant's usage: %v", err)
				}
				got, err := svc.Usage.ByProject(ctx, alice, []uuid.UUID{aliceProjects[0], bobProject.ID}, usage.Input{From: "2026-01-01", To: "2026-01-31"})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || got[aliceProjects[0]].Total != 0 || got[aliceProjects[0]].From != "2026-01-01" {
					t.Fatalf("usage by project = %+v", got)
				}
			})

			t.Run("invalid input", func(t *testing.T) {
				zero := 0
				cases := []struct {
					name string
					err  error
					loc  string
				}{
					{"page size", second(svc.Portal.ProjectsByOrganization(ctx, alice, []uuid.UUID{aliceOrg}, model.PageInput{Limit: &zero})), "limit"},
					{"cursor", second(svc.Keys.ByProject(ctx, alice, []uuid.UUID{aliceProjects[0]}, model.PageInput{Cursor: "??"})), "cursor"},
					{"from after to", second(svc.Usage.ByProject(ctx, alice, aliceProjects, usage.Input{From: "2026-02-01", To: "2026-01-01"})), "from"},
					{"range too long", second(svc.Usage.Report(ctx, alice, aliceProjects[0], usage.Input{From: "2024-01-01", To: "2026-01-01"})), "from"},
					{"bad date", second(svc.Usage.Report(ctx, alice, aliceProjects[0], usage.Input{To: "2026-1-1"})), "to"},
					{"bad key id", second(svc.Usage.Report(ctx, alice, aliceProjects[0], usage.Input{KeyID: "k"})), "key_id"},
				}
				for _, c := range cases {
					e := model.AsError(c.err)
					if e == nil || e.Code != model.CodeInvalid || len(e.Fields) != 1 || e.Fields[0].Loc[0] != c.loc {
						t.Errorf("%s: %v, want invalid at %s", c.name, c.err, c.loc)
					}
				}
			})
		})
	}
}

func second[T any](_ T, err error) error { return err }

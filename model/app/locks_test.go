package app_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestProjectCreatesBesideKeyCreates creates an organization's projects
// and API keys of one of its projects, all at once, past both quotas:
// every request either succeeds or answers quota_exceeded, and each quota
// is reached exactly. (On PostgreSQL a project create holds its
// organization's row lock while it waits for the organization's audit
// chain; a key create holds the chain while its audit entry, which
// references the organization, takes the foreign key's lock on the same
// row. A row lock that conflicted with that one deadlocked the two.)
func TestProjectCreatesBesideKeyCreates(t *testing.T) {
	const (
		projects    = 8
		keysAllowed = 10
		createsEach = 14
	)
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			svc := apptest.New(t, d.Open(t), func(c *app.Config) {
				c.Quotas = app.Quotas{OrganizationsPerUser: 2, ProjectsPerOrganization: projects, KeysPerProject: keysAllowed}
			})
			ctx := context.Background()
			slug := "t" + uuid.NewString()[:8]
			su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery",
				OrganizationName: "Org", OrganizationSlug: slug})
			if err != nil {
				t.Fatal(err)
			}
			who, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			orgID := su.Organization.ID.String()
			// The project the keys are made in counts against the quota.
			pr, err := svc.Portal.CreateProject(ctx, who, portal.ProjectInput{OrganizationID: orgID, Name: "Shop", Environment: "production"})
			if err != nil {
				t.Fatal(err)
			}
			start := make(chan struct{})
			var (
				wg                sync.WaitGroup
				mu                sync.Mutex
				madeProj, madeKey int
				failures          []error
			)
			// done counts one answer: a success, or a refusal over quota;
			// anything else is a failure.
			done := func(made *int, err error) {
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					*made++
				case model.ErrorCodeOf(err) != model.CodeQuotaExceeded:
					failures = append(failures, err)
				}
			}
			for i := range createsEach {
				wg.Go(func() {
					<-start
					_, err := svc.Portal.CreateProject(ctx, who, portal.ProjectInput{OrganizationID: orgID,
						Name: fmt.Sprintf("Shop %d", i), Environment: "production"})
					done(&madeProj, err)
				})
				wg.Go(func() {
					<-start
					_, err := svc.Keys.Create(ctx, who, pr.ID, keys.Input{KeyName: fmt.Sprintf("key %d", i)})
					done(&madeKey, err)
				})
			}
			close(start)
			wg.Wait()
			for _, err := range failures {
				t.Error(err)
			}
			if madeProj != projects-1 || madeKey != keysAllowed {
				t.Fatalf("created %d projects and %d keys, want %d and %d", madeProj, madeKey, projects-1, keysAllowed)
			}
			pageAll := 100
			all, err := svc.Portal.Projects(ctx, who, portal.ProjectsInput{OrganizationID: orgID, PageInput: model.PageInput{Limit: &pageAll}})
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Items) != projects {
				t.Fatalf("the organization has %d projects, want %d", len(all.Items), projects)
			}
			ks, err := svc.Keys.List(ctx, who, pr.ID, model.PageInput{Limit: &pageAll})
			if err != nil {
				t.Fatal(err)
			}
			if len(ks.Items) != keysAllowed {
				t.Fatalf("the project has %d keys, want %d", len(ks.Items), keysAllowed)
			}
		})
	}
}

package app_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	run "github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestQuotasUnderConcurrentCreates creates an organization's projects, and
// API keys and certification runs of one of its projects, all at once, past
// every quota: each request succeeds or is refused over its quota, and each
// quota is reached exactly. (On PostgreSQL a project create holds its
// organization's row lock while it waits for the organization's audit
// chain; a key create or a run start holds the chain while its audit entry,
// which references the organization, takes the foreign key's lock on the
// same row. A row lock that conflicted with that one deadlocked them.)
func TestQuotasUnderConcurrentCreates(t *testing.T) {
	const (
		projects = 8
		keysMax  = 10
		runsMax  = 6
		attempts = 14 // of each create
	)
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			e := certtest.New(t, certtest.Options{Open: d.Open, Runs: &fakeRuns{}, App: func(c *app.Config) {
				c.Quotas = app.Quotas{OrganizationsPerUser: 2, ProjectsPerOrganization: projects, KeysPerProject: keysMax, RunsPerProject: runsMax}
			}})
			ctx := context.Background()
			// The tenant's project and key count against their quotas.
			who, pr := e.Tenant.User, e.Tenant.Project
			orgID := pr.OrganizationID.String()
			start := make(chan struct{})
			var (
				wg                             sync.WaitGroup
				mu                             sync.Mutex
				madeProjects, madeKeys, starts int
				failures                       []error
			)
			// done counts one answer: a success, or a refusal with the
			// quota's code; anything else is a failure.
			done := func(made *int, refused model.ErrorCode, err error) {
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					*made++
				case model.ErrorCodeOf(err) != refused:
					failures = append(failures, err)
				}
			}
			for i := range attempts {
				wg.Go(func() {
					<-start
					_, err := e.App.Portal.CreateProject(ctx, who, portal.ProjectInput{OrganizationID: orgID,
						Name: fmt.Sprintf("Shop %d", i), Environment: "production"})
					done(&madeProjects, model.CodeQuotaExceeded, err)
				})
				wg.Go(func() {
					<-start
					_, err := e.App.Keys.Create(ctx, who, pr.ID, keys.Input{KeyName: fmt.Sprintf("key %d", i)})
					done(&madeKeys, model.CodeQuotaExceeded, err)
				})
				wg.Go(func() {
					<-start
					_, err := e.App.Runs.Start(ctx, who, pr.ID, run.Input{InvoiceType: "B2B", IssueDate: "2026-03-15"})
					done(&starts, model.CodeRateLimited, err)
				})
			}
			close(start)
			wg.Wait()
			for _, err := range failures {
				t.Error(err)
			}
			if madeProjects != projects-1 || madeKeys != keysMax-1 || starts != runsMax {
				t.Fatalf("created %d projects, %d keys and %d runs, want %d, %d and %d",
					madeProjects, madeKeys, starts, projects-1, keysMax-1, runsMax)
			}
			all := 100
			ps, err := e.App.Portal.Projects(ctx, who, portal.ProjectsInput{OrganizationID: orgID, PageInput: model.PageInput{Limit: &all}})
			if err != nil {
				t.Fatal(err)
			}
			ks, err := e.App.Keys.List(ctx, who, pr.ID, model.PageInput{Limit: &all})
			if err != nil {
				t.Fatal(err)
			}
			rs, err := e.App.Runs.List(ctx, who, pr.ID, model.PageInput{Limit: &all})
			if err != nil {
				t.Fatal(err)
			}
			if len(ps.Items) != projects || len(ks.Items) != keysMax || len(rs.Items) != runsMax {
				t.Fatalf("stored %d projects, %d keys and %d runs, want %d, %d and %d",
					len(ps.Items), len(ks.Items), len(rs.Items), projects, keysMax, runsMax)
			}
		})
	}
}

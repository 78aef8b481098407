// Package certtest wires the application to the NRS sandbox stand-in (served by
// httptest) over a fresh, migrated store, with a tenant owning a sandbox
// project and an API key, for the certification tests of workflows, worker
// and rest.
package certtest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

// Options configures New.
type Options struct {
	// Open opens the store; default storetest.SQLite.
	Open func(testing.TB) *store.Store
	// Runs starts the runs' workflows; nil leaves runs unavailable.
	Runs runs.Starter
	// SlowDelay is the stand-in's SBXSLOW delay; default 1 s.
	SlowDelay time.Duration
	// LateDelay is the stand-in's SBXLOSTLATE delay; default its own.
	LateDelay time.Duration
	// RetryAfter is the stand-in's Retry-After on its SBXRETRY and
	// SBXDOWN answers; default 1 s, negative omits it.
	RetryAfter time.Duration
	// Logs receives the application's and stand-in's logs; default discarded.
	Logs io.Writer
	// Sandbox, when set, changes the stand-in's options last.
	Sandbox func(*nrssandbox.Options)
	// App, when set, changes the application's configuration last.
	App func(*app.Config)
}

// Env is an application, its REST handler and the stand-in it talks to.
type Env struct {
	Store      *store.Store
	App        *app.App
	Handler    http.Handler
	Sandbox    *nrssandbox.Handler
	SandboxURL string
	Tenant     Tenant
}

// Tenant is a portal user with a sandbox project and an API key holding
// every scope.
type Tenant struct {
	User         *model.Principal
	Project      *portal.ProjectView
	Key          *model.Principal
	ClientID     string
	ClientSecret string
	// Token is the user's access token (a bearer token for /graphql).
	Token string
}

// New builds an Env with one tenant.
func New(tb testing.TB, opts Options) *Env {
	tb.Helper()
	if opts.Open == nil {
		opts.Open = storetest.SQLite
	}
	if opts.SlowDelay <= 0 {
		opts.SlowDelay = time.Second
	}
	if opts.Logs == nil {
		opts.Logs = io.Discard
	}
	log := slog.New(slog.NewJSONHandler(opts.Logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rules, err := nrs.New(nrs.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	so := nrssandbox.Options{DB: sandboxdbtest.SQLite(tb), Authority: rules, SlowDelay: opts.SlowDelay, LateDelay: opts.LateDelay,
		RetryAfter: opts.RetryAfter, Logger: log}
	if opts.Sandbox != nil {
		opts.Sandbox(&so)
	}
	sbx, err := nrssandbox.New(so)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sbx)
	tb.Cleanup(srv.Close)

	st := opts.Open(tb)
	cfg := apptest.Config(tb, nil)
	cfg.SandboxBaseURL, cfg.SandboxRegistrar, cfg.Runs, cfg.Logger = srv.URL, sbx, opts.Runs, log
	if s, ok := opts.Runs.(submissions.Starter); ok {
		cfg.Submissions = s // the same engine starts invoice workflows
	}
	if s, ok := opts.Runs.(inbox.Starter); ok {
		cfg.Inbox = s // and inbox pulls
	}
	if opts.App != nil {
		opts.App(&cfg)
	}
	svc, err := app.New(st, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = svc.Close(context.Background()) })
	e := &Env{Store: st, App: svc, Sandbox: sbx, SandboxURL: srv.URL,
		Handler: rest.New(svc, rest.Options{Version: "test", Logger: log})}
	e.Tenant = e.NewTenant(tb)
	return e
}

// NewTenant signs a user up with an organization, a sandbox project and an
// API key.
func (e *Env) NewTenant(tb testing.TB) Tenant {
	tb.Helper()
	ctx := context.Background()
	slug := "t" + uuid.NewString()[:8]
	su, err := e.App.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery",
		OrganizationName: "Org " + slug, OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u := &model.Principal{UserID: su.User.ID}
	pr, err := e.App.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop " + slug, Environment: "sandbox"})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := e.App.Keys.Create(ctx, u, pr.ID, keys.Input{KeyName: "certification"})
	if err != nil {
		tb.Fatal(err)
	}
	kp, err := e.App.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		tb.Fatal(err)
	}
	return Tenant{User: u, Project: pr, Key: kp, ClientID: k.ClientID, ClientSecret: k.ClientSecret, Token: su.AccessToken}
}

// NewRun records a queued run of the tenant's project directly in the
// store, for activity tests that need no workflow. payload is the
// request's invoice_payload as JSON ("" for none).
func (e *Env) NewRun(tb testing.TB, kind model.InvoiceKind, issueDate, payload string) *model.CertificationRun {
	tb.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		tb.Fatal(err)
	}
	r := &model.CertificationRun{ID: id, ProjectID: e.Tenant.Project.ID, InvoiceType: kind, IssueDate: issueDate,
		Status: model.RunQueued, InvoicePayload: payload, WorkflowID: "certification-run-" + id.String(),
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := e.Store.Runs().Create(context.Background(), r); err != nil {
		tb.Fatal(err)
	}
	return r
}

// Package app assembles the application layer: one Config, from which New
// builds every application package over one store and wires them to one
// another. REST and GraphQL hold an *App and call its packages; the
// Temporal worker builds only the part it needs (NewWorker).
//
// Each field of App is one noun, in its own package: what the transports
// may do with it is that package's exported use cases, and the package is
// the only writer of its records.
package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"log/slog"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/codelists"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/formats"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrshealth"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/model/usage"
	"github.com/einvoice-ng/einvoice/model/webhooks"
)

// Config holds the application's secrets and tunables.
type Config struct {
	// JWTSecret signs portal access tokens (HS256).
	JWTSecret []byte
	// TokenTTL is the lifetime of an access token; default 1 h.
	TokenTTL time.Duration
	// Box seals secrets at rest.
	Box *secret.Box
	// Hasher hashes API key secrets and refresh tokens with the server
	// pepper.
	Hasher *secret.Hasher
	// AuditKey keys the audit chain (HMAC-SHA-256); it lives outside the
	// database, so that no one who can only write the database can write
	// entries that verify. Required, at least 32 bytes.
	AuditKey []byte
	// Authorities is the registry of tax authorities.
	Authorities model.Authorities
	// SandboxKeys makes the key pair and certificate of a new sandbox
	// project; default: a fresh RSA-2048 pair.
	SandboxKeys func() (nrs.SandboxKeys, error)
	// PasswordParams are the argon2id costs; default secret.DefaultPasswordParams.
	PasswordParams secret.PasswordParams
	// Auth limits signup and login attempts per client address and per
	// e-mail, and bounds concurrent password hashing.
	Auth auth.Limits
	// RevocationCacheTTL bounds how long a process trusts its copy of the
	// revoked access tokens; default 1 s.
	RevocationCacheTTL time.Duration
	// KeyCacheTTL bounds how long an authenticated key (and a project's
	// issuing settings) is trusted without reading the database again,
	// hence how late a change made by another process is seen; default
	// 1 s.
	KeyCacheTTL time.Duration
	// UsageFlushInterval is how often buffered usage is written; default 2 s.
	UsageFlushInterval time.Duration
	// UsageJournalDir, when set, journals every metered call there so that
	// a killed process loses no count (usage.Config.JournalDir).
	UsageJournalDir string
	// SandboxBaseURL is where sandbox projects talk to the authority by
	// default (the NRS sandbox stand-in in development), and the only host
	// sandbox code lists are stored from.
	SandboxBaseURL string
	// ProductionBaseURL is the authority's production host, the only one
	// production code lists are stored from; default
	// authority.DefaultProductionBaseURL.
	ProductionBaseURL string
	// ReportBaseURL is the host production projects send post-payment VAT
	// reports to (authority.Config.ReportBaseURL); "" for their NRS host.
	ReportBaseURL string
	// CodeListPollInterval bounds how late a process sees code lists
	// another process refreshed; default 30 s.
	CodeListPollInterval time.Duration
	// Egress judges where production projects may send their calls (see
	// authority.Config.Egress).
	Egress egress.Policy
	// SandboxRegistrar, when set, is told about every sandbox project, so
	// that the NRS sandbox stand-in accepts the project's credentials.
	SandboxRegistrar portal.SandboxRegistrar
	// SandboxFaults, when set, switches the stand-in's outages and
	// throttles of sandbox projects (the stand-in in process, or its admin
	// client); cmd/einvoice sets it from SandboxRegistrar when that can.
	SandboxFaults portal.SandboxFaults
	// Runs starts and describes the workflows of certification runs; nil
	// makes starting a run answer unavailable.
	Runs runs.Starter
	// Submissions starts the workflows of submitted invoices; nil makes
	// submitting an invoice answer unavailable.
	Submissions submissions.Starter
	// Inbox starts the pulls of projects' inboxes; nil makes pulling on
	// demand answer unavailable.
	Inbox inbox.Starter
	// ArchiveRetention is how long archived invoices are kept; default
	// submissions.DefaultRetention (6 years).
	ArchiveRetention time.Duration
	// B2CDeadline, DeadlineAtRiskMargin and QueueRatePerMinute are the
	// invoices' B2C deadline window, at-risk margin and the pace of a
	// project's queue after an outage (submissions.Config's B2CWindow,
	// AtRiskMargin and RatePerMinute); zero means the defaults.
	B2CDeadline          time.Duration
	DeadlineAtRiskMargin time.Duration
	QueueRatePerMinute   int
	// ClearingShards, above zero, has every project's invoices cleared by
	// that many clearing shards instead of a workflow each
	// (submissions.Config's ClearingShards; Submissions must be a
	// submissions.Clearer).
	ClearingShards int
	// ClearingBacklog bounds the invoices a project's clearing shards own
	// before submissions are refused (submissions.Config's
	// ClearingBacklog); zero means its default.
	ClearingBacklog int
	// Webhooks configures webhook endpoints and deliveries: Engine (starts
	// delivery workflows), AllowPrivate, AllowHTTP, Retry, DisableAfter,
	// EndpointsPerProject. The box, audit trail, clock and logger come
	// from this Config.
	Webhooks webhooks.Config
	// Idempotency bounds what Idempotency-Keys keep; zero fields take the
	// defaults.
	Idempotency idempotency.Limits
	// Quotas bound the organizations, projects, keys and concurrent
	// certification runs of an account; zero fields take the defaults.
	Quotas Quotas
	// NRSHealth reads this process's circuit breakers of NRS (nil: the
	// process does not call NRS); NRSHealthInterval is how often the view
	// is shared with the other processes (default 5 s).
	NRSHealth         nrshealth.Local
	NRSHealthInterval time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives background errors; default slog.Default().
	Logger *slog.Logger
}

// Quotas bound what one account may create, so that no tenant can grow its
// share of the database (and of the per-key rate limits) without end. A
// zero field takes its default; a negative one imposes no bound.
type Quotas struct {
	// OrganizationsPerUser bounds the organizations a user owns (signup's
	// included); default 10.
	OrganizationsPerUser int
	// ProjectsPerOrganization bounds an organization's projects; default 20.
	ProjectsPerOrganization int
	// KeysPerProject bounds a project's active (not revoked) API keys;
	// default 20.
	KeysPerProject int
	// RunsPerProject bounds a project's certification runs that are queued
	// or running at once; default 5. A start over it is rate_limited.
	RunsPerProject int
}

// Default quotas.
const (
	DefaultOrganizationsPerUser    = 10
	DefaultProjectsPerOrganization = 20
	DefaultKeysPerProject          = 20
	DefaultRunsPerProject          = 5
)

func (q *Quotas) defaults() {
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&q.OrganizationsPerUser, DefaultOrganizationsPerUser},
		{&q.ProjectsPerOrganization, DefaultProjectsPerOrganization},
		{&q.KeysPerProject, DefaultKeysPerProject},
		{&q.RunsPerProject, DefaultRunsPerProject},
	} {
		if *f.v == 0 {
			*f.v = f.def
		}
	}
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Quotas.defaults()
}

// App is the application layer: one package per noun.
type App struct {
	// Auth signs portal users in: sign-up, login, access tokens, sessions.
	Auth *auth.Service
	// Portal holds organizations and projects and their authority settings.
	Portal *portal.Service
	// Keys holds API keys and authenticates them.
	Keys *keys.Service
	// Usage meters API key calls and reports them.
	Usage *usage.Service
	// Audit reads and verifies the audit log.
	Audit *audit.Service
	// Invoices validates, identifies (IRN, QR) and renders invoices.
	Invoices *invoices.Service
	// Runs starts and reads certification runs; Steps is the entry point
	// of their workflow's activities.
	Runs  *runs.Service
	Steps *runs.Steps
	// CodeLists refreshes and loads the authorities' code lists.
	CodeLists *codelists.Service
	// Submissions submits invoices to the tax authority and reads them;
	// SubmissionSteps is the entry point of their workflow's activities.
	Submissions     *submissions.Service
	SubmissionSteps *submissions.Steps
	// Formats takes invoices as UBL 2.1 and spreadsheets, writes confirmed
	// invoices as UBL, and builds credit and debit notes.
	Formats *formats.Service
	// Inbox holds the invoices suppliers transmitted to projects'
	// businesses; InboxSteps is the entry point of the pull's activities.
	Inbox      *inbox.Service
	InboxSteps *inbox.Steps
	// Idempotency keeps the responses of requests made under an
	// Idempotency-Key.
	Idempotency *idempotency.Service
	// Authority says how each project reaches its tax authority.
	Authority *authority.Directory
	// NRSHealth shares how NRS answers between processes (run its Run).
	NRSHealth *nrshealth.Service
	// Events lists the events of projects.
	Events *events.Service
	// Webhooks holds webhook endpoints, their delivery log, test pings and
	// redeliveries.
	Webhooks *webhooks.Service
	// Deliveries is the entry point of the webhook delivery activities
	// (for a worker run in the same process).
	Deliveries *webhooks.Deliveries

	st *store.Store
	w  *Worker
}

// Dispatcher builds the webhook dispatcher, for a worker run in the same
// process (see Worker.Dispatcher).
func (a *App) Dispatcher() (*webhooks.Dispatcher, error) { return a.w.Dispatcher() }

// New builds the application over st, loads the stored code lists and
// starts the background work of its packages (the usage flusher, the code
// list watcher); call Close to flush and stop it.
func New(st *store.Store, cfg Config) (*App, error) {
	if len(cfg.JWTSecret) < 32 {
		return nil, errors.New("app: JWT secret must be at least 32 bytes")
	}
	if cfg.Box == nil || cfg.Hasher == nil {
		return nil, errors.New("app: an encryption box and a key hasher are required")
	}
	if len(cfg.AuditKey) < 32 {
		return nil, errors.New("app: an audit key of at least 32 bytes is required")
	}
	cfg.defaults()
	w, err := newWorker(st, cfg)
	if err != nil {
		return nil, err
	}
	trail := access.Trail{Key: cfg.AuditKey, Now: cfg.Now}
	a := &App{Authority: w.Authority, CodeLists: w.CodeLists, Invoices: w.invoices, Steps: w.Steps, Deliveries: w.Deliveries,
		NRSHealth: w.NRSHealth, st: st, w: w}
	a.SubmissionSteps = w.Submissions
	a.Submissions = submissions.New(st, w.submissionsConfig(), w.invoices)
	a.Formats = formats.New(st, formats.Config{Authority: a.Authority, Now: cfg.Now, Logger: cfg.Logger}, w.invoices, a.Submissions)
	a.Inbox = inbox.New(st, w.inboxConfig())
	a.InboxSteps = w.Inbox
	a.Portal = portal.New(st, portal.Config{
		Authority: a.Authority, Trail: trail, OrganizationsPerUser: cfg.Quotas.OrganizationsPerUser,
		ProjectsPerOrganization: cfg.Quotas.ProjectsPerOrganization, SandboxRegistrar: cfg.SandboxRegistrar,
		SandboxFaults: cfg.SandboxFaults, Now: cfg.Now, Logger: cfg.Logger,
	})
	a.Auth, err = auth.New(st, auth.Config{
		JWTSecret: cfg.JWTSecret, TokenTTL: cfg.TokenTTL, Hasher: cfg.Hasher, PasswordParams: cfg.PasswordParams,
		Limits: cfg.Auth, RevocationCacheTTL: cfg.RevocationCacheTTL, Portal: a.Portal, Trail: trail,
		Now: cfg.Now, Logger: cfg.Logger,
	})
	if err != nil {
		w.Close()
		return nil, err
	}
	a.Usage, err = usage.New(st, usage.Config{FlushInterval: cfg.UsageFlushInterval, JournalDir: cfg.UsageJournalDir, Now: cfg.Now, Logger: cfg.Logger})
	if err != nil {
		w.Close()
		return nil, err
	}
	a.Keys = keys.New(st, keys.Config{
		Hasher: cfg.Hasher, Trail: trail, Quota: cfg.Quotas.KeysPerProject, CacheTTL: cfg.KeyCacheTTL,
		Pending: a.Usage, Now: cfg.Now,
	})
	a.Audit = audit.New(st, audit.Config{Key: cfg.AuditKey, Now: cfg.Now})
	a.Runs = runs.New(st, w.runsConfig(trail, cfg.Quotas.RunsPerProject))
	a.Idempotency = idempotency.New(st, idempotency.Config{Box: cfg.Box, Limits: cfg.Idempotency, Now: cfg.Now})
	a.Events = events.New(st)
	a.Webhooks = webhooks.New(st, w.webhooksConfig())
	return a, nil
}

// Close flushes buffered usage and stops background work.
func (a *App) Close(ctx context.Context) error {
	a.CodeLists.Close()
	return a.Usage.Close(ctx)
}

// Store exposes the store to tools and tests wired beside the application.
func (a *App) Store() *store.Store { return a.st }

// Health reports the state of each dependency.
func (a *App) Health(ctx context.Context) map[string]string { return health(ctx, a.st) }

// Ready reports what this process needs to take traffic, each "ok" or
// why not: the database answers ("unavailable"), and every migration this
// build knows is applied ("pending").
func (a *App) Ready(ctx context.Context) map[string]string { return ready(ctx, a.st) }

// health is the dependency checks of Health, shared by the API and the
// worker.
func health(ctx context.Context, st *store.Store) map[string]string {
	checks := map[string]string{"database": "ok"}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := st.Ping(ctx); err != nil {
		checks["database"] = "unavailable"
	}
	return checks
}

// ready is the readiness checks of Ready, shared by the API and the
// worker.
func ready(ctx context.Context, st *store.Store) map[string]string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	checks := map[string]string{"database": "ok", "migrations": "ok"}
	if err := st.Ping(ctx); err != nil {
		checks["database"], checks["migrations"] = "unavailable", "unavailable"
		return checks
	}
	n, err := st.Migrations().Pending(ctx)
	switch {
	case err != nil:
		checks["migrations"] = "unavailable"
	case n > 0:
		checks["migrations"] = "pending"
	}
	return checks
}

// Worker is the part of the application a Temporal worker needs: the
// entry point of the runs' activities and what it uses (the projects'
// authority settings, the invoice operations, the code lists). It holds no
// sign-in, keys, usage meter, idempotency or audit reader.
type Worker struct {
	Steps *runs.Steps
	// Submissions is the entry point of the invoice workflow's activities.
	Submissions *submissions.Steps
	// Deliveries is the entry point of the webhook delivery activities.
	Deliveries *webhooks.Deliveries
	// Inbox is the entry point of the inbox pull's activities.
	Inbox     *inbox.Steps
	Authority *authority.Directory
	CodeLists *codelists.Service
	// NRSHealth publishes the worker's view of NRS (run its Run).
	NRSHealth *nrshealth.Service

	invoices *invoices.Service
	cfg      Config
	st       *store.Store
}

// NewWorker builds the worker's part of the application over st; of cfg it
// reads the box, the authorities, the authority hosts and egress policy,
// the sandbox keys, the cache and poll intervals, the clock and the
// logger. Call Close to stop its code list watcher.
func NewWorker(st *store.Store, cfg Config) (*Worker, error) {
	if cfg.Box == nil {
		return nil, errors.New("app: an encryption box is required")
	}
	cfg.defaults()
	return newWorker(st, cfg)
}

func newWorker(st *store.Store, cfg Config) (*Worker, error) {
	dir, err := authority.New(st, authority.Config{
		Box: cfg.Box, Authorities: cfg.Authorities, SandboxBaseURL: cfg.SandboxBaseURL,
		ProductionBaseURL: cfg.ProductionBaseURL, ReportBaseURL: cfg.ReportBaseURL, Egress: cfg.Egress, SandboxKeys: cfg.SandboxKeys,
		CacheTTL: cfg.KeyCacheTTL, Now: cfg.Now,
	})
	if err != nil {
		return nil, err
	}
	w := &Worker{Authority: dir, cfg: cfg}
	w.CodeLists = codelists.New(st, codelists.Config{
		Authorities: dir.Authorities(), PollInterval: cfg.CodeListPollInterval, Now: cfg.Now, Logger: cfg.Logger,
	})
	w.invoices = invoices.New(st, invoices.Config{Authority: dir, Now: cfg.Now})
	w.Steps = runs.NewSteps(st, w.runsConfig(access.Trail{}, 0), w.invoices, w.CodeLists)
	w.Submissions = submissions.NewSteps(st, w.submissionsConfig(), w.invoices)
	w.Inbox = inbox.NewSteps(st, w.inboxConfig())
	w.NRSHealth = nrshealth.New(st, nrshealth.Config{Local: cfg.NRSHealth, Interval: cfg.NRSHealthInterval,
		Now: cfg.Now, Logger: cfg.Logger})
	if w.Deliveries, err = webhooks.NewDeliveries(st, w.webhooksConfig()); err != nil {
		return nil, err
	}
	w.st = st
	return w, nil
}

// Health reports the state of the worker's dependencies, as App.Health
// does the API's.
func (w *Worker) Health(ctx context.Context) map[string]string { return health(ctx, w.st) }

// Ready reports whether the worker can take tasks as far as the database
// goes, with the checks of App.Ready: the database answers and its
// migrations are current.
func (w *Worker) Ready(ctx context.Context) map[string]string { return ready(ctx, w.st) }

// webhooksConfig completes the webhooks' configuration with the box, the
// audit trail, the clock and the logger.
func (w *Worker) webhooksConfig() webhooks.Config {
	c := w.cfg.Webhooks
	c.Box, c.Trail, c.Now, c.Logger = w.cfg.Box, access.Trail{Key: w.cfg.AuditKey, Now: w.cfg.Now}, w.cfg.Now, w.cfg.Logger
	return c
}

// Dispatcher builds the webhook dispatcher (the events outbox's reader);
// it needs cfg.Webhooks.Engine.
func (w *Worker) Dispatcher() (*webhooks.Dispatcher, error) {
	return webhooks.NewDispatcher(w.st, w.webhooksConfig())
}

// inboxConfig configures the inbox.
func (w *Worker) inboxConfig() inbox.Config {
	return inbox.Config{Authority: w.Authority, Engine: w.cfg.Inbox, Now: w.cfg.Now, Logger: w.cfg.Logger}
}

// submissionsConfig configures the invoices' submission. The archive's
// chain is keyed with a key derived from the audit key.
func (w *Worker) submissionsConfig() submissions.Config {
	return submissions.Config{
		Engine: w.cfg.Submissions, Authority: w.Authority, Retention: w.cfg.ArchiveRetention,
		ArchiveKey: archiveKey(w.cfg.AuditKey), WorkflowKey: WorkflowKey(w.cfg.AuditKey), Now: w.cfg.Now, Logger: w.cfg.Logger,
		ClearingShards: w.cfg.ClearingShards, ClearingBacklog: w.cfg.ClearingBacklog,
		B2CWindow: w.cfg.B2CDeadline, AtRiskMargin: w.cfg.DeadlineAtRiskMargin, RatePerMinute: w.cfg.QueueRatePerMinute,
		Health: func(env model.Environment) string {
			if w.NRSHealth == nil {
				return model.AuthorityOK
			}
			return w.NRSHealth.Health(env)
		},
	}
}

// archiveKey derives the archive chain's key from the audit key.
func archiveKey(auditKey []byte) []byte {
	m := hmac.New(sha256.New, auditKey)
	m.Write([]byte("einvoice invoice archive"))
	return m.Sum(nil)
}

// WorkflowKey derives the key of invoices' workflow ids from the audit
// key (submissions.WorkflowID).
func WorkflowKey(auditKey []byte) []byte {
	m := hmac.New(sha256.New, auditKey)
	m.Write([]byte("einvoice invoice workflow id"))
	return m.Sum(nil)
}

func (w *Worker) runsConfig(trail access.Trail, perProject int) runs.Config {
	return runs.Config{
		Engine: w.cfg.Runs, Authority: w.Authority, Trail: trail, PerProject: perProject,
		Now: w.cfg.Now, Logger: w.cfg.Logger,
	}
}

// Close stops the code list watcher.
func (w *Worker) Close() { w.CodeLists.Close() }

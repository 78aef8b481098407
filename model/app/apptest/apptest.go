// Package apptest builds the application for tests: fast password hashing, one
// RSA key pair per test binary for sandbox projects, fresh random sealing
// keys, and the NRS rules registered as the binary registers them.
package apptest

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

var (
	keysOnce    sync.Once
	sandboxKeys nrs.SandboxKeys
	keysErr     error
)

// SandboxKeys returns one generated key set per test binary: RSA generation
// is slow and says nothing about the code under test.
func SandboxKeys() (nrs.SandboxKeys, error) {
	keysOnce.Do(func() { sandboxKeys, keysErr = nrs.GenerateSandboxKeys(nil) })
	return sandboxKeys, keysErr
}

// Authorities is the registry the binary builds: NRS, with FIRS as an alias.
func Authorities(tb testing.TB) model.Authorities {
	tb.Helper()
	rules, err := nrs.New(nrs.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return model.NewAuthorities([]model.Authority{rules}, map[string]string{"FIRS": nrs.Code})
}

// Pepper is the API key pepper of test applications.
var Pepper = []byte("pepper-for-tests-only-0123456789")

// AuditKey keys the audit chains of test applications.
var AuditKey = []byte("audit-key-for-tests-only-0123456")

// Config returns an application configuration for tests; logs go to logs (nil:
// discarded).
func Config(tb testing.TB, logs io.Writer) app.Config {
	tb.Helper()
	key := make([]byte, secret.KeySize)
	if _, err := rand.Read(key); err != nil {
		tb.Fatal(err)
	}
	box, err := secret.NewBox(key)
	if err != nil {
		tb.Fatal(err)
	}
	if logs == nil {
		logs = io.Discard
	}
	return app.Config{
		JWTSecret:      bytes.Repeat([]byte("j"), 32),
		Box:            box,
		Hasher:         secret.NewHasher(Pepper),
		AuditKey:       AuditKey,
		PasswordParams: secret.PasswordParams{Memory: 1024, Time: 1, Threads: 1},
		Authorities:    Authorities(tb),
		SandboxKeys:    SandboxKeys,
		Egress:         egress.Policy{Resolver: PublicResolver{}},
		Logger:         slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// PublicResolver resolves every name to one public address (of the
// documentation-free kind egress allows), so that tests never query DNS.
type PublicResolver struct{}

// LookupNetIP implements egress.Policy's Resolver.
func (PublicResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("41.58.1.1")}, nil
}

// New builds an application over st with Config, changed by edit when not
// nil, and closes it when the test ends.
func New(tb testing.TB, st *store.Store, edit func(*app.Config)) *app.App {
	tb.Helper()
	cfg := Config(tb, nil)
	if edit != nil {
		edit(&cfg)
	}
	svc, err := app.New(st, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc
}

// LogBuffer collects logs written by concurrent handlers, for tests that
// check what was (or was not) logged.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Tenant is a signed-up user with an organization, one project in it and one
// API key of the project.
type Tenant struct {
	User    *model.Principal // the organization's owner
	Key     *model.Principal // the project's key, authenticated
	Secret  *keys.WithSecret // the key as created (its secret shown once)
	Org     *portal.OrganizationView
	Project *portal.ProjectView
}

// NewTenant signs a new user up on svc and creates a project of env ("sandbox"
// or "production") and a key with every scope.
func NewTenant(tb testing.TB, svc *app.App, env string) *Tenant {
	tb.Helper()
	ctx := context.Background()
	slug := "t" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org " + slug, OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: env})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := svc.Keys.Create(ctx, u, pr.ID, keys.Input{KeyName: "tests"})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		tb.Fatal(err)
	}
	return &Tenant{User: u, Key: p, Secret: k, Org: su.Organization, Project: pr}
}

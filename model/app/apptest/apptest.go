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
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

var (
	keysOnce sync.Once
	keys     nrs.SandboxKeys
	keysErr  error
)

// SandboxKeys returns one generated key set per test binary: RSA generation
// is slow and says nothing about the code under test.
func SandboxKeys() (nrs.SandboxKeys, error) {
	keysOnce.Do(func() { keys, keysErr = nrs.GenerateSandboxKeys(nil) })
	return keys, keysErr
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

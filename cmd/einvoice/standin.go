package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// sandboxConfig is how a process serves or reaches the NRS sandbox stand-in.
type sandboxConfig struct {
	// Embedded serves the stand-in from this process
	// (EINVOICE_NRS_SANDBOX_EMBEDDED=true).
	Embedded bool
	// DatabaseURL holds the stand-in's state
	// (EINVOICE_NRS_SANDBOX_DATABASE_URL); default: the application's
	// PostgreSQL database, or a SQLite file beside the application's.
	DatabaseURL string
	// AdminToken guards the stand-in's admin endpoint; a process that does
	// not embed the stand-in registers sandbox projects through it
	// (EINVOICE_NRS_SANDBOX_ADMIN_TOKEN).
	AdminToken string
	// BusinessRate and IPRate are the stand-in's limits
	// (EINVOICE_NRS_SANDBOX_RATE_LIMIT, EINVOICE_NRS_SANDBOX_IP_RATE_LIMIT).
	BusinessRate nrssandbox.RateLimit
	IPRate       nrssandbox.RateLimit
	// SlowDelay is how long SBXSLOW invoices wait
	// (EINVOICE_NRS_SANDBOX_SLOW_DELAY); 0 means the stand-in's default.
	SlowDelay time.Duration
	// PlainDownloads answers downloads in clear rather than sealed
	// (EINVOICE_NRS_SANDBOX_PLAIN_DOWNLOADS=true).
	PlainDownloads bool
	// SealKey seals the businesses' private keys in a stand-in of its own
	// (EINVOICE_NRS_SANDBOX_SEAL_KEY, 32 bytes); an embedded stand-in
	// derives it from EINVOICE_ENCRYPTION_KEY.
	SealKey []byte
}

// standInSealKey is the key an embedded stand-in seals private keys with.
func standInSealKey(encryptionKey []byte) []byte {
	return secret.Derive(encryptionKey, "nrs-sandbox-private-keys")
}

// sandboxFromEnv reads the stand-in's variables. appDSN is the application's
// database, the default home of the stand-in's tables.
func sandboxFromEnv(getenv func(string) string, appDSN string) (sandboxConfig, error) {
	sc := sandboxConfig{
		Embedded:       getenv("EINVOICE_NRS_SANDBOX_EMBEDDED") == "true",
		DatabaseURL:    getenv("EINVOICE_NRS_SANDBOX_DATABASE_URL"),
		AdminToken:     getenv("EINVOICE_NRS_SANDBOX_ADMIN_TOKEN"),
		PlainDownloads: getenv("EINVOICE_NRS_SANDBOX_PLAIN_DOWNLOADS") == "true",
	}
	if sc.DatabaseURL == "" && appDSN != "" {
		sc.DatabaseURL = sandboxDSNBeside(appDSN)
	}
	if sc.AdminToken != "" && len(sc.AdminToken) < 16 {
		return sc, fmt.Errorf("EINVOICE_NRS_SANDBOX_ADMIN_TOKEN must be at least 16 characters")
	}
	for _, l := range []struct {
		name string
		dst  *nrssandbox.RateLimit
	}{
		{"EINVOICE_NRS_SANDBOX_RATE_LIMIT", &sc.BusinessRate},
		{"EINVOICE_NRS_SANDBOX_IP_RATE_LIMIT", &sc.IPRate},
	} {
		if v := getenv(l.name); v != "" {
			parsed, err := nrssandbox.ParseRateLimit(v)
			if err != nil {
				return sc, fmt.Errorf("%s: %w", l.name, err)
			}
			*l.dst = parsed
		}
	}
	if v := getenv("EINVOICE_NRS_SANDBOX_SEAL_KEY"); v != "" {
		k, err := decodeKey(v)
		if err != nil {
			return sc, fmt.Errorf("EINVOICE_NRS_SANDBOX_SEAL_KEY %w", err)
		}
		sc.SealKey = k
	}
	if v := getenv("EINVOICE_NRS_SANDBOX_SLOW_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > time.Hour {
			return sc, fmt.Errorf("EINVOICE_NRS_SANDBOX_SLOW_DELAY must be a duration up to 1h (e.g. 3s)")
		}
		sc.SlowDelay = d
	}
	return sc, nil
}

// sandboxDSNBeside is the default home of the stand-in's tables: the same
// PostgreSQL database (its tables have names of their own), or for SQLite a
// file of its own beside the application's, so that the two never wait on
// one file's write lock.
func sandboxDSNBeside(appDSN string) string {
	if strings.HasPrefix(appDSN, "postgres://") || strings.HasPrefix(appDSN, "postgresql://") {
		return appDSN
	}
	path := strings.TrimPrefix(strings.TrimPrefix(appDSN, "sqlite://"), "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-nrs-sandbox.db"
}

// openStandIn opens and migrates the stand-in's database and builds it. The
// caller closes the database after the HTTP server stops.
func openStandIn(ctx context.Context, sc sandboxConfig, opts nrssandbox.Options, log *slog.Logger) (*nrssandbox.Handler, *sandboxdb.DB, error) {
	if sc.DatabaseURL == "" {
		return nil, nil, fmt.Errorf("the NRS sandbox stand-in needs a database (EINVOICE_NRS_SANDBOX_DATABASE_URL)")
	}
	db, err := sandboxdb.Open(ctx, sc.DatabaseURL)
	if err != nil {
		return nil, nil, err
	}
	applied, err := db.Migrate(ctx)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	if len(applied) > 0 {
		log.Info("NRS sandbox stand-in migrations applied", "names", applied)
	}
	opts.DB, opts.Logger = db, log
	if opts.AdminToken == "" {
		opts.AdminToken = sc.AdminToken
	}
	if opts.BusinessRate == (nrssandbox.RateLimit{}) {
		opts.BusinessRate = sc.BusinessRate
	}
	if opts.IPRate == (nrssandbox.RateLimit{}) {
		opts.IPRate = sc.IPRate
	}
	if opts.SlowDelay == 0 {
		opts.SlowDelay = sc.SlowDelay
	}
	opts.PlainDownloads = opts.PlainDownloads || sc.PlainDownloads
	if len(opts.SealKey) == 0 {
		opts.SealKey = sc.SealKey
	}
	h, err := nrssandbox.New(opts)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return h, db, nil
}

// keyFile reads a 32-byte key kept base64 in path, or makes one (the file
// 0600, its folder 0700) when there is none.
func keyFile(path string) ([]byte, error) {
	if raw, err := os.ReadFile(path); err == nil {
		return decodeKey(string(raw))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, secret.KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) { // another process made it first
			return keyFile(path)
		}
		return nil, err
	}
	if _, err := f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n"); err != nil {
		_ = f.Close()
		return nil, err
	}
	return key, f.Close()
}

package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

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
	h, err := nrssandbox.New(opts)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return h, db, nil
}

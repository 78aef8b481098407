package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// demoOwner owns the business --demo registers.
const demoOwner = "demo"

// runNRSSandbox runs the NRS sandbox stand-in as its own process, its state
// in its own database. Businesses come from the admin endpoint (with
// --admin-token: einvoice api processes register their sandbox projects
// there) or --demo; see docs/nrs-sandbox.md.
func runNRSSandbox(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("nrs-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	env, err := sandboxFromEnv(getenv, "")
	if err != nil {
		return err
	}
	addr := fs.String("addr", "127.0.0.1:8090", "HTTP listen address")
	dataDir := fs.String("data-dir", "./data", "directory of the SQLite database when --database-url is not given")
	dbURL := fs.String("database-url", env.DatabaseURL,
		"the stand-in's database: a postgres:// URL or a SQLite file (default $EINVOICE_NRS_SANDBOX_DATABASE_URL, else DATA-DIR/nrs-sandbox.db)")
	adminToken := fs.String("admin-token", env.AdminToken,
		"enables POST /sandbox/businesses for callers sending this bearer token (default $EINVOICE_NRS_SANDBOX_ADMIN_TOKEN)")
	demo := fs.Bool("demo", false, "register a demo business (kept across restarts, its API secret renewed) and print its credentials")
	defaultSlow := nrssandbox.DefaultSlowDelay
	if env.SlowDelay > 0 {
		defaultSlow = env.SlowDelay
	}
	slowDelay := fs.Duration("slow-delay", defaultSlow, "how long SBXSLOW invoices wait (default $EINVOICE_NRS_SANDBOX_SLOW_DELAY, else 3s)")
	retryFailures := fs.Int("retry-failures", nrssandbox.DefaultRetryFailures, "503 answers per endpoint for SBXRETRY invoices")
	businessRate := fs.String("rate-limit", "", "requests per business, COUNT/PERIOD or off (default $EINVOICE_NRS_SANDBOX_RATE_LIMIT, else "+nrssandbox.DefaultBusinessRate.String()+")")
	ipRate := fs.String("ip-rate-limit", "", "requests per client address before authentication (default $EINVOICE_NRS_SANDBOX_IP_RATE_LIMIT, else "+nrssandbox.DefaultIPRate.String()+")")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("nrs-sandbox: unexpected argument %q", fs.Arg(0))
	}
	if *adminToken != "" && len(*adminToken) < 16 {
		return errors.New("nrs-sandbox: the admin token must be at least 16 characters")
	}
	sc := sandboxConfig{DatabaseURL: *dbURL, AdminToken: *adminToken, BusinessRate: env.BusinessRate, IPRate: env.IPRate, SealKey: env.SealKey}
	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		return err
	}
	if sc.DatabaseURL == "" {
		sc.DatabaseURL = filepath.Join(dir, "nrs-sandbox.db")
	}
	if len(sc.SealKey) == 0 {
		// Generated once per data directory, like einvoice dev's secrets.
		if sc.SealKey, err = keyFile(filepath.Join(dir, "nrs-sandbox-seal.key")); err != nil {
			return fmt.Errorf("nrs-sandbox: the seal key: %w", err)
		}
	}
	for _, f := range []struct {
		v   string
		dst *nrssandbox.RateLimit
	}{{*businessRate, &sc.BusinessRate}, {*ipRate, &sc.IPRate}} {
		if f.v == "" {
			continue
		}
		if *f.dst, err = nrssandbox.ParseRateLimit(f.v); err != nil {
			return err
		}
	}
	log := newLogger(stderr, *logLevel)
	h, db, err := openStandIn(ctx, sc, nrssandbox.Options{SlowDelay: *slowDelay, RetryFailures: *retryFailures}, log)
	if err != nil {
		return err
	}
	defer db.Close()
	var demoBiz *nrssandbox.Business
	var demoCK nrs.CryptoKeys
	if *demo {
		b, ck, err := registerDemo(ctx, h, db)
		if err != nil {
			return err
		}
		demoBiz, demoCK = &b, ck
	}

	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String()
	admin := "disabled (no --admin-token)"
	if *adminToken != "" {
		admin = "POST " + base + "/sandbox/businesses"
	}
	fmt.Fprintf(stdout, `einvoice %s: NRS sandbox stand-in (state in %s database)
  NRS API   %s/api
  Admin     %s
  Scenarios SBXSIGNFAIL SBXSLOW (%s) SBXRETRY (%d failures) SBXDOWN SBXDUP (docs/nrs-sandbox.md)
`, version, db.Dialect(), base, admin, slowDelay.Round(time.Millisecond), *retryFailures)
	if demoBiz != nil {
		ck, _ := json.Marshal(demoCK)
		fmt.Fprintf(stdout, `Demo business (sandbox only):
  business_id  %s
  service_id   %s
  x-api-key    %s
  x-api-secret %s
  crypto_keys  %s
`, demoBiz.BusinessID, demoBiz.ServiceID, demoBiz.APIKey, demoBiz.APISecret, ck)
	}
	fmt.Fprintln(stdout, "Press Ctrl+C to stop.")
	return serveHTTP(ctx, ln, h, log)
}

// registerDemo registers the demo business, or registers it again with a
// new API secret when an earlier start left one (its invoices stay): the
// stand-in keeps only a hash of the secret, so it cannot be shown again.
func registerDemo(ctx context.Context, h *nrssandbox.Handler, db *sandboxdb.DB) (nrssandbox.Business, nrs.CryptoKeys, error) {
	b := nrssandbox.Business{Owner: demoOwner, ServiceID: "94ND90NR", Name: "Demo business",
		APISecret: "demo-" + uuid.NewString()}
	prev, err := db.Businesses().ByOwner(ctx, demoOwner)
	switch {
	case err == nil:
		priv, err := h.PrivateKeyOf(prev)
		if err != nil {
			return b, nrs.CryptoKeys{}, fmt.Errorf("the demo business: %w", err)
		}
		b.BusinessID, b.ServiceID, b.Certificate, b.PrivateKeyPEM, b.APIKey = prev.BusinessID, prev.ServiceID, prev.Certificate, priv, prev.APIKey
	case errors.Is(err, sandboxdb.ErrNotFound):
		keys, err := nrs.GenerateSandboxKeys(nil)
		if err != nil {
			return b, nrs.CryptoKeys{}, err
		}
		b.BusinessID, b.Certificate, b.PrivateKeyPEM, b.APIKey = uuid.NewString(), keys.Certificate, keys.PrivateKeyPEM, uuid.NewString()
	default:
		return b, nrs.CryptoKeys{}, err
	}
	info, err := h.Register(ctx, b)
	if err != nil {
		return b, nrs.CryptoKeys{}, fmt.Errorf("register the demo business: %w", err)
	}
	row, err := db.Businesses().ByID(ctx, info.BusinessID)
	if err != nil {
		return b, nrs.CryptoKeys{}, err
	}
	return b, nrs.CryptoKeys{PublicKey: base64.StdEncoding.EncodeToString([]byte(row.PublicKey)), Certificate: row.Certificate}, nil
}

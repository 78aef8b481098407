package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// runNRSSandbox runs the NRS sandbox stand-in alone. Businesses come from
// the admin endpoint (with --admin-token) or --demo; see docs/nrs-sandbox.md.
func runNRSSandbox(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("nrs-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8090", "HTTP listen address")
	adminToken := fs.String("admin-token", getenv("EINVOICE_NRS_SANDBOX_ADMIN_TOKEN"),
		"enables POST /sandbox/businesses for callers sending this bearer token (default $EINVOICE_NRS_SANDBOX_ADMIN_TOKEN)")
	demo := fs.Bool("demo", false, "register a generated demo business and print its credentials")
	slowDelay := fs.Duration("slow-delay", nrssandbox.DefaultSlowDelay, "how long SBXSLOW invoices wait")
	retryFailures := fs.Int("retry-failures", nrssandbox.DefaultRetryFailures, "503 answers per endpoint for SBXRETRY invoices")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("nrs-sandbox: unexpected argument %q", fs.Arg(0))
	}
	log := newLogger(stderr, *logLevel)
	h, err := nrssandbox.New(nrssandbox.Options{
		AdminToken: *adminToken, SlowDelay: *slowDelay, RetryFailures: *retryFailures, Logger: log,
	})
	if err != nil {
		return err
	}
	var demoBiz *nrssandbox.Business
	var demoKeys nrs.SandboxKeys
	if *demo {
		if demoKeys, err = nrs.GenerateSandboxKeys(nil); err != nil {
			return err
		}
		b := nrssandbox.Business{
			BusinessID: uuid.NewString(), ServiceID: "94ND90NR", Name: "Demo business",
			Certificate: demoKeys.Certificate, PrivateKeyPEM: demoKeys.PrivateKeyPEM,
			APIKey: uuid.NewString(), APISecret: "demo-" + uuid.NewString(),
		}
		if err := h.Registry().Register(b); err != nil {
			return err
		}
		demoBiz = &b
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
	fmt.Fprintf(stdout, `einvoice %s: NRS sandbox stand-in (in memory, forgotten on exit)
  NRS API   %s/api
  Admin     %s
  Scenarios SBXSIGNFAIL SBXSLOW (%s) SBXRETRY (%d failures) SBXDOWN SBXDUP (docs/nrs-sandbox.md)
`, version, base, admin, slowDelay.Round(time.Millisecond), *retryFailures)
	if demoBiz != nil {
		ck, _ := json.Marshal(demoKeys.CryptoKeys())
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

// Command einvoice is the one binary of the einvoice service. Subcommands:
//
//	einvoice dev      run everything on embedded defaults (SQLite under --data-dir)
//	einvoice api      run the production API server, configured from the environment
//	einvoice worker   run the Temporal worker of certification runs (TEMPORAL_ADDRESS)
//	einvoice migrate  up | down | status
//	einvoice audit    verify | rechain
//	einvoice nrs-sandbox  run the NRS sandbox stand-in as its own process
//	einvoice nrs refresh-codes  refresh NRS's code lists from NRS
//	einvoice temporal-codec  serve the Temporal payload codec to the Web UI
//	einvoice version  print the version
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "einvoice:", err)
		os.Exit(1)
	}
}

const usage = `einvoice: e-invoicing infrastructure API for the Nigeria Revenue Service (NRS)

Usage:
  einvoice dev [--addr 127.0.0.1:8080] [--data-dir ./data]
              [--temporal-addr 127.0.0.1:7233] [--temporal-ui-addr 127.0.0.1:8233]
        run the whole service on embedded defaults: API, Temporal and its UI,
        the worker and the NRS sandbox stand-in
  einvoice api
        run the API server configured from EINVOICE_* environment variables
        (and TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE to start certification runs)
  einvoice worker
        run the Temporal worker of certification runs: the api's EINVOICE_*
        variables plus TEMPORAL_ADDRESS (required) and TEMPORAL_NAMESPACE
  einvoice migrate up|down|status
        manage the database schema (EINVOICE_DATABASE_URL)
  einvoice audit verify [--organization ID] [--heads FILE] [--json]
        verify the audit chains (EINVOICE_DATABASE_URL and the audit key):
        every entry keyed and linked, every head reached; --json exports the
        heads, --heads compares with an earlier export
  einvoice audit rechain
        re-chain audit entries written before the chain was keyed
  einvoice nrs-sandbox [--addr 127.0.0.1:8090] [--database-url URL | --data-dir ./data]
              [--admin-token TOKEN] [--demo]
        run the NRS sandbox stand-in as its own process, its state in its own
        database (docs/nrs-sandbox.md)
  einvoice nrs refresh-codes --project <project_id> [--dry-run]
        fetch NRS's code lists with the project's API credentials from the official
        host of its environment (EINVOICE_NRS_SANDBOX_URL, EINVOICE_NRS_PRODUCTION_URL)
        and store them for every process to validate that environment's invoices with
  einvoice temporal-codec [--addr 127.0.0.1:8234] [--ui-origin http://localhost:8233]
        serve the Temporal payload codec (EINVOICE_ENCRYPTION_KEY) to the Web
        UI, on a private address behind the UI's authentication
  einvoice version
        print the version
`

// run dispatches a subcommand. It returns when ctx is cancelled (servers
// shut down gracefully) or the subcommand ends.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("missing subcommand")
	}
	switch args[0] {
	case "dev", "api", "worker", "nrs-sandbox":
		if err := servePprof(ctx, getenv("EINVOICE_PPROF_ADDR"), stderr); err != nil {
			return err
		}
	}
	switch args[0] {
	case "dev":
		return runDev(ctx, args[1:], getenv, stdout, stderr)
	case "api":
		return runAPI(ctx, args[1:], getenv, stdout, stderr)
	case "worker":
		return runWorker(ctx, args[1:], getenv, stdout, stderr)
	case "migrate":
		return runMigrate(ctx, args[1:], getenv, stdout)
	case "audit":
		return runAudit(ctx, args[1:], getenv, stdout, stderr)
	case "nrs-sandbox":
		return runNRSSandbox(ctx, args[1:], getenv, stdout, stderr)
	case "nrs":
		return runNRS(ctx, args[1:], getenv, stdout, stderr)
	case "temporal-codec":
		return runCodecServer(ctx, args[1:], getenv, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, version)
		return nil
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
}

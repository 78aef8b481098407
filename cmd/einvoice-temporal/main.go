// Command einvoice-temporal runs a single-process Temporal server (SQLite
// persistence under --data-dir, the namespace registered at start) as a
// process of its own, built from go.temporal.io/server at the version
// go.mod pins: the Temporal of the cluster test (make cluster-test) and of
// small deployments that want Temporal without Docker. It is the server
// `einvoice dev` embeds, without the API, worker and stand-in; production
// set-ups with PostgreSQL persistence and several hosts are described in
// docs/operations.md.
//
//	einvoice-temporal [--addr 127.0.0.1:7233] [--data-dir ./temporal-data]
//	                  [--namespace default] [--ui-addr ADDR]
//	                  [--internal-ports 7234,7235,7236,7237]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/einvoice-ng/einvoice/worker/devtemporal"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "einvoice-temporal:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("einvoice-temporal", flag.ContinueOnError)
	addr := fs.String("addr", devtemporal.DefaultFrontendAddr, "host:port of the gRPC frontend")
	dataDir := fs.String("data-dir", "./temporal-data", "directory of the SQLite database and the server log")
	namespace := fs.String("namespace", devtemporal.DefaultNamespace, "namespace registered at start")
	uiAddr := fs.String("ui-addr", "", "host:port of the Web UI (none when empty)")
	internal := fs.String("internal-ports", "", "four loopback ports for the internal services (frontend HTTP, history, matching, worker); default: free ports")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	opts := devtemporal.Options{DataDir: *dataDir, FrontendAddr: *addr, UIAddr: *uiAddr, Namespace: *namespace, Logger: log}
	if *internal != "" {
		parts := strings.Split(*internal, ",")
		if len(parts) != 4 {
			return fmt.Errorf("--internal-ports takes four comma-separated ports")
		}
		var ports [4]int
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("--internal-ports: %q is not a port", p)
			}
			ports[i] = n
		}
		opts.InternalPorts = &ports
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := devtemporal.Start(ctx, opts)
	if err != nil {
		return err
	}
	log.Info("temporal server ready", "frontend", srv.FrontendAddr(), "namespace", srv.Namespace(), "ui", srv.UIAddr())
	<-ctx.Done()
	return srv.Stop()
}

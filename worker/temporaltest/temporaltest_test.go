package temporaltest_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/worker/temporaltest"
)

// The server answers on its frontend with its namespace registered, and
// Stop ends the process: the port no longer accepts connections.
func TestStartServesTheNamespaceAndStopEndsIt(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	srv, err := temporaltest.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	if srv.Namespace() != "default" {
		t.Fatalf("Namespace() = %q, want default", srv.Namespace())
	}
	host, port, err := net.SplitHostPort(srv.FrontendAddr())
	if err != nil || host != "127.0.0.1" || port == "0" {
		t.Fatalf("FrontendAddr() = %q, want a resolved loopback address", srv.FrontendAddr())
	}
	c, err := client.DialContext(ctx, client.Options{HostPort: srv.FrontendAddr(), Namespace: srv.Namespace(),
		Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: srv.Namespace()})
	c.Close()
	if err != nil {
		t.Fatalf("DescribeNamespace: %v", err)
	}
	if got := ns.GetNamespaceInfo().GetName(); got != "default" {
		t.Fatalf("namespace %q, want default", got)
	}

	if err := srv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if conn, err := net.DialTimeout("tcp", srv.FrontendAddr(), time.Second); err == nil {
		conn.Close()
		t.Fatalf("%s still accepts connections after Stop", srv.FrontendAddr())
	}
}

// A data directory the server cannot use is an error from Start, with the
// server's own words, not a hang.
func TestStartReportsAServerThatCannotStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	file := filepath.Join(t.TempDir(), "not-a-directory")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := temporaltest.Start(ctx, file)
	if err == nil {
		_ = srv.Stop()
		t.Fatal("Start succeeded with a file as its data directory")
	}
	if !strings.Contains(err.Error(), "exited before it was ready") {
		t.Fatalf("Start error = %v, want the server's exit reported", err)
	}
}

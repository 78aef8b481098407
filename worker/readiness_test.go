package worker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/workflows"
)

// TestStarterChecksItsNamespace: a Temporal that answers but lacks the
// configured namespace is not reachable for runs (the check /health and
// /ready show, and run starts make), and says why; the namespace that
// exists is.
func TestStarterChecksItsNamespace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		namespace string
		ok        bool
	}{{temporalNamespace, true}, {"no-such-namespace", false}} {
		c, err := client.NewLazyClient(client.Options{HostPort: temporalAddr, Namespace: tc.namespace,
			Logger: sdklog.NewStructuredLogger(quiet())})
		if err != nil {
			t.Fatal(err)
		}
		s := workflows.NewStarter(c, workflows.StarterOptions{Namespace: tc.namespace})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err, rerr := s.Check(ctx), s.Reachable(ctx)
		cancel()
		c.Close()
		if (err == nil) != tc.ok || (rerr == nil) != tc.ok {
			t.Fatalf("namespace %q: check %v, reachable %v", tc.namespace, err, rerr)
		}
		if !tc.ok && !strings.Contains(err.Error(), "TEMPORAL_NAMESPACE") {
			t.Fatalf("namespace %q: %v does not name the variable", tc.namespace, err)
		}
	}
	// Nothing listening: unreachable.
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1", Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := workflows.NewStarter(c, workflows.StarterOptions{}).Reachable(ctx); err == nil {
		t.Fatal("a Temporal that refuses connections is reachable")
	}
}

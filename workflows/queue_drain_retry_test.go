package workflows_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/workflows"
)

// TestQueueDrainOutlivesTheDatabase: the drain's reads fail for longer
// than one attempt's timeout (a database that does not answer, or loses
// every transaction to a deadlock, for three minutes); the drain keeps
// retrying instead of failing, which would leave its waiting invoices to
// the fallback wait, and releases the queue once the reads succeed.
func TestQueueDrainOutlivesTheDatabase(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(workflows.InvoiceQueueDrain, workflow.RegisterOptions{Name: workflows.QueueDrainWorkflowName})
	began := env.Now()
	var probes atomic.Int32
	env.RegisterActivityWithOptions(func(context.Context, uuid.UUID) (workflows.ProbeResult, error) {
		probes.Add(1)
		if env.Now().Sub(began) < 3*time.Minute {
			return workflows.ProbeResult{}, errors.New("the database does not answer")
		}
		return workflows.ProbeResult{Depth: 1, Answered: true, Rate: 600}, nil
	}, activity.RegisterOptions{Name: workflows.ActivityProbeQueue})
	var reads atomic.Int32
	env.RegisterActivityWithOptions(func(context.Context, workflows.DrainInput) (workflows.NextQueuedResult, error) {
		var out workflows.NextQueuedResult
		if reads.Add(1) == 1 {
			out.Depth, out.IRNs = 1, []string{"INV001-94ND90NR-20261124"}
		}
		return out, nil
	}, activity.RegisterOptions{Name: workflows.ActivityNextQueued})
	var released atomic.Int32
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, mock.Anything, workflows.ReleaseSignal, mock.Anything).Return(func(_, _, _, _ string, _ any) error {
		released.Add(1)
		return nil
	})
	env.ExecuteWorkflow(workflows.QueueDrainWorkflowName, workflows.DrainInput{ProjectID: uuid.Must(uuid.NewV7())})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("the drain failed: %v (%d probes)", env.GetWorkflowError(), probes.Load())
	}
	if released.Load() != 1 || probes.Load() < 3 {
		t.Fatalf("%d released after %d probes; want the invoice released after the failing probes", released.Load(), probes.Load())
	}
}

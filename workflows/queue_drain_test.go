package workflows_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/workflows"
)

// TestQueueDrainWake: a drain that finds its queue empty ends, unless an
// invoice woke it while it read (an invoice that began to wait as the
// drain was ending): then it reads the queue again and releases it.
func TestQueueDrainWake(t *testing.T) {
	for _, wake := range []bool{false, true} {
		var suite testsuite.WorkflowTestSuite
		env := suite.NewTestWorkflowEnvironment()
		env.RegisterWorkflowWithOptions(workflows.InvoiceQueueDrain, workflow.RegisterOptions{Name: workflows.QueueDrainWorkflowName})
		env.RegisterActivityWithOptions(func(context.Context, uuid.UUID) (workflows.ProbeResult, error) {
			return workflows.ProbeResult{Depth: 1, Answered: true, Rate: 600}, nil
		}, activity.RegisterOptions{Name: workflows.ActivityProbeQueue})
		var reads atomic.Int32
		released := make(chan string, 4)
		env.RegisterActivityWithOptions(func(_ context.Context, in workflows.DrainInput) (workflows.NextQueuedResult, error) {
			var out workflows.NextQueuedResult
			switch reads.Add(1) {
			case 1:
				// Empty as read; the invoice is queued and wakes the drain
				// before this answer is taken.
				if wake {
					env.SignalWorkflow(workflows.WakeSignal, nil)
				}
			case 2:
				out.Depth, out.IRNs = 1, []string{"INV001-94ND90NR-20261124"}
			}
			return out, nil
		}, activity.RegisterOptions{Name: workflows.ActivityNextQueued})
		env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, mock.Anything, workflows.ReleaseSignal, mock.Anything).Return(func(_, id, _, _ string, _ any) error {
			released <- id
			return nil
		})
		env.ExecuteWorkflow(workflows.QueueDrainWorkflowName, workflows.DrainInput{ProjectID: uuid.Must(uuid.NewV7())})
		if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
			t.Fatalf("wake %v: the drain did not end: %v", wake, env.GetWorkflowError())
		}
		close(released)
		n := 0
		for range released {
			n++
		}
		switch {
		case !wake && (reads.Load() != 1 || n != 0):
			t.Fatalf("without a wake: %d reads, %d released; want one read and an end", reads.Load(), n)
		case wake && (reads.Load() != 3 || n != 1):
			t.Fatalf("woken: %d reads, %d released; want the queue read again and its invoice released", reads.Load(), n)
		}
	}
}

package workflows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/runs"
)

// DefaultStartTimeout bounds a workflow start, so that an unreachable
// Temporal fails a request in seconds instead of hanging it.
const DefaultStartTimeout = 5 * time.Second

// runTimeout bounds a whole run; a run still going then is failed.
const runTimeout = time.Hour

// Starter starts, describes and abandons certification workflows over a
// Temporal client. It implements runs.Starter.
type Starter struct {
	c         client.Client
	timeout   time.Duration
	taskQueue string
	log       *slog.Logger
	namespace string

	// reachableAt is when the namespace last answered (Unix nanoseconds),
	// so that Reachable costs no call while Temporal answers.
	reachableAt atomic.Int64

	// wakes are the clearing shards being woken (WakeClearing), each
	// with whether another wake is pending.
	wakeMu sync.Mutex
	wakes  map[string]*bool
}

var (
	_ runs.Starter = (*Starter)(nil)
	_ runs.Prober  = (*Starter)(nil)
)

// StarterOptions configures NewStarter.
type StarterOptions struct {
	// StartTimeout bounds each start; default DefaultStartTimeout.
	StartTimeout time.Duration
	// TaskQueue is where the workflows go; default TaskQueue
	// (WebhookTaskQueue for a WebhookStarter). The workers must poll the
	// same queue.
	TaskQueue string
	// Namespace is the client's namespace, which Check describes; default
	// "default".
	Namespace string
	// Logger receives the starts made without search attributes (the
	// namespace lacks them); default slog.Default().
	Logger *slog.Logger
}

// NewStarter builds a Starter.
func NewStarter(c client.Client, opts StarterOptions) *Starter {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.TaskQueue == "" {
		opts.TaskQueue = TaskQueue
	}
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Starter{c: c, timeout: opts.StartTimeout, taskQueue: opts.TaskQueue, namespace: opts.Namespace, log: opts.Logger}
}

// StartCertificationRun starts the workflow of a run. The workflow id
// derives from the run id; starting a running run again returns it, and a
// finished run is never started again.
func (s *Starter) StartCertificationRun(ctx context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	opts := client.StartWorkflowOptions{
		ID:        WorkflowID(in.RunID),
		TaskQueue: s.taskQueue,
		// Operators find a tenant's runs by these (temporal workflow list
		// --query "ProjectId='…'", the Web UI's filter).
		TypedSearchAttributes: RunSearchAttributes(in),
		Memo:                  map[string]any{MemoRunID: in.RunID.String(), MemoProjectName: in.ProjectName},
		// Workers are shared fairly between tenants: the matching service
		// dispatches the tasks of each fairness key in turn (when the
		// server enables fairness), and activities inherit the key.
		Priority:                 temporal.Priority{FairnessKey: FairnessKey(in.OrganizationID)},
		WorkflowExecutionTimeout: runTimeout,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}
	run, err := s.c.ExecuteWorkflow(ctx, opts, CertificationRun, in)
	if err != nil && unregisteredSearchAttribute(err) {
		// A namespace whose search attributes were never registered still
		// runs certifications, only without them.
		s.log.WarnContext(ctx, "certification run started without search attributes: register them in the Temporal namespace (see docs/api-guide.md, Temporal search attributes)",
			"run_id", in.RunID.String(), "error", err.Error())
		opts.TypedSearchAttributes = temporal.SearchAttributes{}
		run, err = s.c.ExecuteWorkflow(ctx, opts, CertificationRun, in)
	}
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		// Started before (by another dispatcher) and already closed: it is
		// the run's one execution.
		return runs.Ref{WorkflowID: WorkflowID(in.RunID), TemporalRunID: started.RunId}, nil
	}
	if err != nil {
		return runs.Ref{}, err
	}
	s.reachableAt.Store(time.Now().UnixNano())
	return runs.Ref{WorkflowID: run.GetID(), TemporalRunID: run.GetRunID()}, nil
}

// RunSearchAttributes are the search attributes of a run's workflow:
// project, organization, invoice kind and environment.
func RunSearchAttributes(in runs.WorkflowInput) temporal.SearchAttributes {
	return temporal.NewSearchAttributes(
		SearchAttributeProjectID.ValueSet(in.ProjectID.String()),
		SearchAttributeOrganizationID.ValueSet(in.OrganizationID.String()),
		SearchAttributeInvoiceType.ValueSet(string(in.InvoiceType)),
		SearchAttributeEnvironment.ValueSet(string(in.Environment())),
	)
}

// unregisteredSearchAttribute reports whether a start was refused because
// the namespace does not know one of its search attributes.
func unregisteredSearchAttribute(err error) bool {
	var invalid *serviceerror.InvalidArgument
	return errors.As(err, &invalid) && strings.Contains(strings.ToLower(invalid.Message), "search attribute")
}

// FairnessKey is the fairness key of a tenant's workflows and activities:
// its organization id.
func FairnessKey(orgID uuid.UUID) string {
	if orgID == uuid.Nil {
		return ""
	}
	return "org-" + orgID.String()
}

// DescribeCertificationRun tells how the workflow of a run stands.
func (s *Starter) DescribeCertificationRun(ctx context.Context, runID uuid.UUID) (*runs.State, error) {
	d, err := s.c.DescribeWorkflowExecution(ctx, WorkflowID(runID), "")
	if err != nil {
		return nil, err
	}
	info := d.GetWorkflowExecutionInfo()
	st := &runs.State{Ref: runs.Ref{
		WorkflowID: info.GetExecution().GetWorkflowId(), TemporalRunID: info.GetExecution().GetRunId(),
	}}
	switch info.GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		st.Status = model.RunPassed
	case enumspb.WORKFLOW_EXECUTION_STATUS_FAILED:
		st.Status, st.Reason = model.RunFailed, "the workflow failed"
	case enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		st.Status, st.Reason = model.RunFailed, "the workflow was terminated"
	case enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		st.Status, st.Reason = model.RunFailed, "the run timed out"
	case enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		st.Status, st.Reason = model.RunCancelled, "the run was cancelled"
	default:
		st.Status = model.RunRunning
	}
	return st, nil
}

// AbandonCertificationRun terminates the workflow of a run.
func (s *Starter) AbandonCertificationRun(ctx context.Context, runID uuid.UUID, reason string) error {
	return s.c.TerminateWorkflow(ctx, WorkflowID(runID), "", reason)
}

// Progress asks a running workflow for its live progress (the
// QueryProgress query). A worker must be polling to answer.
func (s *Starter) Progress(ctx context.Context, runID uuid.UUID) (Progress, error) {
	var p Progress
	v, err := s.c.QueryWorkflow(ctx, WorkflowID(runID), "", QueryProgress)
	if err != nil {
		return p, err
	}
	err = v.Get(&p)
	return p, err
}

// Cancel asks the workflow of a run to stop; the run ends cancelled.
func (s *Starter) Cancel(ctx context.Context, runID uuid.UUID) error {
	return s.c.CancelWorkflow(ctx, WorkflowID(runID), "")
}

// Check reports whether Temporal answers and knows the client's
// namespace, for health and readiness checks: a frontend that answers
// without the namespace refuses every start.
func (s *Starter) Check(ctx context.Context) error {
	_, err := s.c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: s.namespace})
	if err != nil {
		var nf *serviceerror.NamespaceNotFound
		if errors.As(err, &nf) {
			return fmt.Errorf("temporal namespace %q does not exist (TEMPORAL_NAMESPACE)", s.namespace)
		}
		return err
	}
	s.reachableAt.Store(time.Now().UnixNano())
	return nil
}

// reachableFor is how long a successful call vouches for Temporal.
const reachableFor = 2 * time.Second

// reachableTimeout bounds Reachable's check.
const reachableTimeout = 2 * time.Second

// Reachable reports whether Temporal answers, checking at most once every
// reachableFor while it does (runs.Prober): run starts call it before
// recording a run, so that a Temporal that is down (refuses connections,
// lacks the namespace) answers unavailable. A Temporal that is only slow
// to answer the check counts as reachable.
func (s *Starter) Reachable(ctx context.Context) error {
	if time.Since(time.Unix(0, s.reachableAt.Load())) < reachableFor {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, reachableTimeout)
	defer cancel()
	err := s.Check(ctx)
	var slow *serviceerror.DeadlineExceeded
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &slow) {
		// Slow is not down: the run is recorded and, if the start is
		// slow too, dispatched in the background.
		return nil
	}
	return err
}

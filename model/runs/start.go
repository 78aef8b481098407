package runs

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

// errNoWorkflowEngine answers when this process has no Starter.
var errNoWorkflowEngine = model.Errorf(model.CodeUnavailable,
	"certification runs are unavailable: this server is not connected to the workflow engine (Temporal); set TEMPORAL_ADDRESS")

// Start starts a smoke run of a project: it answers at once with the
// queued run while a workflow executes the steps. Who may start one is
// decided here, for every transport: an API key holding the
// certification:run scope, on its own project (keys are minted by owners
// and admins), or an owner or admin of the project's organization. Members
// may read runs but not start them; anyone else's project is not found.
func (s *Service) Start(ctx context.Context, who *model.Principal, projectID uuid.UUID, in Input) (*View, error) {
	if who.IsKey() {
		if err := who.Require(model.ScopeCertificationRun); err != nil {
			return nil, err
		}
	}
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	payload, err := in.payloadJSON()
	if err != nil {
		return nil, err
	}
	pr, err := access.Project(ctx, s.st, who, projectID, access.Write)
	if err != nil {
		return nil, err
	}
	return s.start(ctx, pr, who.Actor(), in, payload)
}

// start records the run and then hands it to the workflow engine: the
// run is recorded queued, in one transaction with its audit entry, before
// its workflow starts, so that no workflow ever runs without its record
// (an outbox: the run's row is the message). When the engine does not
// answer in time the run stays queued and undispatched, and Dispatch,
// run in the background by the API processes, starts it; the workflow id
// derives from the run id, so a run is never executed twice however often
// it is dispatched. A workflow engine that is down (its reachability check
// fails) answers unavailable before anything is recorded.
func (s *Service) start(ctx context.Context, pr *model.Project, actor model.Ref, in Input, payload string) (*View, error) {
	dir := s.cfg.Authority
	if !pr.Configured || pr.BusinessID == "" || pr.ServiceID == "" || dir.BaseURL(pr) == "" ||
		len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"a certification run needs the project's tax authority settings and API credentials; set business_id, service_id, public_key, certificate, api_key and api_secret with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	if _, err := dir.URL(ctx, pr); err != nil {
		return nil, err
	}
	if s.cfg.Engine == nil {
		return nil, errNoWorkflowEngine
	}
	if err := s.reachable(ctx); err != nil {
		return nil, err
	}
	run := &model.CertificationRun{
		ID: model.NewID(), ProjectID: pr.ID, InvoiceType: model.InvoiceKind(in.InvoiceType), IssueDate: in.IssueDate,
		Status: model.RunQueued, InvoicePayload: payload, CreatedAt: s.now(),
	}
	run.WorkflowID = WorkflowID(run.ID)
	var (
		recorded *View
		answered bool
	)
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.checkQuota(ctx, tx, pr.ID); err != nil {
			return err
		}
		if err := tx.Runs().Create(ctx, run); err != nil {
			return err
		}
		if err := s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, actor, model.ActionCertificationStart, "certification_run", run.ID.String()); err != nil {
			return err
		}
		// Under an Idempotency-Key, the answer is kept in the run's own
		// commit: a retry is answered this run whatever happens to this
		// process from here on, and never records a second one.
		recorded = view(run, nil)
		var err error
		answered, err = tx.KeepAnswer(ctx, recorded)
		return err
	})
	if err != nil {
		return nil, err
	}
	// The run is accepted from here on: a dispatch that fails is retried
	// by Dispatch, never reported to the caller.
	if err := s.dispatch(ctx, run, pr); err != nil {
		s.cfg.Logger.WarnContext(ctx, "certification run recorded, its workflow not started yet; it is dispatched in the background",
			"run_id", run.ID.String(), "error", err.Error())
	}
	if answered {
		// The answer kept for retries is the run as recorded; this one is
		// the same, byte for byte (its workflow's execution shows in GET).
		return recorded, nil
	}
	return view(run, nil), nil
}

// WorkflowID is the id of a run's workflow: one per run, so that starting
// it again never executes it twice.
func WorkflowID(runID uuid.UUID) string { return "certification-run-" + runID.String() }

// errEngineDown answers a start while the workflow engine is unreachable.
var errEngineDown = &model.Error{Code: model.CodeUnavailable, RetryAfter: model.DependencyRetryAfter,
	Message: "cannot start the certification run: the workflow engine (Temporal) is unreachable; nothing was created, try again later"}

// Prober is implemented by a Starter that can tell, quickly, whether the
// workflow engine answers (workflows.Starter does, with a cached check of
// its namespace).
type Prober interface {
	Reachable(ctx context.Context) error
}

// reachable refuses a start while the engine is known to be down.
func (s *Service) reachable(ctx context.Context) error {
	p, ok := s.cfg.Engine.(Prober)
	if !ok {
		return nil
	}
	if err := p.Reachable(ctx); err != nil {
		s.cfg.Logger.WarnContext(ctx, "certification run refused: the workflow engine is unreachable", "error", err.Error())
		e := *errEngineDown
		e.Err = err
		return &e
	}
	return nil
}

// dispatchTimeout bounds one workflow start made while answering a
// request; a slower engine leaves the run to Dispatch.
const dispatchTimeout = 5 * time.Second

// dispatch starts the workflow of a recorded run and records the
// execution's id, which marks the run dispatched.
func (s *Service) dispatch(ctx context.Context, run *model.CertificationRun, pr *model.Project) error {
	dctx, cancel := context.WithTimeout(ctx, dispatchTimeout)
	defer cancel()
	ref, err := s.cfg.Engine.StartCertificationRun(dctx, WorkflowInput{
		RunID: run.ID, ProjectID: pr.ID, OrganizationID: pr.OrganizationID, InvoiceType: run.InvoiceType, IssueDate: run.IssueDate,
		Sandbox: pr.Environment == model.EnvironmentSandbox, ProjectName: pr.Name,
	})
	if err != nil {
		return err
	}
	if ref.TemporalRunID == "" {
		ref.TemporalRunID = "dispatched"
	}
	run.TemporalRunID = ref.TemporalRunID
	return s.st.Runs().SetTemporalID(context.WithoutCancel(ctx), run.ID, ref.TemporalRunID)
}

// QuotaRetryAfter is the Retry-After of a run refused over its project's
// concurrency: about the time a run takes.
const QuotaRetryAfter = 10 * time.Second

// activeWindow is how long a queued or running run counts against its
// project: a workflow runs at most this long (workflows.runTimeout).
const activeWindow = time.Hour

// checkQuota fails with rate_limited when the project has as many
// certification runs queued or running as allowed. Inside a transaction it
// holds the project's lock, so that concurrent starts cannot pass it.
func (s *Service) checkQuota(ctx context.Context, tx *store.Store, projectID uuid.UUID) error {
	limit := s.cfg.PerProject
	if limit < 0 {
		return nil
	}
	if err := tx.Projects().Lock(ctx, projectID); err != nil {
		return err
	}
	n, err := tx.Runs().CountActive(ctx, projectID, s.now().Add(-activeWindow))
	if err != nil {
		return err
	}
	if n >= limit {
		e := model.Errorf(model.CodeRateLimited,
			"this project already has %d certification runs queued or running, the most allowed at once; retry when one ends", n)
		e.RetryAfter = QuotaRetryAfter
		return e
	}
	return nil
}

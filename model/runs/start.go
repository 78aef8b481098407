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

// start starts the run's workflow, then records the run in one
// transaction; when the transaction fails the workflow is abandoned, and
// when the start fails nothing is written, so an unreachable workflow
// engine leaves no run behind. The start happens before the transaction so
// that no database lock is held while the engine answers (SQLite has one
// writer). The workflow id derives from the run id, so a retried start
// cannot run it twice, and the workflow's first activity waits for the row.
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
	// Refuse over the project's concurrency before the workflow starts;
	// the transaction below checks again under the project's lock.
	if err := s.checkQuota(ctx, s.st, pr.ID); err != nil {
		return nil, err
	}
	run := &model.CertificationRun{
		ID: model.NewID(), ProjectID: pr.ID, InvoiceType: model.InvoiceKind(in.InvoiceType), IssueDate: in.IssueDate,
		Status: model.RunQueued, InvoicePayload: payload, CreatedAt: s.now(),
	}
	ref, err := s.cfg.Engine.StartCertificationRun(ctx, WorkflowInput{
		RunID: run.ID, ProjectID: pr.ID, OrganizationID: pr.OrganizationID, InvoiceType: run.InvoiceType, IssueDate: run.IssueDate,
		Sandbox: pr.Environment == model.EnvironmentSandbox, ProjectName: pr.Name,
	})
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "certification workflow not started", "run_id", run.ID.String(), "error", err.Error())
		return nil, model.Wrap(model.CodeUnavailable, err,
			"cannot start the certification run: the workflow engine (Temporal) is unreachable; nothing was created, try again later")
	}
	run.WorkflowID, run.TemporalRunID = ref.WorkflowID, ref.TemporalRunID
	err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.checkQuota(ctx, tx, pr.ID); err != nil {
			return err
		}
		if err := tx.Runs().Create(ctx, run); err != nil {
			return err
		}
		return s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, actor, model.ActionCertificationStart, "certification_run", run.ID.String())
	})
	if err != nil {
		// Nothing was recorded: stop the workflow, which would otherwise
		// wait for a row that never comes.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), describeTimeout)
		if aerr := s.cfg.Engine.AbandonCertificationRun(actx, run.ID, "the run was not recorded: "+model.AsError(err).Message); aerr != nil {
			s.cfg.Logger.WarnContext(ctx, "certification workflow not abandoned", "run_id", run.ID.String(), "error", aerr.Error())
		}
		cancel()
		return nil, err
	}
	return view(run, nil), nil
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

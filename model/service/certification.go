package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// RunStarter starts and describes the workflows that execute certification
// runs. The service declares it so that it never imports the workflow
// engine; workflows.Starter implements it over a Temporal client.
type RunStarter interface {
	// StartCertificationRun starts the workflow of a run. Starting the
	// same run again must not create a second execution.
	StartCertificationRun(ctx context.Context, in RunStart) (RunRef, error)
	// DescribeCertificationRun tells how the workflow of a run stands.
	DescribeCertificationRun(ctx context.Context, runID uuid.UUID) (*RunState, error)
	// AbandonCertificationRun stops the workflow of a run whose start was
	// rolled back.
	AbandonCertificationRun(ctx context.Context, runID uuid.UUID, reason string) error
}

// RunStart is what the workflow of a run needs: ids and small values. The
// run's payload stays in the database.
type RunStart struct {
	RunID     uuid.UUID `json:"run_id"`
	ProjectID uuid.UUID `json:"project_id"`
	// OrganizationID is the tenant: the workflow engine shares its workers
	// fairly between tenants by it.
	OrganizationID uuid.UUID         `json:"organization_id"`
	InvoiceType    model.InvoiceKind `json:"invoice_type"`
	IssueDate      string            `json:"issue_date"`
	// Sandbox runs also verify their QR payload with the NRS sandbox
	// stand-in (the real NRS has no such endpoint).
	Sandbox bool `json:"sandbox"`
}

// RunRef names the workflow execution of a run.
type RunRef struct {
	WorkflowID    string
	TemporalRunID string
}

// RunState is how the workflow execution of a run stands: Status is
// running while it runs, then passed, failed (failed, terminated, timed
// out) or cancelled; Reason says why it ended when it did not pass.
type RunState struct {
	RunRef
	Status model.RunStatus
	Reason string
}

// CertificationInput starts a certification smoke run.
type CertificationInput struct {
	InvoiceType    string `json:"invoice_type" required:"true"`
	IssueDate      string `json:"issue_date" required:"true"`
	InvoicePayload any    `json:"invoice_payload"`
}

// Validate records every problem of the input and puts the invoice kind in
// its canonical form (see model.ParseInvoiceKind).
func (in *CertificationInput) Validate(p *model.Problems) {
	if k, ok := p.CheckInvoiceKind(in.InvoiceType, "invoice_type"); ok {
		in.InvoiceType = string(k)
	}
	p.CheckDate(in.IssueDate, "issue_date")
	if in.InvoicePayload == nil {
		return
	}
	if _, ok := in.InvoicePayload.(map[string]any); !ok {
		p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", "invoice_payload")
		return
	}
	// The payload is stored; PostgreSQL cannot hold U+0000 in JSON.
	p.CheckJSONNoNUL(in.InvoicePayload, "invoice_payload")
}

// payloadJSON returns the payload as JSON ("" when none).
func (in *CertificationInput) payloadJSON() (string, error) {
	if in.InvoicePayload == nil {
		return "", nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in.InvoicePayload); err != nil {
		return "", model.Invalid(model.ProblemValueError, "invoice_payload cannot be encoded as JSON", "invoice_payload")
	}
	return string(bytes.TrimSpace(buf.Bytes())), nil
}

// CertificationRunView is a certification run as clients see it: the
// stored evidence of its steps merged with the state of its workflow.
type CertificationRunView struct {
	RunID         uuid.UUID         `json:"run_id"`
	ProjectID     uuid.UUID         `json:"-"`
	Status        model.RunStatus   `json:"status"`
	InvoiceType   model.InvoiceKind `json:"invoice_type"`
	IssueDate     string            `json:"issue_date"`
	IRN           *string           `json:"irn"`
	FailureReason *string           `json:"failure_reason"`
	Steps         []StepView        `json:"steps"`
	CreatedAt     time.Time         `json:"created_at"`
	FinishedAt    *time.Time        `json:"finished_at"`
	Temporal      TemporalRef       `json:"temporal"`
}

// StepView is the evidence of one step of a run.
type StepView struct {
	Name       string           `json:"name"`
	Status     model.StepStatus `json:"status"`
	Attempts   int              `json:"attempts"`
	StartedAt  time.Time        `json:"started_at"`
	FinishedAt *time.Time       `json:"finished_at"`
	DurationMS *int64           `json:"duration_ms"`
	HTTPStatus *int             `json:"http_status"`
	NRSErrorID *string          `json:"nrs_error_id"`
	Message    string           `json:"message"`
}

// TemporalRef names a run's workflow execution, to find it in the Temporal
// UI.
type TemporalRef struct {
	WorkflowID string  `json:"workflow_id"`
	RunID      *string `json:"run_id"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func runView(r *model.CertificationRun, steps []model.CertificationStep) *CertificationRunView {
	v := &CertificationRunView{
		RunID: r.ID, ProjectID: r.ProjectID, Status: r.Status, InvoiceType: r.InvoiceType, IssueDate: r.IssueDate,
		IRN: optString(r.IRN), FailureReason: optString(r.FailureReason), Steps: make([]StepView, 0, len(steps)),
		CreatedAt: r.CreatedAt.UTC(), FinishedAt: utcPtr(r.FinishedAt),
		Temporal: TemporalRef{WorkflowID: r.WorkflowID, RunID: optString(r.TemporalRunID)},
	}
	for i := range steps {
		st := &steps[i]
		v.Steps = append(v.Steps, StepView{
			Name: st.Name, Status: st.Status, Attempts: st.Attempts, StartedAt: st.StartedAt.UTC(),
			FinishedAt: utcPtr(st.FinishedAt), DurationMS: st.DurationMS, HTTPStatus: st.HTTPStatus,
			NRSErrorID: optString(st.NRSErrorID), Message: st.Message,
		})
	}
	return v
}

// describeTimeout bounds the call to the workflow engine made while
// reading a run; past it the stored state is shown alone.
const describeTimeout = 2 * time.Second

// errNoWorkflowEngine answers when this process has no RunStarter.
var errNoWorkflowEngine = model.Errorf(model.CodeUnavailable,
	"certification runs are unavailable: this server is not connected to the workflow engine (Temporal); set TEMPORAL_ADDRESS")

// Who may start a run is decided here, for every transport: an API key
// holding the certification:run scope (keys are minted by owners and
// admins), or an owner or admin of the project's organization. Members may
// read runs but not start them; anyone else's project is not found.

// StartCertificationRun starts a smoke run of the key's project: it
// answers at once with the queued run while a workflow executes the steps.
func (s *Service) StartCertificationRun(ctx context.Context, k *model.KeyPrincipal, in CertificationInput) (*CertificationRunView, error) {
	if !k.Scopes.Has(model.ScopeCertificationRun) {
		return nil, model.Errorf(model.CodeForbidden, "this API key lacks the %q scope", model.ScopeCertificationRun)
	}
	payload, err := checkCertificationInput(&in)
	if err != nil {
		return nil, err
	}
	pr, err := s.store.Projects().ByID(ctx, k.ProjectID)
	if err != nil {
		return nil, err
	}
	return s.startRun(ctx, pr, Ref{Type: "api_key", ID: k.KeyID.String()}, in, payload)
}

// StartProjectCertificationRun starts a smoke run of one of the portal
// user's projects, for owners and admins of its organization (a member is
// forbidden); any other project is not found.
func (s *Service) StartProjectCertificationRun(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in CertificationInput) (*CertificationRunView, error) {
	payload, err := checkCertificationInput(&in)
	if err != nil {
		return nil, err
	}
	pr, err := s.projectForWriter(ctx, s.store, u, projectID)
	if err != nil {
		return nil, err
	}
	return s.startRun(ctx, pr, userActor(u.UserID), in, payload)
}

func checkCertificationInput(in *CertificationInput) (string, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return "", err
	}
	return in.payloadJSON()
}

// startRun starts the run's workflow, then records the run in one
// transaction; when the transaction fails the workflow is abandoned, and
// when the start fails nothing is written, so an unreachable workflow
// engine leaves no run behind. The start happens before the transaction so
// that no database lock is held while the engine answers (SQLite has one
// writer). The workflow id derives from the run id, so a retried start
// cannot run it twice, and the workflow's first activity waits for the row.
func (s *Service) startRun(ctx context.Context, pr *model.Project, actor Ref, in CertificationInput, payload string) (*CertificationRunView, error) {
	if !pr.Configured || pr.BusinessID == "" || pr.ServiceID == "" || s.baseURL(pr) == "" ||
		len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"a certification run needs the project's tax authority settings and API credentials; set business_id, service_id, public_key, certificate, api_key and api_secret with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	if _, err := s.authorityURL(ctx, pr); err != nil {
		return nil, err
	}
	if s.cfg.Runs == nil {
		return nil, errNoWorkflowEngine
	}
	// Refuse over the project's concurrency before the workflow starts;
	// the transaction below checks again under the project's lock.
	if err := s.checkRunQuota(ctx, s.store, pr.ID); err != nil {
		return nil, err
	}
	run := &model.CertificationRun{
		ID: newID(), ProjectID: pr.ID, InvoiceType: model.InvoiceKind(in.InvoiceType), IssueDate: in.IssueDate,
		Status: model.RunQueued, InvoicePayload: payload, CreatedAt: s.now(),
	}
	ref, err := s.cfg.Runs.StartCertificationRun(ctx, RunStart{
		RunID: run.ID, ProjectID: pr.ID, OrganizationID: pr.OrganizationID, InvoiceType: run.InvoiceType, IssueDate: run.IssueDate,
		Sandbox: pr.Environment == model.EnvironmentSandbox,
	})
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "certification workflow not started", "run_id", run.ID.String(), "error", err.Error())
		return nil, model.Wrap(model.CodeUnavailable, err,
			"cannot start the certification run: the workflow engine (Temporal) is unreachable; nothing was created, try again later")
	}
	run.WorkflowID, run.TemporalRunID = ref.WorkflowID, ref.TemporalRunID
	err = s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.checkRunQuota(ctx, tx, pr.ID); err != nil {
			return err
		}
		if err := tx.Runs().Create(ctx, run); err != nil {
			return err
		}
		return s.audit(ctx, tx, &pr.OrganizationID, actor, model.ActionCertificationStart, "certification_run", run.ID.String())
	})
	if err != nil {
		// Nothing was recorded: stop the workflow, which would otherwise
		// wait for a row that never comes.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), describeTimeout)
		if aerr := s.cfg.Runs.AbandonCertificationRun(actx, run.ID, "the run was not recorded: "+model.AsError(err).Message); aerr != nil {
			s.cfg.Logger.WarnContext(ctx, "certification workflow not abandoned", "run_id", run.ID.String(), "error", aerr.Error())
		}
		cancel()
		return nil, err
	}
	return runView(run, nil), nil
}

// CertificationRun returns a run of the key's project with its evidence;
// a run of any other project is not found.
func (s *Service) CertificationRun(ctx context.Context, k *model.KeyPrincipal, runID uuid.UUID) (*CertificationRunView, error) {
	r, err := s.store.Runs().Get(ctx, k.ProjectID, runID)
	if err != nil {
		return nil, err
	}
	return s.certificationRunView(ctx, r)
}

// ProjectCertificationRun returns a run of a project of the portal user's
// organizations; any other run is not found.
func (s *Service) ProjectCertificationRun(ctx context.Context, u *UserPrincipal, runID uuid.UUID) (*CertificationRunView, error) {
	r, err := s.store.Runs().GetForUser(ctx, u.UserID, runID)
	if err != nil {
		return nil, err
	}
	return s.certificationRunView(ctx, r)
}

// ProjectCertificationRuns lists one page of a project's runs, newest
// first, without their steps.
func (s *Service) ProjectCertificationRuns(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in PageInput) (*List[CertificationRunView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if _, err := s.store.Projects().Get(ctx, projectID, u.UserID); err != nil {
		return nil, err
	}
	rows, more, err := s.store.Runs().List(ctx, projectID, page)
	if err != nil {
		return nil, err
	}
	out := &List[CertificationRunView]{Items: make([]CertificationRunView, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, *runView(&rows[i], nil))
	}
	if more {
		out.NextCursor = cursorFor(rows[len(rows)-1].ID)
	}
	return out, nil
}

// certificationRunView merges a stored run with its workflow. The
// activities record every change, so the store is the truth while the
// workflow runs; the workflow engine is asked only about unfinished runs,
// to catch an execution that ended without recording it (terminated, timed
// out), which is then recorded. An unreachable engine leaves the stored
// state as it is.
func (s *Service) certificationRunView(ctx context.Context, r *model.CertificationRun) (*CertificationRunView, error) {
	if !r.Status.Final() && s.cfg.Runs != nil {
		dctx, cancel := context.WithTimeout(ctx, describeTimeout)
		st, err := s.cfg.Runs.DescribeCertificationRun(dctx, r.ID)
		cancel()
		switch {
		case err != nil:
			s.cfg.Logger.DebugContext(ctx, "certification workflow not described", "run_id", r.ID.String(), "error", err.Error())
		case st.Status.Final():
			if r.TemporalRunID == "" {
				r.TemporalRunID = st.TemporalRunID
			}
			if err := s.settleRun(ctx, r, st); err != nil {
				return nil, err
			}
		}
	}
	steps, err := s.store.Runs().Steps(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	return runView(r, steps), nil
}

// settleRun records the end of a run whose workflow ended without its
// final activity (terminated, timed out) and reloads it.
func (s *Service) settleRun(ctx context.Context, r *model.CertificationRun, st *RunState) error {
	status, reason := st.Status, st.Reason
	if status == model.RunPassed {
		// A workflow completes only after recording its pass; reload.
		status, reason = model.RunFailed, "the workflow completed without recording the run's result"
	}
	if _, err := s.store.Runs().Finish(ctx, r.ID, status, reason, s.now()); err != nil {
		return err
	}
	fresh, err := s.store.Runs().ByID(ctx, r.ID)
	if err != nil {
		return err
	}
	*r = *fresh
	return nil
}

// watchInterval is how often a watched run is read again.
const watchInterval = 250 * time.Millisecond

// WatchCertificationRun sends the run's view now and again every time it
// changes (a step starts or ends, the run ends), then closes the channel
// when the run is over or ctx ends. Other transports (a GraphQL
// subscription) use it to push progress. It reads the store, so it sees
// runs executed by workers in other processes.
func (s *Service) WatchCertificationRun(ctx context.Context, k *model.KeyPrincipal, runID uuid.UUID) (<-chan CertificationRunView, error) {
	return s.watchRun(ctx, func(ctx context.Context) (*CertificationRunView, error) {
		return s.CertificationRun(ctx, k, runID)
	})
}

// WatchProjectCertificationRun is WatchCertificationRun for a portal user.
func (s *Service) WatchProjectCertificationRun(ctx context.Context, u *UserPrincipal, runID uuid.UUID) (<-chan CertificationRunView, error) {
	return s.watchRun(ctx, func(ctx context.Context) (*CertificationRunView, error) {
		return s.ProjectCertificationRun(ctx, u, runID)
	})
}

func (s *Service) watchRun(ctx context.Context, load func(context.Context) (*CertificationRunView, error)) (<-chan CertificationRunView, error) {
	first, err := load(ctx)
	if err != nil {
		return nil, err
	}
	out := make(chan CertificationRunView, 1)
	go func() {
		defer close(out)
		last, _ := json.Marshal(first)
		out <- *first
		if first.Status.Final() {
			return
		}
		t := time.NewTicker(watchInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			v, err := load(ctx)
			if err != nil {
				if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
					s.cfg.Logger.WarnContext(ctx, "certification run watch stopped", "error", err.Error())
				}
				return
			}
			cur, _ := json.Marshal(v)
			if !bytes.Equal(cur, last) {
				select {
				case out <- *v:
				case <-ctx.Done():
					return
				}
				last = cur
			}
			if v.Status.Final() {
				return
			}
		}
	}()
	return out, nil
}

// The use cases below serve a run's own activities, which hold the run's
// id and so already know the project is the caller's.

// GenerateIRNForProject issues an IRN for a project exactly as
// POST /invoices/irn/generate does for its keys (and records it).
func (s *Service) GenerateIRNForProject(ctx context.Context, projectID uuid.UUID, in IRNInput) (*IRNResult, error) {
	return s.GenerateIRN(ctx, &model.KeyPrincipal{ProjectID: projectID}, in)
}

// QRCodeForProject builds the QR payload of one of a project's IRNs exactly
// as POST /invoices/qr/generate does.
func (s *Service) QRCodeForProject(ctx context.Context, projectID uuid.UUID, in QRInput) (*QRResult, error) {
	return s.QRCode(ctx, &model.KeyPrincipal{ProjectID: projectID}, in, false)
}

// ValidateInvoiceForProject validates a payload with the project's
// authority exactly as POST /invoices/schema/validate does.
func (s *Service) ValidateInvoiceForProject(ctx context.Context, projectID uuid.UUID, in ValidateInvoiceInput) (*model.ValidationReport, error) {
	return s.ValidateInvoice(ctx, &model.KeyPrincipal{ProjectID: projectID}, in)
}

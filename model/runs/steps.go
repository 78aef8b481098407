package runs

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/codelists"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Steps is the entry point of a run's workflow activities: everything they
// read or write in the database goes through it, and it is the only writer
// of a run's state and evidence besides Start and Settle. The activities
// hold the run's id, which the run's project started, so they act for that
// project without a principal: they use the invoice and code list use
// cases through the ...ForProject entry points, never as an API key.
type Steps struct {
	st        *store.Store
	cfg       Config
	invoices  *invoices.Service
	codeLists *codelists.Service
}

// NewSteps builds the activities' entry point over st, issuing IRNs and QR
// payloads and validating through inv, refreshing code lists through cl.
func NewSteps(st *store.Store, cfg Config, inv *invoices.Service, cl *codelists.Service) *Steps {
	cfg.defaults()
	return &Steps{st: st, cfg: cfg, invoices: inv, codeLists: cl}
}

// Begin moves a queued run to running. It is a no-op for a run that is
// already running or over, and not_found for a run that does not exist
// (yet: the row commits just after its workflow starts).
func (s *Steps) Begin(ctx context.Context, runID uuid.UUID) error {
	return begin(ctx, s.st, runID, model.StoredTime(s.cfg.Now()))
}

// Finish ends a run with a final status; the first final status wins, so
// repeating it changes nothing. Steps still running or retrying are
// marked failed.
func (s *Steps) Finish(ctx context.Context, runID uuid.UUID, status model.RunStatus, reason string) error {
	_, err := finish(ctx, s.st, runID, status, reason, model.StoredTime(s.cfg.Now()))
	return err
}

// Run reads a run.
func (s *Steps) Run(ctx context.Context, runID uuid.UUID) (*model.CertificationRun, error) {
	return s.st.Runs().ByID(ctx, runID)
}

// Step reads the evidence of one step of a run.
func (s *Steps) Step(ctx context.Context, runID uuid.UUID, name string) (*model.CertificationStep, error) {
	return s.st.Runs().Step(ctx, runID, name)
}

// Record writes the evidence of a step: one row per run and step name, so
// a retried activity rewrites its row instead of adding one. A step that
// already passed keeps its evidence, and a run that is over refuses the
// write with model.RunOver (a conflict wrapping model.ErrRunOver).
func (s *Steps) Record(ctx context.Context, ev *model.CertificationStep) error {
	return s.st.Runs().SaveStep(ctx, ev)
}

// SetPayload records the payload a run sends and its IRN; a run that is
// over refuses it with model.RunOver.
func (s *Steps) SetPayload(ctx context.Context, runID uuid.UUID, payload, irn string) error {
	return s.st.Runs().SetPayload(ctx, runID, payload, irn)
}

// Credentials opens the authority settings of the run's project.
func (s *Steps) Credentials(ctx context.Context, run *model.CertificationRun) (*authority.Credentials, error) {
	return s.cfg.Authority.Credentials(ctx, run.ProjectID)
}

// Authority returns the rules of a tax authority.
func (s *Steps) Authority(code string) (model.Authority, bool) {
	return s.cfg.Authority.Authorities().Lookup(code)
}

// OfficialBaseURL is the authority host code lists of env may be stored
// from.
func (s *Steps) OfficialBaseURL(env model.Environment) string {
	return s.cfg.Authority.OfficialBaseURL(env)
}

// ValidateInvoice validates a payload for the run's project exactly as
// the API does.
func (s *Steps) ValidateInvoice(ctx context.Context, run *model.CertificationRun, in invoices.ValidateInput) (*model.ValidationReport, error) {
	return s.invoices.ValidateForProject(ctx, run.ProjectID, in)
}

// GenerateIRN issues an IRN for the run's project exactly as the API does,
// recording it with the project's IRNs.
func (s *Steps) GenerateIRN(ctx context.Context, run *model.CertificationRun, in invoices.IRNInput) (*invoices.IRNResult, error) {
	return s.invoices.GenerateIRNForProject(ctx, run.ProjectID, in)
}

// QRCode builds the QR payload of one of the run's project's IRNs exactly
// as the API does.
func (s *Steps) QRCode(ctx context.Context, run *model.CertificationRun, in invoices.QRInput) (*invoices.QRResult, error) {
	return s.invoices.QRCodeForProject(ctx, run.ProjectID, in)
}

// RefreshCodeLists fetches the code lists of the run's project's authority
// with f, storing them only when official (f talks to the official host of
// the project's environment).
func (s *Steps) RefreshCodeLists(ctx context.Context, run *model.CertificationRun, f codelists.Fetcher, official bool) (*codelists.Result, error) {
	return s.codeLists.Refresh(ctx, run.ProjectID, f, official)
}

// Package runs owns certification runs: it is the only writer of a run's
// state and of the evidence of its steps. The API starts and reads runs
// through Service; the workflow that executes a run reaches the database
// only through Steps, this package's entry point for its activities.
// Reads never write.
//
// # States and transitions
//
// A run is one of queued, running, passed, failed or cancelled; the last
// three are final, and the first final status recorded wins (finishing a
// run again changes nothing, so every transition is safe to repeat).
//
//	queued  → running    the workflow's first activity began (Steps.Begin)
//	running → passed     every step passed (Steps.Finish)
//	queued, running → failed
//	                     a step failed for good (Steps.Finish), or the
//	                     workflow ended without recording its end:
//	                     terminated, timed out (Service.Settle)
//	queued, running → cancelled
//	                     the workflow was cancelled (Steps.Finish, or
//	                     Service.Settle)
//
// Start records a run queued, in one transaction with its audit entry,
// after the workflow engine accepted its workflow; when recording fails the
// workflow is abandoned, and when the engine refuses nothing is recorded.
// A step's evidence is one row per run and step name: running when it
// begins, then passed, retrying or failed; a step that passed keeps its
// evidence, and when a run finishes its steps still running or retrying are
// marked failed. Once a run is final its evidence and payload no longer
// change: a late write (an activity that outlived the run's cancellation)
// is refused with model.RunOver, checked in the write's own transaction
// under the run's row lock.
//
// Get shows the engine's verdict on a run whose workflow ended without
// recording it, without writing it; Settle, run in the background by the
// API process, records it.
package runs

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Starter starts and describes the workflows that execute runs. This
// package declares it so that it never imports the workflow engine;
// workflows.Starter implements it over a Temporal client.
type Starter interface {
	// StartCertificationRun starts the workflow of a run. Starting the
	// same run again must not create a second execution.
	StartCertificationRun(ctx context.Context, in WorkflowInput) (Ref, error)
	// DescribeCertificationRun tells how the workflow of a run stands.
	DescribeCertificationRun(ctx context.Context, runID uuid.UUID) (*State, error)
	// AbandonCertificationRun stops the workflow of a run whose start was
	// rolled back.
	AbandonCertificationRun(ctx context.Context, runID uuid.UUID, reason string) error
}

// WorkflowInput is the input of a run's workflow: ids and small values.
// The run's payload stays in the database.
type WorkflowInput struct {
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
	// ProjectName labels the workflow for operators (its memo); it is not
	// part of the workflow's input.
	ProjectName string `json:"-"`
}

// Environment is the environment of the run's project.
func (in WorkflowInput) Environment() model.Environment {
	if in.Sandbox {
		return model.EnvironmentSandbox
	}
	return model.EnvironmentProduction
}

// Ref names the workflow execution of a run.
type Ref struct {
	WorkflowID    string
	TemporalRunID string
}

// State is how the workflow execution of a run stands: Status is running
// while it runs, then passed, failed (failed, terminated, timed out) or
// cancelled; Reason says why it ended when it did not pass.
type State struct {
	Ref
	Status model.RunStatus
	Reason string
}

// Config configures New and NewSteps.
type Config struct {
	// Engine starts and describes the runs' workflows; nil makes Start
	// answer unavailable.
	Engine Starter
	// Authority says where each project calls its tax authority. Required.
	Authority *authority.Directory
	// Trail records run starts in the audit log.
	Trail access.Trail
	// PerProject bounds a project's runs queued or running at once
	// (negative: none).
	PerProject int
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives failures to reach the workflow engine; default
	// slog.Default().
	Logger *slog.Logger
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Service starts and reads runs.
type Service struct {
	st  *store.Store
	cfg Config
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	cfg.defaults()
	return &Service{st: st, cfg: cfg}
}

func (s *Service) now() time.Time { return model.StoredTime(s.cfg.Now()) }

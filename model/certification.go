package model

import (
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// RunStatus is the state of a certification run.
type RunStatus string

// Run states. Passed, failed and cancelled are final.
const (
	RunQueued    RunStatus = "queued"
	RunRunning   RunStatus = "running"
	RunPassed    RunStatus = "passed"
	RunFailed    RunStatus = "failed"
	RunCancelled RunStatus = "cancelled"
)

// RunStatuses lists every run status.
var RunStatuses = []RunStatus{RunQueued, RunRunning, RunPassed, RunFailed, RunCancelled}

// Final reports whether the run has ended.
func (s RunStatus) Final() bool { return s == RunPassed || s == RunFailed || s == RunCancelled }

// ErrRunOver is the cause of the conflict a write to a run that has ended
// meets: once a run is passed, failed or cancelled its evidence and payload
// no longer change (an activity that outlived its workflow's cancellation
// is refused).
var ErrRunOver = errors.New("the certification run is over")

// RunOver is the error of a write refused because the run ended with status.
func RunOver(status RunStatus) *Error {
	return Wrap(CodeConflict, ErrRunOver, "the certification run is %s: its evidence no longer changes", status)
}

// StepStatus is the state of one step of a certification run.
type StepStatus string

// Step states. A step that failed in a way worth retrying is "retrying"
// until an attempt passes or the run gives up.
const (
	StepRunning  StepStatus = "running"
	StepRetrying StepStatus = "retrying"
	StepPassed   StepStatus = "passed"
	StepFailed   StepStatus = "failed"
)

// CertificationRun is one smoke run of a project against its tax
// authority's API, executed as a Temporal workflow. InvoicePayload is the
// payload the caller gave (JSON, empty when the run builds one from a
// template); Payload is the payload the run actually sends, once built.
type CertificationRun struct {
	bun.BaseModel `bun:"table:certification_runs"`

	ID             uuid.UUID   `bun:"id,pk"`
	ProjectID      uuid.UUID   `bun:"project_id"`
	InvoiceType    InvoiceKind `bun:"invoice_type"`
	IssueDate      string      `bun:"issue_date"` // YYYY-MM-DD
	Status         RunStatus   `bun:"status"`
	IRN            string      `bun:"irn,nullzero"`
	InvoicePayload string      `bun:"invoice_payload,nullzero"`
	Payload        string      `bun:"payload,nullzero"`
	FailureReason  string      `bun:"failure_reason,nullzero"`
	WorkflowID     string      `bun:"workflow_id"`
	TemporalRunID  string      `bun:"temporal_run_id,nullzero"`
	CreatedAt      time.Time   `bun:"created_at"`
	StartedAt      *time.Time  `bun:"started_at"`
	FinishedAt     *time.Time  `bun:"finished_at"`
}

// CertificationStep is the evidence of one step of a run: one row per step,
// rewritten by every attempt. Messages never hold secrets.
type CertificationStep struct {
	bun.BaseModel `bun:"table:certification_steps"`

	RunID      uuid.UUID  `bun:"run_id,pk"`
	Name       string     `bun:"name,pk"`
	Seq        int        `bun:"seq"`
	Status     StepStatus `bun:"status"`
	Attempts   int        `bun:"attempts"`
	StartedAt  time.Time  `bun:"started_at"`
	FinishedAt *time.Time `bun:"finished_at"`
	DurationMS *int64     `bun:"duration_ms"`
	HTTPStatus *int       `bun:"http_status"`
	NRSErrorID string     `bun:"nrs_error_id,nullzero"`
	Message    string     `bun:"message"`
}

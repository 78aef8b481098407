// Package submissions owns the invoices submitted to a project's tax
// authority (NRS). What the API calls an "invoice" (the /invoices
// resources, the invoice.* events, GraphQL's Invoice) is a submission
// here: one invoice sent for clearance, with its state, event log and
// archive entry. The work done on an invoice before it is submitted
// (validation, IRN, QR, rendering) is model/invoices; see the glossary of
// docs/architecture.md. This package is the only writer of a submitted invoice's state,
// of its event log and of its archive entry. The API submits, reads and
// searches invoices through Service; the workflow that clears an invoice
// (workflows.InvoiceSubmission, one per invoice) reaches the database only
// through Steps, this package's entry point for its activities, and the
// authority only through Gateway, the seam this package declares and an
// authority's adapter implements (model/mbs for NRS). What submission
// reads of a payload (issue date and time, customer TIN, billing
// references) comes from the authority's rules, model.Authority.Facts.
//
// # States and transitions
//
// Every change of state goes through one function, transition, which
// checks the move against the table below, writes the invoice and appends
// a "state" event in the same transaction (the place where anything that
// must happen atomically with a state change, such as an outgoing event,
// is added). Moving to the state an invoice is already in changes nothing,
// so every step is safe to repeat.
//
//	queued          → submitting       the workflow's first activity began
//	submitting      → queued           NRS did not answer a validation (nothing
//	                                   signed or transmitted yet): the invoice
//	                                   waits in the queue (queue.go)
//	submitting      → signed           NRS signed the invoice (sign answered 2xx,
//	                                   or confirm found it signed after a lost answer)
//	signed          → transmitted      NRS transmitted a B2B or B2G invoice
//	signed          → confirmed        B2C: NRS confirms the signed invoice
//	transmitted     → confirmed        NRS confirms the transmitted invoice
//	submitting, signed, transmitted, outcome_unknown → rejected
//	                                   NRS refused a call (4xx): its error id
//	                                   and message are kept
//	submitting, signed → outcome_unknown
//	                                   the answer of a sign or transmit never
//	                                   arrived (timeout, reset connection, 5xx)
//	outcome_unknown → submitting, signed, transmitted
//	                                   settled: NRS was asked (confirm, transmit
//	                                   lookup) whether the call went through;
//	                                   back to the state before it when it did
//	                                   not, so that it is sent again
//
// Confirmed and rejected are final. A confirmed invoice is archived in
// the same transaction: its payload as cleared, NRS's answer and its QR
// join the project's hash chain (archive.go) and are kept for the
// retention period.
//
// # Exactly once
//
// A sign or transmit request is counted (sign_sent, transmit_sent) before
// it is sent. Once one was sent, no other is sent before NRS has been
// asked whether the earlier one went through, so that an answer lost on
// the way back never leads to a second submission.
//
// Submit records an invoice queued after the workflow engine accepted its
// workflow (whose id derives from the project and the IRN, so a retried
// submission never runs twice); when recording fails the workflow is
// abandoned, and when the engine refuses nothing is recorded.
package submissions

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Starter starts the workflows that clear invoices. This package declares
// it so that it never imports the workflow engine; workflows.Starter
// implements it over a Temporal client.
type Starter interface {
	// StartSubmission starts the workflow of an invoice. Starting the same
	// invoice (project and IRN) again must not create a second execution.
	StartSubmission(ctx context.Context, in WorkflowInput) error
	// AbandonSubmission stops the workflow (by its id) of an invoice whose recording
	// was rolled back.
	AbandonSubmission(ctx context.Context, workflowID, reason string) error
	// UpdatePayment has the authority record an invoice's payment status,
	// durably, and waits for its answer.
	UpdatePayment(ctx context.Context, in PaymentInput) error
}

// WorkflowInput is the input of an invoice's workflow: ids and small
// values; the payload stays in the database.
type WorkflowInput struct {
	ProjectID      uuid.UUID         `json:"project_id"`
	OrganizationID uuid.UUID         `json:"organization_id"`
	IRN            string            `json:"irn"`
	InvoiceType    model.InvoiceKind `json:"invoice_type"`
	Environment    model.Environment `json:"environment"`
	// WorkflowID is the workflow's id (WorkflowID); empty means
	// LegacyWorkflowID.
	WorkflowID string `json:"workflow_id,omitempty"`
	// OneStep has the workflow clear the invoice in one local activity
	// (all its steps, its database writes batched) instead of one per
	// step; executions started without it keep the step-by-step shape.
	OneStep bool `json:"one_step,omitempty"`
}

// PaymentInput asks for an invoice's payment status to be sent to the
// authority.
type PaymentInput struct {
	InvoiceID uuid.UUID `json:"invoice_id"`
	ProjectID uuid.UUID `json:"project_id"`
	IRN       string    `json:"irn"`
	// UpdateID names this update: each update is one workflow.
	UpdateID      uuid.UUID `json:"update_id"`
	PaymentStatus string    `json:"payment_status"`
	Reference     string    `json:"reference"`
}

// WorkflowID is the workflow id of an invoice: it derives from the project
// and the IRN, so that the same invoice can never be cleared by two
// executions, keyed with key (Config.WorkflowKey) so that the IRN is not
// in clear in Temporal (its lists, its Web UI, its database): the id is
// invoice-<project id>-<first 128 bits of HMAC-SHA-256(key, project id,
// IRN) in hex>.
func WorkflowID(key []byte, projectID uuid.UUID, irn string) string {
	m := hmac.New(sha256.New, key)
	m.Write(projectID[:])
	m.Write([]byte{0})
	m.Write([]byte(irn))
	return "invoice-" + projectID.String() + "-" + hex.EncodeToString(m.Sum(nil)[:16])
}

// LegacyWorkflowID is the id invoices' workflows had before WorkflowID
// was keyed: the IRN in clear. Workflows started under it finish under it;
// their invoices' rows keep it.
func LegacyWorkflowID(projectID uuid.UUID, irn string) string {
	return "invoice-" + projectID.String() + "-" + irn
}

// DefaultRetention is how long archived invoices are kept: six years.
const DefaultRetention = 6 * 365 * 24 * time.Hour

// Config configures New and NewSteps.
type Config struct {
	// Engine starts the invoices' workflows; nil makes Submit answer
	// unavailable.
	Engine Starter
	// Authority says where each project calls its tax authority. Required.
	Authority *authority.Directory
	// Retention is how long archived invoices are kept; default
	// DefaultRetention.
	Retention time.Duration
	// ArchiveKey keys the archive's hash chain (HMAC-SHA-256), like the
	// audit log's. Required for archiving.
	ArchiveKey []byte
	// WorkflowKey keys the invoices' workflow ids (WorkflowID), derived
	// from a server secret: every API process must have the same.
	WorkflowKey []byte
	// ClearingShards, above zero, has invoices cleared by that many
	// clearing shards per project instead of a workflow each (see
	// "Clearing in shards", clearing.go); it needs an Engine that is a
	// Clearer. At most MaxClearingShards. Every API process must have the
	// same, and the workers must register the shards' workflow.
	ClearingShards int
	// ClearingBacklog is how many invoices a project's clearing shards may
	// own before Submit and SubmitBatch refuse more (rate_limited, with
	// Retry-After); default DefaultClearingBacklog.
	ClearingBacklog int
	// B2CWindow is how long after its issue a B2C invoice must be
	// reported; default DefaultB2CWindow (see deadline.go).
	B2CWindow time.Duration
	// AtRiskMargin is how close to its deadline a waiting invoice is
	// flagged at risk; default DefaultAtRiskMargin.
	AtRiskMargin time.Duration
	// RatePerMinute is how many waiting invoices of a project are sent a
	// minute once NRS answers again; default DefaultQueueRate.
	RatePerMinute int
	// Health says how NRS answers in an environment (ok, degraded, down),
	// for the queue's view; default always ok.
	Health func(model.Environment) string
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
	c.ClearingShards = min(max(c.ClearingShards, 0), MaxClearingShards)
	if c.ClearingBacklog <= 0 {
		c.ClearingBacklog = DefaultClearingBacklog
	}
	if c.B2CWindow <= 0 {
		c.B2CWindow = DefaultB2CWindow
	}
	if c.Health == nil {
		c.Health = func(model.Environment) string { return model.AuthorityOK }
	}
	if c.RatePerMinute <= 0 {
		c.RatePerMinute = DefaultQueueRate
	}
	if c.AtRiskMargin <= 0 {
		c.AtRiskMargin = DefaultAtRiskMargin
	}
	if c.Retention <= 0 {
		c.Retention = DefaultRetention
	}
}

// Service submits, reads and searches invoices.
type Service struct {
	core
}

// core is what Service and Steps share: the store, the configuration and
// the one transition function.
type core struct {
	st       *store.Store
	cfg      Config
	invoices *invoices.Service
	backlog  *backlogCache
}

// New builds the service over st, validating and issuing IRNs through inv.
func New(st *store.Store, cfg Config, inv *invoices.Service) *Service {
	cfg.defaults()
	return &Service{core{st: st, cfg: cfg, invoices: inv, backlog: &backlogCache{}}}
}

func (c *core) now() time.Time { return model.StoredTime(c.cfg.Now()) }

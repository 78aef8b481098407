package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// InvoiceStatus is the state of an invoice submitted to the tax authority.
// model/submissions documents the transitions.
type InvoiceStatus string

// Invoice states. Confirmed and rejected are final.
const (
	InvoiceQueued         InvoiceStatus = "queued"
	InvoiceSubmitting     InvoiceStatus = "submitting"
	InvoiceSigned         InvoiceStatus = "signed"
	InvoiceTransmitted    InvoiceStatus = "transmitted"
	InvoiceConfirmed      InvoiceStatus = "confirmed"
	InvoiceRejected       InvoiceStatus = "rejected"
	InvoiceOutcomeUnknown InvoiceStatus = "outcome_unknown"
)

// InvoiceStatuses lists every invoice status in lifecycle order.
var InvoiceStatuses = []InvoiceStatus{InvoiceQueued, InvoiceSubmitting, InvoiceSigned, InvoiceTransmitted,
	InvoiceConfirmed, InvoiceRejected, InvoiceOutcomeUnknown}

// Final reports whether the invoice's lifecycle has ended.
func (s InvoiceStatus) Final() bool { return s == InvoiceConfirmed || s == InvoiceRejected }

// Valid reports whether s is one of InvoiceStatuses.
func (s InvoiceStatus) Valid() bool {
	for _, v := range InvoiceStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// Calls of the authority that change its state, named in
// SubmittedInvoice.PendingCall while their answer is being settled.
const (
	CallSign     = "sign"
	CallTransmit = "transmit"
)

// SubmittedInvoice is an invoice submitted to a project's tax authority,
// executed by one Temporal workflow (WorkflowID derives from the project
// and the IRN). Payload is the invoice JSON exactly as sent to the
// authority; PayloadHash its SHA-256 (hex). SignSent and TransmitSent
// count the sign and transmit requests sent: once one was sent, the
// authority is asked whether it went through before any other is sent.
type SubmittedInvoice struct {
	bun.BaseModel `bun:"table:submitted_invoices"`

	ID              uuid.UUID     `bun:"id,pk"`
	ProjectID       uuid.UUID     `bun:"project_id"`
	OrganizationID  uuid.UUID     `bun:"organization_id"`
	Environment     Environment   `bun:"environment"`
	IRN             string        `bun:"irn"`
	InvoiceType     InvoiceKind   `bun:"invoice_type"`
	InvoiceTypeCode string        `bun:"invoice_type_code"`
	Payload         string        `bun:"payload"`
	PayloadHash     string        `bun:"payload_hash"`
	Status          InvoiceStatus `bun:"status"`
	PendingCall     string        `bun:"pending_call,nullzero"`
	SignSent        int           `bun:"sign_sent"`
	TransmitSent    int           `bun:"transmit_sent"`
	// LastSentAt is when the last sign or transmit request was sent: the
	// authority is not asked whether it went through before that request
	// has certainly been given up by the client.
	LastSentAt      *time.Time `bun:"last_sent_at"`
	EventSeq        int        `bun:"event_seq"`
	NRSErrorID      string     `bun:"nrs_error_id,nullzero"`
	NRSErrorMessage string     `bun:"nrs_error_message,nullzero"`
	CustomerTIN     string     `bun:"customer_tin,nullzero"`
	IssueDate       string     `bun:"issue_date"`
	// BillingReference is the IRN a credit or debit note refers to.
	BillingReference string `bun:"billing_reference,nullzero"`
	PaymentStatus    string `bun:"payment_status,nullzero"`
	QRCodeData       string `bun:"qr_code_data,nullzero"`
	WorkflowID       string `bun:"workflow_id"`
	// ClearingShard is the clearing shard that owns the invoice (see
	// model/submissions, "Clearing in shards"); nil: the invoice's own
	// workflow (WorkflowID) does. Only the shard's writes change it.
	ClearingShard *int `bun:"clearing_shard"`
	// DeadlineAt is when the invoice must be cleared by (see
	// model/submissions.DeadlineOf); DeadlineAtRisk says it may miss it
	// (still waiting near it), DeadlineMissed that it passed before NRS
	// confirmed the invoice.
	DeadlineAt     time.Time  `bun:"deadline_at"`
	DeadlineAtRisk bool       `bun:"deadline_at_risk"`
	DeadlineMissed bool       `bun:"deadline_missed"`
	CreatedAt      time.Time  `bun:"created_at"`
	UpdatedAt      time.Time  `bun:"updated_at"`
	SignedAt       *time.Time `bun:"signed_at"`
	TransmittedAt  *time.Time `bun:"transmitted_at"`
	ConfirmedAt    *time.Time `bun:"confirmed_at"`
	// The archive: a confirmed invoice's place in its project's hash
	// chain, and how long it is kept.
	ArchiveSeq      *int64     `bun:"archive_seq"`
	ArchivePrevHash string     `bun:"archive_prev_hash,nullzero"`
	ArchiveHash     string     `bun:"archive_hash,nullzero"`
	ArchivedAt      *time.Time `bun:"archived_at"`
	RetainUntil     *time.Time `bun:"retain_until"`
}

// Invoice event kinds.
const (
	EventState    = "state"
	EventExchange = "exchange"
)

// InvoiceEvent is one entry of an invoice's log: a state change, or one
// exchange with the tax authority (its operation, attempt, latency, HTTP
// status, NRS error id, and the request and answer bodies without
// secrets). Seq numbers an invoice's events from 1.
type InvoiceEvent struct {
	bun.BaseModel `bun:"table:invoice_events"`

	InvoiceID    uuid.UUID     `bun:"invoice_id,pk"`
	Seq          int           `bun:"seq,pk"`
	ProjectID    uuid.UUID     `bun:"project_id"`
	Kind         string        `bun:"kind"`
	FromStatus   InvoiceStatus `bun:"from_status,nullzero"`
	ToStatus     InvoiceStatus `bun:"to_status,nullzero"`
	Operation    string        `bun:"operation,nullzero"`
	Attempt      *int          `bun:"attempt"`
	LatencyMS    *int64        `bun:"latency_ms"`
	HTTPStatus   *int          `bun:"http_status"`
	NRSErrorID   string        `bun:"nrs_error_id,nullzero"`
	RequestBody  string        `bun:"request_body,nullzero"`
	ResponseBody string        `bun:"response_body,nullzero"`
	Message      string        `bun:"message"`
	CreatedAt    time.Time     `bun:"created_at"`
}

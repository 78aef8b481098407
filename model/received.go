package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Events of received invoices: one when an invoice NRS holds for the
// project's business is stored in its inbox, one when its receipt is
// confirmed to NRS, and one per decision the buyer records. The data is the
// received invoice as the API shows it (without the document).
const (
	EventReceivedInvoiceReceived  = "received_invoice.received"
	EventReceivedInvoiceConfirmed = "received_invoice.confirmed"
	EventReceivedInvoiceAccepted  = "received_invoice.accepted"
	EventReceivedInvoiceRejected  = "received_invoice.rejected"
)

// Decisions of a received invoice. NRS publishes no accept or reject call
// for a buyer (integrator-evidence.md, mbs-api.md): the decision is the
// buyer's record in einvoice and is not sent to NRS.
const (
	DecisionNone     = ""
	DecisionAccepted = "accepted"
	DecisionRejected = "rejected"
)

// ReceivedInvoice is an invoice a supplier transmitted to the project's
// business through NRS, pulled, downloaded (opened when sealed) and stored
// once per IRN. ConfirmedAt is set once NRS took the receipt confirmation.
type ReceivedInvoice struct {
	bun.BaseModel `bun:"table:received_invoices"`

	ID              uuid.UUID  `bun:"id,pk"`
	ProjectID       uuid.UUID  `bun:"project_id"`
	IRN             string     `bun:"irn"`
	SupplierTIN     string     `bun:"supplier_tin"`
	SupplierName    string     `bun:"supplier_name"`
	CustomerTIN     string     `bun:"customer_tin"`
	InvoiceTypeCode string     `bun:"invoice_type_code"`
	InvoiceKind     string     `bun:"invoice_kind"`
	IssueDate       string     `bun:"issue_date"`
	DueDate         string     `bun:"due_date"`
	Currency        string     `bun:"currency"`
	PayableAmount   string     `bun:"payable_amount"`
	PaymentStatus   string     `bun:"payment_status"`
	Sealed          bool       `bun:"sealed"`
	Document        string     `bun:"document"`
	Decision        string     `bun:"decision"`
	DecisionReason  string     `bun:"decision_reason"`
	DecidedAt       *time.Time `bun:"decided_at"`
	ConfirmedAt     *time.Time `bun:"confirmed_at"`
	ReceivedAt      time.Time  `bun:"received_at"`
	UpdatedAt       time.Time  `bun:"updated_at"`
}

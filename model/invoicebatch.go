package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// BatchOutcome is what became of one invoice of a batch when the batch was
// submitted.
type BatchOutcome string

// Batch outcomes.
const (
	// BatchAccepted: the item is an invoice, recorded by this batch or
	// already submitted with the same IRN and payload.
	BatchAccepted BatchOutcome = "accepted"
	// BatchInvalid: the item was refused with its problems; nothing of
	// it was stored.
	BatchInvalid BatchOutcome = "invalid"
	// BatchConflict: the item's IRN was already submitted (before, or by
	// an earlier item of the batch) with another payload.
	BatchConflict BatchOutcome = "conflict"
)

// InvoiceBatch is one submission of several invoices at once
// (POST /api/v2/invoices/batch): its items are recorded with it, in
// request order, in the transaction that records its accepted invoices.
type InvoiceBatch struct {
	bun.BaseModel `bun:"table:invoice_batches"`

	ID             uuid.UUID `bun:"id,pk"`
	ProjectID      uuid.UUID `bun:"project_id"`
	OrganizationID uuid.UUID `bun:"organization_id"`
	ItemCount      int       `bun:"item_count"`
	CreatedAt      time.Time `bun:"created_at"`
}

// InvoiceBatchItem is one item of a batch: the invoice it became
// (accepted), or why it was refused: Problems (invalid, as JSON, located
// from the item) or Message (conflict).
type InvoiceBatchItem struct {
	bun.BaseModel `bun:"table:invoice_batch_items"`

	BatchID   uuid.UUID    `bun:"batch_id,pk"`
	Index     int          `bun:"idx,pk"`
	ProjectID uuid.UUID    `bun:"project_id"`
	Outcome   BatchOutcome `bun:"outcome"`
	InvoiceID *uuid.UUID   `bun:"invoice_id"`
	IRN       string       `bun:"irn,nullzero"`
	Problems  string       `bun:"problems,nullzero"`
	Message   string       `bun:"message,nullzero"`
}

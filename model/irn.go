package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// IssuedIRN records an IRN a project generated, so that the same invoice
// reference always gets the same IRN and never a second one.
type IssuedIRN struct {
	bun.BaseModel `bun:"table:irns"`

	ProjectID        uuid.UUID `bun:"project_id,pk"`
	InvoiceReference string    `bun:"invoice_reference,pk"` // upper case
	IssueDate        string    `bun:"issue_date"`           // YYYY-MM-DD
	IRN              string    `bun:"irn"`
	InvoiceTypeCode  string    `bun:"invoice_type_code"`
	CreatedAt        time.Time `bun:"created_at"`
}

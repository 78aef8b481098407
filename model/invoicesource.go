package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Source formats of a converted invoice.
const (
	SourceUBL = "ubl"
	// SourceNote is a credit or debit note built from an invoice: its
	// document is the request, its report names the invoice.
	SourceNote = "note"
)

// InvoiceSource is the document a submitted invoice was converted from,
// kept with it: Format (SourceUBL, SourceNote), the Document as
// received, the conversion's mapping Report (JSON) and Carried (JSON):
// what the document said that the authority's invoice has no field for
// but its UBL gives back.
type InvoiceSource struct {
	bun.BaseModel `bun:"table:invoice_sources"`

	InvoiceID uuid.UUID `bun:"invoice_id,pk"`
	ProjectID uuid.UUID `bun:"project_id"`
	Format    string    `bun:"format"`
	Document  string    `bun:"document"`
	Report    string    `bun:"report"`
	Carried   string    `bun:"carried"`
	CreatedAt time.Time `bun:"created_at"`
}

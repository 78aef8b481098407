package sandboxdb

import (
	"time"

	"github.com/uptrace/bun"
)

// Business is a business the stand-in acts as NRS for. Owner is whoever
// registered it (an einvoice project): one business per owner, and only its
// owner may register it again. The API secret and the taxpayer password are
// kept as hashes.
type Business struct {
	bun.BaseModel `bun:"table:nrs_sandbox_businesses"`

	BusinessID    string    `bun:"business_id,pk"`
	Owner         string    `bun:"owner"`
	EntityID      string    `bun:"entity_id"`
	ServiceID     string    `bun:"service_id"`
	TIN           string    `bun:"tin"`
	Name          string    `bun:"name"`
	Email         string    `bun:"email"`
	Certificate   string    `bun:"certificate"`
	PublicKey     string    `bun:"public_key"`
	PrivateKey    string    `bun:"private_key"`
	QREncryption  string    `bun:"qr_encryption"`
	APIKey        string    `bun:"api_key"`
	APISecretHash string    `bun:"api_secret_hash"`
	PasswordHash  string    `bun:"password_hash"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

// Party is a party a business created with CreateParty, with the postal
// address the stand-in gave an id to.
type Party struct {
	bun.BaseModel `bun:"table:nrs_sandbox_parties"`

	ID                  string    `bun:"id,pk"`
	BusinessID          string    `bun:"business_id"`
	PartyName           string    `bun:"party_name"`
	TIN                 string    `bun:"tin"`
	Email               string    `bun:"email"`
	Telephone           string    `bun:"telephone"`
	BusinessDescription string    `bun:"business_description"`
	PostalAddressID     string    `bun:"postal_address_id"`
	StreetName          string    `bun:"street_name"`
	CityName            string    `bun:"city_name"`
	PostalZone          string    `bun:"postal_zone"`
	Country             string    `bun:"country"`
	CreatedAt           time.Time `bun:"created_at"`
}

// Entry statuses of an invoice.
const (
	EntryValidated = "VALIDATED"
	EntrySigned    = "SIGNED"
)

// Invoice is one IRN of one business: validated, then signed, perhaps
// transmitted to its buyer and delivered (the buyer confirmed receipt).
// Payload is the request body as sent, byte for byte.
type Invoice struct {
	bun.BaseModel `bun:"table:nrs_sandbox_invoices"`

	BusinessID           string     `bun:"business_id,pk"`
	IRN                  string     `bun:"irn,pk"`
	EntryStatus          string     `bun:"entry_status"`
	InvoiceTypeCode      string     `bun:"invoice_type_code"`
	InvoiceKind          string     `bun:"invoice_kind"`
	IssueDate            string     `bun:"issue_date"`
	DueDate              string     `bun:"due_date"`
	DocumentCurrencyCode string     `bun:"document_currency_code"`
	TaxCurrencyCode      string     `bun:"tax_currency_code"`
	PaymentStatus        string     `bun:"payment_status"`
	PaymentReference     string     `bun:"payment_reference"`
	CustomerTIN          string     `bun:"customer_tin"`
	CustomerPartyID      string     `bun:"customer_party_id"`
	Payload              string     `bun:"payload"`
	PayloadBytes         int64      `bun:"payload_bytes"`
	CreatedAt            time.Time  `bun:"created_at"`
	ValidatedAt          *time.Time `bun:"validated_at"`
	SignedAt             *time.Time `bun:"signed_at"`
	TransmittedAt        *time.Time `bun:"transmitted_at"`
	DeliveredAt          *time.Time `bun:"delivered_at"`
	PaymentUpdatedAt     *time.Time `bun:"payment_updated_at"`
}

// Signed reports whether NRS holds the invoice (sign succeeded).
func (i *Invoice) Signed() bool { return i.EntryStatus == EntrySigned }

// Transmitted reports whether the invoice went to its buyer.
func (i *Invoice) Transmitted() bool { return i.TransmittedAt != nil }

// Delivered reports whether the buyer confirmed receipt.
func (i *Invoice) Delivered() bool { return i.DeliveredAt != nil }

// attempt counts the calls of one endpoint for one IRN (SBXRETRY).
type attempt struct {
	bun.BaseModel `bun:"table:nrs_sandbox_attempts"`

	BusinessID string    `bun:"business_id,pk"`
	Operation  string    `bun:"operation,pk"`
	IRN        string    `bun:"irn,pk"`
	Attempts   int       `bun:"attempts"`
	CreatedAt  time.Time `bun:"created_at"`
}

// Page asks for one page of a search: Number from 1, Size rows, ordered by
// the column SortBy (one the search allows) and then by the row's key.
type Page struct {
	Number int
	Size   int
	SortBy string
	Desc   bool
}

func (p Page) offset() int { return (p.Number - 1) * p.Size }

func (p Page) order(allowed map[string]string, fallback, key string) string {
	col, ok := allowed[p.SortBy]
	if !ok {
		col = fallback
	}
	dir := " ASC"
	if p.Desc {
		dir = " DESC"
	}
	return col + dir + ", " + key + dir
}

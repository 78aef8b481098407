package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Project is one integration of an organization with a tax authority, in one
// environment. Its authority settings say which business it issues for.
type Project struct {
	bun.BaseModel `bun:"table:projects"`

	ID             uuid.UUID   `bun:"id,pk"`
	OrganizationID uuid.UUID   `bun:"organization_id"`
	Name           string      `bun:"name"`
	Environment    Environment `bun:"environment"`
	CreatedAt      time.Time   `bun:"created_at"`
	UpdatedAt      time.Time   `bun:"updated_at"`
	// ValidationProfile is the profile the project's invoices are
	// validated with when a request names none (ProfileNRS when unset).
	ValidationProfile ValidationProfile `bun:"validation_profile,default:'nrs'"`
	// ClearanceDeadlineMinutes is how long after it was accepted a B2B or
	// B2G invoice must be cleared (bounded by ClearanceDeadlineMinutes).
	ClearanceDeadlineMinutes int `bun:"clearance_deadline_minutes,default:60"`
	// QueueRatePerMinute is how many of the project's waiting invoices are
	// sent a minute once NRS answers again (bounded by QueueRatePerMinute);
	// nil: the operator's default.
	QueueRatePerMinute *int `bun:"queue_rate_per_minute"`
	// PostPaymentReport says whether and how an invoice set PAID is
	// reported to NRS's VAT report endpoint (PostPaymentReports).
	PostPaymentReport string `bun:"post_payment_report,default:'off'"`

	// Authority settings. Secret material is sealed (AES-256-GCM) and only
	// ever opened by model/authority.
	TaxAuthorityCode string       `bun:"tax_authority_code"`
	BusinessID       string       `bun:"business_id,nullzero"`
	ServiceID        string       `bun:"service_id,nullzero"`
	PublicKey        string       `bun:"public_key,nullzero"` // PEM
	CertificateEnc   []byte       `bun:"certificate_enc,nullzero"`
	PrivateKeyEnc    []byte       `bun:"private_key_enc,nullzero"` // sandbox only
	APIKeyEnc        []byte       `bun:"api_key_enc,nullzero"`
	APISecretEnc     []byte       `bun:"api_secret_enc,nullzero"`
	BaseURL          string       `bun:"base_url,nullzero"`
	QREncryption     QREncryption `bun:"qr_encryption"`
	Configured       bool         `bun:"configured"`
}

// Post-payment VAT report settings of a project (Project.PostPaymentReport).
const (
	// PostPaymentReportOff sends no report (the default).
	PostPaymentReportOff = "off"
	// PostPaymentReportPostpayment posts the snake_case report to
	// /api/v1/vat/postpayment, as live integrations send it.
	PostPaymentReportPostpayment = "postpayment"
	// PostPaymentReportLegacy posts FIRS-MBS 1.0.0's camelCase report to
	// /v1/vat/postPayment.
	PostPaymentReportLegacy = "legacy"
)

// PostPaymentReports lists the accepted values of post_payment_report, the
// default first.
var PostPaymentReports = []string{PostPaymentReportOff, PostPaymentReportPostpayment, PostPaymentReportLegacy}

package submissions

import (
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// View is a submitted invoice as the API shows it (without its payload).
type View struct {
	ID               uuid.UUID           `json:"id"`
	ProjectID        uuid.UUID           `json:"project_id"`
	IRN              string              `json:"irn"`
	Status           model.InvoiceStatus `json:"status"`
	InvoiceType      model.InvoiceKind   `json:"invoice_type"`
	InvoiceTypeCode  string              `json:"invoice_type_code"`
	PayloadHash      string              `json:"payload_hash"`
	IssueDate        string              `json:"issue_date"`
	CustomerTIN      *string             `json:"customer_tin"`
	BillingReference *string             `json:"billing_reference"`
	PaymentStatus    *string             `json:"payment_status"`
	QRCodeData       *string             `json:"qr_code_data"`
	// PendingCall is the call whose answer is being settled
	// (outcome_unknown).
	PendingCall *string    `json:"pending_call"`
	NRSError    *NRSError  `json:"nrs_error"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	SignedAt    *time.Time `json:"signed_at"`
	// TransmittedAt is set for B2B and B2G invoices once transmitted.
	TransmittedAt *time.Time `json:"transmitted_at"`
	ConfirmedAt   *time.Time `json:"confirmed_at"`
	// DeadlineAt is when the invoice must be cleared by (docs/invoices.md,
	// "Deadlines"); DeadlineAtRisk that it may miss it, DeadlineMissed that
	// it passed before NRS confirmed the invoice.
	DeadlineAt     time.Time `json:"deadline_at"`
	DeadlineAtRisk bool      `json:"deadline_at_risk"`
	DeadlineMissed bool      `json:"deadline_missed"`
	Links          Links     `json:"links"`
}

// NRSError is NRS's refusal of a rejected invoice.
type NRSError struct {
	ID      string `json:"id"`
	Message string `json:"message"`
}

// Links are the API paths of an invoice's resources.
type Links struct {
	Self    string `json:"self"`
	Events  string `json:"events"`
	PDF     string `json:"pdf"`
	Payment string `json:"payment"`
	// UBL is the confirmed invoice as UBL 2.1 (also GET Self with
	// Accept: application/xml).
	UBL string `json:"ubl"`
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func view(inv *model.SubmittedInvoice) *View {
	self := "/api/v2/invoices/" + inv.ID.String()
	v := &View{
		ID: inv.ID, ProjectID: inv.ProjectID, IRN: inv.IRN, Status: inv.Status, InvoiceType: inv.InvoiceType,
		InvoiceTypeCode: inv.InvoiceTypeCode, PayloadHash: inv.PayloadHash, IssueDate: inv.IssueDate,
		CustomerTIN: opt(inv.CustomerTIN), BillingReference: opt(inv.BillingReference),
		PaymentStatus: opt(inv.PaymentStatus), QRCodeData: opt(inv.QRCodeData), PendingCall: opt(inv.PendingCall),
		CreatedAt: inv.CreatedAt.UTC(), UpdatedAt: inv.UpdatedAt.UTC(), SignedAt: model.UTC(inv.SignedAt),
		TransmittedAt: model.UTC(inv.TransmittedAt), ConfirmedAt: model.UTC(inv.ConfirmedAt),
		DeadlineAt: inv.DeadlineAt.UTC(), DeadlineAtRisk: inv.DeadlineAtRisk, DeadlineMissed: inv.DeadlineMissed,
		Links: Links{Self: self, Events: self + "/events", PDF: self + "/pdf", Payment: self + "/payment", UBL: self + "/ubl"},
	}
	if inv.Status == model.InvoiceRejected {
		v.NRSError = &NRSError{ID: inv.NRSErrorID, Message: inv.NRSErrorMessage}
	}
	return v
}

// EventView is one event of an invoice's log.
type EventView struct {
	Seq        int                  `json:"seq"`
	Kind       string               `json:"kind"`
	FromStatus *model.InvoiceStatus `json:"from_status"`
	ToStatus   *model.InvoiceStatus `json:"to_status"`
	// Operation is the NRS call of an exchange (invoice_sign, transmit, ...).
	Operation    *string   `json:"operation"`
	Attempt      *int      `json:"attempt"`
	LatencyMS    *int64    `json:"latency_ms"`
	HTTPStatus   *int      `json:"http_status"`
	NRSErrorID   *string   `json:"nrs_error_id"`
	RequestBody  *string   `json:"request_body"`
	ResponseBody *string   `json:"response_body"`
	Message      string    `json:"message"`
	CreatedAt    time.Time `json:"created_at"`
}

func optStatus(s model.InvoiceStatus) *model.InvoiceStatus {
	if s == "" {
		return nil
	}
	return &s
}

func eventView(e *model.InvoiceEvent) EventView {
	return EventView{
		Seq: e.Seq, Kind: e.Kind, FromStatus: optStatus(e.FromStatus), ToStatus: optStatus(e.ToStatus),
		Operation: opt(e.Operation), Attempt: e.Attempt, LatencyMS: e.LatencyMS, HTTPStatus: e.HTTPStatus,
		NRSErrorID: opt(e.NRSErrorID), RequestBody: opt(e.RequestBody), ResponseBody: opt(e.ResponseBody),
		Message: e.Message, CreatedAt: e.CreatedAt.UTC(),
	}
}

// EventList is one page of an invoice's events, oldest first.
type EventList struct {
	Items []EventView `json:"items"`
	// NextCursor continues the list (the last seq shown); nil at the end.
	NextCursor *string `json:"next_cursor"`
}

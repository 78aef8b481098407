package submissions

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
)

// Gateway is a tax authority's API as invoice submission reaches it: the
// one seam between the invoice activities (workflows) and an authority's
// adapter (model/mbs for NRS). The activities keep the invoice's state,
// the exactly-once bookkeeping (MarkSent, settling a lost answer with
// Find before sending again) and the retries; an adapter only makes the
// calls and describes each as an Exchange.
type Gateway interface {
	// Open is a project's connection to its authority, from the
	// project's credentials. An unusable setting is an error.
	Open(creds *authority.Credentials) (Connection, error)
	// Hold is how long a queued invoice of env should wait before its
	// first calls are tried (0: it need not wait): the authority is
	// known not to answer them for now (a circuit breaker open or
	// probing).
	Hold(env model.Environment) time.Duration
}

// Calls of an invoice's submission, besides model.CallSign (the signing
// or registration of the invoice at the authority) and model.CallTransmit
// (its transmission to the buyer), as Connection.Steps lists them.
const (
	// CallValidateIRN has the authority check the invoice's IRN.
	CallValidateIRN = "validate_irn"
	// CallValidatePayload has the authority check the invoice's payload.
	CallValidatePayload = "validate_payload"
	// CallConfirm asks the authority where the invoice stands.
	CallConfirm = "confirm"
)

// Connection is one project's calls to its tax authority. Every call
// answers the exchange to record (never nil; an Operation of "" when
// nothing could be attempted) and an error, which is a *CallError whenever
// the call was tried.
type Connection interface {
	// Steps lists the calls an invoice of kind takes, in order: some of
	// CallValidateIRN, CallValidatePayload, model.CallSign,
	// model.CallTransmit and CallConfirm. A step the list leaves out is
	// done by doing nothing.
	Steps(kind model.InvoiceKind) []string
	// Validate makes a check before signing (CallValidateIRN,
	// CallValidatePayload). An invoice the authority cannot be asked
	// about is an invalid *model.Error.
	Validate(ctx context.Context, inv *model.SubmittedInvoice, call string) (*Exchange, error)
	// Send sends model.CallSign or model.CallTransmit once. The caller
	// counts the request before (Steps.MarkSent) and, after a lost
	// answer, asks Find before sending again.
	Send(ctx context.Context, inv *model.SubmittedInvoice, call string) (*Exchange, error)
	// Find asks whether an earlier Send of call went through: found when
	// it did; an answer with status 404 (or found false without error)
	// means it did not.
	Find(ctx context.Context, inv *model.SubmittedInvoice, call string) (found bool, ex *Exchange, err error)
	// Confirm asks where the invoice stands; without error it is cleared.
	Confirm(ctx context.Context, inv *model.SubmittedInvoice) (Confirmation, *Exchange, error)
	// UpdatePayment sends the invoice's payment status.
	UpdatePayment(ctx context.Context, inv *model.SubmittedInvoice, in PaymentInput) (*Exchange, error)
}

// Confirmation is the authority's word on a cleared invoice.
type Confirmation struct {
	// QRCode is the QR content the authority issued; "" when it issues
	// none (einvoice then builds it locally).
	QRCode string
	// Message describes the invoice's standing for its log.
	Message string
}

// Reporter is a Connection whose authority takes a report after an
// invoice is paid (NRS's post-payment VAT report). A connection that
// does not implement it sends none.
type Reporter interface {
	// ReportOperations are the exchange operations of a report: one
	// answered 2xx in the invoice's log means it was sent.
	ReportOperations() []string
	// Report sends the report of inv, paid at paidAt. A report that
	// cannot be built from the invoice is an invalid *model.Error.
	Report(ctx context.Context, inv *model.SubmittedInvoice, paidAt time.Time) (*Exchange, error)
}

// CallError is a call to the authority that failed, as the activities act
// on it.
type CallError struct {
	// Status is the authority's HTTP status; 0 when no answer came.
	Status int
	// ID is the authority's error id, when it gave one.
	ID string
	// Message describes the failure for the invoice's log, without
	// secrets.
	Message string
	// RetryAfter is how long the authority asked to wait (0: not said).
	RetryAfter time.Duration
	// Retryable says that the same call may succeed later: no answer,
	// a timeout, 429, 5xx.
	Retryable bool
	// NotSent says that the call certainly never reached the authority
	// (refused by an open breaker, held back by a pace, a 429 answered
	// before any work, a connection never made).
	NotSent bool
	// Err is the adapter's own error.
	Err error
}

func (e *CallError) Error() string { return e.Message }

// Unwrap is the adapter's error.
func (e *CallError) Unwrap() error { return e.Err }

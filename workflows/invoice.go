package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// Registered names of the invoice workflows.
const (
	InvoiceWorkflowName = "InvoiceSubmission"
	PaymentWorkflowName = "InvoicePaymentUpdate"
)

// Search attributes of invoice workflows, so that the Temporal UI and
// `temporal workflow list --query` find a project's invoices
// (ProjectId = '...' AND InvoiceStatus = 'rejected'). All are keywords;
// `einvoice dev` registers them (RegisterInvoiceSearchAttributes), a
// cluster's operator with `temporal operator search-attribute create`
// (docs/invoices.md). Without them invoices are cleared all the same.
var (
	SearchProjectID      = temporal.NewSearchAttributeKeyKeyword("ProjectId")
	SearchOrganizationID = temporal.NewSearchAttributeKeyKeyword("OrganizationId")
	SearchInvoiceType    = temporal.NewSearchAttributeKeyKeyword("InvoiceType")
	SearchEnvironment    = temporal.NewSearchAttributeKeyKeyword("Environment")
	SearchInvoiceStatus  = temporal.NewSearchAttributeKeyKeyword("InvoiceStatus")
)

// SearchAttributeNames are the names of every custom search attribute the
// workflows use (all keywords).
var SearchAttributeNames = []string{"ProjectId", "OrganizationId", "InvoiceType", "Environment", "InvoiceStatus"}

// InvoiceResult is how an invoice's workflow ended: confirmed or rejected.
type InvoiceResult struct {
	Status model.InvoiceStatus `json:"status"`
	IRN    string              `json:"irn"`
}

// invoiceActivityOptions apply to every activity of an invoice. The
// authority being unavailable is retried without a bound on attempts (a
// day at most): an invoice waits for NRS instead of failing. Waits grow
// to a minute.
var invoiceActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
	HeartbeatTimeout:       10 * time.Second,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        200 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		NonRetryableErrorTypes: []string{ErrInvalid, ErrRunMissing},
	},
}

// InvoiceSubmission clears one invoice at its tax authority: irn/validate,
// invoice/validate, sign, transmit (B2B and B2G), confirm. It only
// orchestrates: each activity does its call, records the exchange and the
// state through submissions.Steps, and answers the invoice's state. A
// rejection ends the workflow with the invoice rejected; an answer lost on
// the way back is settled by the next attempt of the same activity, which
// asks NRS before sending again. When the workflow was started with the
// InvoiceStatus search attribute, it keeps it up to date.
func InvoiceSubmission(ctx workflow.Context, in submissions.WorkflowInput) (InvoiceResult, error) {
	ctx = workflow.WithActivityOptions(ctx, invoiceActivityOptions)
	var a *InvoiceActivities
	_, indexed := workflow.GetTypedSearchAttributes(ctx).GetKeyword(SearchInvoiceStatus)
	status := model.InvoiceQueued
	step := InvoiceStep{ProjectID: in.ProjectID, IRN: in.IRN}
	for _, fn := range []struct {
		f    any
		skip bool
	}{
		{f: a.BeginInvoice},
		{f: a.ValidateInvoiceIRN},
		{f: a.ValidateInvoicePayload},
		{f: a.SignSubmitted},
		{f: a.TransmitSubmitted, skip: !in.InvoiceType.Transmitted()},
		{f: a.ConfirmSubmitted},
	} {
		if fn.skip {
			continue
		}
		var out InvoiceStepResult
		if err := workflow.ExecuteActivity(ctx, fn.f, step).Get(ctx, &out); err != nil {
			return InvoiceResult{}, err
		}
		step.InvoiceID = out.InvoiceID
		if out.Status != status && indexed {
			if err := workflow.UpsertTypedSearchAttributes(ctx, SearchInvoiceStatus.ValueSet(string(out.Status))); err != nil {
				return InvoiceResult{}, err
			}
		}
		status = out.Status
		if status == model.InvoiceRejected {
			break
		}
	}
	return InvoiceResult{Status: status, IRN: in.IRN}, nil
}

// paymentActivityOptions bound a payment update: the API waits for it.
var paymentActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Minute,
	ScheduleToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        200 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        5 * time.Second,
		MaximumAttempts:        6,
		NonRetryableErrorTypes: []string{ErrInvalid, ErrRejected},
	},
}

// InvoicePaymentUpdate sends one payment status update of an invoice to
// its tax authority and records it. Setting a payment status is
// idempotent at NRS, so a retry after a lost answer simply sends it again.
func InvoicePaymentUpdate(ctx workflow.Context, in submissions.PaymentInput) error {
	ctx = workflow.WithActivityOptions(ctx, paymentActivityOptions)
	var a *InvoiceActivities
	return workflow.ExecuteActivity(ctx, a.UpdatePaymentStatus, in).Get(ctx, nil)
}

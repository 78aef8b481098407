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

// SearchAttributeInvoiceStatus is a submitted invoice's state as its
// workflow shows it: queued from the start, then the state it ends in
// (confirmed, rejected); workflows started before WorkflowInput.OneStep
// set every state on the way.
var SearchAttributeInvoiceStatus = temporal.NewSearchAttributeKeyKeyword("InvoiceStatus")

// InvoiceSearchAttributes are the search attributes an invoice workflow
// sets, so that the Temporal UI and `temporal workflow list --query` find a
// project's invoices (ProjectId = '…' AND InvoiceStatus = 'rejected'):
// the certification runs' ProjectId, OrganizationId, InvoiceType and
// Environment, and InvoiceStatus. SearchAttributes lists them for
// registration; without them invoices are cleared all the same.
var InvoiceSearchAttributes = []temporal.SearchAttributeKey{
	SearchAttributeProjectID, SearchAttributeOrganizationID, SearchAttributeInvoiceType, SearchAttributeEnvironment,
	SearchAttributeInvoiceStatus,
}

// Names of the invoice workflow's steps, registered as activities of
// InvoiceActivities and run as local activities.
const (
	ActivityBeginInvoice           = "BeginInvoice"
	ActivityValidateInvoiceIRN     = "ValidateInvoiceIRN"
	ActivityValidateInvoicePayload = "ValidateInvoicePayload"
	ActivitySignSubmitted          = "SignSubmitted"
	ActivityTransmitSubmitted      = "TransmitSubmitted"
	ActivityConfirmSubmitted       = "ConfirmSubmitted"
	// ActivityClearInvoice runs all of the steps above in one local
	// activity (WorkflowInput.OneStep).
	ActivityClearInvoice = "ClearInvoice"
)

// InvoiceResult is how an invoice's workflow ended: confirmed or rejected.
type InvoiceResult struct {
	Status model.InvoiceStatus `json:"status"`
	IRN    string              `json:"irn"`
}

// invoiceActivityOptions apply to every step of an invoice. The steps are
// local activities: the worker that runs the workflow runs them, with no
// round trip through the Temporal server between steps, and their results
// are recorded in the history like any activity's. A step is one or two
// calls to the authority, each bounded by the client's timeout. The
// authority being unavailable is retried without a bound on attempts (a
// day at most): an invoice waits for NRS instead of failing. Waits grow
// to a minute. A worker that stops mid-step leaves the step to the next
// worker, which settles it from the database (sign_sent, transmit_sent).
var invoiceActivityOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
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
// InvoiceStatus search attribute, it keeps it up to date. An invoice
// started with OneStep runs all of its steps in one local activity
// (clearInOneStep).
func InvoiceSubmission(ctx workflow.Context, in submissions.WorkflowInput) (InvoiceResult, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, invoiceActivityOptions)
	_, indexed := workflow.GetTypedSearchAttributes(ctx).GetKeyword(SearchAttributeInvoiceStatus)
	status := model.InvoiceQueued
	step := InvoiceStep{ProjectID: in.ProjectID, IRN: in.IRN}
	release := workflow.GetSignalChannel(ctx, ReleaseSignal)
	if in.OneStep {
		return clearInOneStep(ctx, in, indexed, release)
	}
	steps := []struct {
		name string
		skip bool
	}{
		{name: ActivityBeginInvoice},
		{name: ActivityValidateInvoiceIRN},
		{name: ActivityValidateInvoicePayload},
		{name: ActivitySignSubmitted},
		{name: ActivityTransmitSubmitted, skip: !in.InvoiceType.Transmitted()},
		{name: ActivityConfirmSubmitted},
	}
	for i := 0; i < len(steps); i++ {
		fn := steps[i]
		if fn.skip {
			continue
		}
		var out InvoiceStepResult
		if err := workflow.ExecuteLocalActivity(ctx, fn.name, step).Get(ctx, &out); err != nil {
			return InvoiceResult{}, err
		}
		step.InvoiceID = out.InvoiceID
		if out.Status != status && indexed {
			if err := workflow.UpsertTypedSearchAttributes(ctx, SearchAttributeInvoiceStatus.ValueSet(string(out.Status))); err != nil {
				return InvoiceResult{}, err
			}
		}
		status = out.Status
		if status == model.InvoiceRejected {
			break
		}
		if out.Waiting {
			// NRS is not answering: wait in the project's queue, then begin
			// again.
			waitInQueue(ctx, in.ProjectID, release)
			i = -1
		}
	}
	return InvoiceResult{Status: status, IRN: in.IRN}, nil
}

// clearInOneStep is InvoiceSubmission for an invoice started with
// OneStep: one local activity (ClearInvoice) runs every step, so that an
// invoice NRS answers costs one activity marker and one workflow task;
// an invoice sent back to the queue waits for its release and runs it
// again. The InvoiceStatus search attribute is set once, to the state
// the invoice ends in (confirmed or rejected): the states in between are
// in the database and the API, not in Temporal's visibility store.
func clearInOneStep(ctx workflow.Context, in submissions.WorkflowInput, indexed bool, release workflow.ReceiveChannel) (InvoiceResult, error) {
	step := InvoiceStep{ProjectID: in.ProjectID, IRN: in.IRN, Transmit: in.InvoiceType.Transmitted()}
	var out InvoiceStepResult
	for {
		// A fresh result each time: decoding into the last one would keep
		// its waiting flag, which the answer leaves out when false.
		out = InvoiceStepResult{}
		if err := workflow.ExecuteLocalActivity(ctx, ActivityClearInvoice, step).Get(ctx, &out); err != nil {
			return InvoiceResult{}, err
		}
		step.InvoiceID = out.InvoiceID
		if !out.Waiting {
			break
		}
		waitInQueue(ctx, in.ProjectID, release)
	}
	if indexed && out.Status != model.InvoiceQueued {
		if err := workflow.UpsertTypedSearchAttributes(ctx, SearchAttributeInvoiceStatus.ValueSet(string(out.Status))); err != nil {
			return InvoiceResult{}, err
		}
	}
	return InvoiceResult{Status: out.Status, IRN: in.IRN}, nil
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
// Once NRS recorded an invoice PAID, the post-payment VAT report follows
// in a workflow of its own (PaymentReport), which outlives this one.
func InvoicePaymentUpdate(ctx workflow.Context, in submissions.PaymentInput) error {
	ctx = workflow.WithActivityOptions(ctx, paymentActivityOptions)
	var a *InvoiceActivities
	if err := workflow.ExecuteActivity(ctx, a.UpdatePaymentStatus, in).Get(ctx, nil); err != nil {
		return err
	}
	if workflow.GetVersion(ctx, "post-payment-report", workflow.DefaultVersion, 1) == workflow.DefaultVersion ||
		in.PaymentStatus != reportedStatus {
		return nil
	}
	return startPaymentReport(ctx, in)
}

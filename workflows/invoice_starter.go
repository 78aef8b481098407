package workflows

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

var _ submissions.Starter = (*Starter)(nil)

// invoiceTimeout bounds an invoice's workflow: its activities retry an
// unavailable authority for up to a day.
const invoiceTimeout = 25 * time.Hour

// paymentTimeout bounds how long the API waits for a payment update.
const paymentTimeout = 30 * time.Second

// StartSubmission starts the workflow of an invoice. Its id derives from
// the project and the IRN: starting it again while it runs returns the
// running one, and an invoice whose workflow completed is never started
// again (only one that failed or was terminated may be).
func (s *Starter) StartSubmission(ctx context.Context, in submissions.WorkflowInput) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	in.OneStep = true
	opts := s.submissionOptions(in)
	_, err := s.c.ExecuteWorkflow(ctx, opts, InvoiceWorkflowName, in)
	if err != nil && unregisteredSearchAttribute(err) {
		// A namespace without the attributes registered still clears
		// invoices, only without them (the workflow then keeps none).
		opts.TypedSearchAttributes = temporal.SearchAttributes{}
		_, err = s.c.ExecuteWorkflow(ctx, opts, InvoiceWorkflowName, in)
	}
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil // completed before: the invoice is recorded, the caller reads it
	}
	return err
}

// submissionOptions are the start options of an invoice's workflow.
func (s *Starter) submissionOptions(in submissions.WorkflowInput) client.StartWorkflowOptions {
	opts := client.StartWorkflowOptions{
		ID:                       invoiceWorkflowID(in),
		TaskQueue:                s.taskQueue,
		Priority:                 temporal.Priority{FairnessKey: FairnessKey(in.OrganizationID)},
		WorkflowExecutionTimeout: invoiceTimeout,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		// Eager start: when a worker of this process polls the task queue
		// through the same client (einvoice dev) and has a free slot, the
		// server hands the first workflow task back in the start's answer
		// instead of a round trip through matching. Elsewhere (an api
		// process without a worker) the start is an ordinary one. The task
		// is recorded by the server either way: a process that dies holding
		// it leaves it to time out and go to another worker.
		EnableEagerStart: true,
	}
	// Operators find a project's invoices by these (temporal workflow
	// list --query "ProjectId='…' AND InvoiceStatus='rejected'").
	opts.TypedSearchAttributes = temporal.NewSearchAttributes(
		SearchAttributeProjectID.ValueSet(in.ProjectID.String()), SearchAttributeOrganizationID.ValueSet(in.OrganizationID.String()),
		SearchAttributeInvoiceType.ValueSet(string(in.InvoiceType)), SearchAttributeEnvironment.ValueSet(string(in.Environment)),
		SearchAttributeInvoiceStatus.ValueSet(string(model.InvoiceQueued)))
	return opts
}

// HandOff gives an invoice a workflow of its own, or releases the one it
// has: one signal-with-start of the release signal (ReleaseSignal), so
// that a workflow started for it before (by an earlier hand-off whose
// clearing shard stopped before giving the invoice up) and waiting in
// the queue begins again at once instead of after its fallback wait; a
// new one finds the release pending, which only makes its first wait
// short. A workflow that completed before is not started again: the
// invoice was cleared by it.
func (s *Starter) HandOff(ctx context.Context, in submissions.WorkflowInput) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	in.OneStep = true
	opts := s.submissionOptions(in)
	_, err := s.c.SignalWithStartWorkflow(ctx, opts.ID, ReleaseSignal, nil, opts, InvoiceWorkflowName, in)
	if err != nil && unregisteredSearchAttribute(err) {
		opts.TypedSearchAttributes = temporal.SearchAttributes{}
		_, err = s.c.SignalWithStartWorkflow(ctx, opts.ID, ReleaseSignal, nil, opts, InvoiceWorkflowName, in)
	}
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

// invoiceWorkflowID is the id of an invoice's workflow: the keyed one the
// service computed, or the legacy one from a caller that sends none.
func invoiceWorkflowID(in submissions.WorkflowInput) string {
	if in.WorkflowID != "" {
		return in.WorkflowID
	}
	return submissions.LegacyWorkflowID(in.ProjectID, in.IRN)
}

// AbandonSubmission terminates the workflow of an invoice.
func (s *Starter) AbandonSubmission(ctx context.Context, workflowID, reason string) error {
	return s.c.TerminateWorkflow(ctx, workflowID, "", reason)
}

// UpdatePayment runs the payment update workflow of an invoice and waits
// for it: NRS's refusal is a conflict, anything else that keeps it from
// finishing is unavailable.
func (s *Starter) UpdatePayment(ctx context.Context, in submissions.PaymentInput) error {
	sctx, cancel := context.WithTimeout(ctx, s.timeout)
	run, err := s.c.ExecuteWorkflow(sctx, client.StartWorkflowOptions{
		ID:                       "invoice-payment-" + in.InvoiceID.String() + "-" + in.UpdateID.String(),
		TaskQueue:                s.taskQueue,
		WorkflowExecutionTimeout: paymentTimeout * 4,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, PaymentWorkflowName, in)
	cancel()
	if err != nil {
		return model.Wrap(model.CodeUnavailable, err, "cannot update the payment status: the workflow engine (Temporal) is unreachable")
	}
	wctx, cancel := context.WithTimeout(ctx, paymentTimeout)
	defer cancel()
	err = run.Get(wctx, nil)
	var app *temporal.ApplicationError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &app) && app.Type() == ErrRejected:
		return model.Errorf(model.CodeConflict, "NRS refused the payment status update: %s", app.Message())
	case errors.As(err, &app) && app.Type() == ErrInvalid:
		return model.Errorf(model.CodeInvalid, "%s", app.Message())
	}
	return model.Wrap(model.CodeUnavailable, err, "the payment status update did not finish in time; NRS may still record it, read the invoice later")
}

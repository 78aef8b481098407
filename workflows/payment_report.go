package workflows

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// reportedStatus is the payment status a post-payment VAT report follows.
const reportedStatus = codes.PaymentPaid

// PaymentReportWorkflowName names PaymentReport.
const PaymentReportWorkflowName = "InvoicePaymentReport"

// reportActivityOptions bound a report: nobody waits for it, so NRS may
// be out of reach for a while.
var reportActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Minute,
	ScheduleToCloseTimeout: time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        5 * time.Minute,
		NonRetryableErrorTypes: []string{ErrInvalid, ErrRejected},
	},
}

// startPaymentReport starts the invoice's report workflow, one per invoice
// and payment status (its workflow id; a second start is refused by
// Temporal), which goes on after the payment update answered.
func startPaymentReport(ctx workflow.Context, in submissions.PaymentInput) error {
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            "invoice-payment-report-" + in.InvoiceID.String() + "-" + in.PaymentStatus,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowRunTimeout:    2 * time.Hour,
	})
	err := workflow.ExecuteChildWorkflow(cctx, PaymentReportWorkflowName, in).GetChildWorkflowExecution().Get(ctx, nil)
	var started *temporal.ChildWorkflowExecutionAlreadyStartedError
	if errors.As(err, &started) {
		return nil // reported (or being reported) already
	}
	return err
}

// PaymentReport sends the post-payment VAT report of an invoice NRS
// recorded PAID (ReportPayment), when its project's setting is on.
func PaymentReport(ctx workflow.Context, in submissions.PaymentInput) error {
	ctx = workflow.WithActivityOptions(ctx, reportActivityOptions)
	var a *InvoiceActivities
	return workflow.ExecuteActivity(ctx, a.ReportPayment, in).Get(ctx, nil)
}

// ReportPayment sends the post-payment VAT report of an invoice whose
// payment status NRS recorded PAID, when its project's post_payment_report
// is on: built from the invoice as NRS confirmed it, sent once (an earlier
// report answered 2xx is not sent again) and recorded like every exchange.
func (a *InvoiceActivities) ReportPayment(ctx context.Context, in submissions.PaymentInput) error {
	if in.PaymentStatus != reportedStatus {
		return nil
	}
	cl, err := a.open(ctx, InvoiceStep{ProjectID: in.ProjectID, IRN: in.IRN, InvoiceID: in.InvoiceID})
	if err != nil {
		return a.fail(ctx, err)
	}
	setting := cl.creds.PostPaymentReport
	if setting == "" || setting == model.PostPaymentReportOff || cl.inv.PaymentStatus != reportedStatus {
		return nil
	}
	rp, ok := cl.conn.(submissions.Reporter)
	if !ok {
		return nil // the authority takes no report
	}
	done, err := a.steps.Reported(ctx, cl.inv.ID, rp.ReportOperations()...)
	if err != nil {
		return a.fail(ctx, err)
	}
	if done {
		return nil
	}
	ex, err := rp.Report(ctx, cl.inv, a.steps.Now())
	if e := model.AsError(err); ex.Operation == "" && err != nil && e.Code == model.CodeInvalid {
		return temporal.NewNonRetryableApplicationError(e.Message, ErrInvalid, nil)
	}
	ex = cl.exchange(ctx, ex)
	if _, rerr := cl.record(ctx, ex, "", submissions.Detail{}); rerr != nil {
		return rerr
	}
	if err != nil {
		if refused(err) {
			return temporal.NewNonRetryableApplicationError(ex.Message, ErrRejected, nil)
		}
		return a.fail(ctx, err)
	}
	return nil
}

package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/mbs"
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
	done, err := a.steps.Reported(ctx, cl.inv.ID, string(mbs.OpReport), string(mbs.OpPostPayment))
	if err != nil {
		return a.fail(ctx, err)
	}
	if done {
		return nil
	}
	rep, err := paymentReport(cl.inv, cl.creds.ServiceID, a.steps.Now())
	if err != nil {
		return temporal.NewNonRetryableApplicationError("the invoice's report cannot be built: "+err.Error(), ErrInvalid, nil)
	}
	ans, c, err := mbs.SendReport(ctx, cl.c, rep)
	ex := cl.exchange(ctx, c, rep, ans.Data, err)
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

// lagos is Nigeria's time (UTC+1, no daylight saving): the day of a
// transaction.
var lagos = time.FixedZone("WAT", 3600)

// reportInvoice is what the report reads of an invoice's NRS payload.
type reportInvoice struct {
	DocumentCurrencyCode string `json:"document_currency_code"`
	Supplier             struct {
		TIN string `json:"tin"`
	} `json:"accounting_supplier_party"`
	Customer struct {
		TIN string `json:"tin"`
	} `json:"accounting_customer_party"`
	TaxTotal           json.RawMessage `json:"tax_total"`
	LegalMonetaryTotal struct {
		LineExtensionAmount json.Number `json:"line_extension_amount"`
		PayableAmount       json.Number `json:"payable_amount"`
	} `json:"legal_monetary_total"`
	InvoiceLine []struct {
		Item struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"item"`
	} `json:"invoice_line"`
}

type reportTaxTotal struct {
	TaxAmount   json.Number `json:"tax_amount"`
	TaxSubtotal []struct {
		TaxAmount   json.Number `json:"tax_amount"`
		TaxCategory struct {
			ID      string      `json:"id"`
			Percent json.Number `json:"percent"`
		} `json:"tax_category"`
	} `json:"tax_subtotal"`
}

// paymentReport builds the report of a paid invoice (integrator-evidence
// E2): the supplier's TIN as agent, the customer's as beneficiary, the
// lines' total as base amount, VAT (the STANDARD_VAT, REDUCED_VAT and
// ZERO_VAT subtotals) apart from other taxes, the payable amount, the
// lines' item names, the project's service id, and the day of payment.
func paymentReport(inv *model.SubmittedInvoice, serviceID string, paidAt time.Time) (mbs.Report, error) {
	var doc reportInvoice
	d := json.NewDecoder(strings.NewReader(inv.Payload))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return mbs.Report{}, err
	}
	// tax_total is an object in 1.1 and an array in some 1.0 payloads.
	var totals []reportTaxTotal
	if t := strings.TrimSpace(string(doc.TaxTotal)); strings.HasPrefix(t, "[") {
		_ = json.Unmarshal(doc.TaxTotal, &totals)
	} else if t != "" && t != "null" {
		var one reportTaxTotal
		_ = json.Unmarshal(doc.TaxTotal, &one)
		totals = append(totals, one)
	}
	tax, vat := new(big.Rat), new(big.Rat)
	status, rate := "", ""
	for _, tt := range totals {
		tax.Add(tax, amount(tt.TaxAmount))
		for _, st := range tt.TaxSubtotal {
			switch id := strings.ToUpper(st.TaxCategory.ID); id {
			case mbs.VATStandard, mbs.VATReduced, mbs.VATZero:
				vat.Add(vat, amount(st.TaxAmount))
				if status == "" {
					f, _ := amount(st.TaxCategory.Percent).Float64()
					status, rate = id, strconv.FormatFloat(f, 'f', -1, 64)
				}
			}
		}
	}
	if status == "" {
		status, rate = mbs.VATZero, "0"
	}
	other := new(big.Rat).Sub(tax, vat)
	if other.Sign() < 0 {
		other.SetInt64(0)
	}
	names := make([]string, 0, len(doc.InvoiceLine))
	for _, l := range doc.InvoiceLine {
		if n := strings.TrimSpace(l.Item.Name); n != "" {
			names = append(names, n)
		} else if n := strings.TrimSpace(l.Item.Description); n != "" {
			names = append(names, n)
		}
	}
	desc := strings.Join(names, "; ")
	if r := []rune(desc); len(r) > 500 {
		desc = string(r[:500])
	}
	return mbs.Report{
		AgentTIN: doc.Supplier.TIN, BeneficiaryTIN: doc.Customer.TIN, Currency: doc.DocumentCurrencyCode,
		BaseAmount: amount(doc.LegalMonetaryTotal.LineExtensionAmount).FloatString(2), VATCalculated: vat.FloatString(2),
		OtherTaxes: other.FloatString(2), TotalAmount: amount(doc.LegalMonetaryTotal.PayableAmount).FloatString(2),
		VATRate: rate, VATStatus: status, ItemDescription: desc, IRN: inv.IRN, IntegratorServiceID: serviceID,
		TransactionDate: paidAt.In(lagos).Format(time.DateOnly),
	}, nil
}

// amount reads a JSON number exactly (zero when it is none).
func amount(n json.Number) *big.Rat {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return new(big.Rat)
	}
	return r
}

package workflows_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// registrar is a test-only tax authority reached through the submission
// seam (submissions.Gateway) with another step list than NRS's: no
// separate validation, an invoice registered in one call (which issues
// the authority's own reference and QR code), never transmitted, then
// confirmed. It keeps every call it was asked for.
type registrar struct {
	mu    sync.Mutex
	calls []string
}

func (r *registrar) Open(*authority.Credentials) (submissions.Connection, error) { return r, nil }

func (r *registrar) Hold(model.Environment) time.Duration { return 0 }

func (r *registrar) Steps(model.InvoiceKind) []string {
	return []string{model.CallSign, submissions.CallConfirm}
}

// answer notes a call and describes it.
func (r *registrar) answer(op, response string) *submissions.Exchange {
	r.mu.Lock()
	r.calls = append(r.calls, op)
	r.mu.Unlock()
	return &submissions.Exchange{Operation: op, HTTPStatus: 200, Duration: time.Millisecond, LatencyMS: 1,
		Response: response, Message: op + ": accepted"}
}

func (r *registrar) Validate(_ context.Context, _ *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	return r.answer("unexpected "+call, ""), &submissions.CallError{Status: 400, Message: "no such check"}
}

func (r *registrar) Send(_ context.Context, inv *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	if call != model.CallSign {
		return r.answer("unexpected "+call, ""), &submissions.CallError{Status: 400, Message: "no such call"}
	}
	return r.answer("register", `{"authority_reference":"REG-`+inv.IRN+`"}`), nil
}

func (r *registrar) Find(context.Context, *model.SubmittedInvoice, string) (bool, *submissions.Exchange, error) {
	return false, r.answer("find", ""), nil
}

func (r *registrar) Confirm(_ context.Context, inv *model.SubmittedInvoice) (submissions.Confirmation, *submissions.Exchange, error) {
	return submissions.Confirmation{QRCode: "QR-" + inv.IRN, Message: "registered"}, r.answer("status", `{"status":"registered"}`), nil
}

func (r *registrar) UpdatePayment(context.Context, *model.SubmittedInvoice, submissions.PaymentInput) (*submissions.Exchange, error) {
	return r.answer("payment", ""), nil
}

func (r *registrar) took() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// started keeps the workflow inputs Submit starts.
type started struct {
	mu  sync.Mutex
	ins []submissions.WorkflowInput
}

func (s *started) StartSubmission(_ context.Context, in submissions.WorkflowInput) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ins = append(s.ins, in)
	return nil
}

func (s *started) AbandonSubmission(context.Context, string, string) error { return nil }

func (s *started) UpdatePayment(context.Context, submissions.PaymentInput) error { return nil }

// TestSubmitThroughTheSeam submits a B2B invoice (one that NRS would
// validate twice, sign, transmit and confirm) to the test-only registrar:
// Submit records it, the invoice workflow runs with the real activities,
// and the authority is asked to register and confirm only, in the
// workflow's step by step form and in its one-step form alike. The
// invoice ends confirmed with the authority's QR code, and its log holds
// exactly the registrar's exchanges.
func TestSubmitThroughTheSeam(t *testing.T) {
	for _, oneStep := range []bool{false, true} {
		gw := &registrar{}
		engine := &started{}
		e := certtest.New(t, certtest.Options{Open: storetest.SQLite, App: func(c *app.Config) { c.Submissions = engine }})
		ctx := context.Background()
		tn := e.Tenant
		doc, err := workflows.SamplePayload(model.InvoiceKindB2B, *tn.Project.Authority.BusinessID, "2026-03-15")
		if err != nil {
			t.Fatal(err)
		}
		view, err := e.App.Submissions.Submit(ctx, tn.Key, submissions.SubmitInput{InvoiceType: "B2B", Payload: doc, InvoiceReference: "SEAM1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(engine.ins) != 1 {
			t.Fatalf("Submit started %d workflows", len(engine.ins))
		}
		in := engine.ins[0]
		in.OneStep = oneStep

		acts, err := workflows.NewInvoiceActivities(workflows.InvoiceActivitiesConfig{Steps: e.App.SubmissionSteps,
			Gateway: gw, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		var suite testsuite.WorkflowTestSuite
		suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
		env := suite.NewTestWorkflowEnvironment()
		env.RegisterWorkflowWithOptions(workflows.InvoiceSubmission, workflow.RegisterOptions{Name: workflows.InvoiceWorkflowName})
		env.RegisterActivity(acts)
		env.ExecuteWorkflow(workflows.InvoiceWorkflowName, in)
		if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
			t.Fatalf("one step %v: the workflow did not end: %v", oneStep, env.GetWorkflowError())
		}
		var res workflows.InvoiceResult
		if err := env.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if res.Status != model.InvoiceConfirmed {
			t.Fatalf("one step %v: the workflow ended %s", oneStep, res.Status)
		}
		if got, want := gw.took(), []string{"register", "status"}; !slices.Equal(got, want) {
			t.Fatalf("one step %v: the authority was asked %v, want %v", oneStep, got, want)
		}

		inv, err := e.Store.Submissions().ByIRN(ctx, tn.Project.ID, view.IRN)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Status != model.InvoiceConfirmed || inv.QRCodeData != "QR-"+inv.IRN || inv.SignSent != 1 || inv.TransmitSent != 0 {
			t.Fatalf("one step %v: invoice %s, QR %q, sign sent %d, transmit sent %d", oneStep, inv.Status, inv.QRCodeData, inv.SignSent, inv.TransmitSent)
		}
		if inv.CustomerTIN == "" || inv.IssueDate != "2026-03-15" {
			t.Fatalf("one step %v: the payload's facts were not read: customer TIN %q, issue date %q", oneStep, inv.CustomerTIN, inv.IssueDate)
		}
		evs, _, err := e.Store.Submissions().Events(ctx, inv.ID, 0, 500)
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		for _, ev := range evs {
			if ev.Kind == model.EventExchange {
				ops = append(ops, ev.Operation)
			}
		}
		if want := []string{"register", "status"}; !slices.Equal(ops, want) {
			t.Fatalf("one step %v: the invoice's log holds the exchanges %v, want %v", oneStep, ops, want)
		}
	}
}

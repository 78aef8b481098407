package workflows_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows"
)

// harness is a workflow test environment whose activities are all mocked
// to pass; tests override single activities before running.
type harness struct {
	t   *testing.T
	env *testsuite.TestWorkflowEnvironment
	a   *workflows.Activities

	mu       sync.Mutex
	started  []string // activity names in start order, retries included
	finished []workflows.FinishInput
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	h := &harness{t: t, env: suite.NewTestWorkflowEnvironment()}
	h.env.RegisterWorkflow(workflows.CertificationRun)
	h.env.RegisterActivity(h.a)
	h.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		h.mu.Lock()
		h.started = append(h.started, info.ActivityType.Name)
		h.mu.Unlock()
	})
	return h
}

// mockAll makes every activity not mocked yet pass. testify matches the
// first mock registered, so call it after the test's own mocks.
func (h *harness) mockAll() {
	a, e := h.a, h.env
	for _, fn := range []any{a.StartRun, a.Health, a.CodeLists, a.GenerateIRN, a.ValidateIRN, a.ValidateInvoice,
		a.SignInvoice, a.Transmit, a.LookupTransmission, a.Confirm, a.UpdatePaid, a.ConfirmPaid, a.NegativeProbe} {
		e.OnActivity(fn, mock.Anything, mock.Anything).Return(nil)
	}
	e.OnActivity(a.VerifyQR, mock.Anything, mock.Anything).Return(func(_ context.Context, in workflows.QRInput) error {
		if in.QRPayload == "" {
			return temporal.NewNonRetryableApplicationError("no QR payload handed over", workflows.ErrInvalid, nil)
		}
		return nil
	})
	e.OnActivity(a.BuildPayload, mock.Anything, mock.Anything).Return(workflows.PayloadResult{IRN: "CERT1-ABCDEFGH-20260315"}, nil)
	e.OnActivity(a.BuildQR, mock.Anything, mock.Anything).Return(workflows.QRResult{QRPayload: strings.Repeat("Q", 344)}, nil)
	e.OnActivity(a.FinishRun, mock.Anything, mock.Anything).Return(func(_ context.Context, in workflows.FinishInput) error {
		h.mu.Lock()
		h.finished = append(h.finished, in)
		h.mu.Unlock()
		return nil
	})
}

func (h *harness) run(kind model.InvoiceKind, sandbox bool) {
	h.t.Helper()
	h.env.ExecuteWorkflow(workflows.CertificationRun, runs.WorkflowInput{
		RunID: uuid.New(), ProjectID: uuid.New(), InvoiceType: kind, IssueDate: "2026-03-15", Sandbox: sandbox,
	})
	if !h.env.IsWorkflowCompleted() {
		h.t.Fatal("workflow did not complete")
	}
}

func (h *harness) activities() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.started...)
}

func (h *harness) finish() workflows.FinishInput {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.finished) != 1 {
		h.t.Fatalf("FinishRun called %d times, want once: %+v", len(h.finished), h.finished)
	}
	return h.finished[0]
}

func TestHappyPathPerInvoiceType(t *testing.T) {
	all := []string{"StartRun", "Health", "CodeLists", "BuildPayload", "GenerateIRN", "ValidateIRN", "ValidateInvoice",
		"SignInvoice", "BuildQR", "VerifyQR", "Transmit", "LookupTransmission", "Confirm", "UpdatePaid", "ConfirmPaid",
		"NegativeProbe", "FinishRun"}
	without := func(names ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(names, s) })
	}
	for _, tc := range []struct {
		kind    model.InvoiceKind
		sandbox bool
		want    []string
	}{
		{model.InvoiceKindB2B, true, all},
		{model.InvoiceKindB2G, true, all},
		{model.InvoiceKindB2C, true, without("Transmit", "LookupTransmission")},
		{model.InvoiceKindB2B, false, without("VerifyQR")},
	} {
		name := string(tc.kind)
		if !tc.sandbox {
			name += "/production"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mockAll()
			h.run(tc.kind, tc.sandbox)
			if err := h.env.GetWorkflowError(); err != nil {
				t.Fatalf("workflow error: %v", err)
			}
			var res workflows.RunResult
			if err := h.env.GetWorkflowResult(&res); err != nil {
				t.Fatal(err)
			}
			if res.Status != model.RunPassed || res.IRN != "CERT1-ABCDEFGH-20260315" {
				t.Fatalf("result: %+v", res)
			}
			if got := h.activities(); !slices.Equal(got, tc.want) {
				t.Fatalf("activities:\n got %v\nwant %v", got, tc.want)
			}
			if f := h.finish(); f.Status != model.RunPassed || f.Reason != "" {
				t.Fatalf("finish: %+v", f)
			}
		})
	}
}

func TestRetryableFailureThenSuccess(t *testing.T) {
	h := newHarness(t)
	h.env.OnActivity(h.a.SignInvoice, mock.Anything, mock.Anything).
		Return(temporal.NewApplicationError("HTTP 503: service unavailable", workflows.ErrUnavailable)).Once()
	h.mockAll()
	h.run(model.InvoiceKindB2C, true)
	if err := h.env.GetWorkflowError(); err != nil {
		t.Fatalf("workflow error: %v", err)
	}
	signs := 0
	for _, n := range h.activities() {
		if n == "SignInvoice" {
			signs++
		}
	}
	if signs != 2 {
		t.Fatalf("SignInvoice ran %d times, want 2 (a retry): %v", signs, h.activities())
	}
	if f := h.finish(); f.Status != model.RunPassed {
		t.Fatalf("finish: %+v", f)
	}
}

func TestNonRetryableFailureEndsFailed(t *testing.T) {
	h := newHarness(t)
	h.env.OnActivity(h.a.ValidateInvoice, mock.Anything, mock.Anything).
		Return(temporal.NewNonRetryableApplicationError("HTTP 400: invoice validation failed [error id e1]", workflows.ErrRejected, nil))
	h.mockAll()
	h.run(model.InvoiceKindB2B, true)
	err := h.env.GetWorkflowError()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != workflows.ErrRejected {
		t.Fatalf("workflow error %v, want an %s application error", err, workflows.ErrRejected)
	}
	got := h.activities()
	if n := strings.Count(strings.Join(got, " "), "ValidateInvoice"); n != 1 {
		t.Fatalf("ValidateInvoice ran %d times, want once (non-retryable): %v", n, got)
	}
	if slices.Contains(got, "SignInvoice") {
		t.Fatalf("the run went on after a rejection: %v", got)
	}
	f := h.finish()
	if f.Status != model.RunFailed || !strings.Contains(f.Reason, "invoice_validate") || !strings.Contains(f.Reason, "invoice validation failed") {
		t.Fatalf("finish: %+v", f)
	}
}

func TestRetriesGiveUpAfterTheLastAttempt(t *testing.T) {
	h := newHarness(t)
	// As the activities do (classify): an authority that stays down is
	// final at the AuthorityAttempts-th attempt.
	h.env.OnActivity(h.a.Health, mock.Anything, mock.Anything).Return(func(ctx context.Context, _ workflows.StepInput) error {
		if activity.GetInfo(ctx).Attempt >= workflows.AuthorityAttempts {
			return temporal.NewNonRetryableApplicationError("HTTP 503: service unavailable", workflows.ErrUnavailable, nil)
		}
		return temporal.NewApplicationError("HTTP 503: service unavailable", workflows.ErrUnavailable)
	})
	h.mockAll()
	h.run(model.InvoiceKindB2C, true)
	if h.env.GetWorkflowError() == nil {
		t.Fatal("the run passed with an authority that is always down")
	}
	if n := strings.Count(strings.Join(h.activities(), " "), "Health"); n != 8 {
		t.Fatalf("Health ran %d times, want the policy's 8 attempts", n)
	}
	if f := h.finish(); f.Status != model.RunFailed || !strings.Contains(f.Reason, "step health failed") {
		t.Fatalf("finish: %+v", f)
	}
}

func TestCancellationEndsCancelled(t *testing.T) {
	h := newHarness(t)
	h.env.OnActivity(h.a.CodeLists, mock.Anything, mock.Anything).Return(func(context.Context, workflows.StepInput) error {
		h.env.CancelWorkflow()
		return nil
	})
	h.mockAll()
	h.run(model.InvoiceKindB2B, true)
	if err := h.env.GetWorkflowError(); !temporal.IsCanceledError(err) {
		t.Fatalf("workflow error %v, want cancelled", err)
	}
	if slices.Contains(h.activities(), "BuildPayload") {
		t.Fatalf("the run went on after cancellation: %v", h.activities())
	}
	if f := h.finish(); f.Status != model.RunCancelled || !strings.Contains(f.Reason, "cancelled") {
		t.Fatalf("finish: %+v", f)
	}
}

func TestProgressQuery(t *testing.T) {
	h := newHarness(t)
	var mid workflows.Progress
	h.env.OnActivity(h.a.SignInvoice, mock.Anything, mock.Anything).Return(func(context.Context, workflows.StepInput) error {
		v, err := h.env.QueryWorkflow(workflows.QueryProgress)
		if err != nil {
			return err
		}
		return v.Get(&mid)
	})
	h.mockAll()
	h.run(model.InvoiceKindB2C, true)
	if err := h.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if mid.Status != model.RunRunning || mid.CurrentStep != workflows.StepSignInvoice || len(mid.StepsDone) != 6 ||
		mid.StepsDone[5] != workflows.StepValidateInvoice {
		t.Fatalf("progress during signing: %+v", mid)
	}
	v, err := h.env.QueryWorkflow(workflows.QueryProgress)
	if err != nil {
		t.Fatal(err)
	}
	var end workflows.Progress
	if err := v.Get(&end); err != nil || end.Status != model.RunPassed || len(end.StepsDone) != 13 {
		t.Fatalf("final progress: %+v %v", end, err)
	}
}

// TestInfrastructureOutageOfTenMinutesLosesNoRun: a step whose database
// is unreachable for ten minutes (on the test environment's skipping
// clock) is retried until it comes back, and the run passes; the retries
// are not bounded by a number of attempts.
func TestInfrastructureOutageOfTenMinutesLosesNoRun(t *testing.T) {
	h := newHarness(t)
	var start time.Time
	attempts := 0
	h.env.OnActivity(h.a.SignInvoice, mock.Anything, mock.Anything).Return(func(ctx context.Context, _ workflows.StepInput) error {
		attempts++
		now := h.env.Now()
		if start.IsZero() {
			start = now
		}
		if now.Sub(start) < 10*time.Minute {
			return temporal.NewApplicationError("the database is unavailable; try again shortly", workflows.ErrInfrastructure)
		}
		return nil
	})
	h.mockAll()
	h.run(model.InvoiceKindB2C, true)
	if err := h.env.GetWorkflowError(); err != nil {
		t.Fatalf("the run failed across a ten-minute outage: %v", err)
	}
	if attempts <= workflows.AuthorityAttempts {
		t.Fatalf("SignInvoice ran %d times across ten minutes, want more than the authority's %d", attempts, workflows.AuthorityAttempts)
	}
	if f := h.finish(); f.Status != model.RunPassed {
		t.Fatalf("finish: %+v", f)
	}
}

// TestInfrastructureOutagePastTheDeadlineFailsTheRun: an outage longer
// than the run's deadline ends the run failed (timed out) rather than
// retrying for ever.
func TestInfrastructureOutagePastTheDeadlineFailsTheRun(t *testing.T) {
	h := newHarness(t)
	h.env.OnActivity(h.a.SignInvoice, mock.Anything, mock.Anything).
		Return(temporal.NewApplicationError("the database is unavailable; try again shortly", workflows.ErrInfrastructure))
	h.mockAll()
	h.env.SetWorkflowRunTimeout(30 * time.Minute)
	h.run(model.InvoiceKindB2C, true)
	if h.env.GetWorkflowError() == nil {
		t.Fatal("the run passed through an endless outage")
	}
}

package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/runs"
)

// RunResult is the outcome of a run that passed.
type RunResult struct {
	Status model.RunStatus `json:"status"`
	IRN    string          `json:"irn"`
	Steps  []string        `json:"steps"`
}

// Progress is a run's live state, answered by the QueryProgress query.
type Progress struct {
	Status model.RunStatus `json:"status"`
	// CurrentStep is the step under way ("" before the first and after the
	// last).
	CurrentStep string   `json:"current_step"`
	StepsDone   []string `json:"steps_done"`
	Reason      string   `json:"reason,omitempty"`
}

// activityOptions apply to every activity of a run. One attempt is bounded
// by StartToCloseTimeout; a worker that dies mid-step is noticed after
// HeartbeatTimeout and the step is retried elsewhere, and a step's
// activity learns through its heartbeats that the run was cancelled. The retry policy
// retries an unavailable authority (429, 5xx, timeouts) with exponential
// backoff; rejections and invalid input are non-retryable.
var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    90 * time.Second,
	HeartbeatTimeout:       5 * time.Second,
	ScheduleToCloseTimeout: 10 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        200 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        10 * time.Second,
		MaximumAttempts:        8,
		NonRetryableErrorTypes: []string{ErrRejected, ErrInvalid, ErrRunMissing},
	},
}

// changeWaitForCancelledStep is the version marker of the change that has a
// cancelled run wait for its step's activity to stop before recording
// cancelled, so that no evidence of the step lands after the run's end.
const changeWaitForCancelledStep = "wait-for-cancelled-step"

// CertificationRun runs a certification smoke run: health, code lists,
// payload, IRN, the authority's IRN and invoice validation, signing, the
// QR payload (verified by the sandbox stand-in for sandbox projects),
// transmission and its lookup (B2B and B2G only), confirmation, the
// payment update to PAID and its confirmation, and a negative probe (an
// IRN with a wrong service ID must be refused). It only orchestrates: the
// activities do the I/O and record the evidence and the run's status. A
// failed step ends the run failed with the step's reason; cancellation
// ends it cancelled: the step under way is cancelled (its activity learns
// it at its next heartbeat and stops), the workflow waits for it to stop,
// then records cancelled in a disconnected context.
func CertificationRun(ctx workflow.Context, in runs.WorkflowInput) (RunResult, error) {
	opts := activityOptions
	// Runs started before this version did not wait for a cancelled
	// activity to stop before recording the end.
	if workflow.GetVersion(ctx, changeWaitForCancelledStep, workflow.DefaultVersion, 1) >= 1 {
		opts.WaitForCancellation = true
	}
	ctx = workflow.WithActivityOptions(ctx, opts)
	p := &Progress{Status: model.RunQueued, StepsDone: []string{}}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func() (Progress, error) {
		out := *p
		out.StepsDone = append([]string(nil), p.StepsDone...)
		return out, nil
	}); err != nil {
		return RunResult{}, err
	}

	var a *Activities
	id := StepInput{RunID: in.RunID}
	var (
		payload PayloadResult
		qr      QRResult
	)
	exec := func(name string, fn, arg, out any) error {
		p.CurrentStep = name
		if err := workflow.ExecuteActivity(ctx, fn, arg).Get(ctx, out); err != nil {
			return err
		}
		p.StepsDone = append(p.StepsDone, name)
		return nil
	}
	err := func() error {
		p.CurrentStep = "start"
		if err := workflow.ExecuteActivity(ctx, a.StartRun, id).Get(ctx, nil); err != nil {
			return err
		}
		p.Status = model.RunRunning
		for _, s := range []struct {
			name     string
			fn, out  any
			skip     bool
			qrVerify bool
		}{
			{name: StepHealth, fn: a.Health},
			{name: StepCodeLists, fn: a.CodeLists},
			{name: StepBuildPayload, fn: a.BuildPayload, out: &payload},
			{name: StepGenerateIRN, fn: a.GenerateIRN},
			{name: StepValidateIRN, fn: a.ValidateIRN},
			{name: StepValidateInvoice, fn: a.ValidateInvoice},
			{name: StepSignInvoice, fn: a.SignInvoice},
			{name: StepBuildQR, fn: a.BuildQR, out: &qr},
			{name: StepVerifyQR, fn: a.VerifyQR, skip: !in.Sandbox, qrVerify: true},
			{name: StepTransmit, fn: a.Transmit, skip: !in.InvoiceType.Transmitted()},
			{name: StepLookup, fn: a.LookupTransmission, skip: !in.InvoiceType.Transmitted()},
			{name: StepConfirm, fn: a.Confirm},
			{name: StepUpdatePaid, fn: a.UpdatePaid},
			{name: StepConfirmPaid, fn: a.ConfirmPaid},
			{name: StepNegativeProbe, fn: a.NegativeProbe},
		} {
			if s.skip {
				continue
			}
			var arg any = id
			if s.qrVerify {
				arg = QRInput{RunID: in.RunID, QRPayload: qr.QRPayload}
			}
			if err := exec(s.name, s.fn, arg, s.out); err != nil {
				return err
			}
		}
		p.CurrentStep = ""
		return workflow.ExecuteActivity(ctx, a.FinishRun, FinishInput{RunID: in.RunID, Status: model.RunPassed}).Get(ctx, nil)
	}()
	if err == nil {
		p.Status = model.RunPassed
		return RunResult{Status: model.RunPassed, IRN: payload.IRN, Steps: p.StepsDone}, nil
	}

	status, reason := model.RunFailed, failureReason(p.CurrentStep, err)
	if temporal.IsCanceledError(err) || errors.Is(ctx.Err(), workflow.ErrCanceled) {
		status, reason = model.RunCancelled, "the run was cancelled"
		if p.CurrentStep != "" {
			reason += " during step " + p.CurrentStep
		}
	}
	p.Status, p.Reason = status, reason
	// The final status is written even when the run was cancelled.
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	if ferr := workflow.ExecuteActivity(dctx, a.FinishRun, FinishInput{RunID: in.RunID, Status: status, Reason: reason}).Get(dctx, nil); ferr != nil {
		workflow.GetLogger(ctx).Error("certification run: final status not recorded", "run_id", in.RunID.String(), "error", ferr)
	}
	return RunResult{}, err
}

// failureReason says which step failed and why, from an activity's error.
func failureReason(step string, err error) string {
	msg := err.Error()
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	switch {
	case errors.As(err, &app):
		msg = app.Message()
	case errors.As(err, &timeout):
		msg = "timed out (" + timeout.TimeoutType().String() + ")"
	}
	if step == "" {
		return msg
	}
	return "step " + step + " failed: " + msg
}

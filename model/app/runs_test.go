package app_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/audit"
	run "github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// fakeRuns is a RunStarter that records starts and answers as told.
type fakeRuns struct {
	mu        sync.Mutex
	downErr   error // Reachable's answer
	startErr  error
	started   []run.WorkflowInput
	abandoned []uuid.UUID
	state     *run.State
	// described runs before DescribeCertificationRun answers.
	described func()
}

func (f *fakeRuns) StartCertificationRun(_ context.Context, in run.WorkflowInput) (run.Ref, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.startErr != nil {
		return run.Ref{}, f.startErr
	}
	f.started = append(f.started, in)
	return run.Ref{WorkflowID: "certification-run-" + in.RunID.String(), TemporalRunID: "temporal-" + in.RunID.String()[:8]}, nil
}

func (f *fakeRuns) Reachable(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.downErr
}

func (f *fakeRuns) DescribeCertificationRun(_ context.Context, runID uuid.UUID) (*run.State, error) {
	f.mu.Lock()
	hook := f.described
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state == nil {
		return nil, errors.New("unreachable")
	}
	st := *f.state
	return &st, nil
}

func (f *fakeRuns) AbandonCertificationRun(_ context.Context, runID uuid.UUID, _ string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.abandoned = append(f.abandoned, runID)
	return nil
}

func locsOf(err error) []string {
	var out []string
	for _, f := range model.AsError(err).Fields {
		parts := make([]string, 0, len(f.Loc))
		for _, l := range f.Loc {
			parts = append(parts, l.(string))
		}
		out = append(out, string(f.Type)+"@"+strings.Join(parts, "/"))
	}
	return out
}

func TestStartCertificationRunValidates(t *testing.T) {
	e := certtest.New(t, certtest.Options{Runs: &fakeRuns{}})
	_, err := e.App.Runs.Start(context.Background(), e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{
		InvoiceType: "B2X", IssueDate: "2026-02-30", InvoicePayload: []any{1},
	})
	got := strings.Join(locsOf(err), " ")
	want := "enum@invoice_type date_from_datetime_parsing@issue_date dict_type@invoice_payload"
	if got != want {
		t.Fatalf("problems %q, want %q", got, want)
	}
}

func TestStartCertificationRun(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs})
	ctx := context.Background()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{
		InvoiceType: "B2B", IssueDate: "2026-03-15", InvoicePayload: map[string]any{"note": "mine"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != model.RunQueued || v.InvoiceType != model.InvoiceKindB2B || len(v.Steps) != 0 ||
		v.Temporal.WorkflowID != "certification-run-"+v.RunID.String() || v.Temporal.RunID == nil {
		t.Fatalf("view: %+v", v)
	}
	if len(runs.started) != 1 || runs.started[0].RunID != v.RunID || !runs.started[0].Sandbox {
		t.Fatalf("starts: %+v", runs.started)
	}
	r, err := e.Store.Runs().ByID(ctx, v.RunID)
	if err != nil || r.InvoicePayload != `{"note":"mine"}` || r.TemporalRunID == "" {
		t.Fatalf("stored run: %+v %v", r, err)
	}

	audit, err := e.App.Audit.List(ctx, e.Tenant.User, audit.Input{Action: model.ActionCertificationStart})
	if err != nil || len(audit.Items) != 1 || audit.Items[0].Actor.Type != "api_key" || audit.Items[0].Target.ID != v.RunID.String() {
		t.Fatalf("audit: %+v %v", audit, err)
	}

	// Another tenant sees nothing of it.
	other := e.NewTenant(t)
	if _, err := e.App.Runs.Get(ctx, other.Key, v.RunID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("foreign key: %v", err)
	}
	if _, err := e.App.Runs.Get(ctx, other.User, v.RunID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("foreign user: %v", err)
	}
	if _, err := e.App.Runs.Get(ctx, e.Tenant.User, v.RunID); err != nil {
		t.Fatalf("own user: %v", err)
	}
	list, err := e.App.Runs.List(ctx, e.Tenant.User, e.Tenant.Project.ID, model.PageInput{})
	if err != nil || len(list.Items) != 1 || list.Items[0].RunID != v.RunID {
		t.Fatalf("list: %+v %v", list, err)
	}
	pv, err := e.App.Runs.Start(ctx, e.Tenant.User, e.Tenant.Project.ID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
	if err != nil || pv.Status != model.RunQueued {
		t.Fatalf("portal start: %+v %v", pv, err)
	}
	if _, err := e.App.Runs.Start(ctx, other.User, e.Tenant.Project.ID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("portal start on a foreign project: %v", err)
	}
}

func TestStartWithoutWorkflowEngineLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs run.Starter
	}{
		{"not configured", nil},
		{"unreachable", &fakeRuns{downErr: errors.New("dial tcp 127.0.0.1:1: connection refused")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := certtest.New(t, certtest.Options{Runs: tc.runs})
			ctx := context.Background()
			_, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2B", IssueDate: "2026-03-15"})
			me := model.AsError(err)
			if me == nil || me.Code != model.CodeUnavailable || strings.Contains(me.Message, "refused") ||
				(tc.runs != nil && me.RetryAfter <= 0) {
				t.Fatalf("error: %v (retry after %v)", err, me.RetryAfter)
			}
			list, err := e.App.Runs.List(ctx, e.Tenant.User, e.Tenant.Project.ID, model.PageInput{})
			if err != nil || len(list.Items) != 0 {
				t.Fatalf("runs left behind: %+v %v", list, err)
			}
			audit, err := e.App.Audit.List(ctx, e.Tenant.User, audit.Input{Action: model.ActionCertificationStart})
			if err != nil || len(audit.Items) != 0 {
				t.Fatalf("audit entries left behind: %+v %v", audit, err)
			}
		})
	}
}

func TestRunViewSettlesAnEndedWorkflow(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs})
	ctx := context.Background()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
	if err != nil {
		t.Fatal(err)
	}
	// Unreachable engine: the stored state as is.
	got, err := e.App.Runs.Get(ctx, e.Tenant.Key, v.RunID)
	if err != nil || got.Status != model.RunQueued {
		t.Fatalf("view: %+v %v", got, err)
	}
	runs.mu.Lock()
	runs.state = &run.State{Status: model.RunFailed, Reason: "the workflow was terminated"}
	runs.mu.Unlock()
	got, err = e.App.Runs.Get(ctx, e.Tenant.Key, v.RunID)
	if err != nil || got.Status != model.RunFailed || got.FailureReason == nil || *got.FailureReason != "the workflow was terminated" || got.FinishedAt == nil {
		t.Fatalf("settled view: %+v %v", got, err)
	}
}

// A workflow records its pass and then completes: a view that read the
// run before the pass was recorded and asked the engine after the
// workflow completed shows the recorded pass, not a run that "completed
// without recording its result".
func TestRunViewReadsAgainWhenTheWorkflowEndedMeanwhile(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs})
	ctx := context.Background()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
	if err != nil {
		t.Fatal(err)
	}
	runs.mu.Lock()
	runs.state = &run.State{Status: model.RunPassed}
	runs.described = func() {
		if _, err := e.Store.Runs().Finish(ctx, v.RunID, model.RunPassed, "", time.Now()); err != nil {
			t.Error(err)
		}
	}
	runs.mu.Unlock()
	got, err := e.App.Runs.Get(ctx, e.Tenant.Key, v.RunID)
	if err != nil || got.Status != model.RunPassed || got.FailureReason != nil {
		t.Fatalf("view: %+v %v", got, err)
	}
}

func TestWatchCertificationRun(t *testing.T) {
	e := certtest.New(t, certtest.Options{Runs: &fakeRuns{}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := e.App.Runs.Watch(ctx, e.Tenant.Key, v.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if first := <-ch; first.Status != model.RunQueued {
		t.Fatalf("first view: %+v", first)
	}
	if err := e.Store.Runs().MarkRunning(ctx, v.RunID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if next := <-ch; next.Status != model.RunRunning {
		t.Fatalf("second view: %+v", next)
	}
	if err := e.Store.Runs().SaveStep(ctx, &model.CertificationStep{RunID: v.RunID, Name: "health", Seq: 1,
		Status: model.StepRunning, Attempts: 1, StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if next := <-ch; len(next.Steps) != 1 || next.Steps[0].Status != model.StepRunning {
		t.Fatalf("step view: %+v", next)
	}
	if _, err := e.Store.Runs().Finish(ctx, v.RunID, model.RunCancelled, "cancelled", time.Now()); err != nil {
		t.Fatal(err)
	}
	last := <-ch
	if last.Status != model.RunCancelled || last.Steps[0].Status != model.StepFailed {
		t.Fatalf("last view: %+v", last)
	}
	if _, open := <-ch; open {
		t.Fatal("the watch goes on after the run ended")
	}
	other := e.NewTenant(t)
	if _, err := e.App.Runs.Watch(ctx, other.Key, v.RunID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("foreign watch: %v", err)
	}
}

// TestStartRecordsTheRunBeforeItsWorkflow: a run refused when recorded
// (over its project's quota) starts no workflow, so no workflow ever runs
// without its record.
func TestStartRecordsTheRunBeforeItsWorkflow(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs, App: func(c *app.Config) { c.Quotas.RunsPerProject = 2 }})
	ctx := context.Background()
	in := run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"}
	for range 2 {
		if _, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, in); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, in); model.ErrorCodeOf(err) != model.CodeRateLimited {
		t.Fatalf("third run: %v", err)
	}
	if len(runs.started) != 2 {
		t.Fatalf("workflows started: %d, want the 2 recorded runs'", len(runs.started))
	}
}

// TestStartOutlivesASlowEngine: a workflow engine that answers the
// reachability check but not the start in time leaves the run recorded
// and queued, answered as accepted (never unavailable); Dispatch starts it
// later, once, under the run's own workflow id.
func TestStartOutlivesASlowEngine(t *testing.T) {
	runs := &fakeRuns{startErr: context.DeadlineExceeded}
	var offset atomic.Int64
	e := certtest.New(t, certtest.Options{Runs: runs, App: func(c *app.Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	}})
	ctx := context.Background()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2B", IssueDate: "2026-03-15"})
	if err != nil || v.Status != model.RunQueued || v.Temporal.WorkflowID != "certification-run-"+v.RunID.String() {
		t.Fatalf("start with a slow engine: %+v %v", v, err)
	}
	r, err := e.Store.Runs().ByID(ctx, v.RunID)
	if err != nil || r.TemporalRunID != "" {
		t.Fatalf("stored run: %+v %v", r, err)
	}
	// Still down: Dispatch leaves it for the next round.
	offset.Store(int64(time.Minute))
	if n, err := e.App.Runs.Dispatch(ctx); n != 0 || err == nil {
		t.Fatalf("dispatch while the engine fails: %d %v", n, err)
	}
	runs.mu.Lock()
	runs.startErr = nil
	runs.mu.Unlock()
	if n, err := e.App.Runs.Dispatch(ctx); n != 1 || err != nil {
		t.Fatalf("dispatch: %d %v", n, err)
	}
	if n, err := e.App.Runs.Dispatch(ctx); n != 0 || err != nil {
		t.Fatalf("second dispatch: %d %v", n, err)
	}
	if len(runs.started) != 1 || runs.started[0].RunID != v.RunID || runs.started[0].OrganizationID != e.Tenant.Project.OrganizationID {
		t.Fatalf("started: %+v", runs.started)
	}
	r, err = e.Store.Runs().ByID(ctx, v.RunID)
	if err != nil || r.TemporalRunID == "" || r.Status != model.RunQueued {
		t.Fatalf("dispatched run: %+v %v", r, err)
	}
}

// TestDispatchFailsARunTheEngineNeverTook: a run that could not be
// started within the hour a run may take ends failed, with the reason.
func TestDispatchFailsARunTheEngineNeverTook(t *testing.T) {
	runs := &fakeRuns{startErr: context.DeadlineExceeded}
	var offset atomic.Int64
	e := certtest.New(t, certtest.Options{Runs: runs, App: func(c *app.Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	}})
	ctx := context.Background()
	v, err := e.App.Runs.Start(ctx, e.Tenant.Key, e.Tenant.Key.ProjectID, run.Input{InvoiceType: "B2C", IssueDate: "2026-03-15"})
	if err != nil {
		t.Fatal(err)
	}
	offset.Store(int64(2 * time.Hour))
	if n, err := e.App.Runs.Dispatch(ctx); n != 1 || err != nil {
		t.Fatalf("dispatch: %d %v", n, err)
	}
	got, err := e.App.Runs.Get(ctx, e.Tenant.Key, v.RunID)
	if err != nil || got.Status != model.RunFailed || got.FailureReason == nil || !strings.Contains(*got.FailureReason, "could not be reached") {
		t.Fatalf("run: %+v %v", got, err)
	}
	if len(runs.started) != 0 {
		t.Fatalf("started: %+v", runs.started)
	}
}

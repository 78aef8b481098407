package worker_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestCancelFromTemporalStopsTheStep cancels a run through the Temporal
// client, as `temporal workflow cancel` does, while its step waits on a slow
// authority call: the step's activity learns it at its next heartbeat and
// stops (the history records its cancellation), the run ends cancelled, and
// no evidence is written after the run's end.
func TestCancelFromTemporalStopsTheStep(t *testing.T) {
	t.Parallel()
	r := newCodecRig(t, certtest.Options{Open: storetest.SQLite, SlowDelay: 20 * time.Second})
	r.startWorker()
	id := r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15","invoice_payload":` + fixture(t, "invoice-b2b-1.1.json", "SBXSLOW"+uuid.NewString()[:4]) + `}`)
	runID := uuid.MustParse(id)
	r.wait(id, time.Minute, func(run map[string]any) bool {
		for _, s := range run["steps"].([]any) {
			st := s.(map[string]any)
			if st["name"] == workflows.StepValidateIRN && st["status"] == "running" {
				return true
			}
		}
		return false
	})
	ctx := context.Background()
	if err := r.c.CancelWorkflow(ctx, workflows.WorkflowID(runID), ""); err != nil {
		t.Fatal(err)
	}
	run := r.wait(id, time.Minute, final)
	if run["status"] != "cancelled" || !strings.Contains(run["failure_reason"].(string), "during step "+workflows.StepValidateIRN) {
		t.Fatalf("run: %v", run)
	}

	// The activity stopped: it answered the cancellation, and only then
	// was the run's end recorded.
	var canceled, finishScheduled int64
	var finishRun string
	h := history(t, r.c, id)
	if err := certtest.Replay(h, certtest.HistoryKey, sdklog.NewStructuredLogger(quiet())); err != nil {
		t.Fatalf("the cancelled run's own history does not replay: %v", err)
	}
	if *updateHistories {
		if err := certtest.WriteHistory(certtest.CancelledHistoryFile(), h); err != nil {
			t.Fatal(err)
		}
	}
	for _, ev := range h.GetEvents() {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			canceled = ev.GetEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			if name := ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName(); name == "FinishRun" {
				finishScheduled, finishRun = ev.GetEventId(), name
			}
		}
	}
	if canceled == 0 || finishScheduled < canceled {
		t.Fatalf("history: activity cancelled at event %d, %s scheduled at event %d", canceled, finishRun, finishScheduled)
	}
	// The run's end is recorded by the workflow's last activity; the
	// workflow closes once that activity has answered.
	d, err := r.c.DescribeWorkflowExecution(ctx, workflows.WorkflowID(runID), "")
	for limit := time.Now().Add(time.Minute); err == nil && d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING && time.Now().Before(limit); {
		time.Sleep(20 * time.Millisecond)
		d, err = r.c.DescribeWorkflowExecution(ctx, workflows.WorkflowID(runID), "")
	}
	if err != nil || d.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED {
		t.Fatalf("workflow: %v %v", d.GetWorkflowExecutionInfo().GetStatus(), err)
	}

	// The step says it was cancelled (the activity's own record, before
	// the end), no later step began, and nothing is dated after the end.
	stored, err := r.e.Store.Runs().ByID(ctx, runID)
	if err != nil || stored.Status != model.RunCancelled || stored.FinishedAt == nil {
		t.Fatalf("stored run: %+v %v", stored, err)
	}
	steps, err := r.e.Store.Runs().Steps(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range steps {
		names = append(names, s.Name)
		if s.Status == model.StepRunning || s.Status == model.StepRetrying || s.FinishedAt == nil ||
			s.FinishedAt.After(*stored.FinishedAt) || s.StartedAt.After(*stored.FinishedAt) {
			t.Errorf("step %s after the run's end (%s): %+v", s.Name, stored.FinishedAt, s)
		}
	}
	last := steps[len(steps)-1]
	if last.Name != workflows.StepValidateIRN || last.Status != model.StepFailed || !strings.HasPrefix(last.Message, "cancelled") ||
		!strings.Contains(last.Message, "(Temporal activity attempt)") {
		t.Fatalf("steps %v; the cancelled step: %+v", names, last)
	}
	if slices.Contains(names, workflows.StepValidateInvoice) {
		t.Fatalf("a step after the cancelled one ran: %v", names)
	}
}

// TestRunsCarrySearchAttributes starts runs of two projects and finds each
// project's runs, and only them, with a visibility query on ProjectId, as
// `temporal workflow list --query "ProjectId='…'"` and the Web UI's filter
// do. The runs also carry their organization, invoice type, environment
// and a memo.
func TestRunsCarrySearchAttributes(t *testing.T) {
	t.Parallel()
	r := newRig(t, certtest.Options{Open: storetest.SQLite})
	other := r.e.NewTenant(t)
	mine := []string{
		r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15"}`),
		r.start(`{"invoice_type":"B2C","issue_date":"2026-03-15"}`),
	}
	code, m := r.do("POST", "/api/v2/certification/nrs/smoke", other, `{"invoice_type":"B2G","issue_date":"2026-03-15"}`)
	if code != 200 {
		t.Fatalf("start: %d %v", code, m)
	}
	theirs := []string{m["run_id"].(string)}
	ctx := context.Background()
	// Registering again changes nothing; a name taken with another type is
	// an error.
	if err := workflows.RegisterSearchAttributes(ctx, r.c, temporalNamespace, workflows.SearchAttributes()...); err != nil {
		t.Fatalf("registering again: %v", err)
	}
	if err := workflows.RegisterSearchAttributes(ctx, r.c, temporalNamespace, temporal.NewSearchAttributeKeyString("ProjectId")); err == nil ||
		!strings.Contains(err.Error(), "ProjectId is Keyword, not Text") {
		t.Fatalf("registering ProjectId as text: %v", err)
	}
	t.Cleanup(func() { // no worker runs them
		for _, id := range append(slices.Clone(mine), theirs...) {
			_ = r.c.TerminateWorkflow(ctx, workflows.WorkflowID(uuid.MustParse(id)), "", "test over")
		}
	})

	list := func(projectID string, want int) []*workflowExecution {
		t.Helper()
		q := fmt.Sprintf("ProjectId='%s'", projectID)
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := r.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: q})
			if err != nil {
				t.Fatalf("list %s: %v", q, err)
			}
			var out []*workflowExecution
			for _, e := range resp.GetExecutions() {
				out = append(out, &workflowExecution{id: e.GetExecution().GetWorkflowId(), sa: e.GetSearchAttributes().GetIndexedFields(),
					memo: e.GetMemo().GetFields()})
			}
			if len(out) >= want || time.Now().After(deadline) { // visibility is eventually consistent
				return out
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	dc := converter.GetDefaultDataConverter()
	for _, tc := range []struct {
		tenant certtest.Tenant
		runs   []string
	}{{r.e.Tenant, mine}, {other, theirs}} {
		got := list(tc.tenant.Project.ID.String(), len(tc.runs))
		var ids, wantIDs []string
		for _, e := range got {
			ids = append(ids, e.id)
			var project, org, env, kind, memoProject, memoRun string
			for name, dst := range map[string]*string{"ProjectId": &project, "OrganizationId": &org, "Environment": &env, "InvoiceType": &kind} {
				if err := dc.FromPayload(e.sa[name], dst); err != nil {
					t.Fatalf("%s of %s: %v", name, e.id, err)
				}
			}
			for name, dst := range map[string]*string{workflows.MemoProjectName: &memoProject, workflows.MemoRunID: &memoRun} {
				if err := dc.FromPayload(e.memo[name], dst); err != nil {
					t.Fatalf("memo %s of %s: %v", name, e.id, err)
				}
			}
			if project != tc.tenant.Project.ID.String() || org != tc.tenant.Project.OrganizationID.String() || env != "sandbox" ||
				(kind != "B2B" && kind != "B2C" && kind != "B2G") || memoProject != tc.tenant.Project.Name ||
				workflows.WorkflowID(uuid.MustParse(memoRun)) != e.id {
				t.Errorf("%s: project %s org %s env %s kind %s memo %s/%s", e.id, project, org, env, kind, memoProject, memoRun)
			}
		}
		for _, id := range tc.runs {
			wantIDs = append(wantIDs, workflows.WorkflowID(uuid.MustParse(id)))
		}
		slices.Sort(ids)
		slices.Sort(wantIDs)
		if !slices.Equal(ids, wantIDs) {
			t.Fatalf("ProjectId='%s' finds %v, want %v", tc.tenant.Project.ID, ids, wantIDs)
		}
	}
}

type workflowExecution struct {
	id   string
	sa   map[string]*commonpb.Payload
	memo map[string]*commonpb.Payload
}

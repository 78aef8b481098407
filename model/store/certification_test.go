package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func TestCertificationRuns(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			u1, _, p1 := seed(t, st, "one")
			u2, _, _ := seed(t, st, "two")
			run := &model.CertificationRun{ID: newID(t), ProjectID: p1.ID, InvoiceType: model.InvoiceKindB2B, IssueDate: "2026-03-15",
				Status: model.RunQueued, InvoicePayload: `{"note":"x"}`, CreatedAt: now()}
			run.WorkflowID = "certification-run-" + run.ID.String()
			if err := st.Runs().Create(ctx, run); err != nil {
				t.Fatal(err)
			}
			if err := st.Runs().SetTemporalID(ctx, run.ID, "temporal-run"); err != nil {
				t.Fatal(err)
			}
			if counts, err := st.Runs().CountByStatus(ctx); err != nil || counts[model.RunQueued] != 1 || len(counts) != 1 {
				t.Fatalf("counts by status: %v %v", counts, err)
			}
			if _, err := st.Runs().GetForUser(ctx, u2.ID, run.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("foreign user: %v", err)
			}
			got, err := st.Runs().GetForUser(ctx, u1.ID, run.ID)
			if err != nil || got.TemporalRunID != "temporal-run" || got.InvoicePayload == "" {
				t.Fatalf("own run: %+v %v", got, err)
			}
			if err := st.Runs().MarkRunning(ctx, newID(t), now()); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("mark unknown run: %v", err)
			}
			for i := 0; i < 2; i++ { // idempotent
				if err := st.Runs().MarkRunning(ctx, run.ID, now()); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Runs().SetPayload(ctx, run.ID, `{"irn":"A-B-C"}`, "INV1-ABCDEFGH-20260315"); err != nil {
				t.Fatal(err)
			}

			// A retried step rewrites its one row; a passed step keeps its evidence.
			status := 503
			step := &model.CertificationStep{RunID: run.ID, Name: "sign", Seq: 7, Status: model.StepRetrying, Attempts: 1, StartedAt: now(), HTTPStatus: &status, Message: "HTTP 503"}
			if err := st.Runs().SaveStep(ctx, step); err != nil {
				t.Fatal(err)
			}
			status2, ms := 201, int64(12)
			fin := now()
			step = &model.CertificationStep{RunID: run.ID, Name: "sign", Seq: 7, Status: model.StepPassed, Attempts: 2, StartedAt: now(),
				FinishedAt: &fin, DurationMS: &ms, HTTPStatus: &status2, Message: "signed"}
			if err := st.Runs().SaveStep(ctx, step); err != nil {
				t.Fatal(err)
			}
			late := &model.CertificationStep{RunID: run.ID, Name: "sign", Seq: 7, Status: model.StepRunning, Attempts: 3, StartedAt: now()}
			if err := st.Runs().SaveStep(ctx, late); err != nil {
				t.Fatal(err)
			}
			open := &model.CertificationStep{RunID: run.ID, Name: "confirm", Seq: 9, Status: model.StepRunning, Attempts: 1, StartedAt: now()}
			if err := st.Runs().SaveStep(ctx, open); err != nil {
				t.Fatal(err)
			}
			steps, err := st.Runs().Steps(ctx, run.ID)
			if err != nil || len(steps) != 2 {
				t.Fatalf("steps: %+v %v", steps, err)
			}
			if s := steps[0]; s.Name != "sign" || s.Status != model.StepPassed || s.Attempts != 2 || *s.HTTPStatus != 201 || *s.DurationMS != 12 {
				t.Fatalf("sign evidence: %+v", s)
			}

			ended, err := st.Runs().Finish(ctx, run.ID, model.RunFailed, "confirm refused", now())
			if err != nil || !ended {
				t.Fatalf("finish: %v %v", ended, err)
			}
			ended, err = st.Runs().Finish(ctx, run.ID, model.RunPassed, "", now().Add(time.Second))
			if err != nil || ended {
				t.Fatalf("second finish must change nothing: %v %v", ended, err)
			}
			got, err = st.Runs().Get(ctx, p1.ID, run.ID)
			if err != nil || got.Status != model.RunFailed || got.FailureReason != "confirm refused" || got.FinishedAt == nil ||
				got.StartedAt == nil || got.IRN != "INV1-ABCDEFGH-20260315" {
				t.Fatalf("finished run: %+v %v", got, err)
			}
			c, err := st.Runs().Step(ctx, run.ID, "confirm")
			if err != nil || c.Status != model.StepFailed || c.FinishedAt == nil {
				t.Fatalf("open step after finish: %+v %v", c, err)
			}
			// A write that comes after the run ended (an activity that
			// outlived the run's cancellation) is refused and changes
			// nothing: neither a step's evidence nor a new step nor the
			// run's payload.
			before, err := st.Runs().Steps(ctx, run.ID)
			if err != nil {
				t.Fatal(err)
			}
			lateFin := now().Add(time.Minute)
			for _, ev := range []*model.CertificationStep{
				{RunID: run.ID, Name: "confirm", Seq: 9, Status: model.StepPassed, Attempts: 2, StartedAt: lateFin, FinishedAt: &lateFin, Message: "late"},
				{RunID: run.ID, Name: "update_paid", Seq: 10, Status: model.StepRunning, Attempts: 1, StartedAt: lateFin},
			} {
				err := st.Runs().SaveStep(ctx, ev)
				if model.ErrorCodeOf(err) != model.CodeConflict || !errors.Is(err, model.ErrRunOver) {
					t.Fatalf("late step %s: %v, want the run-over conflict", ev.Name, err)
				}
			}
			if err := st.Runs().SetPayload(ctx, run.ID, `{"irn":"late"}`, "LATE"); !errors.Is(err, model.ErrRunOver) {
				t.Fatalf("late payload: %v", err)
			}
			after, err := st.Runs().Steps(ctx, run.ID)
			if err != nil || !reflect.DeepEqual(before, after) {
				t.Fatalf("a late write changed the evidence:\n%+v\n%+v (%v)", before, after, err)
			}
			if again, err := st.Runs().Get(ctx, p1.ID, run.ID); err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("a late write changed the run:\n%+v\n%+v (%v)", got, again, err)
			}
			if err := st.Runs().SaveStep(ctx, &model.CertificationStep{RunID: newID(t), Name: "health", Seq: 1,
				Status: model.StepRunning, Attempts: 1, StartedAt: now()}); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("step of an unknown run: %v", err)
			}

			list, more, err := st.Runs().List(ctx, p1.ID, model.Page{Limit: 10})
			if err != nil || more || len(list) != 1 || list[0].ID != run.ID {
				t.Fatalf("list: %v %v %v", list, more, err)
			}
		})
	}
}

func TestSandboxProjects(t *testing.T) {
	st := storetest.SQLite(t)
	ctx := context.Background()
	_, _, p := seed(t, st, "sbx")
	p.Configured = true
	p.BusinessID, p.ServiceID = "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", "ABCDEFGH"
	if err := st.Projects().UpdateAuthority(ctx, p); err != nil {
		t.Fatal(err)
	}
	seed(t, st, "unconfigured")
	got, err := st.Projects().Sandbox(ctx, [16]byte{}, 10)
	if err != nil || len(got) != 1 || got[0].ID != p.ID {
		t.Fatalf("sandbox projects: %v %v", got, err)
	}
	got, err = st.Projects().Sandbox(ctx, p.ID, 10)
	if err != nil || len(got) != 0 {
		t.Fatalf("after the last: %v %v", got, err)
	}
}

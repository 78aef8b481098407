package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	run "github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestReadingARunNeverWritesIt: a run whose workflow ended without
// recording it (terminated) reads as failed, but the read leaves the stored
// run as it was; Settle, the API's background job, records it once the run
// is older than a minute, and a second Settle has nothing left to do.
func TestReadingARunNeverWritesIt(t *testing.T) {
	engine := &fakeRuns{}
	c := &clock{t: time.Now()}
	e := certtest.New(t, certtest.Options{Runs: engine, App: func(cfg *app.Config) { cfg.Now = c.now }})
	ctx := context.Background()
	k := e.Tenant.Key
	v, err := e.App.Runs.Start(ctx, k, k.ProjectID, run.Input{InvoiceType: "B2B", IssueDate: "2026-03-15"})
	if err != nil {
		t.Fatal(err)
	}
	engine.mu.Lock()
	engine.state = &run.State{Status: model.RunFailed, Reason: "the workflow was terminated"}
	engine.mu.Unlock()

	got, err := e.App.Runs.Get(ctx, k, v.RunID)
	if err != nil || got.Status != model.RunFailed {
		t.Fatalf("view: %+v %v", got, err)
	}
	stored, err := e.Store.Runs().ByID(ctx, v.RunID)
	if err != nil || stored.Status != model.RunQueued || stored.FinishedAt != nil {
		t.Fatalf("reading the run wrote it: %+v %v", stored, err)
	}

	if n, err := e.App.Runs.Settle(ctx); err != nil || n != 0 {
		t.Fatalf("a run younger than a minute settled: %d %v", n, err)
	}
	c.advance(2 * time.Minute)
	if n, err := e.App.Runs.Settle(ctx); err != nil || n != 1 {
		t.Fatalf("settled %d runs, want 1: %v", n, err)
	}
	stored, err = e.Store.Runs().ByID(ctx, v.RunID)
	if err != nil || stored.Status != model.RunFailed || stored.FailureReason != "the workflow was terminated" || stored.FinishedAt == nil {
		t.Fatalf("settled run: %+v %v", stored, err)
	}
	if n, err := e.App.Runs.Settle(ctx); err != nil || n != 0 {
		t.Fatalf("settled the run again: %d %v", n, err)
	}
}

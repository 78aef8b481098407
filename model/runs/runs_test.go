package runs_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// engine is a runs.Starter that records starts and fails or is down as told.
type engine struct {
	mu       sync.Mutex
	down     error
	startErr error
	started  []uuid.UUID
}

func (e *engine) StartCertificationRun(_ context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.startErr != nil {
		return runs.Ref{}, e.startErr
	}
	e.started = append(e.started, in.RunID)
	return runs.Ref{WorkflowID: runs.WorkflowID(in.RunID), TemporalRunID: "t-" + in.RunID.String()[:8]}, nil
}

func (e *engine) DescribeCertificationRun(context.Context, uuid.UUID) (*runs.State, error) {
	return nil, errors.New("not described in this test")
}

func (e *engine) AbandonCertificationRun(context.Context, uuid.UUID, string) error { return nil }

func (e *engine) Reachable(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.down
}

func (e *engine) set(down, startErr error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.down, e.startErr = down, startErr
}

func (e *engine) starts() []uuid.UUID {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]uuid.UUID(nil), e.started...)
}

// A run is recorded before its workflow starts (the outbox): when the
// engine refuses the start, the run stays queued and Dispatch starts it
// later, once; when the engine is known to be down, nothing is recorded.
func TestStartIsAnOutbox(t *testing.T) {
	ctx := context.Background()
	eng := &engine{}
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); clock = clock.Add(d) }
	e := certtest.New(t, certtest.Options{Runs: eng, App: func(c *app.Config) { c.Now = now }})
	key, project := e.Tenant.Key, e.Tenant.Project.ID
	in := runs.Input{InvoiceType: "B2B", IssueDate: "2026-03-15"}

	eng.set(errors.New("engine down"), nil)
	if _, err := e.App.Runs.Start(ctx, key, project, in); model.ErrorCodeOf(err) != model.CodeUnavailable {
		t.Fatalf("start while the engine is down: %v, want unavailable", err)
	}
	if list, err := e.App.Runs.List(ctx, key, project, model.PageInput{}); err != nil || len(list.Items) != 0 {
		t.Fatalf("a refused start recorded %v (%v)", list, err)
	}

	eng.set(nil, errors.New("deadline exceeded"))
	v, err := e.App.Runs.Start(ctx, key, project, in)
	if err != nil {
		t.Fatalf("a start the engine did not take is still accepted: %v", err)
	}
	if v.Status != model.RunQueued || len(eng.starts()) != 0 {
		t.Fatalf("run %+v, starts %v; want queued, not started", v, eng.starts())
	}

	eng.set(nil, nil)
	if n, err := e.App.Runs.Dispatch(ctx); err != nil || n != 0 {
		t.Fatalf("Dispatch at once = %d, %v; want the run left to its own start for a while", n, err)
	}
	advance(3 * time.Second)
	n, err := e.App.Runs.Dispatch(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Dispatch = %d, %v; want the one run started", n, err)
	}
	if s := eng.starts(); len(s) != 1 || s[0] != v.RunID {
		t.Fatalf("starts = %v, want %s", s, v.RunID)
	}
	if n, err := e.App.Runs.Dispatch(ctx); err != nil || n != 0 {
		t.Fatalf("second Dispatch = %d, %v; want nothing to start", n, err)
	}
	if len(eng.starts()) != 1 {
		t.Fatalf("a dispatched run started again: %v", eng.starts())
	}

	// Another tenant sees nothing of it.
	other := e.NewTenant(t)
	if _, err := e.App.Runs.Get(ctx, other.Key, v.RunID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("another tenant's key: %v, want not_found", err)
	}
}

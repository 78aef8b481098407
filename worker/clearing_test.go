package worker_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// lostWakes is an engine whose clearing wakes never arrive (a process
// that stopped right after committing, an unreachable Temporal).
type lostWakes struct {
	*workflows.Starter
	dropped *atomic.Int64
}

func (l lostWakes) WakeClearing(uuid.UUID, uuid.UUID, int) { l.dropped.Add(1) }

// TestClearingShardLostWake: invoices accepted with clearing shards but
// whose wakes were lost stay queued, with no workflow, until the sweep
// wakes their shard; then they are cleared, by the shard, and given up.
func TestClearingShardLostWake(t *testing.T) {
	t.Parallel()
	dropped := new(atomic.Int64)
	r := newInvoiceRig(t, certtest.Options{App: func(c *app.Config) {
		c.ClearingShards = 1
		c.Submissions = lostWakes{Starter: c.Submissions.(*workflows.Starter), dropped: dropped}
	}})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	var ids []string
	for i, kind := range model.AllInvoiceKinds {
		code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, kind, "INVWAKE0"+string(rune('1'+i)), nil))
		if err != nil || code != 202 {
			t.Fatalf("submit: %d %v %v", code, m, err)
		}
		ids = append(ids, m["id"].(string))
	}
	if dropped.Load() != int64(len(ids)) {
		t.Fatalf("%d wakes sent, want %d (one per submission)", dropped.Load(), len(ids))
	}
	time.Sleep(time.Second)
	for _, id := range ids {
		r.waitInvoice(tn, id, time.Second, status("queued"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shardID := workflows.ClearingID(tn.Project.ID, 0)
	var nf *serviceerror.NotFound
	if _, err := r.c.DescribeWorkflowExecution(ctx, shardID, ""); !errors.As(err, &nf) {
		t.Fatalf("the shard's workflow runs before any wake: %v", err)
	}

	swept := make(chan struct{})
	go func() {
		defer close(swept)
		workflows.SweepClearing(ctx, r.e.App.SubmissionSteps, workflows.NewStarter(r.c, workflows.StarterOptions{TaskQueue: r.queue, Logger: quiet()}),
			100*time.Millisecond, time.Millisecond)
	}()
	for _, id := range ids {
		inv := r.waitInvoice(tn, id, time.Minute, settled)
		if inv["status"] != "confirmed" {
			t.Fatalf("invoice ended %v", inv)
		}
		if c := r.counts(tn, inv["irn"].(string)); c.Signs != 1 {
			t.Fatalf("%s signed %d times", inv["irn"], c.Signs)
		}
	}
	cancel()
	<-swept
	if _, err := r.c.DescribeWorkflowExecution(context.Background(), shardID, ""); err != nil {
		t.Fatalf("the sweep did not run the shard's workflow: %v", err)
	}
	var owned int
	if err := r.e.Store.DB().NewRaw("SELECT count(*) FROM submitted_invoices WHERE clearing_shard IS NOT NULL").Scan(context.Background(), &owned); err != nil {
		t.Fatal(err)
	}
	if owned != 0 {
		t.Fatalf("%d invoices still owned by their shard", owned)
	}
}

// TestClearingBacklog: while a project's shards hold more invoices than
// the backlog allows, submissions are refused at once with 429 and
// Retry-After and nothing is stored; once the shards clear, they are
// accepted again.
func TestClearingBacklog(t *testing.T) {
	t.Parallel()
	r := newInvoiceRig(t, certtest.Options{App: func(c *app.Config) { c.ClearingShards, c.ClearingBacklog = 1, 2 }})
	tn := r.e.Tenant
	submit := func(ref string) (int, map[string]any) {
		code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2C, ref, nil))
		if err != nil {
			t.Fatal(err)
		}
		return code, m
	}
	var ids []string
	for _, ref := range []string{"INVBL01", "INVBL02", "INVBL03"} {
		code, m := submit(ref)
		if code != 202 {
			t.Fatalf("%s: %d %v, want 202 while the backlog is within its bound", ref, code, m)
		}
		ids = append(ids, m["id"].(string))
	}
	code, m := submit("INVBL04")
	if code != 429 || m["code"] != "rate_limited" {
		t.Fatalf("over the backlog: %d %v, want 429 rate_limited", code, m)
	}
	// A repeat of an accepted invoice is answered as it was, not refused.
	if code, m := submit("INVBL02"); code >= 300 || m["id"] != ids[1] {
		t.Fatalf("a repeat over the backlog: %d %v, want the invoice %s", code, m, ids[1])
	}
	var stored int
	if err := r.e.Store.DB().NewRaw("SELECT count(*) FROM submitted_invoices").Scan(context.Background(), &stored); err != nil {
		t.Fatal(err)
	}
	if stored != 3 {
		t.Fatalf("%d invoices stored, want 3 (the refused one not)", stored)
	}
	r.startInvoiceWorker()
	for _, id := range ids {
		r.waitInvoice(tn, id, time.Minute, status("confirmed"))
	}
	var owned int
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := r.e.Store.DB().NewRaw("SELECT count(*) FROM submitted_invoices WHERE clearing_shard IS NOT NULL").Scan(context.Background(), &owned); err != nil {
			t.Fatal(err)
		}
		if owned == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, m := submit("INVBL04"); code != 202 {
		t.Fatalf("after the shards cleared: %d %v, want 202", code, m)
	}
}

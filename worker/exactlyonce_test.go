package worker_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// exactlyOnceInvoices is how many invoices TestInvoicesExactlyOnce
// submits: 1,000, or 120 under the race detector (which checks the same
// paths for races; `make test` also runs the test without it, over 1,000).
var exactlyOnceInvoices = envInt("EINVOICE_EXACTLY_ONCE_INVOICES", map[bool]int{false: 1000, true: 120}[raceEnabled])

// TestInvoicesExactlyOnce submits 1,000 invoices (see exactlyOnceInvoices) of every kind, an eighth
// of each with the stand-in losing the answer of its first sign, transmit
// (and update) in each way it can (reset connection, late answer, 500
// after committing), some failing with 503 before committing; every
// submission is sent twice by concurrent clients, and the worker is
// stopped and replaced twice while they clear. Every invoice must end
// confirmed, every client must have been told the same invoice, and the
// stand-in must have received exactly one sign request per IRN (and one
// transmit per B2B and B2G IRN).
func TestInvoicesExactlyOnce(t *testing.T) {
	t.Parallel()
	exactlyOnce(t, 0, exactlyOnceInvoices)
}

// TestInvoicesExactlyOnceShards is TestInvoicesExactlyOnce with the
// invoices cleared by two clearing shards per project instead of a
// workflow each: the same faults, duplicates and worker restarts, the
// same assertions; the invoices whose first attempt failed (lost
// answers) are handed to workflows of their own, the others are cleared
// with none, and every shard gives its invoices up.
func TestInvoicesExactlyOnceShards(t *testing.T) {
	t.Parallel()
	exactlyOnce(t, 2, exactlyOnceInvoices/3)
}

func exactlyOnce(t *testing.T, shards, invoices int) {
	open := storetest.SQLite
	if os.Getenv("EINVOICE_EXACTLY_ONCE_PG") != "" {
		open = storetest.Postgres
	}
	r := newInvoiceRig(t, certtest.Options{Open: open, LateDelay: 2 * time.Second,
		Sandbox: func(o *nrssandbox.Options) {
			o.BusinessRate = nrssandbox.RateLimit{Count: -1}
			o.MaxConcurrent = -1
			o.RetryAfter = -1
		},
		App: func(c *app.Config) { c.ClearingShards = shards }})
	stop := r.startInvoiceWorker()
	tn := r.e.Tenant
	began := time.Now()

	type sub struct {
		kind model.InvoiceKind
		ref  string
		body string
		ids  [2]string
	}
	prefixes := []string{nrssandbox.ScenarioLostReset, nrssandbox.ScenarioLostLate, nrssandbox.ScenarioLost5xx,
		nrssandbox.ScenarioRetry + "1", "INV", "INV", "INV", "INV"}
	subs := make([]*sub, invoices)
	for i := range subs {
		kind := model.AllInvoiceKinds[i%3]
		ref := fmt.Sprintf("%sEO%05d", prefixes[i%len(prefixes)], i)
		subs[i] = &sub{kind: kind, ref: ref, body: submitBody(t, tn, kind, ref, nil)}
	}

	// Two clients send every submission, concurrently.
	var (
		wg       sync.WaitGroup
		next     atomic.Int64
		failures = make(chan string, 16)
	)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := int(next.Add(1)) - 1
				if n >= 2*len(subs) {
					return
				}
				s, client := subs[n/2], n%2
				for attempt := 0; ; attempt++ {
					code, m, err := r.call("POST", "/api/v2/invoices", tn, s.body)
					if err == nil && code == 202 {
						s.ids[client] = m["id"].(string)
						break
					}
					// A client retries what asks to be retried: too many
					// requests in flight, or an engine too busy to answer.
					if (code == 429 || code == 503) && attempt < 50 {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					select {
					case failures <- fmt.Sprintf("%s: %d %v %v", s.ref, code, m, err):
					default:
					}
					return
				}
			}
		}()
	}

	// The worker stops twice while the invoices clear.
	restarts := 0
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	reached := func(n int64) bool {
		select {
		case <-done:
			return true
		default:
			return next.Load() >= n
		}
	}
	fracs := []int64{3, 6}
	if os.Getenv("EINVOICE_EXACTLY_ONCE_DEBUG") == "norestart" {
		fracs, restarts = nil, 2
	}
	for _, frac := range fracs {
		for !reached(int64(2*len(subs)) * frac / 10) {
			time.Sleep(20 * time.Millisecond)
		}
		stop()
		restarts++
		time.Sleep(300 * time.Millisecond)
		stop = r.startInvoiceWorker()
	}
	<-done
	t.Logf("%d submissions sent twice in %s", len(subs), time.Since(began).Round(time.Millisecond))
	close(failures)
	for f := range failures {
		t.Fatalf("submission failed: %s", f)
	}

	deadline := time.Now().Add(4 * time.Minute)
	unknown := 0
	for _, s := range subs {
		if s.ids[0] == "" || s.ids[0] != s.ids[1] {
			t.Fatalf("%s: the clients were told different invoices: %v", s.ref, s.ids)
		}
		inv := r.waitInvoice(tn, s.ids[0], time.Until(deadline), settled)
		if inv["status"] != "confirmed" {
			t.Fatalf("%s ended %v", s.ref, inv)
		}
		c := r.counts(tn, inv["irn"].(string))
		wantT := 0
		if s.kind.Transmitted() {
			wantT = 1
		}
		if c.Signs != 1 || c.Transmits != wantT || c.SignRepeats != 0 || c.TransmitRepeats != 0 {
			t.Fatalf("%s (%s): the stand-in signed %d times and transmitted %d times (want 1 and %d), with %d and %d repeats (want none)",
				s.ref, s.kind, c.Signs, c.Transmits, wantT, c.SignRepeats, c.TransmitRepeats)
		}
		if inv["pending_call"] != nil {
			t.Fatalf("%s: still pending %v", s.ref, inv["pending_call"])
		}
		if s.ref[:7] == "SBXLOST" {
			unknown++
		}
	}
	if os.Getenv("EINVOICE_EXACTLY_ONCE_DEBUG") != "" {
		var rows []struct {
			Operation string
			Attempt   int
			Message   string
			N         int
		}
		_ = r.e.Store.DB().NewRaw("SELECT operation, attempt, substr(message,1,120) AS message, count(*) AS n FROM invoice_events WHERE kind='exchange' AND attempt > 1 GROUP BY operation, attempt, substr(message,1,120) ORDER BY n DESC LIMIT 30").Scan(context.Background(), &rows)
		for _, x := range rows {
			t.Logf("%+v", x)
		}
		for _, i := range []int{4, len(subs) / 2, len(subs) - 4} {
			for _, e := range r.events(tn, subs[i].ids[0]) {
				t.Logf("%s %v %v %v %v", subs[i].ref, e["created_at"], e["kind"], e["to_status"], e["operation"])
			}
		}
	}
	t.Logf("%d invoices confirmed in %s, %d restarts", len(subs), time.Since(began).Round(time.Millisecond), restarts)
	if restarts != 2 || unknown < invoices*3/8-3 {
		t.Fatalf("the run did not exercise what it claims: %d restarts, %d invoices with lost answers", restarts, unknown)
	}
	if shards > 0 {
		checkShardsCleared(t, r, invoices)
	}
}

// checkShardsCleared checks that the clearing shards gave every invoice
// up, and that a share of them was cleared with no workflow of its own
// while those with lost answers were handed to one.
func checkShardsCleared(t *testing.T, r *rig, invoices int) {
	t.Helper()
	ctx := context.Background()
	var rows []struct {
		IRN           string `bun:"irn"`
		WorkflowID    string `bun:"workflow_id"`
		ClearingShard *int   `bun:"clearing_shard"`
	}
	if err := r.e.Store.DB().NewRaw("SELECT irn, workflow_id, clearing_shard FROM submitted_invoices").Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != invoices {
		t.Fatalf("%d invoices recorded, want %d", len(rows), invoices)
	}
	own := 0
	for _, row := range rows {
		if row.ClearingShard != nil {
			t.Fatalf("%s: still owned by clearing shard %d", row.IRN, *row.ClearingShard)
		}
		_, err := r.c.DescribeWorkflowExecution(ctx, row.WorkflowID, "")
		var nf *serviceerror.NotFound
		switch {
		case err == nil:
			own++
		case !errors.As(err, &nf):
			t.Fatal(err)
		}
	}
	t.Logf("%d of %d invoices were handed to workflows of their own", own, invoices)
	if own == 0 || own == invoices {
		t.Fatalf("%d of %d invoices had workflows of their own: want some (the lost answers), not all", own, invoices)
	}
}

// envInt reads a positive integer from the environment, else def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

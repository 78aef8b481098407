package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// outageInvoices is how many invoices TestInvoicesOutage submits during
// the outage: 300, or 60 under the race detector; EINVOICE_OUTAGE_INVOICES
// sets it (2,000 for the full-size run).
var outageInvoices = envInt("EINVOICE_OUTAGE_INVOICES", map[bool]int{false: 300, true: 60}[raceEnabled])

// clock is a controlled clock: real time plus an offset the test moves,
// shared by the application, the stand-in's faults and the breakers.
type clock struct{ off atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) Advance(d time.Duration) { c.off.Add(int64(d)) }

// countingTransport counts the requests that leave for the stand-in, and
// those sent while the breaker of their endpoint was not closed (probes).
type countingTransport struct {
	base     http.RoundTripper
	breakers func() *mbs.Breakers
	sent     atomic.Int64
	open     atomic.Int64
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.sent.Add(1)
	for _, s := range t.breakers().Snapshot() {
		if s.State != mbs.BreakerClosed {
			t.open.Add(1)
			break
		}
	}
	return t.base.RoundTrip(r)
}

// TestInvoicesOutage submits invoices (outageInvoices) during a six-hour
// outage of the stand-in, on a controlled clock: every one is accepted
// (202) and stays queued; nothing but the breakers' probes reaches the
// stand-in while they are open; the worker (with fresh breakers) and the
// API are replaced during the outage; the invoices that cannot make their
// deadline are flagged at risk before it passes and missed after; once
// the outage ends every invoice is confirmed, signed exactly once, in
// deadline order within the drain's pace.
func TestInvoicesOutage(t *testing.T) {
	clk := &clock{}
	const rate = 12000 // a minute: 200 a tick of the drain
	openStore := storetest.SQLite
	if os.Getenv("EINVOICE_OUTAGE_PG") != "" {
		openStore = storetest.Postgres
	}
	r := newInvoiceRig(t, certtest.Options{
		Open: openStore,
		Sandbox: func(o *nrssandbox.Options) {
			o.Now = clk.Now
			o.BusinessRate = nrssandbox.RateLimit{Count: -1}
			o.MaxConcurrent = -1
		},
		App: func(c *app.Config) { c.Now = clk.Now; c.QueueRatePerMinute = rate },
	})
	// The invoices keep the default fallback wait (ten minutes, longer than
	// the test's run of the outage): a drain that ends as invoices begin to
	// wait is woken or started again by them, not by the fallback.
	// Calls are bounded by the tests' short timeout (700 ms), but at the
	// full size on shared cores a call can take longer: a timeout there
	// counts as NRS failing, opens a breaker after the outage and sends
	// invoices back to the queue out of their order.
	callTimeout := invoiceCallTimeout
	if outageInvoices > 300 {
		callTimeout = 5 * time.Second
	}
	// MaxProbeWait is package-level: the test does not call t.Parallel.
	prevProbe := workflows.MaxProbeWait
	workflows.MaxProbeWait = 50 * time.Millisecond
	t.Cleanup(func() { workflows.MaxProbeWait = prevProbe })

	var (
		mu       sync.Mutex
		breakers *mbs.Breakers
		probes   atomic.Int64
		// reopened counts the breakers opening after the outage (calls
		// timing out on a loaded machine).
		reopened   atomic.Int64
		recovering atomic.Bool
		// opened says the current breakers (not a stopped worker's, whose
		// last calls may still end) have opened.
		opened *atomic.Bool
	)
	current := func() *mbs.Breakers { mu.Lock(); defer mu.Unlock(); return breakers }
	currentOpened := func() bool { mu.Lock(); defer mu.Unlock(); return opened.Load() }
	tr := &countingTransport{base: http.DefaultTransport, breakers: current}
	start := func() func() {
		o := new(atomic.Bool)
		b := mbs.NewBreakers(mbs.BreakerOptions{Now: clk.Now, OnChange: func(_ string, _ mbs.Operation, _, to mbs.BreakerState) {
			switch to {
			case mbs.BreakerHalfOpen:
				probes.Add(1)
			case mbs.BreakerOpen:
				o.Store(true)
				if recovering.Load() {
					reopened.Add(1)
				}
			}
		}})
		mu.Lock()
		breakers, opened = b, o
		mu.Unlock()
		build := func(c *authority.Credentials) (*mbs.Client, error) {
			return mbs.New(mbs.Config{BaseURL: c.BaseURL, APIKey: c.APIKey, APISecret: c.APISecret,
				HTTPClient: &http.Client{Transport: tr}, Timeout: callTimeout, UserAgent: "einvoice-test",
				Retry: mbs.RetryPolicy{MaxAttempts: 1}, Environment: string(c.Environment), Breakers: b})
		}
		w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Submissions: r.e.App.SubmissionSteps, TaskQueue: r.queue,
			Logger: quiet(), SubmissionMBS: build, SubmissionCallTimeout: callTimeout, Breakers: b})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		var once atomic.Bool
		stop := func() {
			if once.CompareAndSwap(false, true) {
				w.Stop()
			}
		}
		t.Cleanup(stop)
		return stop
	}
	stop := start()
	tn := r.e.Tenant
	ctx := context.Background()
	biz := *tn.Project.Authority.BusinessID

	// B2B and B2G invoices have 8 hours; B2C ones 24 hours after their
	// issue, spread over the last day, so that some fall in the outage.
	mins := 480
	if _, err := r.e.App.Portal.UpdateProject(ctx, tn.User, tn.Project.ID, portal.ProjectUpdate{ClearanceDeadlineMinutes: &mins}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.e.Sandbox.SetSandboxFault(ctx, biz, nrssandbox.Fault{Kind: model.SandboxFaultOutage, Duration: "6h", RetryAfter: 30}); err != nil {
		t.Fatal(err)
	}
	began := clk.Now()
	lagos := time.FixedZone("WAT", 3600)

	n := outageInvoices
	ids := make([]string, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	fail := make(chan string, 1)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				kind := model.AllInvoiceKinds[i%3]
				body := submitBody(t, tn, kind, fmt.Sprintf("OUT%05d", i), func(doc map[string]any) {
					// Issued between 23 hours and a minute before the outage
					// began: B2C deadlines fall from one to 24 hours after it.
					at := began.In(lagos).Add(-time.Duration(i%23) * time.Hour).Add(-time.Minute)
					doc["issue_date"], doc["issue_time"] = at.Format("2006-01-02"), at.Format("15:04:05")
				})
				code, m, err := r.call("POST", "/api/v2/invoices", tn, body)
				// A client retries what asks to be retried (too many in
				// flight, a database or engine too busy to answer).
				for attempt := 0; err == nil && (code == 429 || code == 503) && attempt < 50; attempt++ {
					time.Sleep(50 * time.Millisecond)
					code, m, err = r.call("POST", "/api/v2/invoices", tn, body)
				}
				if err != nil || code != 202 {
					select {
					case fail <- fmt.Sprintf("invoice %d: %d %v %v", i, code, m, err):
					default:
					}
					return
				}
				ids[i] = m["id"].(string)
			}
		}()
	}
	// The worker is replaced, with fresh breakers, halfway through.
	for next.Load() < int64(n/2) {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	start()
	wg.Wait()
	close(fail)
	if f, ok := <-fail; ok {
		t.Fatal(f)
	}
	// The API is replaced: a new handler over the same application.
	r.e.Handler = rest.New(r.e.App, rest.Options{Version: "test", Logger: quiet()})

	invoices := func() []model.SubmittedInvoice {
		var out []model.SubmittedInvoice
		if err := r.e.Store.DB().NewSelect().Model(&out).ExcludeColumn("payload").
			Where("project_id = ?", tn.Project.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		return out
	}

	// Six hours pass in steps of ten minutes, under the at-risk margin:
	// after each step, every queued invoice within the margin of its
	// deadline is flagged before the clock moves on.
	// The fresh worker's breakers open after their failures.
	// (Seen by their changes: under load the drain may not probe at once
	// when their first wait ends, so the state alone may show half-open.)
	for limit := time.Now().Add(30 * time.Second); !currentOpened(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(limit) {
			t.Fatalf("no breaker opened during the outage: %+v", current().Snapshot())
		}
	}
	// A step waits for the drain (its pass, the probe) and for the flags;
	// the first waits too for the invoices' workflows still taking their
	// first steps after the submissions, which grows with their number.
	stepWait := 30*time.Second + time.Duration(n)*30*time.Millisecond
	// Calls admitted before the breakers opened may still be on their
	// way (many at full size): they are not the outage's; count
	// from when no invoice is between its workflow's start and its return
	// to the queue (a call admitted before the breaker opened can leave
	// late on a loaded machine), and no request has left for a call's
	// timeout.
	for limit := time.Now().Add(stepWait); ; time.Sleep(20 * time.Millisecond) {
		submitting := 0
		for _, inv := range invoices() {
			if inv.Status == model.InvoiceSubmitting {
				submitting++
			}
		}
		if submitting == 0 {
			break
		}
		if time.Now().After(limit) {
			t.Fatalf("%d invoices still submitting %s after the breakers opened", submitting, stepWait)
		}
	}
	for prev := int64(-1); prev != tr.sent.Load(); {
		prev = tr.sent.Load()
		time.Sleep(callTimeout + 100*time.Millisecond)
	}
	sentBefore, openBefore, probesBefore := tr.sent.Load(), tr.open.Load(), probes.Load()
	steps := int64(0)
	// What reached the stand-in while it was down: counted up to the step
	// of the clock that ends the outage. That step's probe succeeds, the
	// breakers close and the queue starts clearing at once: those calls
	// are the recovery's, however many leave before the counters are read.
	duringOutage, outageSteps := int64(-1), int64(0)
	var open, admitted int64
	stepping, slowest, probeWait := time.Now(), time.Duration(0), time.Duration(0)
	for clk.Now().Before(began.Add(6*time.Hour + time.Minute)) {
		stepBegan := time.Now()
		if duringOutage < 0 && !clk.Now().Add(10*time.Minute).Before(began.Add(6*time.Hour)) {
			duringOutage, outageSteps = tr.sent.Load()-sentBefore, steps
			open, admitted = tr.open.Load()-openBefore, probes.Load()-probesBefore
		}
		// The breakers' wait (at most five minutes) passes: the drain's
		// next pass flags the deadlines, then probes.
		admitted := tr.sent.Load()
		clk.Advance(10 * time.Minute)
		steps++
		limit := time.Now().Add(stepWait)
		reopened := func() bool {
			for _, s := range current().Snapshot() {
				if s.State == mbs.BreakerOpen {
					return true
				}
			}
			return false
		}
		// The probe was sent and failed: the breaker is open again (until
		// the outage ends).
		over := !clk.Now().Before(began.Add(6 * time.Hour))
		for tr.sent.Load() == admitted || !over && !reopened() {
			if time.Now().After(limit) {
				d, err := r.c.DescribeWorkflowExecution(ctx, workflows.QueueDrainID(tn.Project.ID), "")
				inv := invoices()[0]
				hist := r.c.GetWorkflowHistory(ctx, workflows.QueueDrainID(tn.Project.ID), "", false, 0)
				var evs []string
				for hist.HasNext() {
					e, _ := hist.Next()
					evs = append(evs, e.GetEventType().String())
					if m := e.GetMarkerRecordedEventAttributes(); m != nil {
						evs = append(evs, fmt.Sprint(m.GetFailure(), string(m.GetDetails()["data"].GetPayloads()[0].GetData())))
					}
					if len(evs) > 60 {
						evs = evs[20:]
					}
				}
				t.Fatalf("the drain did not probe within %s of the breakers' wait: sent %d, breakers %+v, now %s; %v %v; %s %s %v", stepWait, tr.sent.Load(), current().Snapshot(), clk.Now(), d.GetWorkflowExecutionInfo().GetStatus(), err, inv.IRN, inv.Status, evs[max(0, len(evs)-4):])
			}
			time.Sleep(5 * time.Millisecond)
		}
		probeWait += time.Since(stepBegan)
		for {
			pending := 0
			for _, inv := range invoices() {
				if inv.Status == model.InvoiceConfirmed {
					if clk.Now().Before(began.Add(6 * time.Hour)) {
						t.Fatalf("%s was confirmed during the outage", inv.IRN)
					}
					continue
				}
				if inv.DeadlineAt.Before(clk.Now().Add(30*time.Minute)) && !inv.DeadlineAtRisk {
					pending++
				}
			}
			if pending == 0 {
				break
			}
			if time.Now().After(limit) {
				t.Fatalf("%d invoices near their deadline are not flagged at risk", pending)
			}
			time.Sleep(50 * time.Millisecond)
		}
		slowest = max(slowest, time.Since(stepBegan))
	}
	t.Logf("%d steps of the clock in %s of real time (%s a step on average, %s waiting for the probe; the slowest %s)",
		steps, time.Since(stepping).Round(time.Millisecond), (time.Since(stepping) / time.Duration(steps)).Round(time.Millisecond),
		(probeWait / time.Duration(steps)).Round(time.Millisecond), slowest.Round(time.Millisecond))
	// The breakers' last wait (at most five minutes) ends: they probe.
	clk.Advance(6 * time.Minute)
	t.Logf("outage: %d requests reached the stand-in in its %d steps after the submissions (%d while a breaker was not closed), %d probes admitted; %d requests before",
		duringOutage, outageSteps, open, admitted, sentBefore)
	// Each step of the clock lets the open breaker probe once (it only
	// ever opens for irn_validate, the drain's probe): nothing else may
	// reach the stand-in.
	if duringOutage < 0 || duringOutage > outageSteps+int64(mbs.DefaultBreakerFailures) {
		t.Fatalf("%d requests were sent during the outage (%d while a breaker was open or probing, %d probes) for %d openings of the breaker",
			duringOutage, open, admitted, outageSteps)
	}

	// NRS answers again: everything clears.
	recovered := clk.Now()
	recovering.Store(true)
	// Clearing takes each invoice's calls and steps: a bound that grows
	// with their number (2,000 on the two shared cores: minutes).
	clearWait := 3*time.Minute + time.Duration(n)*200*time.Millisecond
	limit := time.Now().Add(clearWait)
	clearing := time.Now()
	for {
		left := 0
		for _, inv := range invoices() {
			if !inv.Status.Final() {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(limit) {
			t.Fatalf("%d invoices not cleared within %s of the outage's end", left, clearWait)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cleared := time.Since(clearing)
	all := invoices()
	if len(all) != n {
		t.Fatalf("%d invoices stored, want %d", len(all), n)
	}
	missed := 0
	for _, inv := range all {
		if inv.Status != model.InvoiceConfirmed {
			t.Fatalf("%s ended %s", inv.IRN, inv.Status)
		}
		c := r.counts(tn, inv.IRN)
		if c.Signs != 1 || c.SignRepeats != 0 {
			t.Fatalf("%s: signed %d times (%d repeats), want once", inv.IRN, c.Signs, c.SignRepeats)
		}
		if inv.DeadlineAt.Before(recovered) {
			missed++
			if !inv.DeadlineMissed || !inv.DeadlineAtRisk {
				t.Fatalf("%s: deadline %s passed in the outage, yet at risk %v, missed %v", inv.IRN, inv.DeadlineAt, inv.DeadlineAtRisk, inv.DeadlineMissed)
			}
			flagged := deadlineEventAt(t, r.e.Store, inv, "deadline at risk")
			if !flagged.Before(inv.DeadlineAt) {
				t.Fatalf("%s: flagged at risk at %s, not before its deadline %s", inv.IRN, flagged, inv.DeadlineAt)
			}
		}
	}
	if missed == 0 || missed == n {
		t.Fatalf("%d of %d invoices missed their deadline: the test needs some of each", missed, n)
	}
	// Sent in deadline order, within the drain's pace: an invoice's rank by
	// the time it first left the queue after the outage (queued to
	// submitting, when the drain's release reached it) is within two ticks'
	// releases (and the workers' concurrency) of its rank by deadline. (Not
	// the order of confirmation: when the drain releases faster than the
	// workers clear, as here, invoices released together finish in any
	// order; and one whose call timed out on a loaded machine goes back to
	// the queue and is released again later, by design.)
	var left []model.InvoiceEvent
	if err := r.e.Store.DB().NewSelect().Model(&left).Column("invoice_id", "created_at").
		Where("project_id = ?", tn.Project.ID).Where("kind = ?", model.EventState).
		Where("from_status = ?", model.InvoiceQueued).Where("to_status = ?", model.InvoiceSubmitting).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	leftAt := map[string]time.Time{}
	for _, e := range left {
		k := e.InvoiceID.String()
		if at, ok := leftAt[k]; !e.CreatedAt.Before(recovered) && (!ok || e.CreatedAt.Before(at)) {
			leftAt[k] = e.CreatedAt
		}
	}
	byDeadline := append([]model.SubmittedInvoice(nil), all...)
	sort.SliceStable(byDeadline, func(i, j int) bool { return byDeadline[i].DeadlineAt.Before(byDeadline[j].DeadlineAt) })
	// One that did not leave the queue after the outage was already out
	// of it (its step waiting on a breaker's refusal): it goes first.
	for _, inv := range all {
		if _, ok := leftAt[inv.ID.String()]; !ok {
			leftAt[inv.ID.String()] = recovered
		}
	}
	bySend := append([]model.SubmittedInvoice(nil), all...)
	sort.SliceStable(bySend, func(i, j int) bool { return leftAt[bySend[i].ID.String()].Before(leftAt[bySend[j].ID.String()]) })
	rank := map[string]int{}
	for i, inv := range bySend {
		rank[inv.IRN] = i
	}
	// Beyond 300 invoices the drain (200 a tick) outruns the workers on
	// shared cores: the invoices released in the last few ticks wait for a
	// workflow task slot and begin in the workers' order, not the drain's,
	// so the window grows by a fifth of the invoices (2,000: 900).
	window := 2*rate/60 + 100
	if n > 300 {
		window += n / 5
	}
	worst := 0
	for i, inv := range byDeadline {
		d := rank[inv.IRN] - i
		worst = max(worst, d, -d)
		if d > window || d < -window {
			t.Fatalf("%s: sent %d-th, but %d-th by deadline (window %d)", inv.IRN, rank[inv.IRN], i, window)
		}
	}
	t.Logf("sent in deadline order within %d places (window %d)", worst, window)
	t.Logf("breakers opened %d times after the outage", reopened.Load())
	t.Logf("%d invoices cleared after the outage in %s (%.1f invoices/s); %d missed their deadline", n, cleared.Round(time.Millisecond), float64(n)/cleared.Seconds(), missed)
}

// deadlineEventAt is when an invoice's log recorded a deadline entry whose
// message starts with prefix.
func deadlineEventAt(t *testing.T, st *store.Store, inv model.SubmittedInvoice, prefix string) time.Time {
	t.Helper()
	var evs []model.InvoiceEvent
	if err := st.DB().NewSelect().Model(&evs).Where("invoice_id = ?", inv.ID).Where("kind = ?", model.EventState).
		OrderExpr("seq").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if len(e.Message) >= len(prefix) && e.Message[:len(prefix)] == prefix {
			return e.CreatedAt
		}
	}
	b, _ := json.Marshal(evs)
	t.Fatalf("%s: no %q entry: %s", inv.IRN, prefix, b)
	return time.Time{}
}

// TestInvoicesThrottled: NRS answers irn/validate with 429 and
// Retry-After past a small allowance; the invoices that meet it go back to
// the queue, and once the throttle ends the drain sends them as the pace
// allows: every invoice is
// confirmed, signed once, and none is rejected or left unknown.
func TestInvoicesThrottled(t *testing.T) {
	r := newInvoiceRig(t, certtest.Options{Sandbox: func(o *nrssandbox.Options) {
		o.BusinessRate = nrssandbox.RateLimit{Count: -1}
		o.MaxConcurrent = -1
	}})
	// MaxProbeWait is package-level: the test does not call t.Parallel.
	prevProbe := workflows.MaxProbeWait
	workflows.MaxProbeWait = 200 * time.Millisecond
	t.Cleanup(func() { workflows.MaxProbeWait = prevProbe })
	b := mbs.NewBreakers(mbs.BreakerOptions{})
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Submissions: r.e.App.SubmissionSteps, TaskQueue: r.queue,
		Logger: quiet(), SubmissionMBS: workflows.SubmissionClientsWith(egress.Policy{}, invoiceCallTimeout, b),
		SubmissionCallTimeout: invoiceCallTimeout, Breakers: b})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	tn := r.e.Tenant
	// An allowance of 4 an hour: however slowly the invoices arrive, at
	// least 20 of the 24 meet a 429. The throttle ends once invoices are
	// seen back in the queue, and the drain sends them.
	biz := *tn.Project.Authority.BusinessID
	if _, err := r.e.Sandbox.SetSandboxFault(context.Background(), biz, nrssandbox.Fault{
		Kind: model.SandboxFaultThrottle, Endpoint: "irn_validate", Rate: "4/h", RetryAfter: 1, Duration: "1h"}); err != nil {
		t.Fatal(err)
	}
	const n = 24
	ids := make([]string, n)
	for i := range ids {
		code, m, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.AllInvoiceKinds[i%3], fmt.Sprintf("THR%03d", i), nil))
		if err != nil || code != 202 {
			t.Fatalf("submit %d: %d %v %v", i, code, m, err)
		}
		ids[i] = m["id"].(string)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; {
		back := 0
		for _, id := range ids {
			for _, e := range r.events(tn, id) {
				if e["to_status"] == "queued" && e["from_status"] == "submitting" {
					back++
					break
				}
			}
		}
		if back >= n-4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes only %d of %d invoices were sent back to the queue by the throttle", back, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if cleared, err := r.e.Sandbox.ClearSandboxFaults(context.Background(), biz, model.SandboxFaultThrottle, "irn_validate"); err != nil || cleared != 1 {
		t.Fatalf("ending the throttle: %d %v", cleared, err)
	}
	throttled, requeued := 0, 0
	for _, id := range ids {
		inv := r.waitInvoice(tn, id, 2*time.Minute, settled)
		if inv["status"] != "confirmed" {
			t.Fatalf("%s ended %v", id, inv)
		}
		if c := r.counts(tn, inv["irn"].(string)); c.Signs != 1 || c.SignRepeats != 0 {
			t.Fatalf("%s: signed %d times, %d repeats", id, c.Signs, c.SignRepeats)
		}
		for _, e := range r.events(tn, id) {
			if s, _ := e["http_status"].(float64); s == 429 {
				throttled++
			}
			if e["to_status"] == "queued" && e["from_status"] == "submitting" {
				requeued++
			}
			if e["to_status"] == "outcome_unknown" || e["to_status"] == "rejected" {
				t.Fatalf("%s: %v", id, e)
			}
		}
	}
	if throttled == 0 || requeued == 0 {
		t.Fatalf("the throttle never held an invoice back (%d answers of 429, %d invoices back in the queue)", throttled, requeued)
	}
	t.Logf("%d answers of 429; %d times an invoice went back to the queue", throttled, requeued)
}
